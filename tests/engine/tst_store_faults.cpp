// Faults of the store and the trainer, in process: a disk that fills up under the run store
// (SQLite's own way of testing it: a VFS that fails writes with SQLITE_FULL, registered as the
// default for this process, so the real SQLite and the real writer meet a real "database or
// disk is full"), a checkpoint that cannot be written (RLIMIT_FSIZE, with SIGXFSZ ignored: the
// write fails with EFBIG as it would with ENOSPC), litter of killed processes, a damaged or
// deleted newest checkpoint, and resuming a run that still trains.
//
// Counts are exact: no point may be lost while the disk is full.
#include <QtTest>

#include <QTemporaryDir>

#include <sqlite3.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <thread>

#include "backend/backend.h"
#include "blob_dataset.h"
#include "data/sample_cache.h"
#include "io/yaml/experiment_yaml.h"
#include "jobs/job.h"
#include "store/resume_source.h"
#include "store/run_reader.h"
#include "store/run_writer.h"
#include "tiny_experiment.h"

using namespace ts;
using namespace ts::test;
namespace fs = std::filesystem;

namespace {

// ---- a VFS whose writes fail while `diskFull` is set -----------------------------------
std::atomic<bool> diskFull{false};
std::atomic<int> failCode{SQLITE_FULL};  // what a write returns while diskFull is set
std::atomic<int> failErrno{0};           // the OS error SQLite then reads (xGetLastError)
sqlite3_vfs* realVfs = nullptr;
sqlite3_vfs fullVfs;
sqlite3_io_methods fullMethods;

struct FullFile {
    sqlite3_file base;
    sqlite3_file* real;  // the real VFS's file, right after this struct
};
sqlite3_file* realOf(sqlite3_file* f) { return reinterpret_cast<FullFile*>(f)->real; }

int fullOpen(sqlite3_vfs*, sqlite3_filename name, sqlite3_file* file, int flags, int* outFlags)
{
    auto* f = reinterpret_cast<FullFile*>(file);
    f->real = reinterpret_cast<sqlite3_file*>(f + 1);
    const int rc = realVfs->xOpen(realVfs, name, f->real, flags, outFlags);
    f->base.pMethods = f->real->pMethods ? &fullMethods : nullptr;
    if (f->real->pMethods && !fullMethods.xClose) {  // every method but xWrite forwards to the real file
        const sqlite3_io_methods* m = f->real->pMethods;
        fullMethods.iVersion = m->iVersion;
        fullMethods.xClose = [](sqlite3_file* x) { return realOf(x)->pMethods->xClose(realOf(x)); };
        fullMethods.xRead = [](sqlite3_file* x, void* p, int n, sqlite3_int64 o) { return realOf(x)->pMethods->xRead(realOf(x), p, n, o); };
        fullMethods.xWrite = [](sqlite3_file* x, const void* p, int n, sqlite3_int64 o) {
            return diskFull ? failCode.load() : realOf(x)->pMethods->xWrite(realOf(x), p, n, o);
        };
        fullMethods.xTruncate = [](sqlite3_file* x, sqlite3_int64 n) { return realOf(x)->pMethods->xTruncate(realOf(x), n); };
        fullMethods.xSync = [](sqlite3_file* x, int f) { return realOf(x)->pMethods->xSync(realOf(x), f); };
        fullMethods.xFileSize = [](sqlite3_file* x, sqlite3_int64* n) { return realOf(x)->pMethods->xFileSize(realOf(x), n); };
        fullMethods.xLock = [](sqlite3_file* x, int l) { return realOf(x)->pMethods->xLock(realOf(x), l); };
        fullMethods.xUnlock = [](sqlite3_file* x, int l) { return realOf(x)->pMethods->xUnlock(realOf(x), l); };
        fullMethods.xCheckReservedLock = [](sqlite3_file* x, int* r) { return realOf(x)->pMethods->xCheckReservedLock(realOf(x), r); };
        fullMethods.xFileControl = [](sqlite3_file* x, int op, void* a) { return realOf(x)->pMethods->xFileControl(realOf(x), op, a); };
        fullMethods.xSectorSize = [](sqlite3_file* x) { return realOf(x)->pMethods->xSectorSize(realOf(x)); };
        fullMethods.xDeviceCharacteristics = [](sqlite3_file* x) { return realOf(x)->pMethods->xDeviceCharacteristics(realOf(x)); };
        fullMethods.xShmMap = [](sqlite3_file* x, int r, int s, int e, void volatile** p) { return realOf(x)->pMethods->xShmMap(realOf(x), r, s, e, p); };
        fullMethods.xShmLock = [](sqlite3_file* x, int o, int n, int f) { return realOf(x)->pMethods->xShmLock(realOf(x), o, n, f); };
        fullMethods.xShmBarrier = [](sqlite3_file* x) { realOf(x)->pMethods->xShmBarrier(realOf(x)); };
        fullMethods.xShmUnmap = [](sqlite3_file* x, int d) { return realOf(x)->pMethods->xShmUnmap(realOf(x), d); };
        fullMethods.xFetch = [](sqlite3_file* x, sqlite3_int64 o, int n, void** p) { return realOf(x)->pMethods->xFetch(realOf(x), o, n, p); };
        fullMethods.xUnfetch = [](sqlite3_file* x, sqlite3_int64 o, void* p) { return realOf(x)->pMethods->xUnfetch(realOf(x), o, p); };
    }
    return rc;
}

void installFullVfs()
{
    realVfs = sqlite3_vfs_find(nullptr);
    fullVfs = *realVfs;  // the rest (access, delete, time, ...) as the real one, with its pAppData
    fullVfs.zName = "ts-full-disk";
    fullVfs.szOsFile = int(sizeof(FullFile)) + realVfs->szOsFile;
    fullVfs.xOpen = fullOpen;
    fullVfs.xGetLastError = [](sqlite3_vfs* vfs, int n, char* out) {
        return diskFull && failErrno ? failErrno.load() : realVfs->xGetLastError(vfs, n, out);
    };
    fullVfs.pNext = nullptr;
    sqlite3_vfs_register(&fullVfs, 1);
}

// ---- helpers ----------------------------------------------------------------------------

// The shipped wine-like CSV (tiny_experiment.h), a checkpoint every `every` epochs (keep 3).
ExperimentSpec wineSpec(int epochs, int every)
{
    return parseExperiment(tinyWineYaml(TS_SOURCE_DIR, epochs, every).toStdString(), "faults.yaml");
}

JobResult train(const QString& ws, TrainJob job, TrainListener& listener, RunControl* control = nullptr)
{
    JobEnvironment env;
    env.workspaceDir = ws.toStdString();
    env.cacheDir = (ws + "/cache").toStdString();
    env.systemSampleSeconds = 0;
    RunControl own;
    return runJob(job, env, control ? *control : own, listener);
}

bool hasLogId(RunReader& reader, std::int64_t run, const std::string& id)
{
    for (const LogLine& l : reader.logs(run))
        if (l.message.id == id) return true;
    return false;
}

// A pid that no process has: a child that has exited and been reaped.
pid_t deadPid()
{
    const pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    ::waitpid(child, nullptr, 0);
    return child;
}

void touch(const fs::path& p, const std::string& bytes = "x")
{
    std::ofstream(p, std::ios::binary) << bytes;
}

}  // namespace

