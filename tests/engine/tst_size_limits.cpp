// Sizes that cannot overflow (issue 37, item 3): shapes, the cost model and the memory plan
// count with checked arithmetic, so a batch of 2^63-1 or a layer of 10^9 outputs is refused
// naming the node (or planned at its true size and refused against the memory), never shown
// as negative MFLOPs or a plan of a few KiB. The trainer refuses such a run before allocating,
// with the breakdown and the largest batch that fits. A sweep's grid is counted before it is
// built and refused past kMaxSweepTrials; random search draws lazily from ranges of any count.
//
// Besides the seen cases, a generated set: every combination of many batches and layer sizes
// (from 1 to 2^63-1) for an MLP and a CNN, each either refused naming the node or planned with
// no negative, wrapped or shrinking number.
#include <QtTest>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>

#include "backend/backend.h"
#include "blob_dataset.h"
#include "exec/memory_plan.h"
#include "graph/cost_model.h"
#include "graph/graph.h"
#include "io/yaml/experiment_yaml.h"
#include "io/yaml/sweep_reader.h"
#include "jobs/sweep_trials.h"
#include "tensor/checked_size.h"
#include "tensor/format_bytes.h"
#include "train/memory_advice.h"
#include "train/trainer.h"

using namespace ts;

namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

// The shipped MLP's structure: [1, 28, 28] -> Flatten -> Linear(hidden) -> ReLU -> Linear(10).
ExperimentSpec mlp(std::int64_t hidden, std::int64_t batch, std::int64_t features = 28)
{
    ExperimentSpec spec;
    spec.name = "mlp";
    Graph& g = spec.model;
    g.inputs = {{"image", Shape{1, features, 28}}, {"label", Shape{}, DType::I64}};
    g.add("flatten", "Flatten", {"image"});
    g.add("fc1", "Linear", {"flatten"}, {{"out_features", hidden}});
    g.add("relu", "ReLU", {"fc1"});
    g.add("fc2", "Linear", {"relu"}, {{"out_features", std::int64_t(10)}});
    g.add("loss", "CrossEntropy", {"fc2", "label"});
    spec.optimizer.type = "adam";
    spec.training.batchSize = batch;
    return spec;
}

// [3, side, side] -> Conv2d(channels, kernel, padding) -> ReLU -> Flatten -> Linear(10).
Graph cnn(std::int64_t side, std::int64_t channels, std::int64_t kernel, std::int64_t padding)
{
    Graph g;
    g.inputs = {{"image", Shape{3, side, side}}, {"label", Shape{}, DType::I64}};
    g.add("conv", "Conv2d", {"image"}, {{"out_channels", channels}, {"kernel_size", kernel}, {"padding", padding}});
    g.add("relu", "ReLU", {"conv"});
    g.add("flatten", "Flatten", {"relu"});
    g.add("fc", "Linear", {"flatten"}, {{"out_features", std::int64_t(10)}});
    g.add("loss", "CrossEntropy", {"fc", "label"});
    return g;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// An experiment file that reads without its data (nothing here opens it).
const std::string kBase = "name: sizes\n"
                          "dataset: {format: idx, path: /nowhere}\n"
                          "model:\n"
                          "  layers:\n"
                          "    - Flatten\n"
                          "    - Linear: {out_features: 32}\n"
                          "    - ReLU\n"
                          "    - Linear: {out_features: 10}\n"
                          "    - CrossEntropy\n"
                          "optimizer: {type: adam, lr: 0.001}\n"
                          "training: {epochs: 2, batch_size: 16}\n";

// One model at one batch: refused naming a node, or counted without a wrapped number. Returns
// the planned training bytes, 0 when refused.
struct Verdict {
    bool refused = false;
    std::size_t planned = 0;
};
Verdict checkOne(const Graph& g, std::int64_t batch, const std::string& label)
{
    Verdict v;
    CheckedGraph checked;
    try {
        checked = checkGraph(g, batch);
    } catch (const GraphError& e) {
        // Refused: the node (or graph input) is named, and the problem is a size or a shape.
        const std::string what = e.what();
        if (e.node().empty() || !contains(what, "'" + e.node() + "'"))
            qFatal("%s: the refusal names no node: %s", label.c_str(), what.c_str());
        if (e.kind() != GraphError::Kind::TooLarge && e.kind() != GraphError::Kind::ShapeMismatch)
            qFatal("%s: refused for another reason: %s", label.c_str(), what.c_str());
        v.refused = true;
        return v;
    }
    const CostReport cost = estimateCost(checked);
    std::int64_t parameters = 0;
    for (const NodeCost& n : cost.nodes) {
        if (n.parameters < 0 || !(n.flops >= 0) || !std::isfinite(n.flops))
            qFatal("%s: node %s counts %lld parameters, %g FLOPs", label.c_str(), n.name.c_str(), (long long)n.parameters, n.flops);
        // Activations hold at least the output, counted exactly.
        const __int128 output = __int128(n.outputShape.numel()) * 4;
        if (__int128(n.activationBytes) < output) qFatal("%s: node %s activations wrapped", label.c_str(), n.name.c_str());
        parameters += n.parameters;
    }
    if (cost.parameters != parameters || cost.flops < 0) qFatal("%s: totals wrapped", label.c_str());
    try {
        const MemoryPlan plan = planMemory(checked, cpuBackend(), /*training=*/true);
        const RunMemory m = runMemory(plan, OptimizerSpec{});
        // Every part at least what it must hold, and the total at least every part: no wrap.
        if (__int128(plan.parameterBytes) < __int128(parameters) * 4 || plan.total() < plan.activationBytes ||
            plan.total() < plan.parameterBytes || m.total() < plan.total() || plan.unsharedBytes < plan.activationBytes)
            qFatal("%s: the plan wrapped (total %zu, parameters %lld)", label.c_str(), plan.total(), (long long)parameters);
        for (const NodeCost& n : cost.nodes)
            if (__int128(plan.unsharedBytes) < __int128(n.outputShape.numel()) * 4) qFatal("%s: unshared bytes wrapped", label.c_str());
        v.planned = m.total();
    } catch (const SizeOverflow& e) {  // a sum past 16 EiB: refused, saying so
        if (!contains(e.what(), "64-bit")) qFatal("%s: %s", label.c_str(), e.what());
        v.refused = true;
    }
    return v;
}

}  // namespace

