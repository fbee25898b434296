// Faults around `trainstudio-cli train`, with the real binary: SIGTERM stops a run as Ctrl+C
// does (a checkpoint, then exit 0, the run "stopped"); `train --resume` of a run that still
// trains is refused; a read-only workspace still lists and shows its runs while every write
// says the workspace is read-only; two processes training into one workspace at once both
// land whole; and, where this machine lets the test mount one, a full tmpfs.
//
// Read-only as root: root ignores permission bits, so the children then run as `nobody`
// (setuid in the child, before exec) on a copy with the write bits removed; as any other user
// the bits alone make it read-only. Both are what CI and a desktop see.
#include <QtTest>

#include <QTemporaryDir>

#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>

#include "child_process.h"
#include "io/checkpoint/checkpoint.h"
#include "store/resume_source.h"
#include "store/run_reader.h"
#include "tiny_experiment.h"

using namespace ts;
namespace fs = std::filesystem;
using Result = ts::test::ProcessResult;

namespace {

// The shipped wine-like CSV (tiny_experiment.h), written as an experiment file.
QString writeExperiment(const QString& dir, int epochs, int every)
{
    const QString path = dir + "/wine_faults.yaml";
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write(tinyWineYaml(TS_SOURCE_DIR, epochs, every).toUtf8());
    return path;
}

bool hasCheckpoint(const std::string& folder)
{
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) return false;
    for (const auto& e : fs::directory_iterator(folder, ec))
        if (e.path().string().ends_with(".state.safetensors")) return true;
    return false;
}

// Every stored checkpoint of the run loads, checksums verified against the store.
void checkCheckpointsLoad(const Workspace& ws, std::int64_t run)
{
    RunReader reader(ws);
    const auto records = reader.checkpoints(run);
    QVERIFY(!records.empty());
    for (const auto& r : records) {
        try {
            loadCheckpoint(absoluteCheckpointPath(ws, r.path), r.sha256);
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
    }
}

}  // namespace

