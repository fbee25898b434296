// `trainstudio-cli bench --model mlp`: the speed-up line is the ratio of the two rates its own
// table prints (it once measured a third time and printed 0.04x beside 26,242 vs 15,277).
#include <QRegularExpression>
#include <QtTest>

#include "child_process.h"

class TestBenchCommand : public QObject {
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
};

QTEST_GUILESS_MAIN(TestBenchCommand)
#include "tst_bench_command.moc"
