// `trainstudio-cli predict` end to end (the real binary, QProcess): a tiny MLP trained one
// epoch on the first 2,000 real Fashion-MNIST training images, evaluated by `eval` on the
// first 200 test images; then predict on those test images, written as PNG files by Qt's
// own encoder (independent of the engine's libpng reader) and passed as the IDX file, must
// give every sample the class eval stored for it, and its probability to 1e-6 (the same
// weights, preprocessing and inference plan; only the batch grouping differs). Also the CSV
// path (the tabular example, checked against eval's validation predictions row by row, with
// its statistics-based normalisation), --json lines, each bad input's message (and that the
// other inputs are still predicted), eval's class names, the CPU fallback's wording, and the
// README's PyTorch example loading a CNN's weights and agreeing with predict.
#include <QtTest>

#include <QDir>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "child_process.h"
#include "data/dataset.h"
#include "io/yaml/experiment_yaml.h"
#include "store/resume_source.h"
#include "store/run_reader.h"
#include "store/run_writer.h"
#include "tiny_experiment.h"

using namespace ts;

namespace {

using Result = ts::test::ProcessResult;

const QString kFashion = "/usr/share/datasets/fashion-mnist";

void writeBigEndian(std::ofstream& out, std::uint32_t v)
{
    const char bytes[4] = {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
    out.write(bytes, 4);
}

// The first `count` samples of a real split as IDX files; returns their pixels (bytes).
std::vector<std::vector<std::uint8_t>> writeIdx(const Dataset& split, std::int64_t count, const std::string& dir,
                                                const std::string& prefix)
{
    std::ofstream images(dir + "/" + prefix + "-images-idx3-ubyte", std::ios::binary);
    std::ofstream labels(dir + "/" + prefix + "-labels-idx1-ubyte", std::ios::binary);
    writeBigEndian(images, 0x00000803);
    writeBigEndian(images, std::uint32_t(count));
    writeBigEndian(images, 28);
    writeBigEndian(images, 28);
    writeBigEndian(labels, 0x00000801);
    writeBigEndian(labels, std::uint32_t(count));
    std::vector<std::vector<std::uint8_t>> out;
    std::vector<float> pixels(28 * 28);
    for (std::int64_t i = 0; i < count; ++i) {
        const char label = char(split.get(i, pixels.data()));
        std::vector<std::uint8_t> bytes;
        for (float p : pixels) bytes.push_back(std::uint8_t(std::lround(p * 255)));  // the reader stored byte / 255
        images.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
        labels.put(label);
        out.push_back(std::move(bytes));
    }
    return out;
}

QList<QJsonObject> jsonLines(const QString& out, QString& bad)
{
    QList<QJsonObject> lines;
    for (const QString& line : out.split('\n', Qt::SkipEmptyParts)) {
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(line.toUtf8(), &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject()) {
            bad = line;
            return {};
        }
        lines.append(doc.object());
    }
    return lines;
}

qint64 runIdOf(const Result& train)
{
    QString bad;
    for (const QJsonObject& line : jsonLines(train.out, bad))
        if (line["event"].toString() == "run") return line["run_id"].toInteger(-1);
    return -1;
}

}  // namespace

class TestPredictCommand : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QProcessEnvironment env_;
    QString ws_, data_, pngDir_;
    qint64 runId_ = -1;
    std::vector<Prediction> evaluated_;  // eval's stored predictions of the 200 test images
    std::vector<std::vector<std::uint8_t>> testPixels_;
    std::vector<std::int64_t> testLabels_;
    QString evalReport_;  // eval's text report of the tiny run

    Result cli(const QStringList& args, int timeoutMs = 120000) { return ts::test::runProcess(TS_CLI_EXE, args, env_, timeoutMs); }
    QStringList predictArgs(const QStringList& extra) const { return QStringList{"predict", QString::number(runId_), "--workspace", ws_} + extra; }

