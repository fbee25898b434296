// What the CLI prints as tables: `bench --model mlp`'s speed-up is the ratio of the two rates
// its own table prints (it once measured a third time and printed 0.04x beside 26,242 vs
// 15,277), and `validate`'s model table stays aligned with long generated node names.
#include <QRegularExpression>
#include <QtTest>

#include "child_process.h"

class TestCliTables : public QObject {
    Q_OBJECT
private slots:
    void speedUpIsTheRatioOfThePrintedRates()
    {
        const ts::test::ProcessResult r = ts::test::runProcess(
            TS_CLI_EXE, {"bench", "--model", "mlp", "--steps", "3", "--gemm", "0"},
            QProcessEnvironment::systemEnvironment(), 120000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        // Rows "1   26242   4.88   -" and "N   15277 ...", then "speed-up with N threads: 0.58x".
        QMap<int, double> rates;
        static const QRegularExpression row(R"(^(\d+)\s+(\d+)\s+[\d.]+\s+\S+\s*$)", QRegularExpression::MultilineOption);
        for (auto m = row.globalMatch(r.out); m.hasNext();) {
            const auto match = m.next();
            rates.insert(match.captured(1).toInt(), match.captured(2).toDouble());
        }
        const QRegularExpressionMatch speedUp = QRegularExpression(R"(speed-up with (\d+) threads: ([\d.]+)x)").match(r.out);
        if (!speedUp.hasMatch()) QSKIP("one CPU thread: no speed-up line");
        const int threads = speedUp.captured(1).toInt();
        QVERIFY2(rates.contains(1) && rates.contains(threads), qPrintable(r.out));
        // The rates are printed rounded to a sample/s and the ratio to 0.01.
        const double expected = rates[threads] / rates[1];
        QVERIFY2(std::abs(speedUp.captured(2).toDouble() - expected) <= 0.006 + 1e-9,
                 qPrintable(QString("%1 vs %2\n%3").arg(speedUp.captured(2)).arg(expected).arg(r.out)));
    }

    // "crossentropy1" is longer than the old fixed 10-character column: every row's op column
    // must still start where the header's does.
    void modelTableColumnsAlign()
    {
        const ts::test::ProcessResult r = ts::test::runProcess(
            TS_CLI_EXE, {"validate", QStringLiteral(TS_SOURCE_DIR "/experiments/fashion_mnist_cnn.yaml"), "--no-data"},
            QProcessEnvironment::systemEnvironment(), 60000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QStringList lines = r.out.split('\n');
        qsizetype header = -1;
        for (qsizetype i = 0; i < lines.size(); ++i)
            if (lines[i].startsWith("node ")) header = i;
        QVERIFY(header >= 0);
        const qsizetype opColumn = lines[header].indexOf(" op ") + 1;
        const qsizetype outputColumn = lines[header].indexOf("output");
        int rows = 0;
        for (qsizetype i = header + 1; i < lines.size() && !lines[i].isEmpty() && !lines[i].startsWith("total"); ++i, ++rows) {
            QVERIFY2(lines[i].at(opColumn - 1) == ' ' && lines[i].at(opColumn) != ' ', qPrintable(lines[i]));
            QVERIFY2(lines[i].at(outputColumn) == '[', qPrintable(lines[i]));
        }
        QVERIFY(rows >= 10);
        QVERIFY(r.out.contains("crossentropy1"));
    }
};

QTEST_GUILESS_MAIN(TestCliTables)
#include "tst_cli_tables.moc"
