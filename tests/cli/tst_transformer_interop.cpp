// The Transformer templates leave TrainStudio whole: the real CLI trains the shipped ViT,
// character-level GPT and topics classifier for a few steps, then docs/load_transformer_torch.py
// (Debian's python3-torch) loads each checkpoint into torch.nn modules with strict=True and
// agrees with `predict` (the ViT's and the classifier's probabilities within 1e-5; texts of
// several lengths, one longer than the context, so padding, its mask and the cut all count)
// and with `generate --temperature 0` (the GPT's greedy text, character for character). A few steps suffice: the check is that the
// same weights compute the same function, which an untrained model shows as well as a trained one.
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "child_process.h"
#include "data/dataset.h"
#include "evaluated_run.h"
#include "store/resume_source.h"
#include "store/run_reader.h"

using namespace ts;
using Result = ts::test::ProcessResult;

namespace {

const QString kFashion = "/usr/share/datasets/fashion-mnist";
const QString kFortunes = "/usr/share/games/fortunes";

qint64 runIdOf(const Result& train)
{
    for (const QString& line : train.out.split('\n', Qt::SkipEmptyParts)) {
        const QJsonObject o = QJsonDocument::fromJson(line.toUtf8()).object();
        if (o["event"].toString() == "run") return o["run_id"].toInteger(-1);
    }
    return -1;
}

}  // namespace

class TestTransformerInterop : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QProcessEnvironment env_;
    QString ws_;

    Result cli(const QStringList& args, int timeoutMs = 300000) { return ts::test::runProcess(TS_CLI_EXE, args, env_, timeoutMs); }
    Result torch(const QStringList& args)
    {
        return ts::test::runProcess("/usr/bin/python3", QStringList{QString(TS_SOURCE_DIR) + "/docs/load_transformer_torch.py"} + args,
                                    env_, 300000);
    }
    // Trains `experiment` with `sets` (--set each) and returns the run's last weights file.
    QString trained(const QString& experiment, const QStringList& sets)
    {
        QStringList args{"train", QString(TS_SOURCE_DIR) + "/experiments/" + experiment, "--json", "--workspace", ws_};
        for (const QString& s : sets) args << "--set" << s;
        const Result r = cli(args);
        if (r.exitCode != 0) qFatal("%s", qPrintable(r.err + r.out.right(2000)));
        const qint64 run = runIdOf(r);
        const Workspace workspace = Workspace::open(ws_.toStdString());
        const std::vector<CheckpointRecord> checkpoints = RunReader(workspace).checkpoints(run);
        if (checkpoints.empty()) qFatal("run %lld has no checkpoint", run);
        lastRun_ = run;
        return QString::fromStdString(absoluteCheckpointPath(workspace, checkpoints.back().path));
    }
    qint64 lastRun_ = -1;

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        env_ = ts::test::scratchCliEnvironment(dir_.filePath("home"));
        ws_ = dir_.filePath("ws");
        if (QProcess::execute("/usr/bin/python3", {"-c", "import torch"}) != 0)
            QSKIP("Debian's python3-torch is not installed (packaging/debian-packages.txt lists it)");
    }

    void vitAgreesWithPredict()
    {
        if (!QFileInfo::exists(kFashion + "/t10k-images-idx3-ubyte.gz") && !QFileInfo::exists(kFashion + "/t10k-images-idx3-ubyte"))
            QSKIP("Fashion-MNIST is not installed (dataset-fashion-mnist)");
        const QString small = dir_.filePath("fashion-small");
        QVERIFY(QDir().mkpath(small));
        DatasetSpec full;
        full.path = kFashion.toStdString();
        full.validationFraction = 0;
        const DatasetSplits real = openDataset(full, ".", "");
        ts::test::writeIdxSubset(*real.train, 512, small.toStdString(), "train");
        ts::test::writeIdxSubset(*real.test, 100, small.toStdString(), "t10k");
        const QString weights = trained("fashion_mnist_vit.yaml", {"dataset.path=" + small, "training.device=cpu", "training.max_steps=4",
                                                                   "schedule.warmup_steps=2"});
        const QString images = small + "/t10k-images-idx3-ubyte";
        const Result predicted = cli({"predict", QString::number(lastRun_), "--workspace", ws_, "--json", images});
        QVERIFY2(predicted.exitCode == 0, qPrintable(predicted.err));
        const QString jsonl = dir_.filePath("vit_predict.jsonl");
        QFile out(jsonl);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(predicted.out.toUtf8());
        out.close();
        const Result t = torch({"vit", weights, images, jsonl});
        QVERIFY2(t.exitCode == 0, qPrintable(t.out + t.err));
        QVERIFY2(t.out.contains("with strict=True") && t.out.contains("100 of 100 samples get predict's class"), qPrintable(t.out));
    }

    void charGptAgreesWithGenerate()
    {
        if (!QFileInfo::exists(kFortunes + "/fortunes")) QSKIP("fortunes is not installed");
        const QString weights = trained("fortunes_char_gpt.yaml", {"training.device=cpu", "training.max_steps=3", "schedule.warmup_steps=1",
                                                                   "dataset.validation_fraction=0.01"});
        const Result generated = cli({"generate", QString::number(lastRun_), "--workspace", ws_, "--checkpoint", "last", "--prompt",
                                      "Q: What is", "--length", "60", "--temperature", "0"});
        QVERIFY2(generated.exitCode == 0, qPrintable(generated.err));
        QVERIFY2(generated.out.startsWith("Q: What is"), qPrintable(generated.out));
        const QString text = dir_.filePath("generated.txt");
        QFile out(text);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(generated.out.toUtf8());
        out.close();
        const Result t = torch({"char-gpt", weights, "Q: What is", "60", text});
        QVERIFY2(t.exitCode == 0, qPrintable(t.out + t.err));
        QVERIFY2(t.out.contains("with strict=True") && t.out.contains("the same text as trainstudio-cli generate"), qPrintable(t.out));
    }

    void topicsAgreesWithPredict()
    {
        if (!QFileInfo::exists(kFortunes + "/startrek")) QSKIP("fortunes is not installed");
        const QString weights = trained("fortunes_topics.yaml", {"training.device=cpu", "training.max_steps=4", "schedule.warmup_steps=2"});
        const QStringList texts{"Beam me up, Scotty.", "Real programmers do not comment their code; they read it.",
                                "An apple a day keeps the doctor away, " + QString("and a long text goes on past the context. ").repeated(4),
                                "Love"};
        QStringList args{"predict", QString::number(lastRun_), "--workspace", ws_, "--checkpoint", "last", "--json", "--top", "6"};
        for (const QString& t : texts) args << "--text" << t;
        const Result predicted = cli(args);
        QVERIFY2(predicted.exitCode == 0, qPrintable(predicted.err));
        const QString jsonl = dir_.filePath("topics_predict.jsonl"), lines = dir_.filePath("topics_texts.txt");
        QFile out(jsonl), in(lines);
        QVERIFY(out.open(QIODevice::WriteOnly) && in.open(QIODevice::WriteOnly));
        out.write(predicted.out.toUtf8());
        in.write((texts.join('\n') + '\n').toUtf8());
        out.close(), in.close();
        const Result t = torch({"topics", weights, lines, jsonl});
        QVERIFY2(t.exitCode == 0, qPrintable(t.out + t.err));
        QVERIFY2(t.out.contains("with strict=True") && t.out.contains("4 of 4 texts get predict's class"), qPrintable(t.out));
    }
};

QTEST_GUILESS_MAIN(TestTransformerInterop)
#include "tst_transformer_interop.moc"
