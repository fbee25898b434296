// `validate`, `train` and `sweep` on sizes past the machine (issue 37, item 3), the real binary:
// a batch of 2^63-1 and an out_features of 10^9 are refused with the plan against this
// machine's memory and the largest batch that fits, never printed as negative MFLOPs or a plan
// of a few KiB; train refuses before allocating (the run is recorded failed, in seconds); a
// grid of 10^10 points is refused when the file is read, without being built.
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include "child_process.h"

namespace {

using Result = ts::test::ProcessResult;

// The shipped wine-like table, a small MLP; %1 the source dir, %2 the hidden width, %3 the batch.
QString wineYaml()
{
    return QStringLiteral(R"(name: sizes
dataset:
  format: csv
  path: %1/experiments/data/wine_like.csv
  label_column: cultivar
  feature_columns: [alcohol, malic_acid, color_intensity, hue, proline]
  validation_fraction: 0.2
  loader: {num_workers: 0}
model:
  layers:
    - Linear: {out_features: %2}
    - ReLU
    - Linear: {out_features: 3}
    - CrossEntropy
optimizer: {type: adam, lr: 0.003}
training: {epochs: 1, batch_size: %3, device: cpu}
)");
}

// A number printed with a minus sign where none can be: MFLOPs, sizes, counts.
bool hasNegativeNumber(const QString& text)
{
    static const QRegularExpression negative(R"((^|[\s(])-\d)");
    return negative.match(text).hasMatch();
}

}  // namespace

class TestMemoryLimits : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QProcessEnvironment env_;

    Result cli(const QStringList& args, int timeoutMs = 120000) { return ts::test::runProcess(TS_CLI_EXE, args, env_, timeoutMs); }

    QString write(const QString& name, const QString& text)
    {
        const QString path = dir_.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
        f.write(text.toUtf8());
        return path;
    }

    QString experiment(const QString& name, const QString& hidden, const QString& batch)
    {
        return write(name, wineYaml().arg(TS_SOURCE_DIR, hidden, batch));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        env_ = ts::test::scratchCliEnvironment(dir_.filePath("home"));
    }

    // What fits is still said to fit, against the machine's memory.
    void aSmallModelFits()
    {
        const Result r = cli({"validate", experiment("small.yaml", "16", "32")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QRegularExpression(R"(memory: .* planned fits: .* of RAM available \(MemAvailable\))")), qPrintable(r.out));
        QVERIFY(!hasNegativeNumber(r.out));
    }

    // Seen: a batch of 2^63-1 planned as 3.5 KiB. Refused naming the node, with the batch that fits.
    void validateRefusesABatchOfTwoToThe63()
    {
        const Result r = cli({"validate", experiment("batch.yaml", "16", "9223372036854775807")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("validate: at batch 9223372036854775807, node 'linear1' (Linear): its input 'features' "
                                "[9223372036854775807, 5] has more elements than 64-bit arithmetic counts"),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains(QRegularExpression(R"(of RAM available \(MemAvailable\), .* kept free for the system: the largest batch that fits is training\.batch_size: \d{6,})")),
                 qPrintable(r.err));
        QVERIFY2(!r.out.contains("MFLOPs") && !hasNegativeNumber(r.out + r.err), qPrintable(r.out));
    }

    // Seen: out_features 10^9 shown as negative MFLOPs. The table is exact and positive; the plan
    // (terabytes) is refused against the RAM, with the breakdown.
    void validateRefusesABillionOutputs()
    {
        const Result r = cli({"validate", experiment("wide.yaml", "1000000000", "128")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("9,000,000,003"), qPrintable(r.out));  // 5e9 + 1e9 + 3e9 + 3
        QVERIFY2(!hasNegativeNumber(r.out + r.err), qPrintable(r.out + r.err));
        QVERIFY2(r.err.contains(QRegularExpression(R"(validate: the run does not fit in memory: at batch 128 it needs [\d.]+ TiB \(parameters)")),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains("Even batch 1 does not fit"), qPrintable(r.err));
    }

    // A layer size past 2^31-1 is refused where the file says it, naming the node.
    void validateRefusesALayerBeyondTheLimit()
    {
        const QString file = experiment("beyond.yaml", "10000000000000", "16");
        const Result r = cli({"validate", file});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(file + ":11:") && r.err.contains("node 'linear1' (Linear): out_features = 10000000000000 is beyond"),
                 qPrintable(r.err));
    }

    // train refuses in set-up, before allocating: seconds, not a swap storm; the run is failed.
    void trainRefusesBeforeAllocating()
    {
        const QString ws = dir_.filePath("ws");
        QElapsedTimer timer;
        timer.start();
        const Result wide = cli({"train", experiment("train_wide.yaml", "2147483647", "32"), "--workspace", ws});
        QVERIFY2(wide.exitCode != 0 && wide.exitCode != -1, qPrintable(wide.out + wide.err));
        QVERIFY2((wide.out + wide.err).contains("the run does not fit in memory"), qPrintable(wide.out + wide.err));
        QVERIFY2((wide.out + wide.err).contains("Even batch 1 does not fit"), qPrintable(wide.out + wide.err));
        const Result batch = cli({"train", experiment("train_batch.yaml", "16", "32"), "--workspace", ws, "--set",
                                  "training.batch_size=9223372036854775807"});
        QVERIFY2(batch.exitCode != 0 && batch.exitCode != -1, qPrintable(batch.out + batch.err));
        QVERIFY2((batch.out + batch.err).contains("node 'linear1'"), qPrintable(batch.out + batch.err));
        QVERIFY2((batch.out + batch.err).contains("the largest batch that fits is training.batch_size: "), qPrintable(batch.out + batch.err));
        QVERIFY2(!(batch.out + batch.err).contains("bad_alloc"), qPrintable(batch.err));
        QVERIFY2(timer.elapsed() < 60000, qPrintable(QString::number(timer.elapsed())));
        const Result list = cli({"runs", "list", "--workspace", ws});
        QVERIFY2(list.exitCode == 0, qPrintable(list.err));
        QVERIFY2(!list.out.contains("running"), qPrintable(list.out));
    }

    // Seen: two `count: 100000` axes grew to 23.5 GB. Refused when read, with the way out.
    void hugeGridIsRefusedWhenRead()
    {
        QString text = wineYaml().arg(TS_SOURCE_DIR, "16", "32");
        text += "sweep:\n  metric: val_loss\n  parameters:\n"
                "    optimizer.lr: {log_uniform: [1e-5, 1e-1], count: 100000}\n"
                "    optimizer.weight_decay: {uniform: [0, 0.1], count: 100000}\n";
        const QString file = write("grid.yaml", text);
        QElapsedTimer timer;
        timer.start();
        for (const QString& command : {QStringLiteral("validate"), QStringLiteral("sweep")}) {
            const Result r = cli(command == "sweep" ? QStringList{command, file, "--workspace", dir_.filePath("sweep_ws")}
                                                    : QStringList{command, file});
            QCOMPARE(r.exitCode, 1);
            QVERIFY2(r.err.contains(file + ":19:3: sweep: the grid has 10000000000 points"), qPrintable(r.err));
            QVERIFY2(r.err.contains("method: random and budget: N"), qPrintable(r.err));
        }
        QVERIFY2(timer.elapsed() < 20000, qPrintable(QString::number(timer.elapsed())));
    }
};

QTEST_GUILESS_MAIN(TestMemoryLimits)
#include "tst_memory_limits.moc"
