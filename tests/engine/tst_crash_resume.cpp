// The run store and checkpoints against a real crash, through the real CLI: a training
// process is killed with SIGKILL at a random moment after its first checkpoint; the database
// passes PRAGMA integrity_check, the run shows as crashed, and `train --resume RUN` finishes
// it with per-step losses bit-identical to an uninterrupted run's. A killed run ends at its
// last heartbeat, which follows training to within a commit.
#include <QDateTime>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <filesystem>

#include "child_process.h"
#include "store/run_reader.h"
#include "store/run_writer.h"

using namespace ts;

namespace {

// 300 CSV rows, 8 steps an epoch: long enough to be killed mid-run, short enough for CI.
QString writeExperiment(const QString& dir)
{
    const QString path = dir + "/long_tabular.yaml";
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write(QString(R"(name: long_tabular
dataset:
  format: csv
  path: %1/experiments/data/wine_like.csv
  label_column: cultivar
  feature_columns: [alcohol, malic_acid, color_intensity, hue, proline]
  validation_fraction: 0.2
  normalize: {from_statistics: true}
  loader: {num_workers: 0}
model:
  layers:
    - Linear: {out_features: 32}
    - ReLU
    - Dropout: {p: 0.1}
    - Linear: {out_features: 3}
    - CrossEntropy
optimizer: {type: adam, lr: 0.003}
schedule: {type: cosine}
training:
  epochs: 6000
  batch_size: 32
  seed: 7
  checkpoint: {every_epochs: 100, keep_last: 3, metric: val_loss}
)")
                .arg(TS_SOURCE_DIR)
                .toUtf8());
    return path;
}

ts::test::ProcessResult cli(const QStringList& args)
{
    return ts::test::runProcess(TS_CLI_EXE, args, QProcessEnvironment::systemEnvironment(), 240000);
}

bool runCli(const QStringList& args, QString* output = nullptr)
{
    const ts::test::ProcessResult r = cli(args);
    if (output) *output = r.out + r.err;
    return r.exitCode == 0;
}

double unixSeconds() { return QDateTime::currentMSecsSinceEpoch() / 1000.0; }

// The start time of run `id`, 0 until the run exists (or the database does).
double runStart(const Workspace& workspace, std::int64_t id)
{
    try {
        RunReader reader(workspace);
        if (const auto run = reader.run(id)) return run->startTime;
    } catch (const StoreError&) {
    }
    return 0;
}

bool hasCheckpoint(const std::string& folder)
{
    std::error_code ec;
    if (!std::filesystem::is_directory(folder, ec)) return false;
    for (const auto& e : std::filesystem::directory_iterator(folder, ec))
        if (e.path().string().ends_with(".state.safetensors")) return true;
    return false;
}

}  // namespace