class TestSizeLimits : public QObject {
    Q_OBJECT

private slots:
    void shapeCountsAreChecked()
    {
        QCOMPARE(Shape({3037000499, 3037000499}).numel(), std::int64_t(3037000499) * 3037000499);
        QVERIFY_THROWS_EXCEPTION(SizeOverflow, Shape({3037000500, 3037000500}).numel());
        QVERIFY_THROWS_EXCEPTION(SizeOverflow, Shape({kMax, 2}).numel());
        QVERIFY_THROWS_EXCEPTION(SizeOverflow, Shape({2, 3, kMax}).product(1, 3));
        QCOMPARE(Shape({kMax, 1}).numel(), kMax);
        std::size_t out = 0;
        QVERIFY(!mulFits(std::size_t(1) << 62, std::size_t(4), out));
        QVERIFY_THROWS_EXCEPTION(SizeOverflow, checkedAdd(std::numeric_limits<std::size_t>::max(), 1, "x"));
    }

    // Seen: a batch of 2^63-1 planned as 3.5 KiB. Now refused at the first node, naming it and
    // the shape; the file itself reads (the batch is the machine's question), and the largest
    // batch that fits a given memory is found.
    void batchOfTwoToThe63IsRefusedNamingTheNode()
    {
        const ExperimentSpec spec = mlp(256, kMax);
        try {
            checkGraph(spec.model, kMax);
            QFAIL("planned a batch of 2^63-1");
        } catch (const GraphError& e) {
            QVERIFY(e.kind() == GraphError::Kind::TooLarge);
            QCOMPARE(e.node(), std::string("flatten"));
            QVERIFY2(contains(e.what(), "node 'flatten' (Flatten): its input 'image' [9223372036854775807, 1, 28, 28]"), e.what());
            QVERIFY2(contains(e.what(), "training.batch_size"), e.what());
            QVERIFY(onlyTheBatchTooLarge(e, spec.model));
        }
        const std::size_t gib = std::size_t(1) << 30;
        const std::string note = largestBatchNote(spec, cpuBackend(), MemoryBudget{gib, 0, gib}, kMax);
        QVERIFY2(contains(note, "the largest batch that fits is training.batch_size: "), note.c_str());
        const std::int64_t largest = std::stoll(note.substr(note.rfind(' ') + 1));
        QVERIFY(planRunMemory(spec, largest, cpuBackend()).total() <= gib);
        QVERIFY(planRunMemory(spec, largest + 1, cpuBackend()).total() > gib);
        // As the reader sees it: the file is valid; validate and train weigh the batch.
        std::string text = kBase;
        text.replace(text.find("batch_size: 16"), 14, "batch_size: 9223372036854775807");
        const ExperimentSpec read = parseExperiment(text, "huge_batch.yaml");
        QCOMPARE(read.training.batchSize, kMax);
    }

