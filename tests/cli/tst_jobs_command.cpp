// `trainstudio-cli train --json` and `eval --json` end to end (the real binary, QProcess):
// the "started" plan with gradient accumulation, the per-epoch step and ETA, and an
// evaluation of the trained run that reproduces its final test accuracy. Uses the shipped
// Fashion-MNIST MLP (the data at /usr/share/datasets/fashion-mnist; skipped without it).
// Children get a scratch HOME, so neither the user's workspace nor their cache is touched.
//
// Tolerances: counts exact. The epoch-1 ETA (time per step so far x the 117 steps left)
// must lie within [0.3, 3] x that epoch's seconds: epoch 2 takes about as long, and a plan
// that counts micro-batches instead of optimizer steps gave about 7x. eval's test_acc equals
// the training's exactly (the same weights; both print "%.6g").
#include <QtTest>

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "child_process.h"

namespace {

using Result = ts::test::ProcessResult;

const QString kFashion = "/usr/share/datasets/fashion-mnist";

// Every stdout line is one JSON object; returns them, or fails on one that is not.
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

QList<QJsonObject> eventsOf(const QList<QJsonObject>& lines, const QString& event)
{
    QList<QJsonObject> out;
    for (const auto& l : lines)
        if (l["event"].toString() == event) out.append(l);
    return out;
}

}  // namespace

class TestJobsCommand : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QProcessEnvironment env_;

    Result cli(const QStringList& args, int timeoutMs) { return ts::test::runProcess(TS_CLI_EXE, args, env_, timeoutMs); }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        env_ = ts::test::scratchCliEnvironment(dir_.filePath("home"));  // no user workspace or cache is touched
    }

    void trainWithAccumulationThenEvaluate()
    {
        if (!QFileInfo::exists(kFashion + "/train-images-idx3-ubyte.gz") && !QFileInfo::exists(kFashion + "/train-images-idx3-ubyte"))
            QSKIP("Fashion-MNIST is not installed (dataset-fashion-mnist)");
        const QString ws = dir_.filePath("ws");
        const Result train = cli({"train", QString(TS_SOURCE_DIR) + "/experiments/fashion_mnist_mlp.yaml", "--epochs", "2",
                                  "--set", "training.accumulation_steps=4", "--json", "--workspace", ws},
                                 400000);
        QVERIFY2(train.exitCode == 0, qPrintable(train.err + train.out.right(2000)));
        QString bad;
        const QList<QJsonObject> lines = jsonLines(train.out, bad);
        QVERIFY2(bad.isEmpty(), qPrintable("not a JSON object: " + bad));

        const auto runs = eventsOf(lines, "run");
        QCOMPARE(runs.size(), 1);
        const qint64 runId = runs[0]["run_id"].toInteger(-1);
        QVERIFY(runId >= 1);

        const auto started = eventsOf(lines, "started");
        QCOMPARE(started.size(), 1);
        const QJsonObject& s = started[0];
        QCOMPARE(s["run_id"].toInteger(), runId);
        QCOMPARE(s["accumulation_steps"].toInteger(), qint64(4));
        QCOMPARE(s["batches_per_epoch"].toInteger(), qint64(468));  // 60000 / 128, the ragged batch dropped
        QCOMPARE(s["steps_per_epoch"].toInteger(), qint64(117));    // 468 / 4
        QCOMPARE(s["total_steps"].toInteger(), qint64(234));
        QCOMPARE(s["first_step"].toInteger(), qint64(0));
        QCOMPARE(s["epochs"].toInteger(), qint64(2));
        QCOMPARE(s["train_samples"].toInteger(), qint64(60000));
        QCOMPARE(s["test_samples"].toInteger(), qint64(10000));

        const auto epochs = eventsOf(lines, "epoch");
        QCOMPARE(epochs.size(), 2);
        QCOMPARE(epochs[0]["epoch"].toInteger(), qint64(1));
        QCOMPARE(epochs[0]["step"].toInteger(), qint64(117));
        QVERIFY2(epochs[0]["eta_s"].isDouble(), "epoch 1 has no ETA");
        const double eta = epochs[0]["eta_s"].toDouble(), seconds = epochs[0]["seconds"].toDouble();
        QVERIFY(seconds > 0);
        QVERIFY2(eta >= 0.3 * seconds && eta <= 3 * seconds,
                 qPrintable(QString("epoch 1: eta_s %1 for an epoch of %2 s (%3x)").arg(eta).arg(seconds).arg(eta / seconds)));
        QCOMPARE(epochs[1]["epoch"].toInteger(), qint64(2));
        QCOMPARE(epochs[1]["step"].toInteger(), qint64(234));
        QVERIFY2(epochs[1]["eta_s"].isDouble(), "epoch 2 has no ETA");
        QCOMPARE(epochs[1]["eta_s"].toDouble(), 0.0);

        const auto done = eventsOf(lines, "done");
        QCOMPARE(done.size(), 1);
        QCOMPARE(lines.last()["event"].toString(), QString("done"));
        QCOMPARE(done[0]["outcome"].toString(), QString("finished"));
        QVERIFY(done[0]["test_acc"].isDouble());
        const double trainedAcc = done[0]["test_acc"].toDouble();
        QVERIFY(trainedAcc > 0.5 && trainedAcc < 1.0);  // it learnt something; a real number, not a placeholder
        QCOMPARE(epochs[1]["test_acc"].toDouble(), trainedAcc);  // no validation split: the last epoch's test pass

        // The default checkpoint ("best"): without a validation metric none is marked best,
        // so the last one, written after the final test pass: the same weights.
        const Result eval = cli({"eval", QString::number(runId), "--json", "--workspace", ws}, 180000);
        QVERIFY2(eval.exitCode == 0, qPrintable(eval.err + eval.out.right(2000)));
        const QList<QJsonObject> evalLines = jsonLines(eval.out, bad);
        QVERIFY2(bad.isEmpty(), qPrintable("not a JSON object: " + bad));
        const auto evalDone = eventsOf(evalLines, "done");
        QCOMPARE(evalDone.size(), 1);
        QCOMPARE(evalDone[0]["outcome"].toString(), QString("finished"));
        QVERIFY2(evalDone[0]["test_acc"].isDouble(), qPrintable(eval.out.right(2000)));
        const double evaluatedAcc = evalDone[0]["test_acc"].toDouble();
        QVERIFY2(evaluatedAcc == trainedAcc, qPrintable(QString("eval test_acc %1, training's %2").arg(evaluatedAcc, 0, 'g', 17)
                                                           .arg(trainedAcc, 0, 'g', 17)));
        QCOMPARE(evalDone[0]["test_loss"].toDouble(), done[0]["test_loss"].toDouble());
        QVERIFY(evalDone[0]["message"].toString().contains("epoch 2"));
    }
};

QTEST_GUILESS_MAIN(TestJobsCommand)
#include "tst_jobs_command.moc"
