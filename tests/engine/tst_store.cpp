// The run store (engine/store): schema and migrations, refusal of files that are not ours
// (without touching them), faithful NaN/inf, summaries, incremental reads, crash detection
// (a dead pid, a stale heartbeat, a writer killed with SIGKILL), a reader beside a busy
// writer, deletion, write failures and the RunRecorder's mapping of trainer events.
#include <QtTest>

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <random>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "io/yaml/experiment_yaml.h"
#include "store/database.h"
#include "store/point_chunk.h"
#include "store/run_reader.h"
#include "jobs/run_recorder.h"
#include "store/run_writer.h"
#include "store/schema.h"

using namespace ts;
namespace fs = std::filesystem;

namespace {

// The bytes and modification time of a file, to prove a refusal left it alone.
struct Snapshot {
    std::string bytes;
    std::int64_t mtimeNs = 0;
    bool operator==(const Snapshot&) const = default;
};
Snapshot snapshot(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    Snapshot s{std::string(std::istreambuf_iterator<char>(in), {}), 0};
    struct stat st {};
    ::stat(path.c_str(), &st);
    s.mtimeNs = std::int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    return s;
}

NewRun newRun(const std::string& experiment = "exp")
{
    NewRun r;
    r.experimentName = experiment;
    r.experimentYaml = "name: " + experiment + "\n";
    r.parameters = {{"optimizer.lr", "0.001"}, {"optimizer.type", "adam"}};
    r.device = "cpu";
    r.seed = 7;
    r.tags = {"baseline", "small"};
    return r;
}

// The status as stored (RunReader reports a dead process's run as crashed before any writer
// has recorded it; this reads the column itself).
std::string statusOf(const Workspace& w, std::int64_t id)
{
    store::Database db(w.databasePath(), store::Database::Mode::ReadOnly);
    store::Statement s(db, "SELECT status FROM runs WHERE id = ?1");
    s.bind(1, id);
    return s.step() ? s.text(0) : "missing";
}

std::optional<MetricSummary> summaryOf(RunReader& reader, std::int64_t run, const std::string& name)
{
    for (const auto& s : reader.summaries(run))
        if (s.name == name) return s;
    return std::nullopt;
}

// A pid that certainly belongs to no process: a child that has exited and been reaped.
pid_t deadPid()
{
    const pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    ::waitpid(child, nullptr, 0);
    return child;
}

}  // namespace

