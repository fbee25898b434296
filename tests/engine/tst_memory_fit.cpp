// The memory a run plans is the memory it takes: on the CPU backend the planned total equals
// the allocator's peak during a real training step (executor, optimizer, one step as the
// trainer takes it), within 5%, for the shipped MLP, CNN and ResNet at two batch sizes. And
// the largest batch that fits is exact (against a linear scan), and fast to find. The engine's
// one-step probe (what the Model page runs to confirm that batch) measures that same peak,
// and reports a step that cannot fit instead of throwing.
#include <QtTest>

#include <chrono>
#include <fstream>

#include "backend/backend.h"
#include "backend/cpu/cpu_backend.h"
#include "exec/executor.h"
#include "io/yaml/experiment_yaml.h"
#include "optim/optimizer.h"
#include "tensor/format_bytes.h"
#include "train/evaluation.h"
#include "train/memory_advice.h"
#include "train/step_probe.h"

using namespace ts;

namespace {

const std::string kExperiments = std::string(TS_SOURCE_DIR) + "/experiments";

ExperimentSpec shipped(const QString& model)
{
    return loadExperiment(kExperiments + "/fashion_mnist_" + model.toStdString() + ".yaml");
}

// A batch as the loader hands one over: host tensors, values in the normalised range.
Batch syntheticBatch(const CheckedGraph& graph, std::int64_t batch)
{
    const GraphBinding binding = GraphBinding::of(graph);
    Batch b;
    b.size = batch;
    b.inputs = Tensor::empty(graph.values[static_cast<std::size_t>(graph.findValue(binding.input))].spec.shape);
    float* x = b.inputs.data<float>();
    for (std::int64_t i = 0; i < b.inputs.numel(); ++i) x[i] = static_cast<float>((i * 7919) % 255) / 127.5f - 1.0f;
    b.labels = Tensor::empty(Shape{batch}, DType::I64);
    for (std::int64_t i = 0; i < batch; ++i) b.labels.data<std::int64_t>()[i] = i % 10;
    return b;
}

struct Measured {
    std::size_t peak = 0;       // the allocator's peak over the executor's and optimizer's life, above what was held before
    std::size_t afterStep = 0;  // still allocated after the step
    float loss = 0;
};

// What Trainer::setup and one step of Trainer::trainEpoch do on the CPU backend, in order.
// The batch belongs to the loader (host memory, pinned on CUDA): it exists before and is not
// part of the device's plan.
Measured trainOneStep(const ExperimentSpec& spec, std::int64_t batchSize)
{
    Backend& backend = cpuBackend();
    Allocator& allocator = backend.allocator();
    const CheckedGraph graph = checkGraph(spec.model, batchSize);
    const Batch batch = syntheticBatch(graph, batchSize);
    const std::size_t before = allocator.stats().allocated;
    allocator.resetPeak();
    Measured m;
    {
        Executor exec(graph, backend, /*training=*/true);
        const GraphBinding binding = GraphBinding::of(exec.graph());
        exec.initParameters(spec.training.seed);
        exec.setSeed(spec.training.seed);
        std::unique_ptr<Optimizer> optimizer = makeOptimizer(spec.optimizer, exec);
        exec.setTraining(true);
        exec.setLossScale(1.0f);
        exec.zeroGrad();
        feedBatch(exec, binding, batch);
        exec.setStep(0);
        exec.forward();
        m.loss = exec.loss();
        const std::vector<float> logits = hostLogits(exec, binding);
        exec.backward();
        gradientNorm(exec);
        if (spec.training.clipGradNorm > 0) clipGradientNorm(exec, spec.training.clipGradNorm);
        if (spec.training.clipGradValue > 0) clipGradientValue(exec, spec.training.clipGradValue);
        optimizer->step(static_cast<float>(spec.optimizer.lr));
        m.afterStep = allocator.stats().allocated - before;
    }
    m.peak = allocator.stats().peak - before;
    return m;
}

// MemAvailable read here, independently of the engine's reader.
std::size_t memAvailable()
{
    std::ifstream in("/proc/meminfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("MemAvailable:", 0) == 0) return std::stoull(line.substr(13)) * 1024;
    return 0;
}

}  // namespace

class TestMemoryFit : public QObject {
    Q_OBJECT
private slots:
    void plannedTotalIsThePeakOfATrainingStep_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<qint64>("batch");
        for (const char* m : {"mlp", "cnn", "resnet"})
            for (qint64 b : {32, 128}) QTest::newRow(qPrintable(QString("%1 batch %2").arg(m).arg(b))) << QString(m) << b;
    }
    void plannedTotalIsThePeakOfATrainingStep()
    {
        QFETCH(QString, model);
        QFETCH(qint64, batch);
        const ExperimentSpec spec = shipped(model);
        const RunMemory plan = planRunMemory(spec, batch, cpuBackend());
        const Measured m = trainOneStep(spec, batch);
        QVERIFY(std::isfinite(m.loss));
        const double ratio = double(m.peak) / double(plan.total());
        qInfo("%s batch %lld: planned %zu bytes (parameters %zu, gradients %zu, optimizer %zu, activations %zu, "
              "workspace %zu), allocator peak %zu (%+.3f%%), allocated after the step %zu",
              qPrintable(model), batch, plan.total(), plan.parameters, plan.gradients, plan.optimizerState, plan.activations,
              plan.workspace, m.peak, (ratio - 1) * 100, m.afterStep);
        QVERIFY2(std::abs(ratio - 1) <= 0.05, qPrintable(QString("peak / plan = %1").arg(ratio)));
        // The plan is static: a step allocates nothing transient, so the peak is what stays allocated.
        QCOMPARE(m.afterStep, m.peak);
    }

