// A damaged studio.db is found when a writer opens it (PRAGMA quick_check), before anything
// is written: the message says it is damaged and gives the exact commands that recover what
// SQLite can, keeping the damaged files. The test damages a real workspace's file, checks the
// refusal leaves it byte for byte, then runs the message's own commands with the sqlite3 shell.
#include <QtTest>

#include <filesystem>
#include <fstream>

#include "store/database.h"
#include "store/run_reader.h"
#include "store/run_writer.h"

using namespace ts;
namespace fs = std::filesystem;

namespace {

std::string bytesOf(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A workspace with `runs` finished runs, its WAL folded into the file.
Workspace makeWorkspace(const std::string& dir, int runs)
{
    const Workspace ws = Workspace::open(dir);
    {
        RunWriter writer(ws);
        for (int i = 0; i < runs; ++i) {
            NewRun run;
            run.experimentName = "recovery";
            run.experimentYaml = "name: recovery\n";
            run.device = "cpu";
            const std::int64_t id = writer.createRun(run);
            for (int step = 1; step <= 200; ++step) writer.addMetric(id, "loss", step, 1.0 / step, double(step));
            writer.finishRun(id, RunStatus::Finished, Message{"done"});
        }
    }
    return ws;
}

// The root page of `table` (1-based), read through SQLite itself.
int rootPage(const fs::path& db, const std::string& table)
{
    store::Database d(db.string(), store::Database::Mode::ReadOnly);
    store::Statement q(d, "SELECT rootpage FROM sqlite_master WHERE name = ?1");
    q.bind(1, table);
    return q.step() ? int(q.integer(0)) : -1;
}

// Garbage over a whole page of the file (16 KiB pages).
void damagePage(const fs::path& db, int page)
{
    std::fstream f(db, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(std::streamoff(page - 1) * 16384);
    for (int i = 0; i < 16384; ++i) f.put(char((i * 131 + 7) & 0xff));
}

}  // namespace

class TestStoreRecovery : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private slots:
    void damagedDatabaseIsRefusedWithTheWayOut()
    {
        const Workspace ws = makeWorkspace(dir_.filePath("ws").toStdString(), 3);
        const fs::path db = ws.databasePath();
        // The metric points' table: the runs themselves stay readable for the recovery.
        const int points = rootPage(db, "points");
        QVERIFY(points > 1);
        damagePage(db, points);
        const std::string before = bytesOf(db);
        std::string message;
        try {
            RunWriter writer(ws);
            QFAIL("a writer opened a damaged database");
        } catch (const StoreError& e) {
            message = e.what();
        }
        QVERIFY2(message.find(db.string() + " is damaged") != std::string::npos, message.c_str());
        QVERIFY2(message.find("nothing was written to it") != std::string::npos, message.c_str());
        QVERIFY2(message.find("sqlite3 -readonly studio.db.damaged/studio.db .dump") != std::string::npos, message.c_str());
        QVERIFY2(message.find(db.string() + ": ") == std::string::npos, message.c_str());  // the path once, not twice
        QCOMPARE(bytesOf(db), before);  // refused before writing a byte

        // The message's commands, as a user would paste them.
        if (QStandardPaths::findExecutable("sqlite3").isEmpty()) QSKIP("the sqlite3 shell is not installed");
        const std::string from = "cd '" + ws.directory + "' && ";
        const std::size_t at = message.find(from);
        QVERIFY(at != std::string::npos);
        const std::string command = message.substr(at, message.rfind(" (sqlite3 is in") - at);
        QProcess shell;
        shell.start("/bin/sh", {"-c", QString::fromStdString(command)});
        QVERIFY(shell.waitForFinished(60000));
        QVERIFY2(shell.exitCode() == 0, shell.readAllStandardError().constData());
        QVERIFY(fs::exists(ws.directory + "/studio.db.damaged/studio.db"));
        QCOMPARE(bytesOf(ws.directory + "/studio.db.damaged/studio.db"), before);
        // The recovered store opens for writing and keeps the runs SQLite could read.
        RunWriter writer(ws);
        RunReader reader(ws);
        QVERIFY(!reader.listRuns().empty());
    }

    void healthyDatabaseOpensAsBefore()
    {
        const Workspace ws = makeWorkspace(dir_.filePath("healthy").toStdString(), 1);
        RunWriter writer(ws);
        RunReader reader(ws);
        QCOMPARE(reader.listRuns().size(), std::size_t(1));
    }
};

QTEST_GUILESS_MAIN(TestStoreRecovery)
#include "tst_store_recovery.moc"