class TestStore : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    int counter_ = 0;
    Workspace fresh() { return Workspace::open(dir_.filePath(QString("ws%1").arg(++counter_)).toStdString()); }

    void expectRefusal(const std::string& path, const char* expected)
    {
        const Workspace w = Workspace::open(fs::path(path).parent_path().string());
        const Snapshot before = snapshot(path);
        for (int which = 0; which < 2; ++which) {
            try {
                if (which == 0) RunWriter writer(w);
                else RunReader reader(w);
                QFAIL("the file was accepted");
            } catch (const StoreError& e) {
                const std::string message = e.what();
                QVERIFY2(message.find(path) != std::string::npos, e.what());  // names the file
                QVERIFY2(message.find(expected) != std::string::npos, e.what());
            }
        }
        QVERIFY(snapshot(path) == before);
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void statusNames()
    {
        for (RunStatus s : {RunStatus::Queued, RunStatus::Running, RunStatus::Finished, RunStatus::Failed,
                            RunStatus::Stopped, RunStatus::Crashed})
            QCOMPARE(parseRunStatus(runStatusName(s)), std::optional<RunStatus>(s));
        QCOMPARE(std::string(runStatusName(RunStatus::Crashed)), std::string("crashed"));
        QVERIFY(!parseRunStatus("Running"));
    }

    void workspaceFolders()
    {
        const Workspace w = fresh();
        QVERIFY(fs::is_directory(w.checkpointsPath()));
        QCOMPARE(w.databasePath(), w.directory + "/studio.db");
        QCOMPARE(w.runCheckpointsPath(12), w.directory + "/checkpoints/run_12");
        const QByteArray saved = qgetenv("XDG_DATA_HOME");
        qputenv("XDG_DATA_HOME", "/xdg/data");
        QCOMPARE(Workspace::defaultDirectory(), std::string("/xdg/data/trainstudio/workspace"));
        qunsetenv("XDG_DATA_HOME");
        QVERIFY(Workspace::defaultDirectory().ends_with("/.local/share/trainstudio/workspace"));
        if (!saved.isEmpty()) qputenv("XDG_DATA_HOME", saved);
        std::ofstream(w.directory + "/a_file") << "x";
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, Workspace::open(w.directory + "/a_file/below"));
    }

    void schemaCreated()
    {
        const Workspace w = fresh();
        { RunWriter writer(w); }
        store::Database db(w.databasePath(), store::Database::Mode::ReadOnly);
        QCOMPARE(db.scalar("PRAGMA user_version"), std::int64_t(store::kSchemaVersion));
        QCOMPARE(db.scalar("PRAGMA application_id"), std::int64_t(store::kApplicationId));
        store::Statement mode(db, "PRAGMA journal_mode");
        QVERIFY(mode.step());
        QCOMPARE(mode.text(0), std::string("wal"));
        for (const char* table : {"experiments", "runs", "parameters", "metric_names", "points", "summaries",
                                  "checkpoints", "system_samples", "logs"}) {
            store::Statement t(db, std::string("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '") +
                                       table + "'");
            QVERIFY(t.step());
            QVERIFY2(t.integer(0) == 1, table);
        }
    }

    void migratesVersion1InPlace()
    {
        const Workspace w = fresh();
        {
            store::Database db(w.databasePath(), store::Database::Mode::ReadWriteCreate);
            store::migrate(db, 1);
            db.exec("INSERT INTO experiments (id, name, created) VALUES (1, 'old', 1.0);"
                    "INSERT INTO runs (id, experiment_id, name, status, start_time, end_time) "
                    "VALUES (1, 1, 'old #1', 'finished', 10, 20);"
                    "INSERT INTO metric_names (id, name) VALUES (1, 'loss');"
                    "INSERT INTO summaries VALUES (1, 1, 2, NULL, 1, 2, 0.5, NULL, 0.5, NULL, 0.5, NULL, 1);"
                    "INSERT INTO system_samples (run_id, wall_time, cpu_percent, gpu_percent) VALUES (1, 0.5, 20, 70);");
            const store::PointRecord points[] = {{1, 0.5, 0.1}, {2, std::nan(""), 0.2}};
            store::Statement chunk(db, "INSERT INTO points VALUES (1, 1, 0, 1, 2, 2, ?1)");
            chunk.bindBlob(1, points, sizeof points).run();
            QCOMPARE(db.scalar("PRAGMA user_version"), std::int64_t(1));
        }
        {
            RunWriter writer(w);  // upgrades
            const auto id = writer.createRun(newRun("old"));  // the new column is written
            writer.addMetric(1, "loss", 3, 0.25, 0.3);  // the old run's summary continues
            writer.finishRun(id, RunStatus::Finished, {});
            writer.flush();
        }
        store::Database db(w.databasePath(), store::Database::Mode::ReadOnly);
        QCOMPARE(db.scalar("PRAGMA user_version"), std::int64_t(store::kSchemaVersion));
        QCOMPARE(db.scalar("SELECT pid FROM runs WHERE id = 2"), std::int64_t(::getpid()));
        QCOMPARE(db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'runs_by_status'"), std::int64_t(1));
        RunReader reader(w);
        QCOMPARE(reader.run(1)->name, std::string("old #1"));
        QCOMPARE(reader.run(2)->name, std::string("old #1"));  // numbering restarts: v1 knew no count
        const MetricSeries loss = reader.metric(1, "loss");
        QCOMPARE(loss.steps, (std::vector<std::int64_t>{1, 2, 3}));
        QCOMPARE(loss.values[0], 0.5);
        QVERIFY(std::isnan(loss.values[1]));
        const auto s = summaryOf(reader, 1, "loss");
        QVERIFY(s);
        QCOMPARE(s->count, std::int64_t(3));
        QCOMPARE(s->best, 0.25);
        QCOMPARE(s->bestStep, std::int64_t(3));
        const auto system = reader.systemSamples(1);  // v3's clock column: unknown for old rows
        QCOMPARE(system.size(), std::size_t(1));
        QCOMPARE(system[0].gpuPercent, 70.0);
        QCOMPARE(system[0].gpuClockMHz, -1.0);
    }

    // Schema 3 adds the GPU clock: a version 2 file is read as it is (no clock) by a reader
    // and upgraded in place by the next writer.
    void migratesVersion2InPlace()
    {
        const Workspace w = fresh();
        {
            store::Database db(w.databasePath(), store::Database::Mode::ReadWriteCreate);
            store::migrate(db, 2);
            db.exec("INSERT INTO experiments (id, name, created) VALUES (1, 'old', 1.0);"
                    "INSERT INTO runs (id, experiment_id, name, status, start_time, end_time) "
                    "VALUES (1, 1, 'old #1', 'finished', 10, 20);"
                    "INSERT INTO system_samples (run_id, wall_time, cpu_percent, gpu_percent, gpu_power_watts) "
                    "VALUES (1, 0.5, 20, 70, 300);");
        }
        {
            RunReader old(w);  // read-only: the file stays at version 2
            const auto system = old.systemSamples(1);
            QCOMPARE(system.size(), std::size_t(1));
            QCOMPARE(system[0].gpuPowerWatts, 300.0);
            QCOMPARE(system[0].gpuClockMHz, -1.0);
        }
        {
            store::Database db(w.databasePath(), store::Database::Mode::ReadOnly);
            QCOMPARE(db.scalar("PRAGMA user_version"), std::int64_t(2));
        }
        std::int64_t id = 0;
        {
            RunWriter writer(w);  // upgrades
            id = writer.createRun(newRun("old"));
            SystemSample sample;
            sample.wallTime = 1;
            sample.gpuPercent = 99;
            sample.gpuClockMHz = 1980;
            writer.addSystemSample(id, sample);
            writer.finishRun(id, RunStatus::Finished, {});
            writer.flush();
        }
        store::Database db(w.databasePath(), store::Database::Mode::ReadOnly);
        QCOMPARE(db.scalar("PRAGMA user_version"), std::int64_t(store::kSchemaVersion));
        QCOMPARE(db.scalar("SELECT count(*) FROM pragma_table_info('system_samples') WHERE name = 'gpu_clock_mhz'"),
                 std::int64_t(1));
        RunReader reader(w);
        QCOMPARE(reader.systemSamples(1)[0].gpuClockMHz, -1.0);  // NULL in the old row
        const auto fresh = reader.systemSamples(id);
        QCOMPARE(fresh.size(), std::size_t(1));
        QCOMPARE(fresh[0].gpuClockMHz, 1980.0);
        QCOMPARE(fresh[0].gpuPercent, 99.0);
    }

    void refusesNewerSchema()
    {
        const Workspace w = fresh();
        { RunWriter writer(w); }
        {
            store::Database db(w.databasePath(), store::Database::Mode::ReadWrite);
            db.exec("PRAGMA user_version = 99; PRAGMA journal_mode = DELETE");
        }
        expectRefusal(w.databasePath(), "newer TrainStudio (schema 99");
    }

    void refusesForeignDatabase()
    {
        const Workspace w = fresh();
        {
            store::Database db(w.databasePath(), store::Database::Mode::ReadWriteCreate);
            db.exec("CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('x'); PRAGMA application_id = 1234");
        }
        expectRefusal(w.databasePath(), "not a TrainStudio database");
        // The same without an application id: other tables are enough to say "not ours".
        const Workspace v = fresh();
        {
            store::Database db(v.databasePath(), store::Database::Mode::ReadWriteCreate);
            db.exec("CREATE TABLE notes (body TEXT)");
        }
        expectRefusal(v.databasePath(), "not a TrainStudio database");
    }

    void refusesNonSqliteFile()
    {
        const Workspace w = fresh();
        std::ofstream(w.databasePath()) << "these are my notes, not a database\n";
        expectRefusal(w.databasePath(), "not a SQLite file");
    }

    void nonFiniteValuesRoundTrip()
    {
        const Workspace w = fresh();
        std::int64_t id;
        const double inf = HUGE_VAL;
        {
            RunWriter writer(w);
            id = writer.createRun(newRun());
            const double values[] = {1.5, std::nan(""), inf, -inf, -0.0, 1e-300};
            for (int i = 0; i < 6; ++i) writer.addMetric(id, "acc", i, values[i], 0.5 * i);
            writer.flush();
        }
        RunReader reader(w);
        const MetricSeries s = reader.metric(id, "acc");
        QCOMPARE(s.values.size(), std::size_t(6));
        QCOMPARE(s.values[0], 1.5);
        QVERIFY(std::isnan(s.values[1]));
        QCOMPARE(s.values[2], inf);
        QCOMPARE(s.values[3], -inf);
        QVERIFY(s.values[4] == 0.0);
        QCOMPARE(s.values[5], 1e-300);
        QCOMPARE(s.wallTimes[3], 1.5);
        const auto summary = summaryOf(reader, id, "acc");
        QCOMPARE(summary->min, -inf);
        QCOMPARE(summary->max, inf);
        QCOMPARE(summary->best, inf);  // accuracy: higher is better
        QCOMPARE(summary->bestStep, std::int64_t(2));
    }

    void summariesAsPointsArrive()
    {
        const Workspace w = fresh();
        std::int64_t id;
        {
            RunWriter writer(w);
            id = writer.createRun(newRun());
            const double loss[] = {3, 2, 2.5, 1, std::nan("")};
            for (int i = 0; i < 5; ++i) writer.addMetric(id, "val_loss", i + 1, loss[i], i);
            const double acc[] = {0.1, 0.5, 0.3};
            for (int i = 0; i < 3; ++i) writer.addMetric(id, "val_acc", i + 1, acc[i], i);
            writer.addMetric(id, "only_nan", 1, std::nan(""), 0);
            const double noGoal[] = {3, 1, 2};  // grad_norm: neither direction is better
            for (int i = 0; i < 3; ++i) writer.addMetric(id, "grad_norm", i + 1, noGoal[i], i);
            for (int i = 0; i < 3; ++i) writer.addMetric(id, "data_wait_s", i + 1, noGoal[i], i);  // less waiting is better
            writer.flush();
        }
        RunReader reader(w);
        auto gradNorm = summaryOf(reader, id, "grad_norm");
        QVERIFY(std::isnan(gradNorm->best));  // no best (it used to be the max, 3)
        QCOMPARE(gradNorm->min, 1.0);
        QCOMPARE(gradNorm->max, 3.0);
        QCOMPARE(summaryOf(reader, id, "data_wait_s")->best, 1.0);  // the min (it used to be the max)
        auto loss = summaryOf(reader, id, "val_loss");
        QCOMPARE(loss->count, std::int64_t(5));
        QVERIFY(std::isnan(loss->last));  // the last value, NaN included
        QCOMPARE(loss->lastStep, std::int64_t(5));
        QCOMPARE(loss->min, 1.0);  // NaN ignored
        QCOMPARE(loss->max, 3.0);
        QCOMPARE(loss->best, 1.0);  // loss: lower is better
        QCOMPARE(loss->bestStep, std::int64_t(4));
        auto acc = summaryOf(reader, id, "val_acc");
        QCOMPARE(acc->best, 0.5);
        QCOMPARE(acc->bestStep, std::int64_t(2));
        QCOMPARE(acc->last, 0.3);
        auto nan = summaryOf(reader, id, "only_nan");
        QCOMPARE(nan->count, std::int64_t(1));
        QVERIFY(std::isnan(nan->min) && std::isnan(nan->best));
        // A second writer (a resumed run) continues the summary instead of starting over.
        {
            RunWriter writer(w);
            writer.addMetric(id, "val_loss", 6, 0.5, 6);
            writer.flush();
        }
        RunReader again(w);
        loss = summaryOf(again, id, "val_loss");
        QCOMPARE(loss->count, std::int64_t(6));
        QCOMPARE(loss->best, 0.5);
        QCOMPARE(loss->bestStep, std::int64_t(6));
        QCOMPARE(loss->max, 3.0);
        // The run list carries the summaries, newest run first; parameters keep numbers.
        const auto list = again.listRuns();
        QCOMPARE(list.size(), std::size_t(1));
        QCOMPARE(list[0].summaries.size(), std::size_t(5));
        QCOMPARE(list[0].run.tags, (std::vector<std::string>{"baseline", "small"}));
        QCOMPARE(list[0].run.name, std::string("exp #1"));
        QCOMPARE(again.metricNames(id),
                 (std::vector<std::string>{"data_wait_s", "grad_norm", "only_nan", "val_acc", "val_loss"}));
        store::Database db(w.databasePath(), store::Database::Mode::ReadOnly);
        store::Statement num(db, "SELECT number FROM parameters WHERE key = 'optimizer.lr'");
        QVERIFY(num.step());
        QCOMPARE(num.real(0), 0.001);
        store::Statement text(db, "SELECT number IS NULL FROM parameters WHERE key = 'optimizer.type'");
        QVERIFY(text.step());
        QCOMPARE(text.integer(0), std::int64_t(1));
    }

    void incrementalMetricReads()
    {
        const Workspace w = fresh();
        RunWriter writer(w);
        const auto id = writer.createRun(newRun());
        for (int i = 0; i < 100; ++i) writer.addMetric(id, "loss", i, 100.0 - i, i);
        writer.flush();
        RunReader reader(w);
        const MetricSeries all = reader.metric(id, "loss");
        QCOMPARE(all.steps.size(), std::size_t(100));
        const MetricSeries tail = reader.metric(id, "loss", 49);
        QCOMPARE(tail.steps.size(), std::size_t(50));
        QCOMPARE(tail.steps.front(), std::int64_t(50));
        QCOMPARE(tail.values.front(), 50.0);
        QVERIFY(reader.metric(id, "loss", 99).steps.empty());
        QVERIFY(reader.metric(id, "no_such_metric").steps.empty());
        const auto version = reader.dataVersion();
        writer.addMetric(id, "loss", 100, 0.0, 100);
        writer.flush();
        QVERIFY(reader.dataVersion() != version);  // another connection committed
        QCOMPARE(reader.metric(id, "loss", 99).steps, (std::vector<std::int64_t>{100}));

        // Across chunk boundaries (store/point_chunk.h), and over steps logged again (a run
        // resumed from an earlier checkpoint): one point per step, the latest value.
        const auto big = writer.createRun(newRun());
        for (int i = 0; i < 3000; ++i) writer.addMetric(big, "loss", i, i, i);
        writer.flush();
        for (int i = 2990; i < 3010; ++i) writer.addMetric(big, "loss", i, -i, i);
        writer.flush();
        const MetricSeries whole = reader.metric(big, "loss");
        QCOMPARE(whole.steps.size(), std::size_t(3010));
        for (std::size_t i = 0; i < whole.steps.size(); ++i) QCOMPARE(whole.steps[i], std::int64_t(i));
        QCOMPARE(whole.values[2989], 2989.0);
        QCOMPARE(whole.values[2990], -2990.0);
        const MetricSeries after = reader.metric(big, "loss", 1500);
        QCOMPARE(after.steps.size(), std::size_t(1509));
        QCOMPARE(after.steps.front(), std::int64_t(1501));
    }

    void crashedRunsDetectedOnOpen()
    {
        const Workspace w = fresh();
        std::int64_t deadId, staleId, liveId;
        {
            RunWriter writer(w);
            deadId = writer.createRun(newRun());
            staleId = writer.createRun(newRun());
            liveId = writer.createRun(newRun());
        }  // closed without finishing: all three are still "running"
        {
            store::Database db(w.databasePath(), store::Database::Mode::ReadWrite);
            db.exec("UPDATE runs SET pid = " + std::to_string(deadPid()) + " WHERE id = " + std::to_string(deadId));
            db.exec("UPDATE runs SET heartbeat = heartbeat - 100 WHERE id = " + std::to_string(staleId));
        }
        QCOMPARE(statusOf(w, deadId), std::string("running"));  // reading changes nothing
        {
            // ... but a reader already reports what the next writer will record.
            RunReader early(w);
            QCOMPARE(early.run(deadId)->status, RunStatus::Crashed);
            QCOMPARE(early.run(staleId)->status, RunStatus::Crashed);
            QCOMPARE(early.run(liveId)->status, RunStatus::Running);
            QCOMPARE(early.listRuns().size(), std::size_t(3));
        }
        { RunWriter writer(w); }
        QCOMPARE(statusOf(w, deadId), std::string("crashed"));
        QCOMPARE(statusOf(w, staleId), std::string("crashed"));  // our pid is alive, but no heartbeat for 100 s
        QCOMPARE(statusOf(w, liveId), std::string("running"));   // alive (this process) and recent
        RunReader reader(w);
        QVERIFY(reader.run(deadId)->endTime > 0);
        QCOMPARE(reader.run(deadId)->message, makeMessage(MessageId::RunCrashed));
    }

    void heartbeatKeepsOpenRunsAlive()
    {
        const Workspace w = fresh();
        RunWriter writer(w);
        const auto id = writer.createRun(newRun());
        const double first = RunReader(w).run(id)->heartbeat;
        QTRY_VERIFY_WITH_TIMEOUT(RunReader(w).run(id)->heartbeat > first + 4, 8000);
    }

    void readerBesideBusyWriter()
    {
        const Workspace w = fresh();
        RunWriter writer(w);
        const auto id = writer.createRun(newRun());
        writer.flush();
        RunReader reader(w);
        // A reader holding a read transaction open does not block the writer's commits.
        store::Database held(w.databasePath(), store::Database::Mode::ReadOnly);
        held.exec("BEGIN");
        QCOMPARE(held.scalar("SELECT count(*) FROM points"), std::int64_t(0));
        constexpr int total = 200000;
        std::atomic<bool> done = false;
        std::thread producer([&] {
            for (int i = 0; i < total; ++i) {
                writer.addMetric(id, "loss", i, 1.0 / (i + 1), i * 1e-3);
                if (i % 20000 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
            }
            writer.flush();
            done = true;
        });
        std::size_t seen = 0, reads = 0;
        std::int64_t lastStep = -1;
        for (;;) {
            const bool finished = done;  // read before: a final read after it sees every point
            const MetricSeries s = reader.metric(id, "loss", lastStep);  // incremental, like a chart
            for (std::size_t i = 0; i < s.steps.size(); ++i) QCOMPARE(s.steps[i], lastStep + 1 + std::int64_t(i));
            if (!s.steps.empty()) lastStep = s.steps.back();
            seen += s.steps.size();
            ++reads;
            if (finished && s.steps.empty()) break;
        }
        producer.join();
        QCOMPARE(seen, std::size_t(total));
        QVERIFY(reads > 1);
        QCOMPARE(held.scalar("SELECT count(*) FROM points"), std::int64_t(0));  // its snapshot
        held.exec("COMMIT");
        QCOMPARE(held.scalar("SELECT sum(count) FROM points"), std::int64_t(total));
        QVERIFY(writer.stats().commits > 1);
    }

    void deleteRunRemovesRowsAndFolder()
    {
        const Workspace w = fresh();
        RunWriter writer(w);
        const auto id = writer.createRun(newRun());
        const auto other = writer.createRun(newRun());
        fs::create_directories(w.runCheckpointsPath(id));
        std::ofstream(w.runCheckpointsPath(id) + "/epoch_001.safetensors") << "weights";
        writer.addMetric(id, "loss", 1, 0.5, 0);
        writer.addLog(id, {1.0, "info", ts::Message{"hello"}});
        writer.addSystemSample(id, SystemSample{});
        CheckpointRecord c;
        c.runId = id;
        c.path = "run_" + std::to_string(id) + "/epoch_001.safetensors";
        writer.addCheckpoint(c);
        writer.addMetric(other, "loss", 1, 0.5, 0);
        QVERIFY_THROWS_EXCEPTION(StoreError, writer.deleteRun(id));  // still running here
        writer.finishRun(id, RunStatus::Finished, {});
        writer.deleteRun(id);
        QVERIFY(!fs::exists(w.runCheckpointsPath(id)));
        QVERIFY_THROWS_EXCEPTION(StoreError, writer.deleteRun(id));  // no such run now
        RunReader reader(w);
        QVERIFY(!reader.run(id));
        store::Database db(w.databasePath(), store::Database::Mode::ReadOnly);
        for (const char* table : {"points", "summaries", "logs", "system_samples", "checkpoints", "parameters"})
            QCOMPARE(db.scalar(std::string("SELECT count(*) FROM ") + table + " WHERE run_id = " + std::to_string(id)),
                     std::int64_t(0));
        QCOMPARE(reader.metric(other, "loss").steps.size(), std::size_t(1));
        // Rows queued for a deleted run are dropped alone, and reported once.
        writer.addMetric(id, "loss", 2, 0.5, 0);
        writer.addMetric(other, "loss", 2, 0.25, 0);
        QVERIFY_THROWS_EXCEPTION(StoreError, writer.flush());
        writer.flush();
        QCOMPARE(reader.metric(other, "loss").steps.size(), std::size_t(2));
    }

    void editsAreSynchronous()
    {
        const Workspace w = fresh();
        RunWriter writer(w);
        const auto id = writer.createRun(newRun());
        writer.renameRun(id, "renamed");
        writer.setNotes(id, "a note");
        writer.setTags(id, {"a", "b\nc"});
        const auto run = RunReader(w).run(id);
        QCOMPARE(run->name, std::string("renamed"));
        QCOMPARE(run->notes, std::string("a note"));
        QCOMPARE(run->tags, (std::vector<std::string>{"a", "b c"}));
        QCOMPARE(run->experimentYaml, std::string("name: exp\n"));
        QCOMPARE(run->host.empty(), false);
        QCOMPARE(run->seed, std::uint64_t(7));
        QVERIFY_THROWS_EXCEPTION(StoreError, writer.renameRun(9999, "x"));
        const auto child = [&] {
            NewRun r = newRun();
            r.parentRunId = id;
            r.parentRelation = "resume";
            return writer.createRun(r);
        }();
        QCOMPARE(RunReader(w).run(child)->parentRunId, std::optional<std::int64_t>(id));
        QCOMPARE(RunReader(w).run(child)->name, std::string("exp #2"));
    }

    // A write that cannot happen yet (here: another connection holds the write lock past the
    // busy timeout, which works even as root, where chmod restricts nothing) is reported by
    // flush(); the rows wait, and once the lock is free they are written, then later rows.
    void lockedDatabaseKeepsRowsUntilItIsFree()
    {
        const Workspace w = fresh();
        RunWriter writer(w);
        const auto id = writer.createRun(newRun());
        writer.flush();
        {
            store::Database blocker(w.databasePath(), store::Database::Mode::ReadWrite);
            blocker.exec("BEGIN IMMEDIATE");
            writer.addMetric(id, "loss", 1, 1.0, 0);
            try {
                writer.flush();
                QFAIL("the failure was not reported");
            } catch (const StoreError& e) {
                QVERIFY2(std::string(e.what()).find(w.databasePath()) != std::string::npos, e.what());
                QVERIFY2(std::string(e.what()).find("locked") != std::string::npos, e.what());
            }
            QVERIFY(writer.writeFailing());  // the point waits for a retry, not dropped
            blocker.exec("ROLLBACK");
        }
        writer.addMetric(id, "loss", 2, 0.5, 0);
        writer.flush();  // the retry writes the point that waited, then the new one
        QVERIFY(!writer.writeFailing());
        RunReader reader(w);
        QCOMPARE(reader.metric(id, "loss").steps, (std::vector<std::int64_t>{1, 2}));
        QCOMPARE(summaryOf(reader, id, "loss")->count, std::int64_t(2));
    }

    void killedWriterLeavesConsistentDatabase()
    {
        const Workspace w = fresh();
        { RunWriter writer(w); }  // create the schema before forking
        int pipeFd[2];
        QVERIFY(::pipe(pipeFd) == 0);
        const pid_t child = ::fork();
        if (child == 0) {
            ::close(pipeFd[0]);
            try {
                RunWriter writer(w);
                const std::int64_t id = writer.createRun(newRun());
                for (std::int64_t step = 0;; ++step) {
                    writer.addMetric(id, "loss", step, 1.0 / double(step + 1), double(step) * 1e-3);
                    writer.addMetric(id, "acc", step, double(step % 100) / 100, double(step) * 1e-3);
                    // The kill's clock starts once some points are committed: a slow start (a
                    // sanitizer build) must not leave the store without any to check.
                    if (step == 100) {
                        writer.flush();
                        if (::write(pipeFd[1], &id, sizeof id) != sizeof id) ::_exit(2);
                    }
                    if (step % 1000 == 0) writer.addLog(id, {store::unixNow(), "info", ts::Message{"step"}});
                    if (step % 2000 == 0) ::usleep(1000);
                }
            } catch (...) {
                ::_exit(3);
            }
        }
        ::close(pipeFd[1]);
        std::int64_t id = 0;
        QCOMPARE(::read(pipeFd[0], &id, sizeof id), ssize_t(sizeof id));
        ::close(pipeFd[0]);
        std::mt19937 rng(std::random_device{}());
        std::this_thread::sleep_for(std::chrono::milliseconds(std::uniform_int_distribution<int>(100, 700)(rng)));
        QCOMPARE(::kill(child, SIGKILL), 0);
        int status = 0;
        ::waitpid(child, &status, 0);
        QVERIFY(WIFSIGNALED(status));
        {
            store::Database db(w.databasePath(), store::Database::Mode::ReadWrite);
            store::Statement check(db, "PRAGMA integrity_check");
            QVERIFY(check.step());
            QCOMPARE(check.text(0), std::string("ok"));
        }
        { RunWriter writer(w); }
        QCOMPARE(statusOf(w, id), std::string("crashed"));
        RunReader reader(w);
        const MetricSeries loss = reader.metric(id, "loss");
        QVERIFY(!loss.steps.empty());
        // Points and their summary commit together: nothing half-written.
        QCOMPARE(summaryOf(reader, id, "loss")->count, std::int64_t(loss.steps.size()));
        QCOMPARE(loss.steps.back(), std::int64_t(loss.steps.size()) - 1);
    }

    void recorderMapsEveryEvent()
    {
        const Workspace w = fresh();
        RunWriter writer(w);
        const auto id = writer.createRun(newRun());
        RunRecorder recorder(writer, id);
        const std::string dir = w.runCheckpointsPath(id);

        StepEvent step;
        step.step = 10;
        step.epoch = 1;
        step.loss = 2.0;
        step.lr = 0.1;
        step.gradNorm = 3.0;
        step.layerGradNorms = {{"fc1.weight", 0.5}};
        step.samplesPerSecond = 100;
        step.dataWaitSeconds = 0.01;
        step.wallTime = 1.5;
        recorder.onEvent(step);
        recorder.onEvent(EpochEvent{1, 10, {{"val_acc", 0.8}, {"train_loss", 1.9}}, 2.0, 0.0, 0.2});
        recorder.onEvent(EpochEvent{2, 12, {{"train_loss", 1.5}}, 1.0, 1.5, 0.0});  // paused 1.5 s in epoch 2
        recorder.onEvent(LogEvent{LogEvent::Level::Warning, Message{"careful"}});
        CheckpointEvent first;
        first.record.path = dir + "/old.safetensors";
        first.record.step = 5;
        recorder.onEvent(first);
        CheckpointEvent ckpt;
        ckpt.record.path = dir + "/epoch_001.safetensors";
        ckpt.record.statePath = dir + "/epoch_001.state";
        ckpt.record.step = 10;
        ckpt.record.epoch = 1;
        ckpt.record.metricName = "val_acc";
        ckpt.record.metricValue = 0.8;
        ckpt.record.best = true;
        ckpt.record.sizeBytes = 1234;
        ckpt.record.sha256 = "ab";
        ckpt.record.stateSha256 = "cd";
        ckpt.record.createdTime = 5.0;
        ckpt.removed = {dir + "/old.safetensors"};
        recorder.onEvent(ckpt);
        SystemSample sample;
        sample.wallTime = 1.6;
        sample.cpuPercent = 50;
        sample.ramBytes = 1e9;
        sample.gpuClockMHz = 1755;
        recorder.onEvent(SystemEvent{10, sample});
        recorder.onEvent(FinishedEvent{FinishedEvent::Outcome::EarlyStopped, {}, {{"test_acc", 0.79}}});
        writer.flush();

        RunReader reader(w);
        const auto names = reader.metricNames(id);
        for (const char* name : {"loss", "lr", "grad_norm", "samples_per_s", "data_wait_s", "grad_norm/fc1.weight",
                                 "val_acc", "train_loss", "epoch", "data_wait_fraction", "test_acc", "paused_s"})
            QVERIFY2(std::find(names.begin(), names.end(), name) != names.end(), name);
        QCOMPARE(names.size(), std::size_t(12));
        QCOMPARE(reader.metric(id, "paused_s").values, (std::vector<double>{1.5}));  // from the first pause on
        QCOMPARE(pausedSeconds(reader.summaries(id)), 1.5);
        QCOMPARE(reader.metric(id, "grad_norm/fc1.weight").values, (std::vector<double>{0.5}));
        QCOMPARE(reader.metric(id, "val_acc").steps, (std::vector<std::int64_t>{10}));
        QCOMPARE(reader.metric(id, "val_acc").wallTimes, (std::vector<double>{1.5}));
        QCOMPARE(reader.metric(id, "epoch").values, (std::vector<double>{1.0, 2.0}));
        QCOMPARE(reader.metric(id, "data_wait_fraction").values, (std::vector<double>{0.2, 0.0}));
        QCOMPARE(reader.metric(id, "test_acc").steps, (std::vector<std::int64_t>{12}));
        // The log keeps what the live log shows, in order: the epoch, the warning, each
        // checkpoint, then how the run ended.
        const auto logs = reader.logs(id);
        QCOMPARE(logs.size(), std::size_t(6));
        QCOMPARE(logs[0].message.text, std::string("epoch 1 done in 2.0 s: train_loss 1.9 val_acc 0.8"));
        QCOMPARE(logs[1].message.text, std::string("epoch 2 done in 1.0 s (paused 1.5 s): train_loss 1.5"));
        QCOMPARE(logs[2].level, std::string("warning"));
        QCOMPARE(logs[2].message.text, std::string("careful"));
        QCOMPARE(logs[3].message.text, std::string("checkpoint saved: run_1/old.safetensors"));
        QCOMPARE(logs[4].message.text, std::string("checkpoint saved: run_1/epoch_001.safetensors (best)"));
        QCOMPARE(logs[5].message.text, std::string("stopped early"));
        // Each line the recorder words itself keeps its id and arguments for the studio.
        QCOMPARE(logs[0].message.id, std::string("run.epoch_done"));
        QCOMPARE(logs[0].message.args, (std::vector<std::string>{"1", "2.0", "train_loss 1.9 val_acc 0.8"}));
        QCOMPARE(logs[1].message.id, std::string("run.epoch_done_paused"));
        QCOMPARE(logs[2].message.id, std::string());  // a plain text line stays plain
        QCOMPARE(logs[4].message.id, std::string("run.checkpoint_saved_best"));
        QCOMPARE(logs[5].message.id, std::string("run.stopped_early"));
        const auto run = reader.run(id);
        QCOMPARE(run->status, RunStatus::Finished);  // an early stop finishes the run
        QVERIFY(run->endTime >= run->startTime);
        const auto checkpoints = reader.checkpoints(id);
        QCOMPARE(checkpoints.size(), std::size_t(1));  // the old one was removed
        const std::string rel = "run_" + std::to_string(id) + "/epoch_001";
        QCOMPARE(checkpoints[0].path, rel + ".safetensors");
        QCOMPARE(checkpoints[0].statePath, rel + ".state");
        QVERIFY(checkpoints[0].best);
        QCOMPARE(checkpoints[0].metricValue, 0.8);
        QCOMPARE(checkpoints[0].sizeBytes, std::int64_t(1234));
        QCOMPARE(checkpoints[0].stateSha256, std::string("cd"));
        const auto system = reader.systemSamples(id);
        QCOMPARE(system.size(), std::size_t(1));
        QCOMPARE(system[0].cpuPercent, 50.0);
        QCOMPARE(system[0].gpuPercent, -1.0);
        QCOMPARE(system[0].gpuClockMHz, 1755.0);

        // The other outcomes.
        for (auto [outcome, expected] : {std::pair{FinishedEvent::Outcome::Failed, RunStatus::Failed},
                                         std::pair{FinishedEvent::Outcome::Stopped, RunStatus::Stopped},
                                         std::pair{FinishedEvent::Outcome::Finished, RunStatus::Finished}}) {
            const auto other = writer.createRun(newRun());
            RunRecorder r(writer, other);
            r.onEvent(FinishedEvent{outcome, Message{outcome == FinishedEvent::Outcome::Failed ? "out of memory" : ""}, {}});
            writer.flush();
            const auto info = RunReader(w).run(other);
            QCOMPARE(info->status, expected);
            if (expected == RunStatus::Failed) {
                QCOMPARE(info->message.text, std::string("out of memory"));
                QCOMPARE(RunReader(w).logs(other).at(0).level, std::string("error"));
            }
        }
    }

    // A log line's and a run's message come back as they were written: id, arguments (an
    // empty one and non-ASCII text included) and English text.
    void messagesRoundTrip()
    {
        const Workspace w = fresh();
        RunWriter writer(w);
        const auto id = writer.createRun(newRun());
        const Message paused = makeMessage(MessageId::TrainPaused, {"42"});
        const Message loading = makeMessage(MessageId::JobLoadingData, {"/数据/fashion mnist"});
        const Message empty = makeMessage(MessageId::RunEpochDone, {"3", "1.5", ""});
        writer.addLog(id, {1.0, "info", paused});
        writer.addLog(id, {2.0, "info", loading});
        writer.addLog(id, {3.0, "info", empty});
        writer.addLog(id, {4.0, "warning", Message{"plain text"}});
        const Message done = makeMessage(MessageId::TrainFinished, {"2", "3750"});
        writer.finishRun(id, RunStatus::Finished, done);
        writer.flush();

        RunReader reader(w);
        const auto logs = reader.logs(id);
        QCOMPARE(logs.size(), std::size_t(4));
        QCOMPARE(logs[0].message, paused);
        QCOMPARE(logs[0].message.text, std::string("paused at step 42"));
        QCOMPARE(logs[1].message, loading);
        QCOMPARE(logs[2].message, empty);
        QCOMPARE(logs[2].message.args.size(), std::size_t(3));
        QCOMPARE(logs[3].message, Message{"plain text"});
        QCOMPARE(reader.run(id)->message, done);
        QCOMPARE(reader.listRuns().at(0).run.message, done);
    }

    // Schema 5 adds the message columns: lines and run messages of a version 4 file read as
    // plain text, by a reader of the old file and after the writer upgrades it.
    void migratesVersion4InPlace()
    {
        const Workspace w = fresh();
        {
            store::Database db(w.databasePath(), store::Database::Mode::ReadWriteCreate);
            store::migrate(db, 4);
            db.exec("INSERT INTO experiments (id, name, created) VALUES (1, 'old', 1.0);"
                    "INSERT INTO runs (id, experiment_id, name, status, start_time, end_time, message) "
                    "VALUES (1, 1, 'old #1', 'finished', 10, 20, 'finished 1 epoch(s)');"
                    "INSERT INTO logs (run_id, time, level, message) VALUES (1, 15, 'info', 'paused at step 7');");
        }
        const auto expectOld = [](RunReader& reader) {
            QCOMPARE(reader.run(1)->message, Message{"finished 1 epoch(s)"});
            const auto logs = reader.logs(1);
            QCOMPARE(logs.size(), std::size_t(1));
            QCOMPARE(logs[0].message, Message{"paused at step 7"});
        };
        {
            RunReader old(w);  // read-only: the file stays at version 4
            expectOld(old);
        }
        {
            RunWriter writer(w);  // upgrades
            const auto id = writer.createRun(newRun("old"));
            writer.addLog(id, {16.0, "info", makeMessage(MessageId::TrainPaused, {"8"})});
            writer.flush();
        }
        store::Database db(w.databasePath(), store::Database::Mode::ReadOnly);
        QCOMPARE(db.scalar("PRAGMA user_version"), std::int64_t(store::kSchemaVersion));
        RunReader reader(w);
        expectOld(reader);
        QCOMPARE(reader.logs(2).at(0).message, makeMessage(MessageId::TrainPaused, {"8"}));
    }

    void flattensExperiments()
    {
        const ExperimentSpec spec = parseExperiment(R"(name: t
dataset: {format: idx, path: /nowhere, normalize: {mean: [0.5], std: [0.25]}}
model:
  layers:
    - Flatten
    - Linear: {out_features: 256}
    - ReLU
    - Linear: {name: fc2, out_features: 10}
    - CrossEntropy
optimizer: {type: adam, lr: 0.001}
training:
  epochs: 10
  batch_size: 8
)",
                                                    "x.yaml");
        const auto flat = flattenExperiment(spec);
        auto value = [&](const std::string& key) -> std::string {
            for (const auto& [k, v] : flat)
                if (k == key) return v;
            return "<missing " + key + ">";
        };
        QCOMPARE(value("optimizer.lr"), std::string("0.001"));
        QCOMPARE(value("optimizer.type"), std::string("adam"));
        QCOMPARE(value("training.batch_size"), std::string("8"));
        QCOMPARE(value("model.layers.0"), std::string("Flatten"));
        QCOMPARE(value("model.layers.1.Linear.out_features"), std::string("256"));
        QCOMPARE(value("model.layers.3.Linear.name"), std::string("fc2"));
        QCOMPARE(value("dataset.normalize.mean.0"), std::string("0.5"));
        QCOMPARE(value("name"), std::string("t"));
    }
};

QTEST_GUILESS_MAIN(TestStore)
#include "tst_store.moc"