class TestCrashResume : public QObject {
    Q_OBJECT

private slots:
    void killedRunIsCrashedAndResumesExactly()
    {
        QTemporaryDir dir;
        const QString experiment = writeExperiment(dir.path());
        const QString ws = dir.path() + "/workspace";
        QString out;
        QVERIFY2(runCli({"train", experiment, "--workspace", ws, "--json"}, &out), qPrintable(out));  // run 1

        // Run 2: killed at a random moment after its first checkpoint.
        QProcess victim;
        victim.start(TS_CLI_EXE, {"train", experiment, "--workspace", ws, "--json"});
        QVERIFY(victim.waitForStarted());
        const Workspace workspace = Workspace::open(ws.toStdString());
        QTRY_VERIFY_WITH_TIMEOUT(hasCheckpoint(workspace.runCheckpointsPath(2)), 120000);
        const int delayMs = QRandomGenerator::global()->bounded(0, 400);
        QTest::qWait(delayMs);
        QVERIFY2(victim.state() == QProcess::Running, "the run finished before it could be killed: make it longer");
        ::kill(static_cast<pid_t>(victim.processId()), SIGKILL);
        QVERIFY(victim.waitForFinished(10000));
        qInfo("killed after the first checkpoint + %d ms", delayMs);

        {
            RunReader reader(workspace);
            QCOMPARE(QString::fromStdString(reader.integrityCheck()), QString("ok"));
        }
        { RunWriter opener(workspace); }  // the next open notices the dead process
        RunReader reader(workspace);
        QCOMPARE(reader.run(2)->status, RunStatus::Crashed);

        QVERIFY2(runCli({"train", "--resume", "2", "--workspace", ws, "--json"}, &out), qPrintable(out));  // run 3
        const auto resumed = reader.run(3);
        QVERIFY(resumed);
        QCOMPARE(resumed->status, RunStatus::Finished);
        QCOMPARE(resumed->parentRunId.value_or(0), std::int64_t(2));
        QCOMPARE(QString::fromStdString(resumed->parentRelation), QString("resume"));

        const MetricSeries full = reader.metric(1, "loss"), tail = reader.metric(3, "loss");
        QVERIFY(!tail.steps.empty());
        QCOMPARE(tail.steps.back(), full.steps.back());
        std::map<std::int64_t, double> fullByStep;
        for (std::size_t i = 0; i < full.steps.size(); ++i) fullByStep[full.steps[i]] = full.values[i];
        for (std::size_t i = 0; i < tail.steps.size(); ++i)
            QVERIFY2(fullByStep.at(tail.steps[i]) == tail.values[i],
                     qPrintable(QString("step %1: %2 vs %3").arg(tail.steps[i]).arg(fullByStep.at(tail.steps[i]), 0, 'g', 17)
                                    .arg(tail.values[i], 0, 'g', 17)));
        const auto finalFull = reader.summaries(1), finalTail = reader.summaries(3);
        auto last = [](const std::vector<MetricSummary>& s, const std::string& name) {
            for (const auto& m : s)
                if (m.name == name) return m.last;
            return std::nan("");
        };
        QVERIFY(std::isfinite(last(finalFull, "val_loss")));  // the CSV has no test split: compare validation
        QCOMPARE(last(finalTail, "val_loss"), last(finalFull, "val_loss"));
    }

    // A killed run ends at its last sign of life, and the heartbeat follows training closely:
    // killed 4 s after its start, a run lasted about 4 s. (The heartbeat used to equal the
    // start until the first 5-second beat, so such a run lasted 0.0007 s, with end_time 0.)
    void killedRunEndsAtItsLastHeartbeat()
    {
        QTemporaryDir dir;
        const QString experiment = writeExperiment(dir.path());
        const QString ws = dir.path() + "/workspace";
        QProcess victim;
        victim.start(TS_CLI_EXE, {"train", experiment, "--workspace", ws, "--epochs", "100000", "--json"});
        QVERIFY(victim.waitForStarted());
        const Workspace workspace = Workspace::open(ws.toStdString());
        QTRY_VERIFY_WITH_TIMEOUT(runStart(workspace, 1) > 0, 60000);
        const double start = runStart(workspace, 1);
        // Under the 5 s of the timed beat, so only the heartbeat written as rows commit counts.
        constexpr double kRunSeconds = 4;
        while (unixSeconds() < start + kRunSeconds) QTest::qWait(20);
        QVERIFY2(victim.state() == QProcess::Running, "the run finished before it could be killed: make it longer");
        const double killedAt = unixSeconds();
        ::kill(static_cast<pid_t>(victim.processId()), SIGKILL);
        QVERIFY(victim.waitForFinished(10000));
        const double ran = killedAt - start;

        // The heartbeat is never later than the kill (one clock; 10 ms for rounding), and lags
        // it by a commit interval (200 ms) plus scheduling on a loaded machine: allow 1.5 s.
        auto checkEnd = [&](double endTime, double heartbeat, double duration) {
            QCOMPARE(endTime, heartbeat);
            QVERIFY2(duration > ran - 1.5 && duration < ran + 0.01,
                     qPrintable(QString("lasted %1 s, killed after %2 s").arg(duration).arg(ran)));
        };

        // Read-only, as `runs list` sees it before any writer has stored the crash.
        const ts::test::ProcessResult list = cli({"runs", "list", "--workspace", ws, "--json"});
        QVERIFY2(list.exitCode == 0, qPrintable(list.err));
        const QJsonArray runs = QJsonDocument::fromJson(list.out.toUtf8()).array();
        QCOMPARE(runs.size(), 1);
        const QJsonObject listed = runs[0].toObject();
        QCOMPARE(listed["status"].toString(), QString("crashed"));
        {
            RunReader reader(workspace);
            const double heartbeat = reader.run(1)->heartbeat;
            checkEnd(listed["end_time"].toDouble(), heartbeat, listed["duration_s"].toDouble());
        }
        if (QTest::currentTestFailed()) return;

        { RunWriter opener(workspace); }  // stores the crash
        RunReader reader(workspace);
        const auto run = reader.run(1);
        QCOMPARE(run->status, RunStatus::Crashed);
        checkEnd(run->endTime, run->heartbeat, runDuration(*run));
        qInfo("killed after %.3f s; recorded as lasting %.3f s", ran, runDuration(*run));
    }