    // Seen: out_features 10^9 shown as negative MFLOPs. Now counted exactly and refused against
    // the memory with the breakdown; not even batch 1 fits 8 GiB.
    void billionOutputsArePlannedExactlyAndRefused()
    {
        const ExperimentSpec spec = mlp(1000000000, 128);
        const CheckedGraph g = checkGraph(spec.model, 128);
        const CostReport cost = estimateCost(g);
        QCOMPARE(cost.parameters, std::int64_t(784) * 1000000000 + 1000000000 + 10 * std::int64_t(1000000000) + 10);
        QVERIFY(cost.flops > 2.0 * 128 * 784 * 1e9 * 0.999);
        const RunMemory need = planRunMemory(spec, 128, cpuBackend());
        QVERIFY(need.parameters >= std::size_t(cost.parameters) * 4);
        QCOMPARE(need.optimizerState, 2 * need.gradients);  // adam
        const std::size_t available = std::size_t(8) << 30;
        const auto refusal = memoryRefusal(spec, 128, need, cpuBackend(), MemoryBudget{available, 0, available}, "here");
        QVERIFY(refusal);
        QVERIFY2(contains(*refusal, "does not fit in memory: at batch 128 it needs " + formatBytes(double(need.total()))), refusal->c_str());
        QVERIFY2(contains(*refusal, "more than the 8.0 GiB of RAM available (MemAvailable) here."), refusal->c_str());
        QVERIFY2(contains(*refusal, "Even batch 1 does not fit"), refusal->c_str());
        QVERIFY(!memoryRefusal(spec, 128, need, cpuBackend(), MemoryBudget{need.total(), 0, need.total()}, "here"));
        QVERIFY(!memoryRefusal(spec, 128, need, cpuBackend(), MemoryBudget{}, "here"));  // unknown: not refused
    }

    // A size attribute past 2^31-1 is refused where it is read, naming the node and the value.
    void sizeAttributesHaveALimit()
    {
        for (std::int64_t v : {std::int64_t(kMaxDimension) + 1, std::int64_t(10000000000000), kMax}) {
            try {
                checkGraph(mlp(v, 1).model, 1);
                QFAIL("accepted");
            } catch (const GraphError& e) {
                QVERIFY(e.kind() == GraphError::Kind::TooLarge);
                QVERIFY2(contains(e.what(), "node 'fc1' (Linear): out_features = " + std::to_string(v)), e.what());
                QVERIFY(!onlyTheBatchTooLarge(e, mlp(v, 1).model));
            }
        }
        try {
            checkGraph(cnn(28, 8, kMax, 0), 1);
            QFAIL("accepted");
        } catch (const GraphError& e) {
            QVERIFY2(contains(e.what(), "node 'conv' (Conv2d): kernel_size = 9223372036854775807"), e.what());
        }
    }

