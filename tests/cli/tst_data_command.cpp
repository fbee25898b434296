// `trainstudio-cli data check` (the real binary) on small generated IDX files with a planted
// duplicate and a planted train/test leak: the human table and --json name them (and, for an
// image folder, both files of each pair), a second run
// reuses the stored check, --force checks again; data that cannot be opened exits 1 with the
// reader's message naming the file; the help lists the command.
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include "child_process.h"

namespace {

using Result = ts::test::ProcessResult;

QByteArray be32(quint32 v)
{
    QByteArray b;
    for (int s = 24; s >= 0; s -= 8) b.append(char((v >> s) & 0xff));
    return b;
}

// n 8 x 8 images, image i a pattern of seeds[i] (equal seeds: equal images), labels i % 10
// unless given.
void writeIdx(const QString& dir, const QString& prefix, const QList<int>& seeds, const QList<int>& given = {})
{
    QByteArray images = be32(0x803) + be32(quint32(seeds.size())) + be32(8) + be32(8);
    QByteArray labels = be32(0x801) + be32(quint32(seeds.size()));
    for (int i = 0; i < seeds.size(); ++i) {
        quint32 x = quint32(seeds[i]) * 2654435761u + 12345u;
        for (int p = 0; p < 64; ++p) {
            x = x * 1664525u + 1013904223u;
            images.append(char(x >> 24));
        }
        labels.append(char(given.isEmpty() ? i % 10 : given[i]));
    }
    QFile f(dir + "/" + prefix + "-images-idx3-ubyte");
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(images);
    QFile l(dir + "/" + prefix + "-labels-idx1-ubyte");
    QVERIFY(l.open(QIODevice::WriteOnly));
    l.write(labels);
}

}  // namespace

