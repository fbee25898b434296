// `trainstudio-cli sweep` end to end (the real binary, QProcess): the text report, a bad sweep
// refused with file:line:column, and continuation: a sweep killed (SIGKILL) mid-trial, or
// stopped with Ctrl+C (SIGINT, exit 130), and run again ends exactly where an uninterrupted
// sweep ends, without training any finished trial again. Trains on the shipped wine-like CSV
// (experiments/data), 4 trials of 6 epochs of 30 steps.
//
// Tolerances: none. Per-step losses over a trial's runs (a later run's point wins) and the
// printed metrics must equal the uninterrupted sweep's exactly (CPU: bit-identical by design).
#include <QtTest>

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <csignal>
#include <map>

#include "child_process.h"
#include "store/run_reader.h"

namespace {

using Result = ts::test::ProcessResult;

QString sweepYaml(const QString& extra = {})
{
    return QStringLiteral(R"(name: cli_sweep
dataset:
  format: csv
  path: %1/experiments/data/wine_like.csv
  label_column: cultivar
  feature_columns: [alcohol, malic_acid, color_intensity, hue, proline]
  group_column: vineyard
  validation_fraction: 0.2
  normalize: {from_statistics: true}
  loader: {num_workers: 0}
model:
  layers:
    - Linear: {out_features: 16}
    - ReLU
    - Dropout: {p: 0.1}
    - Linear: {out_features: 3}
    - CrossEntropy
optimizer: {type: sgd, lr: 0.01, momentum: 0.9}
schedule: {type: cosine}
training: {epochs: 6, batch_size: 8, seed: 3, device: cpu}
sweep:
  metric: val_loss
  parameters:
    optimizer.lr: {log_uniform: [0.001, 0.03], count: 4}
%2)")
        .arg(TS_SOURCE_DIR, extra);
}

QList<QJsonObject> jsonLines(const QString& out)
{
    QList<QJsonObject> lines;
    for (const QString& line : out.split('\n', Qt::SkipEmptyParts)) {
        const QJsonDocument doc = QJsonDocument::fromJson(line.toUtf8());
        if (doc.isObject()) lines.append(doc.object());
    }
    return lines;
}

QJsonObject summaryOf(const QString& out)
{
    for (const QJsonObject& l : jsonLines(out))
        if (l["event"].toString() == "sweep_summary") return l;
    return {};
}

// Trial number -> its per-step training loss over all its runs, read from the store.
std::map<int, std::map<std::int64_t, double>> lossesOf(const QString& workspace, const QJsonObject& summary)
{
    ts::RunReader reader(ts::Workspace{workspace.toStdString()});
    std::map<int, std::map<std::int64_t, double>> out;
    for (const QJsonValue t : summary["trials"].toArray())
        for (const QJsonValue run : t["runs"].toArray()) {
            const ts::MetricSeries s = reader.metric(run.toInteger(), "loss");
            for (std::size_t i = 0; i < s.steps.size(); ++i) out[t["trial"].toInt()][s.steps[i]] = s.values[i];
        }
    return out;
}

}  // namespace