class TestTrainFaults : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QProcessEnvironment env_;

    Result cli(const QStringList& args, int timeoutMs = 120000) { return ts::test::runProcess(TS_CLI_EXE, args, env_, timeoutMs); }

    // Starts `train experiment` into `ws` as `victim` and waits for run 1's first checkpoint.
    Workspace trainUntilCheckpoint(QProcess& victim, const QString& experiment, const QString& ws)
    {
        victim.setProcessEnvironment(env_);
        victim.start(TS_CLI_EXE, {"train", experiment, "--workspace", ws, "--json"});
        const Workspace workspace = Workspace::open(ws.toStdString());
        [&] {
            QVERIFY(victim.waitForStarted());
            QTRY_VERIFY_WITH_TIMEOUT(hasCheckpoint(workspace.runCheckpointsPath(1)), 120000);
        }();
        return workspace;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        env_ = ts::test::scratchCliEnvironment(dir_.filePath("home"));
    }

    // SIGTERM mid-run: a checkpoint, exit 0, the run stopped; meanwhile a second process's
    // `train --resume` of the live run is refused; afterwards the same resume works.
    void sigtermStopsCleanlyAndALiveRunIsNotResumed()
    {
        const QString ws = dir_.filePath("sigterm");
        const QString experiment = writeExperiment(dir_.path(), 1000000, 200);
        QProcess victim;
        const Workspace workspace = trainUntilCheckpoint(victim, experiment, ws);
        if (QTest::currentTestFailed()) return;

        const Result twice = cli({"train", "--resume", "1", "--workspace", ws});
        QCOMPARE(twice.exitCode, 1);
        QVERIFY2(twice.err.contains("run 1 is still training") && twice.err.contains("would train it twice"),
                 qPrintable(twice.err));
        QVERIFY2(victim.state() == QProcess::Running, "the run ended before SIGTERM: make it longer");

        ::kill(static_cast<pid_t>(victim.processId()), SIGTERM);
        QVERIFY(victim.waitForFinished(60000));
        const QString err = QString::fromUtf8(victim.readAllStandardError());
        QCOMPARE(victim.exitStatus(), QProcess::NormalExit);
        QVERIFY2(victim.exitCode() == 0, qPrintable(err));
        QVERIFY2(err.contains("terminated (SIGTERM): stopping after this step (a checkpoint is saved)"), qPrintable(err));
        {
            RunReader reader(workspace);
            const auto run = reader.run(1);
            QCOMPARE(run->status, RunStatus::Stopped);
            QCOMPARE(reader.listRuns().size(), std::size_t(1));  // the refused resume recorded nothing
            const auto records = reader.checkpoints(1);
            QVERIFY(!records.empty());
            // A checkpoint at the last step: the stop's own mid-epoch one ("epoch_NNN_step_MMMMMM"),
            // or the epoch's when SIGTERM came as it ended (its epochs are a few milliseconds).
            QCOMPARE(records.back().step, reader.summaries(1).empty() ? 0 : [&] {
                for (const auto& m : reader.summaries(1))
                    if (m.name == "loss") return m.lastStep;
                return std::int64_t(-1);
            }());
        }
        checkCheckpointsLoad(workspace, 1);
        if (QTest::currentTestFailed()) return;

        const Result resumed = cli({"train", "--resume", "1", "--epochs", "30", "--workspace", ws});
        if (resumed.exitCode != 0 && resumed.err.contains("nothing is left"))
            QSKIP("the stopped run had passed 30 epochs already");
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
        RunReader reader(workspace);
        QCOMPARE(reader.run(2)->status, RunStatus::Finished);
        QCOMPARE(reader.run(2)->parentRunId.value_or(0), std::int64_t(1));
    }

    // A save killed mid-way leaves a weights file without its state file and a temporary file:
    // the next resume removes both, saying which, before it looks for the newest complete
    // checkpoint (no writer has opened the store since the kill).
    void killedSaveLeavesNoOrphans()
    {
        const QString ws = dir_.filePath("orphans");
        const QString experiment = writeExperiment(dir_.path(), 1000000, 20);
        QProcess victim;
        const Workspace workspace = trainUntilCheckpoint(victim, experiment, ws);
        if (QTest::currentTestFailed()) return;
        ::kill(static_cast<pid_t>(victim.processId()), SIGKILL);
        QVERIFY(victim.waitForFinished(60000));
        // What a save killed between its two files leaves (the pair is written weights first).
        const fs::path folder = workspace.runCheckpointsPath(1);
        const fs::path orphan = folder / "epoch_999999.safetensors", temp = folder / "epoch_999999.state.safetensors.tmp";
        std::ofstream(orphan) << "weights of a save that never finished";
        std::ofstream(temp) << "half a state file";
        const Result resumed = cli({"train", "--resume", "1", "--epochs", "1", "--workspace", ws});
        QVERIFY(!fs::exists(orphan) && !fs::exists(temp));
        const QString said = resumed.out + resumed.err;
        // The two planted here, and whatever the kill itself interrupted.
        QVERIFY2(said.contains(" incomplete checkpoint files that a save interrupted") &&
                     said.contains(QString::fromStdString(orphan.string())) && said.contains(QString::fromStdString(temp.string())),
                 qPrintable(said));
        QVERIFY2(resumed.exitCode == 0 || resumed.err.contains("nothing is left"), qPrintable(resumed.err));
    }

    // A read-only workspace: runs list / show work; training, resuming, deleting and evaluating
    // (its reads work; storing the evaluation does not) say it is read-only.
    void readOnlyWorkspaceReadsButRefusesWrites()
    {
        const QString source = dir_.filePath("writable");
        const QString experiment = writeExperiment(dir_.path(), 2, 1);
        const Result trained = cli({"train", experiment, "--workspace", source});
        QVERIFY2(trained.exitCode == 0, qPrintable(trained.err));

        // A copy, as a user gets one (a backup, a colleague's folder), with no write permission.
        QTemporaryDir roDir(QDir::tempPath() + "/ts-readonly-XXXXXX");
        QVERIFY(roDir.isValid());
        const fs::path ro = fs::path(roDir.path().toStdString()) / "ws";
        fs::copy(source.toStdString(), ro, fs::copy_options::recursive);
        for (const auto& e : fs::recursive_directory_iterator(ro))
            fs::permissions(e.path(), fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                            fs::perm_options::remove);
        fs::permissions(ro, fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write, fs::perm_options::remove);
        QVERIFY(!fs::exists(ro / "studio.db-wal"));  // closed cleanly: SQLite would need to create -shm

        const bool root = ::geteuid() == 0;
        const QString home = roDir.path() + "/home";  // the unprivileged child's own, writable
        const QString roExperiment = roDir.path() + "/wine_faults.yaml";  // readable by that child
        QVERIFY(QFile::copy(experiment, roExperiment));
        ::chmod(QFile::encodeName(roExperiment).constData(), 0644);
        QDir().mkpath(home);
        ::chmod(QFile::encodeName(roDir.path()).constData(), 0755);
        ::chmod(QFile::encodeName(home).constData(), 0777);
        QProcessEnvironment env = env_;
        env.insert("HOME", home);
        auto run = [&](const QStringList& args) {
            QProcess p;
            p.setProcessEnvironment(env);
            if (root)
                p.setChildProcessModifier([] {
                    // Root ignores permission bits: the child becomes nobody, as a user would be.
                    if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(99);
                });
            p.start(TS_CLI_EXE, args);
            Result r;
            if (!p.waitForFinished(120000)) return r;
            r.exitCode = p.exitCode();
            r.out = QString::fromUtf8(p.readAllStandardOutput());
            r.err = QString::fromUtf8(p.readAllStandardError());
            return r;
        };
        const QString wsArg = QString::fromStdString(ro.string());
        const Result list = run({"runs", "list", "--workspace", wsArg, "--json"});
        if (root && list.exitCode == 99) QSKIP("cannot become nobody here");
        QVERIFY2(list.exitCode == 0, qPrintable(list.err));
        QVERIFY2(list.out.contains("\"status\":\"finished\""), qPrintable(list.out));
        const Result show = run({"runs", "show", "1", "--workspace", wsArg});
        QVERIFY2(show.exitCode == 0, qPrintable(show.err));
        QVERIFY2(show.out.contains("epoch_002"), qPrintable(show.out));

        for (const QStringList& write : {QStringList{"train", roExperiment}, QStringList{"train", "--resume", "1", "--epochs", "5"},
                                         QStringList{"runs", "delete", "1", "--yes"}, QStringList{"eval", "1"}}) {
            const Result r = run(write + QStringList{"--workspace", wsArg});
            QVERIFY2(r.exitCode != 0, qPrintable(write.join(' ') + ": " + r.out));
            QVERIFY2(r.err.contains(wsArg + ": the workspace is read-only"), qPrintable(write.join(' ') + ": " + r.err));
            QVERIFY2(r.err.contains("Runs can be listed, shown and compared"), qPrintable(r.err));
        }
        // Nothing was written into the copy.
        QVERIFY(!fs::exists(ro / "studio.db-wal"));
        QVERIFY(!fs::exists(ro / "studio.db-shm"));
        for (const auto& e : fs::recursive_directory_iterator(ro))  // restore, so the temporary folder can go
            fs::permissions(e.path(), fs::perms::owner_write, fs::perm_options::add);
        fs::permissions(ro, fs::perms::owner_write, fs::perm_options::add);
    }

    // Two processes training into one workspace at the same time: both runs recorded whole.
    void twoProcessesTrainIntoOneWorkspace()
    {
        const QString ws = dir_.filePath("shared");
        const QString experiment = writeExperiment(dir_.path(), 150, 50);
        QProcess a, b;
        for (QProcess* p : {&a, &b}) {
            p->setProcessEnvironment(env_);
            p->start(TS_CLI_EXE, {"train", experiment, "--workspace", ws, "--json"});
            QVERIFY(p->waitForStarted());
        }
        for (QProcess* p : {&a, &b}) {
            QVERIFY(p->waitForFinished(300000));
            QVERIFY2(p->exitCode() == 0, p->readAllStandardError().constData());
        }
        const Workspace workspace = Workspace::open(ws.toStdString());
        RunReader reader(workspace);
        QCOMPARE(QString::fromStdString(reader.integrityCheck()), QString("ok"));
        const auto runs = reader.listRuns();
        QCOMPARE(runs.size(), std::size_t(2));
        for (const auto& listing : runs) {
            QCOMPARE(listing.run.status, RunStatus::Finished);
            const MetricSeries loss = reader.metric(listing.run.id, "loss");
            QCOMPARE(loss.steps.size(), std::size_t(150 * 7));  // 7 full batches of 32 an epoch
            QCOMPARE(loss.steps.back(), std::int64_t(150 * 7));
            checkCheckpointsLoad(workspace, listing.run.id);
        }
        // The same seed and data: both trained the same losses, neither disturbed by the other.
        QCOMPARE(reader.metric(1, "loss").values, reader.metric(2, "loss").values);
    }

    // A real full file system (a 2 MiB tmpfs; only where this process may mount one): the run
    // fails or stops with the file and the space named, nothing half-written is left, and the
    // checkpoints written before the disk filled still load.
    void fullTmpfs()
    {
        const QString mountPoint = dir_.filePath("tmpfs");
        QDir().mkpath(mountPoint);
        if (::mount("tmpfs", QFile::encodeName(mountPoint).constData(), "tmpfs", 0, "size=2m") != 0)
            QSKIP("cannot mount a tmpfs here (needs root or CAP_SYS_ADMIN)");
        struct Unmount {
            QByteArray path;
            ~Unmount() { ::umount2(path.constData(), MNT_DETACH); }
        } unmount{QFile::encodeName(mountPoint)};
        const QString ws = mountPoint + "/ws";
        const QString experiment = writeExperiment(dir_.path(), 1000000, 2);
        QProcess p;
        p.setProcessEnvironment(env_);
        p.start(TS_CLI_EXE, {"train", experiment, "--workspace", ws});
        QVERIFY(p.waitForStarted());
        // Until the disk fills the run trains; then it fails (a checkpoint) or pauses (the store).
        QString err;
        QTRY_VERIFY_WITH_TIMEOUT((err += QString::fromUtf8(p.readAllStandardError()),
                                  p.state() != QProcess::Running || err.contains("Training is paused")),
                                 180000);
        if (p.state() == QProcess::Running) {  // paused: a stop still ends it cleanly
            ::kill(static_cast<pid_t>(p.processId()), SIGTERM);
            QVERIFY(p.waitForFinished(60000));
            err += QString::fromUtf8(p.readAllStandardError());
        }
        qInfo("%s", qPrintable(err.right(3000)));
        QVERIFY2(p.exitCode() == 1, qPrintable(err.right(3000)));
        QVERIFY2(err.contains("No space left on device") || err.contains("database or disk is full"), qPrintable(err.right(3000)));
        if (err.contains("could not save the checkpoint"))
            QVERIFY2(err.contains("It needs about") && err.contains("are free there"), qPrintable(err.right(3000)));
        const Workspace workspace{ws.toStdString()};
        {
            // Where the database could still be written (the failed save's temporary file is
            // gone, and with it the space it took), the run is failed with the reason.
            RunReader reader(workspace);
            const auto run = reader.run(1);
            QVERIFY(run);
            qInfo("run 1: %s: %s", runStatusName(run->status), run->message.text.c_str());
            if (run->status == RunStatus::Failed)
                QVERIFY2(run->message.text.find("could not save the checkpoint") != std::string::npos, run->message.text.c_str());
            else
                QVERIFY2(err.contains("could not save the run"), qPrintable(err.right(3000)));
        }
        std::vector<std::string> tmp;
        for (const auto& e : fs::recursive_directory_iterator(workspace.checkpointsPath()))
            if (e.path().string().ends_with(".tmp")) tmp.push_back(e.path().string());
        QVERIFY2(tmp.empty(), tmp.empty() ? "" : tmp.front().c_str());
        // Every checkpoint written before the disk filled loads (its own checksums), and the
        // store's, where it could record them, match theirs.
        int loaded = 0;
        for (const auto& e : fs::directory_iterator(workspace.runCheckpointsPath(1))) {
            const std::string path = e.path().string();
            if (!path.ends_with(".safetensors") || path.ends_with(".state.safetensors")) continue;
            try {
                loadCheckpoint(path);
                ++loaded;
            } catch (const std::exception& ex) {
                QFAIL(ex.what());
            }
        }
        QVERIFY(loaded > 0);
        RunReader reader(workspace);
        for (const auto& r : reader.checkpoints(1))
            if (fs::exists(absoluteCheckpointPath(workspace, r.path))) loadCheckpoint(absoluteCheckpointPath(workspace, r.path), r.sha256);
    }
};

QTEST_GUILESS_MAIN(TestTrainFaults)
#include "tst_train_faults.moc"