class TestDataCommand : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QProcessEnvironment env_;
    QString experiment_;

    Result cli(const QStringList& args) { return ts::test::runProcess(TS_CLI_EXE, args, env_, 60000); }

    QString writeExperiment(const QString& name, const QString& dataPath)
    {
        const QString path = dir_.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
        f.write(QStringLiteral("name: check\ndataset: {format: idx, path: %1}\nmodel:\n  layers:\n    - Flatten\n"
                               "    - Linear: {out_features: 10}\n    - CrossEntropy\ntraining: {epochs: 1}\n")
                    .arg(dataPath)
                    .toUtf8());
        return path;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        env_ = ts::test::scratchCliEnvironment(dir_.filePath("home"));
        QDir().mkpath(dir_.filePath("data"));
        QList<int> train, test;
        for (int i = 0; i < 100; ++i) train << i;
        for (int i = 500; i < 520; ++i) test << i;
        train << 3;  // train 100 = train 3
        test << 42;  // test 20 = train 42
        writeIdx(dir_.filePath("data"), "train", train);
        writeIdx(dir_.filePath("data"), "t10k", test);
        experiment_ = writeExperiment("check.yaml", dir_.filePath("data"));
    }

    void humanAndJson()
    {
        const QString ws = dir_.filePath("ws");
        Result r = cli({"data", "check", experiment_, "--workspace", ws});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("new check"), qPrintable(r.out));
        // Each side of a pair with where the reader says it comes from (the IDX file and image).
        const QString images = dir_.filePath("data/");
        QVERIFY2(r.out.contains(QString("exact_leak             test 20 (%1t10k-images-idx3-ubyte, image 20) = train 42 "
                                        "(%1train-images-idx3-ubyte, image 42)").arg(images)),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QString("exact_duplicate        train 100 (%1train-images-idx3-ubyte, image 100) = train 3 ").arg(images)),
                 qPrintable(r.out));
        QVERIFY(r.out.contains("class balance"));

        r = cli({"data", "check", experiment_, "--workspace", ws, "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QVERIFY2(!o.isEmpty(), qPrintable(r.out));
        QCOMPARE(o["reused"].toBool(), true);  // the files are unchanged
        QCOMPARE(o["near_threshold"].toInt(), 4);
        QCOMPARE(o["splits"].toArray().size(), 2);
        QCOMPARE(o["splits"].toArray()[0].toObject()["samples"].toInt(), 101);
        QMap<QString, int> counts;
        for (const auto& c : o["counts"].toArray()) counts[c.toObject()["kind"].toString()] += c.toObject()["count"].toInt();
        QCOMPARE(counts.value("exact_leak"), 1);
        QCOMPARE(counts.value("exact_duplicate"), 1);
        bool leak = false;
        for (const auto& f : o["findings"].toArray()) {
            const QJsonObject x = f.toObject();
            if (x["kind"].toString() == "exact_leak")
                leak = x["split"].toString() == "test" && x["sample"].toInt() == 20 && x["other_split"].toString() == "train" &&
                       x["other_sample"].toInt() == 42;
        }
        QVERIFY(leak);
        const int id = o["check_id"].toInt();

        r = cli({"data", "check", experiment_, "--workspace", ws, "--json", "--force"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject forced = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(forced["reused"].toBool(), false);
        QVERIFY(forced["check_id"].toInt() > id);
    }

    // An image folder's duplicate and leak name both files in --json (`file`, `other_file`),
    // as unreadable samples name theirs.
    void imageFolderPairsNameTheirFiles()
    {
        const QString root = dir_.filePath("folder");
        auto png = [&](const QString& path, int seed) {
            QDir().mkpath(QFileInfo(path).path());
            QImage image(8, 8, QImage::Format_Grayscale8);
            quint32 x = quint32(seed) * 2654435761u + 7u;
            for (int y = 0; y < 8; ++y)
                for (int c = 0; c < 8; ++c) {
                    x = x * 1664525u + 1013904223u;
                    image.scanLine(y)[c] = uchar(x >> 24);
                }
            QVERIFY(image.save(path));
        };
        for (int i = 0; i < 6; ++i) png(root + QString("/train/%1/img%2.png").arg(i % 2 ? "b" : "a").arg(i), i);
        png(root + "/train/a/zcopy.png", 2);  // = train/a/img2.png, listed after it
        png(root + "/test/a/t0.png", 100);
        png(root + "/test/b/leak.png", 3);  // = train/b/img3.png
        const QString experiment = dir_.filePath("folder.yaml");
        QFile f(experiment);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QString("name: folder\ndataset: {format: image_folder, path: %1, image_shape: [1, 8, 8]}\nmodel:\n  layers:\n"
                        "    - Flatten\n    - Linear: {out_features: 2}\n    - CrossEntropy\n").arg(root).toUtf8());
        f.close();
        const Result r = cli({"data", "check", experiment, "--workspace", dir_.filePath("ws_folder"), "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QMap<QString, QPair<QString, QString>> files;  // kind -> (file, other_file), by file name
        for (const auto& x : QJsonDocument::fromJson(r.out.toUtf8()).object()["findings"].toArray()) {
            const QJsonObject o = x.toObject();
            files[o["kind"].toString()] = {QFileInfo(o["file"].toString()).filePath().remove(root + "/"),
                                           QFileInfo(o["other_file"].toString()).filePath().remove(root + "/")};
        }
        QCOMPARE(files.value("exact_duplicate"), qMakePair(QString("train/a/zcopy.png"), QString("train/a/img2.png")));
        QCOMPARE(files.value("exact_leak"), qMakePair(QString("test/b/leak.png"), QString("train/b/img3.png")));
    }

    void unreadableDataFails()
    {
        const QString missing = writeExperiment("missing.yaml", dir_.filePath("nowhere"));
        Result r = cli({"data", "check", missing, "--workspace", dir_.filePath("ws")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(dir_.filePath("nowhere")), qPrintable(r.err));

        QDir().mkpath(dir_.filePath("cut"));
        QList<int> seeds;
        for (int i = 0; i < 10; ++i) seeds << i;
        writeIdx(dir_.filePath("cut"), "train", seeds);
        QFile::resize(dir_.filePath("cut/train-images-idx3-ubyte"), 16 + 64 * 4 + 3);
        const QString cut = writeExperiment("cut.yaml", dir_.filePath("cut"));
        r = cli({"data", "check", cut, "--workspace", dir_.filePath("ws")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(dir_.filePath("cut/train-images-idx3-ubyte")), qPrintable(r.err));

        r = cli({"data", "frobnicate"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("check, labels or mark"));
    }

    // Seen: `data check` recommended `dataset.sampler`, a key that does not exist. Every key the
    // imbalance advice names (the table's fix line and the finding's detail in --json) is
    // applied with `validate --set` and must be accepted.
    void imbalanceAdviceNamesRealKeys()
    {
        const QString data = dir_.filePath("imbalanced");
        QDir().mkpath(data);
        QList<int> seeds, labels;
        for (int i = 0; i < 80; ++i) seeds << 1000 + i, labels << (i < 60 ? 0 : i % 10);
        writeIdx(data, "train", seeds, labels);
        const QString experiment = writeExperiment("imbalanced.yaml", data);
        const QString ws = dir_.filePath("ws_imbalanced");
        Result r = cli({"data", "check", experiment, "--workspace", ws});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QString advice;
        for (const QString& line : r.out.split('\n'))
            if (line.contains("fix for train:")) advice += line + "\n";
        r = cli({"data", "check", experiment, "--workspace", ws, "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        for (const auto& f : QJsonDocument::fromJson(r.out.toUtf8()).object()["findings"].toArray())
            if (f.toObject()["kind"].toString() == "class_imbalance") advice += f.toObject()["detail"].toString() + "\n";
        static const QRegularExpression setting(R"(\b([a-z_]+(?:\.[a-z_]+)+): ([a-z_]+))");
        int keys = 0;
        for (auto m = setting.globalMatch(advice); m.hasNext(); ++keys) {
            const auto match = m.next();
            const QString assignment = match.captured(1) + "=" + match.captured(2);
            const Result v = cli({"validate", experiment, "--no-data", "--set", assignment});
            QVERIFY2(v.exitCode == 0, qPrintable(assignment + ": " + v.err));
        }
        QVERIFY2(keys >= 2, qPrintable(advice));  // the table's line and the finding's detail
        QVERIFY2(advice.contains("dataset.loader.sampler: class_balanced"), qPrintable(advice));
    }

    void helpListsTheCommand()
    {
        const Result r = cli({"--help"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("data check"));
    }
};

QTEST_GUILESS_MAIN(TestDataCommand)
#include "tst_data_command.moc"