class TestSweepCommand : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QProcessEnvironment env_;
    QString file_;
    QJsonObject reference_;  // the uninterrupted sweep's summary
    QString referenceWorkspace_;

    Result cli(const QStringList& args, int timeoutMs = 120000) { return ts::test::runProcess(TS_CLI_EXE, args, env_, timeoutMs); }

    // Starts the sweep and sends `signal` once trial `trial` has finished its first epoch.
    Result interrupted(const QString& workspace, int trial, int signal)
    {
        QProcess p;
        p.setProcessEnvironment(env_);
        p.start(TS_CLI_EXE, {"sweep", file_, "--workspace", workspace, "--json"});
        QString out;
        bool training = false, sent = false;
        QElapsedTimer clock;
        clock.start();
        while (p.state() != QProcess::NotRunning && clock.elapsed() < 120000) {
            p.waitForReadyRead(100);
            while (p.canReadLine()) {
                const QString line = QString::fromUtf8(p.readLine());
                out += line;
                const QJsonObject o = QJsonDocument::fromJson(line.toUtf8()).object();
                if (o["kind"].toString() == "training" && o["trial"].toInt() == trial) training = true;
                if (training && !sent && o["event"].toString() == "epoch") {
                    ::kill(static_cast<pid_t>(p.processId()), signal);
                    sent = true;
                }
            }
        }
        p.waitForFinished(120000);
        out += QString::fromUtf8(p.readAllStandardOutput());
        Result r;
        r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        r.out = out;
        r.err = QString::fromUtf8(p.readAllStandardError()) + (sent ? "" : "(the signal was never sent)");
        return r;
    }

    // Runs the interrupted sweep again and checks it ends as the uninterrupted one.
    void continueAndCompare(const QString& workspace, const Result& first)
    {
        int resultsBefore = 0;  // trials that reached their result before the interruption
        for (const QJsonObject& l : jsonLines(first.out)) resultsBefore += l["kind"].toString() == "result";
        QVERIFY(resultsBefore >= 1 && resultsBefore < 4);

        const Result again = cli({"sweep", file_, "--workspace", workspace, "--json"});
        QVERIFY2(again.exitCode == 0, qPrintable(again.err));
        const QJsonObject summary = summaryOf(again.out);
        QCOMPARE(summary["outcome"].toString(), QString("finished"));
        QCOMPARE(summary["training_jobs"].toInt(), 4 - resultsBefore);  // finished trials are not trained again
        QCOMPARE(summary["best"].toInt(), reference_["best"].toInt());
        const QJsonArray trials = summary["trials"].toArray(), expected = reference_["trials"].toArray();
        for (int k = 0; k < 4; ++k) {
            QCOMPARE(trials[k]["metric"].toDouble(), expected[k]["metric"].toDouble());
            QCOMPARE(trials[k]["epochs"].toInt(), 6);
            // One run per trial, and for the interrupted one the run that resumed it.
            QCOMPARE(trials[k]["runs"].toArray().size(), k == resultsBefore ? 2 : 1);
        }
        QVERIFY(lossesOf(workspace, summary) == lossesOf(referenceWorkspace_, reference_));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        env_ = ts::test::scratchCliEnvironment(dir_.filePath("home"));  // no user workspace or cache is touched
        file_ = dir_.filePath("sweep.yaml");
        QFile f(file_);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(sweepYaml().toUtf8());
        f.close();

        referenceWorkspace_ = dir_.filePath("reference");
        const Result r = cli({"sweep", file_, "--workspace", referenceWorkspace_, "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        reference_ = summaryOf(r.out);
        QCOMPARE(reference_["trials"].toArray().size(), 4);
        QCOMPARE(reference_["training_jobs"].toInt(), 4);
    }

    void printsTrialsAndTheBest()
    {
        const Result r = cli({"sweep", file_, "--workspace", referenceWorkspace_});  // all done: nothing trains
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("4 trials (grid search), ranked by val_loss"), qPrintable(r.out));
        QVERIFY(r.out.contains("trial 1: optimizer.lr=0.001\n"));
        QVERIFY(r.out.contains("trial 4: optimizer.lr=0.03\n"));
        const int best = reference_["best"].toInt();
        QVERIFY2(r.out.contains(QString("best: trial %1 (").arg(best)), qPrintable(r.out));
        QVERIFY(r.out.contains("training jobs run now: 0"));
        QVERIFY(r.out.contains(QString("%1 *  finished").arg(best)));  // the summary table marks it
    }

    void continuesAfterAKill()
    {
        const QString ws = dir_.filePath("killed");
        const Result first = interrupted(ws, 2, SIGKILL);
        QVERIFY2(first.exitCode == -1, qPrintable(first.err));  // it died
        continueAndCompare(ws, first);
    }

    void continuesAfterCtrlC()
    {
        const QString ws = dir_.filePath("interrupted");
        const Result first = interrupted(ws, 3, SIGINT);
        QCOMPARE(first.exitCode, 130);
        QCOMPARE(summaryOf(first.out)["outcome"].toString(), QString("stopped"));
        QVERIFY2(first.out.contains("sweep stopped: run it again"), qPrintable(first.out));
        continueAndCompare(ws, first);
    }

    void refusesABadSweep()
    {
        const QString bad = dir_.filePath("bad.yaml");
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(sweepYaml("    optimizer.momentum: {uniform: [0.99, 0.8]}\n").toUtf8());
        f.close();
        const Result r = cli({"sweep", bad, "--workspace", dir_.filePath("bad")});
        QCOMPARE(r.exitCode, 1);
        const QStringList lines = sweepYaml("    optimizer.momentum: {uniform: [0.99, 0.8]}\n").split('\n');
        const int line = int(lines.indexOf("    optimizer.momentum: {uniform: [0.99, 0.8]}")) + 1;
        const QString place = QString("%1:%2:%3: ").arg(bad).arg(line).arg(lines[line - 1].indexOf('[') + 1);
        QVERIFY2(r.err.contains(place + "uniform: min 0.99 is greater than max 0.8"), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(dir_.filePath("bad")));  // nothing ran
    }
};

QTEST_GUILESS_MAIN(TestSweepCommand)
#include "tst_sweep_command.moc"
