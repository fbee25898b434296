// `trainstudio-cli COMMAND --help` for every command of the help table (cli/command_help.h,
// read here, so a command added there is tested too), the range every numeric option names
// when it refuses a value, and the warning for more threads than the machine has. The real
// binary (QProcess) with a scratch HOME: no run, no workspace of the user's.
#include <QtTest>

#include "child_process.h"
#include "command_help.h"

#include <thread>

namespace {

using Result = ts::test::ProcessResult;

QString g_home;  // scratch HOME of the child processes

Result cli(const QStringList& args)
{
    return ts::test::runProcess(TS_CLI_EXE, args, ts::test::scratchCliEnvironment(g_home), 60000);
}

QString name(const ts::cli::CommandHelp& c) { return QString::fromUtf8(c.name.data(), int(c.name.size())); }

// "data check" -> {"data", "check"}
QStringList words(const ts::cli::CommandHelp& c) { return name(c).split(' '); }

// Every line of the table's help fits a terminal of 80 columns.
void verifyFits80Columns(const QString& text)
{
    for (const QString& line : text.split('\n')) QVERIFY2(line.size() <= 80, qPrintable("longer than 80 columns: " + line));
}

QString describe(const Result& r) { return QString("exit %1\nstdout: %2\nstderr: %3").arg(r.exitCode).arg(r.out.left(600), r.err.left(600)); }

const QString kExperiment = QStringLiteral(TS_SOURCE_DIR "/experiments/tabular_example.yaml");

}  // namespace