class TestStoreFaults : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { installFullVfs(); }
    void cleanup() { diskFull = false; }

    // The writer keeps a failed batch and commits it when the disk allows: every point lands,
    // in order, and flush says what waits instead of blocking while the disk is full.
    // Seen: a full disk at the first start read "cannot run 'PRAGMA application_id': disk I/O
    // error". The store names the disk and the workspace, from SQLite's code or from the OS
    // error behind a bare I/O error (SQLite reports ENOSPC as that where it maps its -shm file).
    void fullDiskAtOpenNamesTheWorkspace()
    {
        struct Case {
            int code, osError;
            std::string words;
        };
        const std::vector<Case> cases = {
            {SQLITE_FULL, 0, " is full ("},
            {SQLITE_IOERR_WRITE, ENOSPC, " is full ("},
            {SQLITE_IOERR_SHMSIZE, EDQUOT, " is full ("},
            {SQLITE_IOERR_WRITE, EIO, " failed to read or write (Input/output error)"},
        };
        for (const Case& c : cases) {
            QTemporaryDir dir;
            const std::string folder = dir.path().toStdString() + "/ws";
            failCode = c.code;
            failErrno = c.osError;
            diskFull = true;
            std::string what;
            try {
                const Workspace ws = Workspace::open(folder);
                RunWriter writer(ws);
                NewRun run;
                run.experimentName = "full";
                writer.createRun(run);
                writer.flush();
            } catch (const std::exception& e) {
                what = e.what();
            }
            diskFull = false;
            QVERIFY2(!what.empty(), "nothing failed on a full disk");
            QVERIFY2(what.find("the disk holding the workspace " + folder) != std::string::npos, what.c_str());
            QVERIFY2(what.find(c.words) != std::string::npos, what.c_str());
            QVERIFY2(what.rfind(folder + "/studio.db: ", 0) == 0 || what.find(folder + "/studio.db") != std::string::npos, what.c_str());
        }
        failCode = SQLITE_FULL;
        failErrno = 0;
    }

    void writerKeepsRowsWhileTheDiskIsFull()
    {
        QTemporaryDir dir;
        const Workspace ws = Workspace::open(dir.path().toStdString());
        RunWriter writer(ws);
        std::mutex mutex;
        std::vector<std::string> reasons;
        writer.setFailureListener([&](const std::string& r) {
            std::lock_guard lock(mutex);
            reasons.push_back(r);
        });
        NewRun run;
        run.experimentName = "full";
        const std::int64_t id = writer.createRun(run);
        for (int step = 1; step <= 100; ++step) writer.addMetric(id, "loss", step, step * 0.5, 0);
        writer.flush();

        diskFull = true;
        for (int step = 101; step <= 300; ++step) writer.addMetric(id, "loss", step, step * 0.5, 0);
        writer.addLog(id, {unixNowForTest(), "info", Message{"written after the disk filled"}});
        try {
            writer.flush();
            QFAIL("flush succeeded on a full disk");
        } catch (const StoreError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("database or disk is full") != std::string::npos, e.what());
            QVERIFY2(what.find("studio.db") != std::string::npos, e.what());
            QVERIFY2(what.find("201 rows wait in memory") != std::string::npos, e.what());
        }
        QVERIFY(writer.writeFailing());
        QVERIFY(writer.writeFailure().find("database or disk is full") != std::string::npos);
        // A synchronous edit fails at once (its caller waits) rather than blocking.
        QVERIFY_THROWS_EXCEPTION(StoreError, writer.renameRun(id, "renamed"));

        diskFull = false;
        try {
            writer.flush();  // the retry (within a second) commits everything that waited
        } catch (const StoreError& e) {
            QFAIL(e.what());
        }
        QVERIFY(!writer.writeFailing());
        {
            std::lock_guard lock(mutex);
            QCOMPARE(reasons.size(), std::size_t(2));
            QVERIFY(!reasons[0].empty());
            QVERIFY(reasons[1].empty());
        }
        RunReader reader(ws);
        const MetricSeries loss = reader.metric(id, "loss");
        QCOMPARE(loss.steps.size(), std::size_t(300));
        for (std::size_t i = 0; i < loss.steps.size(); ++i) {
            QCOMPARE(loss.steps[i], std::int64_t(i + 1));
            QCOMPARE(loss.values[i], double(i + 1) * 0.5);
        }
        const auto summaries = reader.summaries(id);
        QCOMPARE(summaries.size(), std::size_t(1));
        QCOMPARE(summaries[0].count, std::int64_t(300));
        QCOMPARE(summaries[0].last, 150.0);
        QCOMPARE(summaries[0].min, 0.5);
        bool logged = false;
        for (const LogLine& l : reader.logs(id)) logged = logged || l.message.text == "written after the disk filled";
        QVERIFY(logged);
        QCOMPARE(QString::fromStdString(reader.integrityCheck()), QString("ok"));
    }

    // A training run whose store fills up pauses (saying why, in the log and to the front end)
    // and goes on by itself when space returns; no step's loss is missing.
    void trainingPausesWhileTheStoreIsFullAndContinues()
    {
        QTemporaryDir dir;
        struct FillOnce : Recorder {
            std::thread freer;
            void onEvent(const TrainEvent& e) override
            {
                Recorder::onEvent(e);
                const auto* epoch = std::get_if<EpochEvent>(&e);
                if (!epoch || epoch->epoch != 2) return;
                diskFull = true;
                freer = std::thread([] {  // space comes back 2.5 s later
                    std::this_thread::sleep_for(std::chrono::milliseconds(2500));
                    diskFull = false;
                });
            }
        } listener;
        TrainJob job;
        job.experiment = wineSpec(300, 100);
        const JobResult result = train(dir.path() + "/ws", job, listener);
        if (listener.freer.joinable()) listener.freer.join();
        QVERIFY2(result.finished.outcome == FinishedEvent::Outcome::Finished, result.finished.message.text.c_str());
        QVERIFY(listener.hasLog(LogEvent::Level::Warning, "database or disk is full"));
        QVERIFY(listener.hasLog(LogEvent::Level::Info, "can be written again"));

        RunReader reader(Workspace::open((dir.path() + "/ws").toStdString()));
        const auto run = reader.run(result.runId);
        QCOMPARE(run->status, RunStatus::Finished);
        const auto steps = std::int64_t(listener.all<StepEvent>().size());  // what the trainer published
        QVERIFY(steps >= 300 * 7);
        const MetricSeries loss = reader.metric(result.runId, "loss");
        QCOMPARE(std::int64_t(loss.steps.size()), steps);
        for (std::size_t i = 0; i < loss.steps.size(); ++i) QCOMPARE(loss.steps[i], std::int64_t(i + 1));
        QVERIFY(hasLogId(reader, result.runId, "store.write_failing"));
        QVERIFY(hasLogId(reader, result.runId, "train.paused"));
        QVERIFY(hasLogId(reader, result.runId, "store.write_recovered"));
        const MetricSeries paused = reader.metric(result.runId, "paused_s");
        QVERIFY(!paused.values.empty());
        QVERIFY2(paused.values.back() > 1.0, qPrintable(QString::number(paused.values.back())));
    }

    // A checkpoint that cannot be written stops the run with the file and the space it needed
    // named; the earlier checkpoint still loads and no temporary file is left behind.
    void failedCheckpointNamesTheFileAndTheSpace()
    {
        QTemporaryDir dir;
        ExperimentSpec spec = blobSpec();
        spec.training.epochs = 3;
        spec.training.checkpoint.everyEpochs = 1;
        TrainerOptions options;
        options.checkpointDir = (dir.path() + "/ckpt").toStdString();
        struct LimitAfterFirst : Recorder {
            rlimit old{};
            bool limited = false;
            void onEvent(const TrainEvent& e) override
            {
                Recorder::onEvent(e);
                if (std::holds_alternative<CheckpointEvent>(e) && !limited) {
                    ::getrlimit(RLIMIT_FSIZE, &old);
                    const rlimit small{512, old.rlim_max};  // bytes a file may have: less than a checkpoint
                    ::setrlimit(RLIMIT_FSIZE, &small);
                    limited = true;
                }
            }
        } listener;
        std::signal(SIGXFSZ, SIG_IGN);  // past the limit a write fails (EFBIG) instead of killing
        Trainer trainer(spec, blobSplits(), cpuBackend(), options);
        trainer.addListener(&listener);
        const FinishedEvent done = trainer.run();
        ::setrlimit(RLIMIT_FSIZE, &listener.old);
        std::signal(SIGXFSZ, SIG_DFL);
        QVERIFY(listener.limited);
        QCOMPARE(done.outcome, FinishedEvent::Outcome::Failed);
        const std::string& m = done.message.text;
        qInfo("%s", m.c_str());
        QVERIFY2(m.find("could not save the checkpoint " + options.checkpointDir + "/epoch_002") != std::string::npos, m.c_str());
        QVERIFY2(m.find("File too large") != std::string::npos, m.c_str());
        QVERIFY2(m.find("It needs about ") != std::string::npos && m.find(" are free there") != std::string::npos, m.c_str());
        QVERIFY2(m.find("earlier checkpoints are intact") != std::string::npos, m.c_str());
        std::vector<std::string> files;
        for (const auto& e : fs::directory_iterator(options.checkpointDir)) files.push_back(e.path().filename().string());
        std::sort(files.begin(), files.end());
        QCOMPARE(files.size(), std::size_t(2));  // epoch 1's pair, nothing of epoch 2, no temporary file
        QVERIFY2(files[0].starts_with("epoch_001") && !files[0].ends_with(".state.safetensors"), files[0].c_str());
        QVERIFY2(files[1] == checkpointStatePath(files[0]), files[1].c_str());
        const Checkpoint first = loadCheckpoint(options.checkpointDir + "/" + files[0]);
        QCOMPARE(first.state.epoch, std::int64_t(2));
    }

    // What killed saves leave (temporary files, weights without their state) goes when the
    // next writer finds the run dead; a live run's folder is left alone.
    void staleCheckpointFilesOfDeadRunsAreRemoved()
    {
        QTemporaryDir dir;
        const Workspace ws = Workspace::open(dir.path().toStdString());
        std::int64_t dead = 0, live = 0;
        {
            RunWriter writer(ws);
            NewRun run;
            run.experimentName = "litter";
            dead = writer.createRun(run);
        }
        {  // the process that wrote it is gone
            sqlite3* db = nullptr;
            QCOMPARE(sqlite3_open(ws.databasePath().c_str(), &db), SQLITE_OK);
            const std::string sql = "UPDATE runs SET pid = " + std::to_string(deadPid()) + " WHERE id = " + std::to_string(dead);
            QCOMPARE(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
            sqlite3_close(db);
        }
        const fs::path deadDir = ws.runCheckpointsPath(dead);
        fs::create_directories(deadDir);
        for (const char* name : {"epoch_001.safetensors", "epoch_001.state.safetensors", "epoch_002.safetensors",
                                 "epoch_003.safetensors.tmp", "epoch_003.state.safetensors.tmp"})
            touch(deadDir / name);

        RunWriter writer(ws);  // finds run `dead` dead: marks it crashed and tidies its folder
        NewRun run;
        run.experimentName = "litter";
        live = writer.createRun(run);
        const fs::path liveDir = ws.runCheckpointsPath(live);
        fs::create_directories(liveDir);
        touch(liveDir / "epoch_001.safetensors.tmp");  // a save in progress
        touch(liveDir / "epoch_001.safetensors");
        { RunWriter another(ws); }  // another process opening the workspace meanwhile

        std::vector<std::string> left;
        for (const auto& e : fs::directory_iterator(deadDir)) left.push_back(e.path().filename().string());
        std::sort(left.begin(), left.end());
        QCOMPARE(left, (std::vector<std::string>{"epoch_001.safetensors", "epoch_001.state.safetensors"}));
        QVERIFY(fs::exists(liveDir / "epoch_001.safetensors.tmp"));
        QVERIFY(fs::exists(liveDir / "epoch_001.safetensors"));
        RunReader reader(ws);
        QCOMPARE(reader.run(dead)->status, RunStatus::Crashed);
        QCOMPARE(reader.run(live)->status, RunStatus::Running);
    }

    // A killed cache build's temporary file goes at the next open; a live build's stays.
    void staleCacheBuildsAreRemoved()
    {
        QTemporaryDir dir;
        const fs::path cache = fs::path(dir.path().toStdString()) / "samples-blobs.bin";
        const fs::path killed = cache.string() + ".tmp." + std::to_string(deadPid()) + ".12345";
        const fs::path building = cache.string() + ".tmp." + std::to_string(::getpid()) + ".678";
        const fs::path unrelated = dir.path().toStdString() + "/notes.tmp.txt";
        touch(killed, std::string(4096, 'x'));
        touch(building);
        touch(unrelated);
        auto source = std::make_shared<BlobDataset>(64, 1);
        const auto cached = cachedDataset(source, cache.string());
        QCOMPARE(cached->size(), std::int64_t(64));
        QVERIFY(!fs::exists(killed));
        QVERIFY(fs::exists(building));
        QVERIFY(fs::exists(unrelated));
        QVERIFY(fs::exists(cache));
    }

    // A deleted newest weights file: resume falls back to the newest complete checkpoint and
    // says which. A damaged one: refused, naming the newest intact checkpoint and the command.
    void missingOrDamagedNewestCheckpointHasAWayOut()
    {
        QTemporaryDir dir;
        const QString wsDir = dir.path() + "/ws";
        Recorder first;
        TrainJob job;
        job.experiment = wineSpec(3, 1);
        const JobResult trained = train(wsDir, job, first);
        QCOMPARE(trained.finished.outcome, FinishedEvent::Outcome::Finished);
        const Workspace ws = Workspace::open(wsDir.toStdString());
        std::vector<CheckpointRecord> records;
        {
            RunReader reader(ws);
            records = reader.checkpoints(trained.runId);  // by step
        }
        QCOMPARE(records.size(), std::size_t(3));
        const std::string e2 = absoluteCheckpointPath(ws, records[1].path), e3 = absoluteCheckpointPath(ws, records[2].path);
        const std::string e3step = std::to_string(records[2].step);
        QVERIFY(fs::exists(e2) && fs::exists(e3));

        // Damaged: one byte of the tensor data flipped.
        {
            std::fstream f(e3, std::ios::in | std::ios::out | std::ios::binary);
            f.seekg(-4, std::ios::end);
            char c = 0;
            f.read(&c, 1);
            f.seekp(-4, std::ios::end);
            c = char(c ^ 0x40);
            f.write(&c, 1);
        }
        const std::string id = std::to_string(trained.runId);
        try {
            loadContinuation(ws, id);
            QFAIL("a damaged checkpoint was accepted");
        } catch (const CheckpointError& e) {
            const std::string m = e.what();
            qInfo("%s", e.what());
            QVERIFY2(m.find(e3) != std::string::npos, e.what());
            QVERIFY2(m.find("The newest intact checkpoint of run " + id + " is " + e2) != std::string::npos, e.what());
            QVERIFY2(m.find("trainstudio-cli train --resume " + e2 + " --workspace " + ws.directory) != std::string::npos,
                     e.what());
        }
        // The command it names works: it resumes the run from epoch 2.
        Recorder resumed;
        TrainJob fromIntact;
        fromIntact.resume = e2;
        const JobResult r = train(wsDir, fromIntact, resumed);
        QVERIFY2(r.finished.outcome == FinishedEvent::Outcome::Finished, r.finished.message.text.c_str());
        QVERIFY(resumed.hasLog(LogEvent::Level::Info, "resumed from " + e2 + " at epoch 3"));

        // Deleted: the newest of the first run is gone; its older one is used, and that is said.
        fs::remove(e3);
        const Continuation c = loadContinuation(ws, id);
        QCOMPARE(c.source, e2);
        QVERIFY(c.fallback);
        qInfo("%s", c.fallback->text.c_str());
        QCOMPARE(c.fallback->id, std::string("job.resume_fallback"));
        QVERIFY2(c.fallback->text.find(e3 + " (epoch 3, step " + e3step + "), is incomplete: " + e3 + " is missing") != std::string::npos,
                 c.fallback->text.c_str());
        QVERIFY2(c.fallback->text.ends_with("instead: " + e2), c.fallback->text.c_str());
        Recorder again;
        TrainJob byId;
        byId.resume = id;
        const JobResult r2 = train(wsDir, byId, again);
        QVERIFY2(r2.finished.outcome == FinishedEvent::Outcome::Finished, r2.finished.message.text.c_str());
        QVERIFY(again.hasLog(LogEvent::Level::Warning, "Resuming from the newest complete one instead: " + e2));
    }

    // A run whose process still trains is not resumed a second time.
    void resumingALiveRunIsRefused()
    {
        QTemporaryDir dir;
        const QString wsDir = dir.path() + "/ws";
        const Workspace ws = Workspace::open(wsDir.toStdString());
        RunWriter writer(ws);  // this process trains run 1 (alive, heartbeat fresh)
        NewRun run;
        run.experimentName = "busy";
        const std::int64_t id = writer.createRun(run);
        Recorder listener;
        TrainJob job;
        job.resume = std::to_string(id);
        const JobResult r = train(wsDir, job, listener);
        QCOMPARE(r.finished.outcome, FinishedEvent::Outcome::Failed);
        const std::string& m = r.finished.message.text;
        qInfo("%s", m.c_str());
        QVERIFY2(m.find("run " + std::to_string(id) + " is still training") != std::string::npos, m.c_str());
        QVERIFY2(m.find("would train it twice") != std::string::npos, m.c_str());
        QVERIFY2(m.find("trainstudio-cli train --resume " + std::to_string(id)) != std::string::npos, m.c_str());
        QCOMPARE(r.runId, std::int64_t(-1));  // no second run was recorded
    }

private:
    static double unixNowForTest() { return double(std::time(nullptr)); }
};

QTEST_GUILESS_MAIN(TestStoreFaults)
#include "tst_store_faults.moc"