    // --fork: a new run from a checkpoint with changed settings, linked to its parent; the
    // changed parameter shows in the store, and training continues from the checkpoint's step.
    void forkStartsALinkedRunWithChangedSettings()
    {
        QTemporaryDir dir;
        const QString experiment = writeExperiment(dir.path());
        const QString ws = dir.path() + "/workspace";
        QString out;
        QVERIFY2(runCli({"train", experiment, "--workspace", ws, "--epochs", "200", "--json"}, &out), qPrintable(out));
        // The fork trains epochs 201-300 of the parent's 200, at a lower learning rate.
        QVERIFY2(runCli({"train", "--fork", "1", "--workspace", ws, "--set", "optimizer.lr=0.0005", "--epochs", "300",
                         "--json"},
                        &out),
                 qPrintable(out));
        RunReader reader(Workspace::open(ws.toStdString()));
        const auto fork = reader.run(2);
        QVERIFY(fork);
        QCOMPARE(fork->status, RunStatus::Finished);
        QCOMPARE(fork->parentRunId.value_or(0), std::int64_t(1));
        QCOMPARE(QString::fromStdString(fork->parentRelation), QString("fork"));
        auto param = [&](std::int64_t run, const std::string& key) {
            for (const auto& [k, v] : reader.parameters(run))
                if (k == key) return QString::fromStdString(v);
            return QString();
        };
        QCOMPARE(param(1, "optimizer.lr").toDouble(), 0.003);
        QCOMPARE(param(2, "optimizer.lr").toDouble(), 0.0005);
        const auto checkpoints = reader.checkpoints(1);
        QVERIFY(!checkpoints.empty());
        const MetricSeries forked = reader.metric(2, "loss");
        QVERIFY(!forked.steps.empty());
        QCOMPARE(forked.steps.front(), checkpoints.back().step + 1);
        // Resuming with changed settings is refused with the way out.
        QVERIFY(!runCli({"train", "--resume", "1", "--workspace", ws, "--set", "optimizer.lr=1"}, &out));
        QVERIFY2(out.contains("--fork"), qPrintable(out));
        // A bad value is read once, with the run's stored experiment: its problem is placed at the
        // line of that text it replaces, and no run starts.
        const QStringList stored = QString::fromStdString(reader.run(1)->experimentYaml).split('\n');
        const auto lrLine = std::find_if(stored.begin(), stored.end(), [](const QString& l) { return l.contains("lr:"); });
        QVERIFY(lrLine != stored.end());
        QVERIFY(!runCli({"train", "--fork", "1", "--workspace", ws, "--set", "optimizer.lr=abc"}, &out));
        QVERIFY2(out.contains(QString(":%1:").arg(lrLine - stored.begin() + 1)) && out.contains("from --set optimizer.lr=abc"),
                 qPrintable(out));
        QVERIFY(!RunReader(Workspace::open(ws.toStdString())).run(3));
    }
};

QTEST_GUILESS_MAIN(TestCrashResume)
#include "tst_crash_resume.moc"