    // probeTrainingStep against this suite's own step: the same peak to the byte, the plan within 5%.
    void oneStepProbeMeasuresThePlan_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<qint64>("batch");
        for (const char* m : {"mlp", "cnn"})
            for (qint64 b : {8, 48}) QTest::newRow(qPrintable(QString("%1 batch %2").arg(m).arg(b))) << QString(m) << b;
    }
    void oneStepProbeMeasuresThePlan()
    {
        QFETCH(QString, model);
        QFETCH(qint64, batch);
        const ExperimentSpec spec = shipped(model);
        const RunMemory plan = planRunMemory(spec, batch, cpuBackend());
        const StepProbe probe = probeTrainingStep(spec, batch, cpuBackend());
        QVERIFY2(probe.ran(), probe.message.c_str());
        QVERIFY(probe.message.empty());
        QCOMPARE(probe.batch, std::int64_t(batch));
        QVERIFY(probe.planned == plan);
        QVERIFY(std::isfinite(probe.loss) && probe.loss > 0);
        QVERIFY(probe.stepSeconds > 0 && probe.setupSeconds > 0);
        const Measured here = trainOneStep(spec, batch);
        QCOMPARE(probe.peakBytes, here.peak);
        const double ratio = double(probe.peakBytes) / double(plan.total());
        qInfo("%s batch %lld: one step peaked at %zu bytes, planned %zu (%+.3f%%); set-up %.1f ms, step %.1f ms", qPrintable(model),
              batch, probe.peakBytes, plan.total(), (ratio - 1) * 100, probe.setupSeconds * 1e3, probe.stepSeconds * 1e3);
        QVERIFY2(std::abs(ratio - 1) <= 0.05, qPrintable(QString("peak / plan = %1").arg(ratio)));
        // The loss is the trainer's: the same seed and batch give the same number.
        QCOMPARE(probe.loss, here.loss);
    }

    // A budget the step cannot fit is a result, not an exception, and nothing is allocated for it.
    void oneStepProbeReportsWhatDoesNotFit()
    {
        const ExperimentSpec spec = shipped("cnn");
        const std::int64_t batch = 32;
        const RunMemory plan = planRunMemory(spec, batch, cpuBackend());
        for (std::size_t budget : {std::size_t(1), plan.total() / 2, plan.total() - 1}) {
            const std::size_t before = cpuBackend().allocator().stats().allocations;
            StepProbe probe;
            try {
                probe = probeTrainingStep(spec, batch, cpuBackend(), budget);
            } catch (const std::exception& e) {
                QFAIL(qPrintable(QString("threw: %1").arg(e.what())));
            }
            QVERIFY(probe.outcome == StepProbe::Outcome::OutOfMemory);
            QVERIFY(!probe.ran());
            QVERIFY(probe.planned == plan);
            QCOMPARE(probe.peakBytes, std::size_t(0));
            QVERIFY2(probe.message.find(formatBytes(double(plan.total()))) != std::string::npos, probe.message.c_str());
            QVERIFY2(probe.message.find("not run") != std::string::npos, probe.message.c_str());
            QCOMPARE(cpuBackend().allocator().stats().allocations, before);
        }
        // The plan itself as the budget fits: the step runs.
        const StepProbe exact = probeTrainingStep(spec, batch, cpuBackend(), plan.total() + 4096);
        QVERIFY2(exact.ran(), exact.message.c_str());
    }

    // Other failures are results too: a model that does not check, a batch of 0, a bad precision.
    void oneStepProbeReportsOtherFailures()
    {
        ExperimentSpec broken = shipped("mlp");
        broken.model.nodes.back().inputs = {"nowhere"};
        ExperimentSpec precision = shipped("mlp");
        precision.training.precision = "f8";
        const std::vector<std::pair<StepProbe, std::string>> cases = {
            {probeTrainingStep(broken, 8, cpuBackend()), "nowhere"},
            {probeTrainingStep(shipped("mlp"), 0, cpuBackend()), "batch size 0"},
            {probeTrainingStep(precision, 8, cpuBackend()), "f8"},
        };
        for (const auto& [probe, words] : cases) {
            QVERIFY(probe.outcome == StepProbe::Outcome::Failed);
            QVERIFY2(probe.message.find(words) != std::string::npos, probe.message.c_str());
        }
    }

    void largestFittingBatchIsExact_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<qint64>("batch");
        for (const char* m : {"mlp", "cnn", "resnet"})
            for (qint64 b : {1, 2, 37, 128, 1000}) QTest::newRow(qPrintable(QString("%1 %2").arg(m).arg(b))) << QString(m) << b;
    }
    void largestFittingBatchIsExact()
    {
        QFETCH(QString, model);
        QFETCH(qint64, batch);
        const ExperimentSpec spec = shipped(model);
        Backend& cpu = cpuBackend();
        const std::size_t need = planRunMemory(spec, batch, cpu).total();
        QCOMPARE(largestFittingBatch(spec, cpu, need), batch);
        QCOMPARE(largestFittingBatch(spec, cpu, need - 1), batch - 1);  // 0 when batch 1 no longer fits
        QCOMPARE(largestFittingBatch(spec, cpu, need, batch - 1), batch - 1);  // the limit caps it
        QCOMPARE(largestFittingBatch(spec, cpu, need, 0), std::int64_t(0));
    }

    // Against a linear scan over every batch size, for a budget between two plans.
    void largestFittingBatchMatchesALinearScan()
    {
        const ExperimentSpec spec = shipped("cnn");
        Backend& cpu = cpuBackend();
        const std::size_t budget = (planRunMemory(spec, 200, cpu).total() + planRunMemory(spec, 201, cpu).total()) / 2 + 12345;
        std::int64_t scanned = 0;
        for (std::int64_t b = 1; b <= 400; ++b)
            if (planRunMemory(spec, b, cpu).total() <= budget) scanned = b;
        QCOMPARE(scanned, std::int64_t(200));
        QCOMPARE(largestFittingBatch(spec, cpu, budget), scanned);
        // A budget above the limit's plan answers the limit.
        QCOMPARE(largestFittingBatch(spec, cpu, planRunMemory(spec, 400, cpu).total(), 300), std::int64_t(300));
    }

    void nothingFitsBelowTheFixedPart()
    {
        const ExperimentSpec spec = shipped("mlp");
        const RunMemory one = planRunMemory(spec, 1, cpuBackend());
        QCOMPARE(largestFittingBatch(spec, cpuBackend(), one.parameters + one.gradients + one.optimizerState), std::int64_t(0));
        QCOMPARE(largestFittingBatch(spec, cpuBackend(), 0), std::int64_t(0));
    }

    // The Model page asks as the user edits: the ResNet's answer for 8 GiB, timed.
    void largestFittingBatchIsFast()
    {
        const ExperimentSpec spec = shipped("resnet");
        const std::size_t budget = std::size_t(8) << 30;
        largestFittingBatch(spec, cpuBackend(), budget);  // warm caches (op registry, allocator)
        const int rounds = 5;
        const auto start = std::chrono::steady_clock::now();
        std::int64_t b = 0;
        for (int i = 0; i < rounds; ++i) b = largestFittingBatch(spec, cpuBackend(), budget);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / rounds;
        qInfo("ResNet: largest batch for %s is %lld, found in %.2f ms", formatBytes(double(budget)).c_str(),
              static_cast<long long>(b), ms);
        QVERIFY(planRunMemory(spec, b, cpuBackend()).total() <= budget);
        QVERIFY(planRunMemory(spec, b + 1, cpuBackend()).total() > budget);
        QVERIFY2(ms < 50, qPrintable(QString("%1 ms").arg(ms)));
    }

    // On the CPU: MemAvailable plus what the allocator keeps cached for reuse.
    void availableBytesOnTheCpuAreTheAvailableRam()
    {
        const AllocatorStats held = cpuBackend().allocator().stats();
        const std::size_t expected = memAvailable() + (held.reserved - held.allocated);
        const std::size_t got = availableTrainingBytes(cpuBackend());
        qInfo("available for training on the CPU: %s", formatBytes(double(got)).c_str());
        QVERIFY(expected > 0);
        // Other processes allocate meanwhile: agree within 64 MiB.
        QVERIFY2(std::llabs(static_cast<long long>(got) - static_cast<long long>(expected)) < (64ll << 20),
                 qPrintable(QString("%1 vs %2").arg(got).arg(expected)));
    }
};

QTEST_APPLESS_MAIN(TestMemoryFit)
#include "tst_memory_fit.moc"
