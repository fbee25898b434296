// The CPU backend's thread count: results do not depend on it (the shipped MLP and CNN on
// Fashion-MNIST give bit-identical losses and gradient norms with 1 and 2 threads, also when
// the count changes mid-run), and the automatic count follows the cores other programs leave
// idle (the rule, and a real busy process).
#include <QtTest>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "backend/backend.h"
#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/cpu_threads.h"
#include "backend/cpu/parallel.h"
#include "blob_dataset.h"
#include "data/dataset.h"
#include "io/yaml/experiment_yaml.h"
#include "train/trainer.h"

using namespace ts;
using namespace ts::test;

namespace {

const std::string kExperiments = std::string(TS_SOURCE_DIR) + "/experiments";
constexpr const char* kFashion = "/usr/share/datasets/fashion-mnist";

ExperimentSpec shipped(const std::string& file, std::int64_t threads)
{
    std::ifstream in(kExperiments + "/" + file);
    std::stringstream text;
    text << in.rdbuf();
    ExperimentSpec spec = parseExperiment(text.str(), kExperiments + "/" + file);
    spec.training.threads = threads;
    spec.training.device = "cpu";
    spec.training.clipGradNorm = 1.0;  // the gradient norm (sumSquares) feeds the update
    return spec;
}

struct Curve {
    std::vector<double> losses, gradNorms;
    int threadsAfter = 0;
};

Curve trainSteps(const ExperimentSpec& spec, std::int64_t steps, const std::string& cacheDir)
{
    TrainerOptions options;
    options.maxSteps = steps;
    options.cacheDir = cacheDir;
    Trainer trainer(spec, openExperimentDataset(spec, cacheDir), cpuBackend(), options);
    Recorder rec;
    trainer.addListener(&rec);
    const FinishedEvent f = trainer.run();
    if (f.outcome != FinishedEvent::Outcome::Finished) qWarning("%s", f.message.text.c_str());
    Curve c;
    c.threadsAfter = cpu::threadCount();  // what OpenMP (and OpenBLAS, which follows it) was left at
    for (const StepEvent& s : rec.all<StepEvent>()) c.losses.push_back(s.loss), c.gradNorms.push_back(s.gradNorm);
    return c;
}

}  // namespace

class TestCpuThreads : public QObject {
    Q_OBJECT
private slots:
    void idleCoresAreWhatOthersLeave()
    {
        // 2 cores, 1 s: we used 1 core, the machine 2: another program holds a core.
        QCOMPARE(CpuThreadGovernor::idleCores(2, 2.0, 1.0, 1.0), 1);
        QCOMPARE(CpuThreadGovernor::idleCores(2, 2.0, 2.0, 1.0), 2);  // all busy time is ours
        QCOMPARE(CpuThreadGovernor::idleCores(2, 1.0, 1.0, 1.0), 2);
        QCOMPARE(CpuThreadGovernor::idleCores(2, 1.3, 1.0, 1.0), 2);  // a little background work
        QCOMPARE(CpuThreadGovernor::idleCores(2, 1.7, 1.0, 1.0), 1);
        QCOMPARE(CpuThreadGovernor::idleCores(2, 4.0, 0.0, 1.0), 1);  // never below one
        QCOMPARE(CpuThreadGovernor::idleCores(8, 6.0, 2.0, 1.0), 4);
        QCOMPARE(CpuThreadGovernor::idleCores(2, 1.0, 0.5, 0.0), 2);  // no window yet
    }

    void aFixedCountStays()
    {
        CpuThreadGovernor fixed(1);
        QVERIFY(!fixed.automatic());
        QCOMPARE(fixed.threads(), 1);
        QVERIFY(!fixed.update(0.0));
        QCOMPARE(fixed.threads(), 1);
    }

    void automaticFollowsABusyProcess()
    {
        const int cores = int(std::thread::hardware_concurrency());
        if (cores < 2) QSKIP("one core: nothing to follow");
        CpuThreadGovernor governor(0);
        QCOMPARE(governor.threads(), cores);
        // Another process busy on a core: the count drops. (Other tests running beside this
        // one only make it drop sooner; the way back up is the rule's, tested above.)
        QProcess busy;
        busy.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("while :; do :; done")});
        QVERIFY(busy.waitForStarted());
        for (int look = 0; look < 10 && governor.threads() == cores; ++look) {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            governor.update(0.2);
        }
        busy.kill();
        busy.waitForFinished();
        QVERIFY2(governor.threads() < cores, "a busy process on one core left the count at every core");
        setCpuThreads(0);
    }

    void resultsDoNotDependOnTheThreadCount_data()
    {
        QTest::addColumn<QString>("experiment");
        QTest::newRow("mlp") << QStringLiteral("fashion_mnist_mlp.yaml");
        QTest::newRow("cnn") << QStringLiteral("fashion_mnist_cnn.yaml");
    }
    void resultsDoNotDependOnTheThreadCount()
    {
        if (!QFileInfo::exists(QString::fromLatin1(kFashion))) QSKIP("Fashion-MNIST is not installed");
        QFETCH(QString, experiment);
        QTemporaryDir cache;
        const std::string file = experiment.toStdString();
        const Curve one = trainSteps(shipped(file, 1), 12, cache.path().toStdString());
        const Curve two = trainSteps(shipped(file, 2), 12, cache.path().toStdString());
        QCOMPARE(one.threadsAfter, 1);
        QCOMPARE(two.threadsAfter, 2);  // really two: nothing (OpenBLAS's own setting) pulled it back to one
        QCOMPARE(one.losses.size(), std::size_t(12));
        QCOMPARE(two.losses.size(), one.losses.size());
        for (std::size_t i = 0; i < one.losses.size(); ++i) {
            QVERIFY2(one.losses[i] == two.losses[i], qPrintable(QStringLiteral("step %1: loss %2 with 1 thread, %3 with 2")
                                                                  .arg(i + 1).arg(one.losses[i], 0, 'g', 17)
                                                                  .arg(two.losses[i], 0, 'g', 17)));
            QVERIFY2(one.gradNorms[i] == two.gradNorms[i], qPrintable(QStringLiteral("step %1: gradient norm").arg(i + 1)));
        }
        setCpuThreads(0);
    }
};

QTEST_GUILESS_MAIN(TestCpuThreads)
#include "tst_cpu_threads.moc"