    // The generated set: 17 batches x 10 widths for the MLP, 6 batches x 3 sides x 3 channel
    // counts x 3 kernels x 2 paddings for the CNN. Each case is refused naming a node, or
    // counted and planned without a wrapped number; per model, the plan never shrinks as the
    // batch grows, and once a batch is refused every larger one is too.
    void generatedHugeDimsAndBatches()
    {
        const std::vector<std::int64_t> batches = {1, 2, 3, 1000, 1 << 20, 2147483647, 2147483648, 3037000499, 1ll << 40,
                                                   1ll << 45, 1ll << 53, 1ll << 57, 1ll << 60, 1ll << 61, 1ll << 62,
                                                   (1ll << 62) + 12345, kMax};
        int refused = 0, planned = 0;
        for (std::int64_t hidden : {std::int64_t(1), std::int64_t(7), std::int64_t(1000), std::int64_t(1000000),
                                    std::int64_t(1000000000), std::int64_t(kMaxDimension), std::int64_t(kMaxDimension) + 1,
                                    std::int64_t(10000000000000), kMax, std::int64_t(3)}) {
            for (std::int64_t features : {std::int64_t(28), std::int64_t(kMaxDimension)}) {
                const Graph g = mlp(hidden, 1, features).model;
                std::size_t last = 0;
                bool refusedBefore = false;
                for (std::int64_t b : batches) {
                    const std::string label = "mlp hidden " + std::to_string(hidden) + " features " + std::to_string(features) +
                                              " batch " + std::to_string(b);
                    const Verdict v = checkOne(g, b, label);
                    (v.refused ? refused : planned)++;
                    if (refusedBefore) QVERIFY2(v.refused, qPrintable(QString::fromStdString(label + ": planned after a smaller batch was refused")));
                    if (!v.refused) QVERIFY2(v.planned >= last, label.c_str());
                    refusedBefore = refusedBefore || v.refused;
                    if (!v.refused) last = v.planned;
                }
            }
        }
        for (std::int64_t side : {std::int64_t(28), std::int64_t(65536), std::int64_t(kMaxDimension)})
            for (std::int64_t channels : {std::int64_t(8), std::int64_t(1) << 20, std::int64_t(kMaxDimension)})
                for (std::int64_t kernel : {std::int64_t(3), std::int64_t(1) << 16, std::int64_t(1) << 30})
                    for (std::int64_t padding : {std::int64_t(1), std::int64_t(1) << 30}) {
                        const Graph g = cnn(side, channels, kernel, padding);
                        for (std::int64_t b : {std::int64_t(1), std::int64_t(64), std::int64_t(1) << 30, std::int64_t(1) << 40,
                                               std::int64_t(1) << 62, kMax}) {
                            const std::string label = "cnn side " + std::to_string(side) + " channels " + std::to_string(channels) +
                                                      " kernel " + std::to_string(kernel) + " padding " + std::to_string(padding) +
                                                      " batch " + std::to_string(b);
                            (checkOne(g, b, label).refused ? refused : planned)++;
                        }
                    }
        qInfo("generated: %d cases refused naming a node, %d planned without a wrapped number", refused, planned);
        QVERIFY(refused > 100 && planned > 50);
    }

    // train refuses before allocating: the breakdown, and the largest batch that fits, or that
    // not even batch 1 does. Nothing near the plan is ever allocated.
    void trainerRefusesBeforeAllocating()
    {
        const std::size_t available = availableTrainingBytes(cpuBackend());
        if (available == 0) QSKIP("the available memory is not known here");
        struct Case {
            ExperimentSpec spec;
            std::string expected;
        };
        ExperimentSpec wide = test::blobSpec(kMaxDimension);  // 20 x 2^31 parameters: 160 GiB each copy
        ExperimentSpec bigBatch = test::blobSpec(16);
        bigBatch.training.batchSize = std::int64_t(1) << 40;
        ExperimentSpec hugeBatch = test::blobSpec(16);
        hugeBatch.training.batchSize = kMax;
        const std::vector<Case> cases = {{wide, "Even batch 1 does not fit"},
                                         {bigBatch, "The largest batch that fits: training.batch_size: "},
                                         {hugeBatch, "the largest batch that fits is training.batch_size: "}};
        for (const Case& c : cases) {
            if (c.spec.training.batchSize < kMax && planRunMemory(c.spec, c.spec.training.batchSize, cpuBackend()).total() <= available)
                QSKIP("this machine has the memory for the test's large run");
            Allocator& allocator = cpuBackend().allocator();
            allocator.resetPeak();
            const std::size_t before = allocator.stats().allocated;
            test::Recorder rec;
            Trainer trainer(c.spec, test::blobSplits(), cpuBackend(), TrainerOptions{});
            trainer.addListener(&rec);
            const FinishedEvent f = trainer.run();
            QVERIFY(f.outcome == FinishedEvent::Outcome::Failed);
            QVERIFY2(contains(f.message.text, c.expected), f.message.text.c_str());
            if (c.spec.training.batchSize < kMax)
                QVERIFY2(contains(f.message.text, "does not fit in memory") && contains(f.message.text, "parameters "),
                         f.message.text.c_str());
            else
                QVERIFY2(contains(f.message.text, "node 'flatten'"), f.message.text.c_str());
            QVERIFY(rec.all<StartedEvent>().empty());  // refused in set-up
            QVERIFY2(allocator.stats().peak - before < (std::size_t(64) << 20), "allocated before refusing");
        }
    }