    // Checks each JSON line against eval's prediction of test sample `first + line`.
    void compareWithEval(const QList<QJsonObject>& lines, int first)
    {
        for (int i = 0; i < lines.size(); ++i) {
            const Prediction& e = evaluated_[std::size_t(first + i)];
            const QJsonArray top = lines[i]["top_k"].toArray();
            QVERIFY2(!top.isEmpty(), qPrintable(QString("line %1 has no top_k").arg(i)));
            QCOMPARE(top[0].toObject()["class"].toInteger(), qint64(e.predicted));
            const double p = top[0].toObject()["probability"].toDouble();
            QVERIFY2(std::abs(p - e.confidence) < 1e-6,
                     qPrintable(QString("sample %1: predict %2, eval %3").arg(first + i).arg(p).arg(e.confidence)));
        }
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        env_ = ts::test::scratchCliEnvironment(dir_.filePath("home"));
        if (!QFileInfo::exists(kFashion + "/train-images-idx3-ubyte.gz") && !QFileInfo::exists(kFashion + "/train-images-idx3-ubyte"))
            QSKIP("Fashion-MNIST is not installed (dataset-fashion-mnist)");
        data_ = dir_.filePath("fashion-subset");  // "fashion" in the name: the reader names the classes
        QVERIFY(QDir().mkpath(data_));
        DatasetSpec full;
        full.path = kFashion.toStdString();
        full.validationFraction = 0;
        const DatasetSplits real = openDataset(full, ".", "");
        writeIdx(*real.train, 2000, data_.toStdString(), "train");
        testPixels_ = writeIdx(*real.test, 200, data_.toStdString(), "t10k");
        testLabels_.assign(real.test->labels().begin(), real.test->labels().begin() + 200);

        // PNG files of the first 20 test images, grayscale 28x28, by Qt's encoder.
        pngDir_ = dir_.filePath("pngs");
        QVERIFY(QDir().mkpath(pngDir_));
        for (int i = 0; i < 20; ++i) {
            QImage image(28, 28, QImage::Format_Grayscale8);
            for (int y = 0; y < 28; ++y) std::copy_n(testPixels_[std::size_t(i)].data() + y * 28, 28, image.scanLine(y));
            QVERIFY(image.save(QString("%1/test_%2.png").arg(pngDir_).arg(i, 3, 10, QChar('0')), "PNG"));
        }

        const QString yaml = dir_.filePath("tiny.yaml");
        QFile file(yaml);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(tinyFashionYaml(data_, 1, 64, 1e-3, 3).toUtf8());
        file.close();
        ws_ = dir_.filePath("ws");
        const Result train = cli({"train", yaml, "--json", "--workspace", ws_}, 300000);
        QVERIFY2(train.exitCode == 0, qPrintable(train.err + train.out.right(2000)));
        runId_ = runIdOf(train);
        QVERIFY(runId_ >= 1);
        const Result eval = cli({"eval", QString::number(runId_), "--workspace", ws_}, 300000);
        QVERIFY2(eval.exitCode == 0, qPrintable(eval.err + eval.out.right(2000)));
        evalReport_ = eval.out;
        RunReader reader(Workspace::open(ws_.toStdString()));
        const auto evaluations = reader.evaluations(runId_);
        QCOMPARE(int(evaluations.size()), 1);
        QCOMPARE(evaluations[0].split, std::string("test"));
        evaluated_ = reader.predictions(evaluations[0].id);
        QCOMPARE(int(evaluated_.size()), 200);
    }

    void pngFilesGetEvalsClasses()
    {
        QStringList files;
        for (int i = 0; i < 20; ++i) files << QString("%1/test_%2.png").arg(pngDir_).arg(i, 3, 10, QChar('0'));
        const Result r = cli(predictArgs(QStringList{"--json", "--top", "3"} + files));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QString bad;
        const QList<QJsonObject> lines = jsonLines(r.out, bad);
        QVERIFY2(bad.isEmpty(), qPrintable("not a JSON object: " + bad));
        QCOMPARE(lines.size(), 20);
        compareWithEval(lines, 0);
        for (int i = 0; i < lines.size(); ++i) {
            QCOMPARE(lines[i]["source"].toString(), files[i]);
            QCOMPARE(lines[i]["index"].toInteger(), qint64(0));
            QVERIFY(!lines[i].contains("label"));  // a PNG carries none
            const QJsonArray top = lines[i]["top_k"].toArray();
            QCOMPARE(top.size(), 3);
            double previous = 1.0;
            for (const auto& entry : top) {  // most probable first, names from the dataset
                const QJsonObject c = entry.toObject();
                QVERIFY(c["probability"].toDouble() <= previous);
                previous = c["probability"].toDouble();
                QVERIFY(!c["name"].toString().isEmpty());
            }
        }
        QCOMPARE(lines[0]["top_k"].toArray()[0].toObject()["name"].toString(),
                 QStringList({"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag",
                              "Ankle boot"})[int(evaluated_[0].predicted)]);
    }