class TestCliHelp : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        g_home = dir_.filePath("home");
        QVERIFY(QFile::exists(kExperiment));
    }

    void everyCommandAnswersHelp_data()
    {
        QTest::addColumn<QStringList>("command");
        QTest::addColumn<bool>("ownHelp");
        QVERIFY(std::size(ts::cli::kCommands) >= 17);
        for (const ts::cli::CommandHelp& c : ts::cli::kCommands) QTest::newRow(c.name.data()) << words(c) << c.ownHelp;
    }

    // Every spelling of help, also after other arguments (even a bad one: help comes first),
    // prints the command's usage to stdout, nothing to stderr, and exits 0.
    void everyCommandAnswersHelp()
    {
        QFETCH(QStringList, command);
        QFETCH(bool, ownHelp);
        const QString usage = "Usage: trainstudio-cli " + command.join(' ');
        const QList<QStringList> spellings = {command + QStringList{"--help"}, command + QStringList{"-h"},
                                              QStringList{"help"} + command,
                                              command + QStringList{"x.yaml", "--epochs", "0", "--help"}};
        for (const QStringList& args : spellings) {
            const Result r = cli(args);
            QVERIFY2(r.exitCode == 0, qPrintable(args.join(' ') + "\n" + describe(r)));
            QVERIFY2(r.out.startsWith(usage), qPrintable(args.join(' ') + "\n" + describe(r)));
            QVERIFY2(r.err.isEmpty(), qPrintable(args.join(' ') + "\n" + describe(r)));
            if (!ownHelp) verifyFits80Columns(r.out);
        }
        // The overall help lists it, and the command exists: an unknown option is its own error.
        QVERIFY(cli({"--help"}).out.contains("\n  " + command.join(' ') + "  "));
        const Result bad = cli(command + QStringList{"--no-such-option"});
        QVERIFY2(!bad.err.contains("unknown command"), qPrintable(describe(bad)));
    }

    // The table's own text: the usage and what the command does, the workspace rule where it
    // takes --workspace.
    void commandHelpIsTheTablesText()
    {
        const Result r = cli({"data", "check", "--help"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith("Usage: trainstudio-cli data check EXPERIMENT.yaml [--json] [--force]"), qPrintable(r.out));
        QVERIFY2(r.out.contains("\n" + QString(23, ' ') + "[--workspace DIR]\n"), qPrintable(r.out));
        QVERIFY2(r.out.contains("near duplicates"), qPrintable(r.out));
        QVERIFY2(r.out.contains("TRAINSTUDIO_WORKSPACE"), qPrintable(r.out));
        const Result train = cli({"train", "--help"});
        QVERIFY2(train.out.contains("trainstudio-cli train --resume RUN_OR_CHECKPOINT"), qPrintable(train.out));
        QVERIFY2(!cli({"info", "--help"}).out.contains("TRAINSTUDIO_WORKSPACE"), "info takes no workspace");
        const Result overall = cli({"--help"});
        QCOMPARE(overall.exitCode, 0);
        verifyFits80Columns(overall.out);
    }

    // Nothing runs: no workspace, no cache, no file in the scratch HOME.
    void helpRunsNothing()
    {
        const QString home = g_home;
        g_home = dir_.filePath("help-home");
        const QString ws = dir_.filePath("help-ws");
        for (const QStringList& args : {QStringList{"train", kExperiment, "--help"}, QStringList{"data", "check", kExperiment, "-h"},
                                        QStringList{"bench-store", "--workspace", ws, "--help"},
                                        QStringList{"lr-find", kExperiment, "--help"}})
            QCOMPARE(cli(args).exitCode, 0);
        QVERIFY2(QDir(g_home).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden).isEmpty(),
                 "a command ran instead of printing its help");
        QVERIFY(!QFileInfo::exists(ws));
        g_home = home;
    }

    void groupAndUnknownCommand()
    {
        const Result data = cli({"data", "--help"});
        QCOMPARE(data.exitCode, 0);
        for (const char* sub : {"data check", "data labels", "data mark"}) QVERIFY2(data.out.contains(sub), qPrintable(data.out));
        const Result unknown = cli({"frobnicate", "--help"});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains("unknown command 'frobnicate'"), qPrintable(unknown.err));
        const Result bare = cli({});
        QCOMPARE(bare.exitCode, 2);  // no command at all is a mistake, but still the help
        QVERIFY(bare.out.startsWith("Usage: trainstudio-cli"));
    }

    void numbersSayTheirRange_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString e = kExperiment;
        QTest::newRow("epochs 0") << QStringList{"train", e, "--epochs", "0"} << "--epochs: 0 is out of range: at least 1";
        QTest::newRow("epochs 2.5") << QStringList{"train", e, "--epochs", "2.5"} << "--epochs expects an integer, got '2.5'";
        QTest::newRow("threads cap") << QStringList{"train", "--resume", "1", "--threads", "4097"}
                                     << "--threads: 4097 is out of range: at most 4096";
        QTest::newRow("threads -1") << QStringList{"train", "--resume", "1", "--threads", "-1"}
                                    << "--threads: -1 is out of range: at least 0";
        QTest::newRow("threads abc") << QStringList{"train", "--resume", "1", "--threads", "abc"}
                                     << "--threads expects an integer, got 'abc'";
        QTest::newRow("steps 2^64") << QStringList{"lr-find", e, "--steps", "99999999999999999999"}
                                    << "--steps: 99999999999999999999 is out of range: at most 9223372036854775807";
        QTest::newRow("steps -2^64") << QStringList{"lr-find", e, "--steps", "-99999999999999999999"}
                                     << "--steps: -99999999999999999999 is out of range: at least 10";
        QTest::newRow("steps 5") << QStringList{"lr-find", e, "--steps", "5"} << "--steps: 5 is out of range: at least 10";
        QTest::newRow("min-lr 0") << QStringList{"lr-find", e, "--min-lr", "0"} << "--min-lr: 0 is out of range: more than 0";
        QTest::newRow("max-lr 1e999") << QStringList{"lr-find", e, "--max-lr", "1e999"}
                                      << "--max-lr: 1e999 is out of range: at most 1.79769e+308";
        QTest::newRow("max-lr abc") << QStringList{"lr-find", e, "--max-lr", "abc"} << "--max-lr expects a number, got 'abc'";
        QTest::newRow("max-lr nan") << QStringList{"lr-find", e, "--max-lr", "nan"} << "--max-lr expects a number, got 'nan'";
        QTest::newRow("threshold 64") << QStringList{"data", "check", e, "--threshold", "64"}
                                      << "--threshold: 64 is out of range: at most 31";
        QTest::newRow("labels folds 1") << QStringList{"data", "labels", e, "--folds", "1"} << "--folds: 1 is out of range: at least 2";
        QTest::newRow("labels top abc") << QStringList{"data", "labels", e, "--run", "1", "--top", "abc"}
                                        << "--top expects an integer, got 'abc'";
        QTest::newRow("predict top 0") << QStringList{"predict", "1", "x.png", "--top", "0"} << "--top: 0 is out of range: at least 1";
        QTest::newRow("predict top 1001") << QStringList{"predict", "1", "x.png", "--top", "1001"}
                                          << "--top: 1001 is out of range: at most 1000";
        QTest::newRow("gemm") << QStringList{"bench", "--gemm", "16385"} << "--gemm: 16385 is out of range: at most 16384";
        QTest::newRow("plan batch") << QStringList{"plan", "--batch", "-5"} << "--batch: -5 is out of range: at least 1";
        QTest::newRow("slurm nodes") << QStringList{"slurm", e, "--nodes", "0"} << "--nodes: 0 is out of range: at least 1";
        QTest::newRow("slurm gpus") << QStringList{"slurm", e, "--gpus-per-node", "99999999999999999999"}
                                    << "--gpus-per-node: 99999999999999999999 is out of range: at most 1024";
        QTest::newRow("runs show log") << QStringList{"runs", "show", "1", "--log", "-1"} << "--log: -1 is out of range: at least 0";
        QTest::newRow("selftest seed") << QStringList{"selftest", "--device", "cpu", "--seed", "-1"}
                                       << "--seed: -1 is out of range: at least 0";
        QTest::newRow("long value cut") << QStringList{"train", e, "--epochs", QString(5000, '7')}
                                        << "--epochs: " + QString(40, '7') + "… is out of range: at most 9223372036854775807";
    }

    void numbersSayTheirRange()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Result r = cli(args);
        QVERIFY2(r.exitCode == 1, qPrintable(describe(r)));
        QVERIFY2(r.err.contains(message), qPrintable("expected: " + message + "\n" + describe(r)));
        QVERIFY2(r.err.size() < 400, qPrintable(describe(r)));  // one line, values cut
    }

    // Above the machine's hardware threads: a warning on stderr, and the command goes on (here
    // to its own error: the workspace holds no run to resume). At the count: no warning.
    void threadsAboveTheMachineWarn()
    {
        const unsigned hardware = std::thread::hardware_concurrency();
        if (hardware == 0 || hardware >= 4096) QSKIP("the machine's thread count is unknown or at the cap");
        const QString ws = dir_.filePath("ws");
        const Result over = cli({"train", "--resume", "1", "--threads", QString::number(hardware + 1), "--workspace", ws});
        const QString warning = QString("warning: --threads %1 is more than the %2 CPU threads this machine has: ")
                                    .arg(hardware + 1).arg(hardware);
        QVERIFY2(over.err.contains(warning), qPrintable(describe(over)));
        QCOMPARE(over.exitCode, 1);
        QVERIFY2(over.err.contains("there is no run database here yet"), qPrintable(describe(over)));  // it went on to the resume
        const Result at = cli({"train", "--resume", "1", "--threads", QString::number(hardware), "--workspace", ws});
        QCOMPARE(at.exitCode, 1);
        QVERIFY2(!at.err.contains("warning: --threads"), qPrintable(describe(at)));
    }
};

QTEST_GUILESS_MAIN(TestCliHelp)
#include "tst_cli_help.moc"