    // Seen: a grid of two `count: 100000` axes grew to 23.5 GB. Now counted and refused when
    // the file is read, at once, with the count and the way out.
    void hugeGridIsCountedNotBuilt()
    {
        const std::string& base = kBase;
        const auto started = std::chrono::steady_clock::now();
        try {
            parseExperiment(base + "sweep:\n  metric: train_loss\n  parameters:\n"
                                   "    optimizer.lr: {log_uniform: [1e-5, 1e-1], count: 100000}\n"
                                   "    optimizer.weight_decay: {uniform: [0, 0.1], count: 100000}\n",
                            "grid.yaml");
            QFAIL("a grid of 10^10 points was accepted");
        } catch (const ExperimentError& e) {
            QVERIFY2(contains(e.message(), "the grid has 10000000000 points (optimizer.lr 100000 x optimizer.weight_decay 100000)"),
                     e.what());
            QVERIFY2(contains(e.message(), "method: random and budget: N"), e.what());
        }
        QVERIFY(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
        // Past 64-bit arithmetic: said so, not wrapped into a small number.
        try {
            parseExperiment(base + "sweep:\n  metric: train_loss\n  parameters:\n"
                                   "    optimizer.lr: {uniform: [0.001, 0.1], count: 9000000000}\n"
                                   "    optimizer.weight_decay: {uniform: [0, 0.1], count: 9000000000}\n"
                                   "    optimizer.eps: {uniform: [1e-9, 1e-7], count: 9000000000}\n",
                            "grid.yaml");
            QFAIL("accepted");
        } catch (const ExperimentError& e) {
            QVERIFY2(contains(e.message(), "more than 9.2e18 points"), e.what());
        }
        // At the limit a grid is built; one more point is refused; a budget past the limit too.
        SweepSpec s;
        s.parameters = {SweepParameter{.key = "optimizer.lr", .distribution = "uniform", .low = 0.001, .high = 0.1, .count = 100},
                        SweepParameter{.key = "optimizer.weight_decay", .distribution = "uniform", .low = 0, .high = 0.1, .count = 100}};
        QCOMPARE(sweepGridSize(s).value(), kMaxSweepTrials);
        QCOMPARE(std::int64_t(sweepTrials(s).size()), kMaxSweepTrials);
        s.parameters[1].count = 101;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sweepTrials(s));
        try {
            parseExperiment(base + "sweep:\n  method: random\n  budget: 20000\n  metric: train_loss\n  parameters:\n"
                                   "    optimizer.lr: {log_uniform: [1e-5, 1e-1]}\n",
                            "random.yaml");
            QFAIL("accepted");
        } catch (const ExperimentError& e) {
            QVERIFY2(contains(e.message(), "at most 10000 trials"), e.what());
        }
    }

    // The way out: random search over the same huge axes draws its trials one at a time.
    void randomTrialsAreDrawnLazily()
    {
        const std::string& base = kBase;
        const auto started = std::chrono::steady_clock::now();
        const ExperimentSpec spec = parseExperiment(base + "sweep:\n  method: random\n  budget: 50\n  metric: train_loss\n"
                                                           "  parameters:\n"
                                                           "    optimizer.lr: {log_uniform: [1e-5, 1e-1], count: 100000}\n"
                                                           "    optimizer.weight_decay: {uniform: [0, 0.1], count: 1000000000000}\n",
                                                    "random.yaml");
        const std::vector<SweepTrial> trials = sweepTrials(*spec.sweep);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        qInfo("50 random trials from 10^5 x 10^12 points in %.3f s", seconds);
        QCOMPARE(trials.size(), std::size_t(50));
        QVERIFY(seconds < 5);
        for (const SweepTrial& t : trials) {
            QCOMPARE(t.values.size(), std::size_t(2));
            const double lr = std::stod(t.values[0].second), wd = std::stod(t.values[1].second);
            QVERIFY(lr >= 1e-5 * 0.999 && lr <= 0.1 * 1.001);
            QVERIFY(wd >= 0 && wd <= 0.1 * 1.001);
        }
        QVERIFY(sweepTrials(*spec.sweep) == trials);  // the same trials when the sweep runs again
    }
};

QTEST_APPLESS_MAIN(TestSizeLimits)
#include "tst_size_limits.moc"