    void idxFileAndFolderGetEvalsClasses()
    {
        const Result r = cli(predictArgs({"--json", data_ + "/t10k-images-idx3-ubyte"}));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QString bad;
        const QList<QJsonObject> lines = jsonLines(r.out, bad);
        QVERIFY2(bad.isEmpty(), qPrintable("not a JSON object: " + bad));
        QCOMPARE(lines.size(), 200);
        compareWithEval(lines, 0);
        QCOMPARE(lines[5]["index"].toInteger(), qint64(5));
        QCOMPARE(lines[5]["top_k"].toArray().size(), 5);  // the default
        // The labels file beside it is read: every line carries its sample's label by name.
        QVERIFY2(r.err.contains("labels read from"), qPrintable(r.err));
        const QStringList names{"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"};
        for (int i = 0; i < 200; ++i) QCOMPARE(lines[i]["label"].toString(), names[int(testLabels_[std::size_t(i)])]);

        // The same images alone (no labels file beside them): the same classes, no labels.
        const QString alone = dir_.filePath("images-alone");
        QVERIFY(QDir().mkpath(alone));
        QVERIFY(QFile::copy(data_ + "/t10k-images-idx3-ubyte", alone + "/t10k-images-idx3-ubyte"));
        const Result unlabelled = cli(predictArgs({"--json", alone + "/t10k-images-idx3-ubyte"}));
        QVERIFY2(unlabelled.exitCode == 0, qPrintable(unlabelled.err));
        const QList<QJsonObject> unlabelledLines = jsonLines(unlabelled.out, bad);
        QCOMPARE(unlabelledLines.size(), 200);
        compareWithEval(unlabelledLines, 0);
        QVERIFY(!unlabelledLines[0].contains("label"));
        QVERIFY2(!unlabelled.err.contains("labels read from"), qPrintable(unlabelled.err));

        const Result folder = cli(predictArgs({"--json", pngDir_}));  // sorted by name: test_000 ... test_019
        QVERIFY2(folder.exitCode == 0, qPrintable(folder.err));
        const QList<QJsonObject> folderLines = jsonLines(folder.out, bad);
        QCOMPARE(folderLines.size(), 20);
        compareWithEval(folderLines, 0);
    }

