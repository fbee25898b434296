// `trainstudio-cli selftest`: the real binary (QProcess). Without a GPU, --device cuda must
// say so in one line and exit 77 (ctest's skip code); --device cpu runs the whole harness
// (a second CPU backend against the first: every primitive, then every registered op's cases)
// and everything must pass, in the table and in JSON; with training, the Fashion-MNIST runs on
// both CPU instances must agree exactly.
#include <QtTest>

#include "child_process.h"

#include "backend/devices.h"

namespace {

using Result = ts::test::ProcessResult;

Result cli(const QStringList& args, int timeoutMs = 280000)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("OMP_NUM_THREADS", "2");
    return ts::test::runProcess(TS_CLI_EXE, args, env, timeoutMs);
}

// Every stdout line must be one JSON object.
QList<QJsonObject> jsonLines(const QString& out)
{
    QList<QJsonObject> objects;
    for (const QString& line : out.split('\n', Qt::SkipEmptyParts)) {
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(line.toUtf8(), &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject()) {
            qWarning() << "not a JSON object:" << line.left(300);
            return {};
        }
        objects.push_back(doc.object());
    }
    return objects;
}

}  // namespace

class TestSelftestCommand : public QObject {
    Q_OBJECT

private slots:
    void withoutGpuCudaIsNothingToCheck()
    {
        const ts::CudaRuntimeInfo cuda = ts::queryCuda();
        if (!cuda.devices.empty()) QSKIP("this machine has a CUDA device: cli.selftest_cuda runs the real check");
        const Result r = cli({"selftest", "--device", "cuda"});
        QCOMPARE(r.exitCode, 77);
        const QString line = "selftest: " + QString::fromStdString(cuda.reason) + "; nothing to check\n";
        QCOMPARE(r.err, line);
        QVERIFY(r.out.isEmpty());

        const Result j = cli({"selftest", "--device", "cuda:1", "--json", "--no-training"});
        QCOMPARE(j.exitCode, 77);
        const QList<QJsonObject> objects = jsonLines(j.out);
        QCOMPARE(objects.size(), 1);
        QCOMPARE(objects[0]["event"].toString(), QString("selftest"));
        QCOMPARE(objects[0]["skipped"].toBool(), true);
    }

    void cpuHarnessPassesInTheTable()
    {
        const Result r = cli({"selftest", "--device", "cpu", "--no-training"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out.right(2000) + r.err));
        QVERIFY(r.out.contains("a second CPU backend (checks the harness only)"));
        QVERIFY(r.out.contains(QRegularExpression("primitive +shape +rel. error +tolerance +result")));
        QVERIFY(r.out.contains(QRegularExpression("\ngemm +m=130 n=67 k=257 TT lda=133 ldb=260 ldc=70 alpha=1.5 beta=0.5 +0 +0.0001 +ok\n")));
        QVERIFY(r.out.contains(QRegularExpression("\nop +case +rel. error +tolerance +result\n")));
        QVERIFY(r.out.contains(QRegularExpression("\nLinear backward +5x7 to 1 without bias: x=\\[5, 7\\] +0 +0.001 +ok\n")));
        QVERIFY(!r.out.contains("FAIL"));
        QVERIFY(!r.out.contains("training comparison"));
        QVERIFY(r.out.contains(QRegularExpression("\nselftest passed: \\d{3,} passed, 0 failed, 0 not supported\n$")));
    }

    void cpuHarnessWithTrainingInJson()
    {
        const Result r = cli({"selftest", "--device", "cpu", "--json", "--precision", "tf32", "--seed", "5"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out.right(2000) + r.err));
        const QList<QJsonObject> objects = jsonLines(r.out);
        QVERIFY(objects.size() > 300);
        int cases = 0, opCases = 0;
        QStringList experiments;
        for (const QJsonObject& o : objects) {
            const QString event = o["event"].toString();
            if (event == "op_case") {
                ++opCases;
                QVERIFY2(o["passed"].toBool() && o["supported"].toBool(), qPrintable(o["op"].toString()));
                QCOMPARE(o["error"].toDouble(), 0.0);
                if (o["op"].toString().startsWith("Linear ")) QVERIFY(qFuzzyCompare(o["tolerance"].toDouble(), 5e-2));
            } else if (event == "case") {
                ++cases;
                QCOMPARE(o["precision"].toString(), QString("tf32"));
                QVERIFY(o["passed"].toBool() && o["supported"].toBool());
                QCOMPARE(o["error"].toDouble(), 0.0);
                const QString primitive = o["primitive"].toString();
                const bool matmul = primitive == "gemm" || primitive.startsWith("conv2d") || primitive.startsWith("attention");
                QCOMPARE(o["tolerance"].toDouble(), matmul ? 5e-3 : 1e-5);
            } else if (event == "training") {
                experiments << o["experiment"].toString();
                QVERIFY2(o["passed"].toBool(), qPrintable(o["detail"].toString()));
                QCOMPARE(o["steps"].toInt(), 30);
                QCOMPARE(o["max_rel_diff"].toDouble(), 0.0);  // two CPU backends train identically
            }
        }
        QCOMPARE(experiments, (QStringList{"fashion_mnist_mlp", "fashion_mnist_cnn"}));
        const QJsonObject last = objects.back();
        QCOMPARE(last["event"].toString(), QString("selftest"));
        QVERIFY(opCases >= 8);  // Linear's four cases, forward and backward, at least
        QCOMPARE(last["passed"].toInt(), cases + opCases + 2);
        QCOMPARE(last["failed"].toInt(), 0);
        QCOMPARE(last["not_supported"].toInt(), 0);
    }

    void usage()
    {
        const Result help = cli({"selftest", "--help"});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("77"));
        QVERIFY(help.out.contains("harness"));
        QCOMPARE(cli({"selftest", "--precision", "f64"}).exitCode, 1);
        QCOMPARE(cli({"selftest", "--device", "tpu"}).exitCode, 1);
        const Result missing = cli({"selftest", "--device", "cpu", "--experiments", "/nonexistent"});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains("--experiments /nonexistent holds no fashion_mnist_mlp.yaml"), qPrintable(missing.err));
        QVERIFY(cli({"--help"}).out.contains("selftest"));
    }
};

QTEST_GUILESS_MAIN(TestSelftestCommand)
#include "tst_selftest_command.moc"