    void tableNamesTheCheckpointAndClasses()
    {
        const Result r = cli(predictArgs({"--checkpoint", "last", "--top", "2", pngDir_ + "/test_000.png"}));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("epoch 1 checkpoint"), qPrintable(r.out));
        QVERIFY2(r.out.contains("28x28 grayscale images ([1, 28, 28])"), qPrintable(r.out));
        QVERIFY2(r.out.contains("test_000.png [0]"), qPrintable(r.out));
        QVERIFY2(r.out.contains("1st") && r.out.contains("2nd") && !r.out.contains("3rd"), qPrintable(r.out));
    }

    void badInputsSayWhatIsWrong()
    {
        // An image of another size: what the model takes, and that this experiment does not resize.
        QImage big(32, 32, QImage::Format_Grayscale8);
        big.fill(128);
        const QString bigPath = dir_.filePath("big.png");
        QVERIFY(big.save(bigPath));
        Result r = cli(predictArgs({bigPath}));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(bigPath) && r.err.contains("32x32") && r.err.contains("28x28 grayscale") &&
                     r.err.contains("resize it to 28x28"),
                 qPrintable(r.err));
        QVERIFY(r.out.isEmpty());  // nothing printed for the other inputs either

        // A colour image for a grayscale model.
        QImage colour(28, 28, QImage::Format_RGB32);
        colour.fill(QColor(200, 30, 30));
        const QString colourPath = dir_.filePath("colour.png");
        QVERIFY(colour.save(colourPath));
        r = cli(predictArgs({colourPath}));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(colourPath) && r.err.contains("colour image") && r.err.contains("grayscale"), qPrintable(r.err));

        // A damaged PNG: the file and what the decoder found.
        QFile good(pngDir_ + "/test_000.png");
        QVERIFY(good.open(QIODevice::ReadOnly));
        QByteArray bytes = good.readAll();
        bytes.truncate(bytes.size() / 2);
        const QString damagedPath = dir_.filePath("damaged.png");
        QFile damaged(damagedPath);
        QVERIFY(damaged.open(QIODevice::WriteOnly));
        damaged.write(bytes);
        damaged.close();
        r = cli(predictArgs({damagedPath}));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(damagedPath) && r.err.contains("PNG"), qPrintable(r.err));

        // Not an image at all, and a labels file given for images.
        const QString textPath = dir_.filePath("notes.txt");
        QFile text(textPath);
        QVERIFY(text.open(QIODevice::WriteOnly));
        text.write("hello\n");
        text.close();
        r = cli(predictArgs({textPath}));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(textPath) && r.err.contains("not a PNG or JPEG image"), qPrintable(r.err));
        r = cli(predictArgs({data_ + "/t10k-labels-idx1-ubyte"}));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("IDX labels file; pass the images file"), qPrintable(r.err));
        r = cli(predictArgs({dir_.filePath("missing.png")}));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("missing.png: no such file"), qPrintable(r.err));

        // An unknown run, an epoch the run did not keep, a run without checkpoints.
        r = cli({"predict", "999", "--workspace", ws_, bigPath});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("run 999 is not in") && r.err.contains("runs list"), qPrintable(r.err));
        r = cli(predictArgs({"--checkpoint", "7", pngDir_ + "/test_000.png"}));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("no checkpoint of epoch 7") && r.err.contains("keeps epochs 1"), qPrintable(r.err));
        qint64 empty = -1;
        {
            RunWriter writer(Workspace::open(ws_.toStdString()));
            NewRun run;
            run.experimentName = "tiny_fashion";
            run.experimentYaml = tinyFashionYaml(data_, 1, 64, 1e-3, 3).toStdString();
            empty = writer.createRun(run);
            writer.finishRun(empty, RunStatus::Failed, Message{"died before its first checkpoint"});
            writer.flush();
        }
        r = cli({"predict", QString::number(empty), "--workspace", ws_, pngDir_ + "/test_000.png"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("has no checkpoint") && r.err.contains("train it again"), qPrintable(r.err));
        r = cli({"predict", "twelve", "--workspace", ws_, bigPath});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("expects a run id first"), qPrintable(r.err));
    }

    void oneBadInputDoesNotStopTheOthers()
    {
        // A wrong-sized image between two good ones, on the command line and in a folder: it is
        // named with why, the good ones are still predicted (eval's classes), the exit status is 1.
        QImage big(32, 32, QImage::Format_Grayscale8);
        big.fill(128);
        const QString bigPath = dir_.filePath("mixed/b_big.png");
        QVERIFY(QDir().mkpath(dir_.filePath("mixed")));
        QVERIFY(big.save(bigPath));
        QVERIFY(QFile::copy(pngDir_ + "/test_000.png", dir_.filePath("mixed/a_test_000.png")));
        QVERIFY(QFile::copy(pngDir_ + "/test_001.png", dir_.filePath("mixed/c_test_001.png")));
        for (const QStringList& inputs : {QStringList{pngDir_ + "/test_000.png", bigPath, pngDir_ + "/test_001.png"},
                                          QStringList{dir_.filePath("mixed")}}) {
            const Result r = cli(predictArgs(QStringList{"--json"} + inputs));
            QCOMPARE(r.exitCode, 1);
            QVERIFY2(r.err.contains(bigPath) && r.err.contains("32x32") && r.err.contains("resize it to 28x28"), qPrintable(r.err));
            QVERIFY2(r.err.contains("1 input could not be predicted") && r.err.contains("the others were"), qPrintable(r.err));
            QString bad;
            const QList<QJsonObject> lines = jsonLines(r.out, bad);
            QVERIFY2(bad.isEmpty(), qPrintable("not a JSON object: " + bad));
            QCOMPARE(lines.size(), 2);
            compareWithEval(lines, 0);
            QVERIFY(!r.out.contains("b_big.png"));
        }
        // The table too: the good image's row, and the bad one only on stderr.
        const Result table = cli(predictArgs({pngDir_ + "/test_000.png", bigPath}));
        QCOMPARE(table.exitCode, 1);
        QVERIFY2(table.out.contains("test_000.png [0]") && !table.out.contains("b_big.png"), qPrintable(table.out));
        QVERIFY2(table.err.contains(bigPath), qPrintable(table.err));
    }

    void predictAndEvalSayWhatTheyDo()
    {
        // The CPU fallback of --device auto says "predicting" for predict (not "training").
        const Result r = cli(predictArgs({"--device", "auto", pngDir_ + "/test_000.png"}));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(!r.err.contains("training"), qPrintable(r.err));
        if (!r.err.contains("device auto"))
            QSKIP("--device auto found a GPU here: no CPU fallback notice to check");
        QVERIFY2(r.err.contains("predicting on the CPU"), qPrintable(r.err));
        const Result e = cli({"eval", QString::number(runId_), "--device", "auto", "--json", "--workspace", ws_}, 300000);
        QVERIFY2(e.exitCode == 0, qPrintable(e.err));
        QVERIFY2(e.out.contains("evaluating on the CPU") && !e.out.contains("training on the CPU"), qPrintable(e.out.left(2000)));
    }

    void evalNamesTheClasses()
    {
        // eval's per-class table and confusion matrix name the classes as predict does.
        const QStringList names{"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"};
        const QStringList lines = evalReport_.split('\n');
        for (int k = 0; k < names.size(); ++k) {
            const bool inTable = std::any_of(lines.begin(), lines.end(), [&](const QString& l) {
                return l.trimmed().startsWith(names[k] + " ");
            });
            QVERIFY2(inTable, qPrintable(names[k] + " missing from the per-class table:\n" + evalReport_));
            const bool inMatrix = std::any_of(lines.begin(), lines.end(), [&](const QString& l) {
                return l.trimmed().startsWith(QString("%1 %2 ").arg(k).arg(names[k]));
            });
            QVERIFY2(inMatrix, qPrintable(QString("row %1 %2 missing from the confusion matrix:\n").arg(k).arg(names[k]) + evalReport_));
        }
        // --json: each class's name beside its number.
        const Result json = cli({"eval", QString::number(runId_), "--json", "--workspace", ws_}, 300000);
        QVERIFY2(json.exitCode == 0, qPrintable(json.err));
        QString bad;
        bool found = false;
        for (const QJsonObject& line : jsonLines(json.out, bad)) {
            if (line["event"].toString() != "report") continue;
            found = true;
            const QJsonArray perClass = line["per_class"].toArray();
            QCOMPARE(perClass.size(), 10);
            for (int k = 0; k < 10; ++k) {
                QCOMPARE(perClass[k].toObject()["class"].toInt(), k);
                QCOMPARE(perClass[k].toObject()["name"].toString(), names[k]);
            }
        }
        QVERIFY2(found, qPrintable(json.out.right(2000)));
    }

    void csvRowsGetEvalsClasses()
    {
        // The tabular example (normalised by its training statistics), a few epochs, evaluated
        // on its validation split: the validation rows, written out as a CSV without the label
        // column, must get eval's classes.
        const QString experiment = QString(TS_SOURCE_DIR) + "/experiments/tabular_example.yaml";
        const Result train = cli({"train", experiment, "--epochs", "3", "--json", "--workspace", ws_}, 300000);
        QVERIFY2(train.exitCode == 0, qPrintable(train.err + train.out.right(2000)));
        const qint64 run = runIdOf(train);
        QVERIFY(run >= 1);
        const Result eval = cli({"eval", QString::number(run), "--split", "val", "--workspace", ws_}, 300000);
        QVERIFY2(eval.exitCode == 0, qPrintable(eval.err + eval.out.right(2000)));
        RunReader reader(Workspace::open(ws_.toStdString()));
        const std::vector<Prediction> expected = reader.predictions(reader.evaluations(run).back().id);

        const ExperimentSpec spec = loadExperiment(experiment.toStdString());
        const DatasetSplits splits = openExperimentDataset(spec, dir_.filePath("cache").toStdString());
        QCOMPARE(splits.validationFileIndex.size(), expected.size());
        QFile source(QString(TS_SOURCE_DIR) + "/experiments/data/wine_like.csv");
        QVERIFY(source.open(QIODevice::ReadOnly));
        const QStringList rows = QString::fromUtf8(source.readAll()).split('\n', Qt::SkipEmptyParts);
        const QString csvPath = dir_.filePath("val_rows.csv");
        QFile csv(csvPath);
        QVERIFY(csv.open(QIODevice::WriteOnly));
        const QStringList header = rows[0].split(',');
        const int label = int(header.indexOf("cultivar"));
        auto withoutLabel = [&](const QString& row) {
            QStringList fields = row.split(',');
            fields.removeAt(label);
            return fields.join(',') + "\n";
        };
        csv.write(withoutLabel(rows[0]).toUtf8());
        for (std::int64_t fileRow : splits.validationFileIndex) csv.write(withoutLabel(rows[int(fileRow) + 1]).toUtf8());
        csv.close();

        const Result r = cli({"predict", QString::number(run), "--workspace", ws_, "--json", "--top", "1", csvPath});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QString bad;
        const QList<QJsonObject> lines = jsonLines(r.out, bad);
        QVERIFY2(bad.isEmpty(), qPrintable("not a JSON object: " + bad));
        QCOMPARE(std::size_t(lines.size()), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i) {
            const QJsonObject top = lines[int(i)]["top_k"].toArray()[0].toObject();
            QCOMPARE(top["class"].toInteger(), qint64(expected[i].predicted));
            QVERIFY(std::abs(top["probability"].toDouble() - expected[i].confidence) < 1e-6);
            QVERIFY(!lines[int(i)].contains("label"));
        }
        // An image for a table model: what the model takes instead.
        const Result image = cli({"predict", QString::number(run), "--workspace", ws_, pngDir_ + "/test_000.png"});
        QCOMPARE(image.exitCode, 1);
        QVERIFY2(image.err.contains("rows of 5 features (alcohol, malic_acid"), qPrintable(image.err));
    }

    void imageFolderModelResizesAsTrainingDid()
    {
        // An image_folder experiment resizes every 12x12 image to its image_shape [3, 8, 8]:
        // predict does the same (and says so), and gives eval's classes for the test images.
        const QString root = dir_.filePath("folder-data");
        QStringList testFiles;
        for (const QString& split : {QString("train"), QString("test")})
            for (int c = 0; c < 2; ++c) {
                const QString dir = QString("%1/%2/%3").arg(root, split, c ? "blue" : "red");
                QVERIFY(QDir().mkpath(dir));
                for (int i = 0; i < (split == "train" ? 16 : 4); ++i) {
                    QImage image(12, 12, QImage::Format_RGB32);
                    for (int y = 0; y < 12; ++y)
                        for (int x = 0; x < 12; ++x) {
                            const int v = (x * 17 + y * 29 + i * 41) % 90;  // texture, so the classes overlap a little
                            image.setPixelColor(x, y, c ? QColor(v, 60, 120 + v) : QColor(120 + v, 60, v));
                        }
                    const QString path = QString("%1/%2.png").arg(dir).arg(i, 2, 10, QChar('0'));
                    QVERIFY(image.save(path));
                    if (split == "test") testFiles << path;
                }
            }
        testFiles.sort();  // the reader's order: class folders, then files, by name ("blue" before "red")
        const QString yaml = dir_.filePath("folder.yaml");
        QFile file(yaml);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QString("name: tiny_folder\ndataset:\n  format: image_folder\n  path: %1\n  image_shape: [3, 8, 8]\n"
                           "  validation_fraction: 0\n  normalize: {mean: [0.5, 0.3, 0.3], std: [0.2, 0.2, 0.2]}\n"
                           "  loader: {num_workers: 0}\nmodel:\n  layers:\n    - Flatten\n    - Linear: {out_features: 2}\n"
                           "    - CrossEntropy\noptimizer: {type: adam, lr: 0.01}\n"
                           "training: {epochs: 1, batch_size: 8, seed: 1, device: cpu}\n")
                       .arg(root)
                       .toUtf8());
        file.close();
        const Result train = cli({"train", yaml, "--json", "--workspace", ws_});
        QVERIFY2(train.exitCode == 0, qPrintable(train.err + train.out.right(2000)));
        const qint64 run = runIdOf(train);
        const Result eval = cli({"eval", QString::number(run), "--workspace", ws_});
        QVERIFY2(eval.exitCode == 0, qPrintable(eval.err));
        RunReader reader(Workspace::open(ws_.toStdString()));
        const std::vector<Prediction> expected = reader.predictions(reader.evaluations(run).back().id);
        QCOMPARE(int(expected.size()), 8);

        const Result r = cli(QStringList{"predict", QString::number(run), "--workspace", ws_, "--json"} + testFiles);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains("the 12x12 image was converted to 8x8 with 3 channels"), qPrintable(r.err));
        QString bad;
        const QList<QJsonObject> lines = jsonLines(r.out, bad);
        QCOMPARE(lines.size(), 8);
        for (int i = 0; i < 8; ++i) {
            const QJsonObject top = lines[i]["top_k"].toArray()[0].toObject();
            QCOMPARE(top["class"].toInteger(), qint64(expected[std::size_t(i)].predicted));
            QCOMPARE(top["name"].toString(), QString(expected[std::size_t(i)].predicted ? "red" : "blue"));
            QVERIFY(std::abs(top["probability"].toDouble() - expected[std::size_t(i)].confidence) < 1e-6);
        }
    }

    void pytorchLoadsTheWeightsAndAgrees()
    {
        // docs/load_checkpoint_torch.py, the README's worked example, on a CNN (conv, batch
        // norm, linear) trained one epoch on 300 images: PyTorch loads the safetensors file
        // with strict=True and gives predict's class to each of 100 test images, probabilities
        // within 1e-4 (measured: about 4e-7).
        if (QProcess::execute("/usr/bin/python3", {"-c", "import torch"}) != 0)
            QSKIP("Debian's python3-torch is not installed (packaging/debian-packages.txt lists it)");
        const QString small = dir_.filePath("fashion-small");
        QVERIFY(QDir().mkpath(small));
        DatasetSpec full;
        full.path = kFashion.toStdString();
        full.validationFraction = 0;
        const DatasetSplits real = openDataset(full, ".", "");
        writeIdx(*real.train, 300, small.toStdString(), "train");
        writeIdx(*real.test, 100, small.toStdString(), "t10k");
        const Result train = cli({"train", QString(TS_SOURCE_DIR) + "/experiments/fashion_mnist_cnn.yaml", "--set",
                                  "dataset.path=" + small, "--set", "training.device=cpu", "--epochs", "1", "--json",
                                  "--workspace", ws_},
                                 300000);
        QVERIFY2(train.exitCode == 0, qPrintable(train.err + train.out.right(2000)));
        const qint64 run = runIdOf(train);
        const QString images = small + "/t10k-images-idx3-ubyte";
        const Result predicted = cli({"predict", QString::number(run), "--workspace", ws_, "--json", images});
        QVERIFY2(predicted.exitCode == 0, qPrintable(predicted.err));
        const QString jsonl = dir_.filePath("cnn_predict.jsonl");
        QFile out(jsonl);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(predicted.out.toUtf8());
        out.close();
        const Workspace workspace = Workspace::open(ws_.toStdString());
        const std::vector<CheckpointRecord> checkpoints = RunReader(workspace).checkpoints(run);
        QVERIFY(!checkpoints.empty());
        const QString weights = QString::fromStdString(absoluteCheckpointPath(workspace, checkpoints.back().path));
        const Result torch = ts::test::runProcess(
            "/usr/bin/python3", {QString(TS_SOURCE_DIR) + "/docs/load_checkpoint_torch.py", weights, images, jsonl}, env_, 120000);
        QVERIFY2(torch.exitCode == 0, qPrintable(torch.out + torch.err));
        QVERIFY2(torch.out.contains("with strict=True") && torch.out.contains("100 of 100 samples get predict's class"),
                 qPrintable(torch.out));
    }
};

QTEST_GUILESS_MAIN(TestPredictCommand)
#include "tst_predict_command.moc"
