// Activation checkpointing: a marked segment's activations are dropped after forward and
// recomputed in backward. On the CPU backend that must change nothing but memory: gradients,
// running statistics and training losses are compared bit for bit with unmarked runs.
#include <QtTest>

#include <cstring>
#include <map>
#include <random>

#include "backend/backend.h"
#include "blob_dataset.h"
#include "exec/executor.h"
#include "graph/templates.h"
#include "io/yaml/experiment_yaml.h"
#include "train/trainer.h"

using namespace ts;
using namespace ts::test;

namespace {

Graph marked(Graph g, const std::vector<std::string>& names)
{
    for (const auto& name : names) {
        auto it = std::find_if(g.nodes.begin(), g.nodes.end(), [&](const Node& n) { return n.name == name; });
        if (it == g.nodes.end()) throw std::invalid_argument("no node " + name);
        it->checkpoint = true;
    }
    return g;
}

// Every node from `first` to `last` in listed order.
std::vector<std::string> range(const Graph& g, const std::string& first, const std::string& last)
{
    std::vector<std::string> out;
    bool in = false;
    for (const Node& n : g.nodes) {
        in = in || n.name == first;
        if (in) out.push_back(n.name);
        if (n.name == last) break;
    }
    return out;
}

Graph mlpWithDropout()
{
    Graph g;
    g.inputs = {{"x", Shape{12}}, {"label", Shape{}, DType::I64}};
    std::string prev = "x";
    for (int i = 0; i < 2; ++i) {
        const std::string k = std::to_string(i);
        g.add("fc" + k, "Linear", {prev}, {{"out_features", std::int64_t(16)}});
        g.add("relu" + k, "ReLU", {"fc" + k});
        g.add("drop" + k, "Dropout", {"relu" + k}, {{"p", 0.5}});
        prev = "drop" + k;
    }
    g.add("head", "Linear", {prev}, {{"out_features", std::int64_t(3)}});
    g.add("loss", "CrossEntropy", {"head", "label"});
    return g;
}

// experiments/fashion_mnist_resnet.yaml on 8x8 images: a stem, two residual blocks (the
// second with a strided 1x1 skip convolution), global average pooling and a classifier.
Graph resnet()
{
    Graph g;
    g.inputs = {{"image", Shape{1, 8, 8}}, {"label", Shape{}, DType::I64}};
    auto conv = [&](const std::string& name, const std::string& in, std::int64_t out, std::int64_t k, std::int64_t stride) {
        g.add(name, "Conv2d", {in}, {{"out_channels", out}, {"kernel_size", k}, {"padding", k / 2}, {"stride", stride}, {"bias", false}});
    };
    conv("stem", "image", 4, 3, 1);
    g.add("stem_bn", "BatchNorm2d", {"stem"});
    g.add("stem_relu", "ReLU", {"stem_bn"});
    conv("b1_conv1", "stem_relu", 4, 3, 1);
    g.add("b1_bn1", "BatchNorm2d", {"b1_conv1"});
    g.add("b1_relu1", "ReLU", {"b1_bn1"});
    conv("b1_conv2", "b1_relu1", 4, 3, 1);
    g.add("b1_bn2", "BatchNorm2d", {"b1_conv2"});
    g.add("b1_add", "Add", {"b1_bn2", "stem_relu"});
    g.add("b1_out", "ReLU", {"b1_add"});
    conv("b2_conv1", "b1_out", 8, 3, 2);
    g.add("b2_bn1", "BatchNorm2d", {"b2_conv1"});
    g.add("b2_relu1", "ReLU", {"b2_bn1"});
    conv("b2_conv2", "b2_relu1", 8, 3, 1);
    g.add("b2_bn2", "BatchNorm2d", {"b2_conv2"});
    conv("b2_skip", "b1_out", 8, 1, 2);
    g.add("b2_add", "Add", {"b2_bn2", "b2_skip"});
    g.add("b2_out", "ReLU", {"b2_add"});
    g.add("pool", "GlobalAvgPool", {"b2_out"});
    g.add("fc", "Linear", {"pool"}, {{"out_features", std::int64_t(10)}});
    g.add("loss", "CrossEntropy", {"fc", "label"});
    return g;
}

// Seeded inputs for every graph input: normal floats, labels in [0, classes).
std::map<std::string, Tensor> inputsFor(const CheckedGraph& cg, std::int64_t classes, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<float> normal;
    std::map<std::string, Tensor> out;
    for (const ValueInfo& v : cg.values) {
        if (v.producer >= 0) continue;
        Tensor t = Tensor::empty(v.spec.shape, v.spec.dtype);
        for (std::int64_t i = 0; i < t.numel(); ++i)
            if (v.spec.dtype == DType::I64) t.data<std::int64_t>()[i] = std::int64_t(rng() % std::uint64_t(classes));
            else t.data<float>()[i] = normal(rng);
        out[v.name] = t;
    }
    return out;
}

struct StepResult {
    std::vector<char> grads, params;  // flat gradients; every parameter (running statistics included)
    float loss = 0;
    MemoryPlan plan;
};

// One forward + backward at (seed 9, step 3) on seeded parameters and inputs.
StepResult step(const Graph& g, std::int64_t batch, std::int64_t classes, std::uint64_t dropoutStep = 3)
{
    const CheckedGraph cg = checkGraph(g, batch);
    Executor ex(cg, cpuBackend());
    ex.initParameters(11);
    for (const auto& [name, t] : inputsFor(cg, classes, 5)) ex.setInput(name, t);
    ex.setSeed(9);
    ex.setStep(dropoutStep);
    ex.forward();
    ex.backward();
    StepResult r;
    const Tensor& grads = ex.flatGradients();
    r.grads.assign(static_cast<const char*>(grads.raw()), static_cast<const char*>(grads.raw()) + grads.bytes());
    for (const Parameter& p : ex.parameters())
        r.params.insert(r.params.end(), static_cast<const char*>(p.value.raw()), static_cast<const char*>(p.value.raw()) + p.value.bytes());
    r.loss = ex.loss();
    r.plan = ex.plan();
    return r;
}

// Gradients and parameters after one step equal bit for bit; the marked plan recomputes.
void expectSame(const Graph& plain, const Graph& ckpt, std::int64_t batch, std::int64_t classes)
{
    const StepResult a = step(plain, batch, classes), b = step(ckpt, batch, classes);
    QVERIFY(a.plan.segments.empty());
    QVERIFY(!b.plan.segments.empty());
    QCOMPARE(a.loss, b.loss);
    QVERIFY2(a.grads == b.grads, "gradients differ with checkpointing");
    QVERIFY2(a.params == b.params, "parameters (running statistics) differ with checkpointing");
}

bool overlaps(const BufferPlan& a, const BufferPlan& b)
{
    const bool inTime = a.start <= b.end && b.start <= a.end;
    const bool inSpace = a.offset < b.offset + b.bytes && b.offset < a.offset + a.bytes;
    return a.bytes && b.bytes && inTime && inSpace;
}

}  // namespace

class TestCheckpointing : public QObject {
    Q_OBJECT
private slots:
    void mlpWithDropoutGradientsAreIdentical()
    {
        const Graph g = mlpWithDropout();
        expectSame(g, marked(g, range(g, "fc0", "drop1")), 6, 3);
        expectSame(g, marked(g, {"relu0", "drop0"}), 6, 3);
        std::vector<std::string> all;
        for (const Node& n : g.nodes) all.push_back(n.name);
        expectSame(g, marked(g, all), 6, 3);  // the loss inside the segment
        // The masks matter: another step draws others, so the recomputation really reused them.
        QVERIFY(step(g, 6, 3, 3).grads != step(g, 6, 3, 4).grads);
    }

    void cnnBlockGradientsAndRunningStatisticsAreIdentical()
    {
        const Graph g = fashionMnistCnn();
        expectSame(g, marked(g, {"conv1", "bn1", "relu1", "pool1"}), 4, 10);
        expectSame(g, marked(g, range(g, "conv1", "pool2")), 4, 10);
        // Momentum was applied once: the running mean moved away from its initial zeros, by
        // the same amount as without checkpointing (compared bit for bit above).
        const CheckedGraph cg = checkGraph(marked(g, range(g, "conv1", "pool2")), 4);
        Executor ex(cg, cpuBackend());
        ex.initParameters(11);
        for (const auto& [name, t] : inputsFor(cg, 10, 5)) ex.setInput(name, t);
        ex.forward();
        const Tensor afterForward = ex.findParameter("bn1.running_mean")->value.clone();
        ex.backward();
        const Tensor& now = ex.findParameter("bn1.running_mean")->value;
        QCOMPARE(std::memcmp(afterForward.raw(), now.raw(), now.bytes()), 0);
        QVERIFY(now.data<float>()[0] != 0.0f);
    }

    void residualSegmentsAreIdentical()
    {
        const Graph g = resnet();
        expectSame(g, marked(g, range(g, "b1_conv1", "b1_bn2")), 4, 10);  // output feeds the Add with the skip
        expectSame(g, marked(g, range(g, "stem", "b1_relu1")), 4, 10);    // stem_relu is also used after the segment
        expectSame(g, marked(g, range(g, "b2_conv1", "b2_out")), 4, 10);  // a whole block with its skip convolution
        expectSame(g, marked(g, range(g, "b1_conv1", "b1_bn2")), 4, 10);
        std::vector<std::string> all;
        for (const Node& n : g.nodes) all.push_back(n.name);
        expectSame(g, marked(g, all), 4, 10);
    }

    void planKeepsBuffersApartAndIsSmaller()
    {
        const Graph cnn = fashionMnistCnn();
        for (const Graph& g : {marked(cnn, range(cnn, "conv1", "pool2")), marked(resnet(), range(resnet(), "stem", "b1_relu1")),
                               marked(mlpWithDropout(), {"fc0", "relu0", "drop0", "head", "loss"})}) {
            const MemoryPlan plan = planMemory(checkGraph(g, 16), cpuBackend(), true);
            std::vector<BufferPlan> all = plan.values;
            for (const auto* list : {&plan.grads, &plan.recomputedValues}) all.insert(all.end(), list->begin(), list->end());
            for (const auto* lists : {&plan.saved, &plan.recomputedSaved})
                for (const auto& list : *lists) all.insert(all.end(), list.begin(), list.end());
            for (const auto& s : plan.segments) all.push_back(s.stateBackup);
            for (std::size_t i = 0; i < all.size(); ++i) {
                QVERIFY(all[i].start <= all[i].end && all[i].end < plan.slotCount);
                QVERIFY(all[i].offset + all[i].bytes <= plan.activationBytes);
                for (std::size_t j = i + 1; j < all.size(); ++j) QVERIFY2(!overlaps(all[i], all[j]), "two live buffers share bytes");
            }
        }

        // The Fashion-MNIST CNN at batch 128. Both conv blocks marked form one segment, whose
        // backward needs all its activations again at once: a small saving. Block 1 alone (the
        // large activations) drops them while block 2 and the head run backward.
        const MemoryPlan plain = planMemory(checkGraph(cnn, 128), cpuBackend(), true);
        const MemoryPlan blocks = planMemory(checkGraph(marked(cnn, range(cnn, "conv1", "pool2")), 128), cpuBackend(), true);
        const MemoryPlan block1 = planMemory(checkGraph(marked(cnn, range(cnn, "conv1", "pool1")), 128), cpuBackend(), true);
        qInfo("CNN, batch 128, activations: %zu bytes plain, %zu with conv1..pool2 checkpointed, %zu with conv1..pool1",
              plain.activationBytes, blocks.activationBytes, block1.activationBytes);
        QVERIFY(blocks.activationBytes < plain.activationBytes);
        QVERIFY(block1.activationBytes < plain.activationBytes * 9 / 10);
        QCOMPARE(blocks.segments.size(), std::size_t(1));
        QCOMPARE(blocks.slotCount, 2 * 14 + 8);  // one slot per recomputed node
        QVERIFY(blocks.segments[0].stateBackup.bytes > 0);  // bn1 and bn2 running statistics
        // An inference plan ignores the marks.
        QCOMPARE(planMemory(checkGraph(marked(cnn, range(cnn, "conv1", "pool2")), 128), cpuBackend(), false).activationBytes,
                 planMemory(checkGraph(cnn, 128), cpuBackend(), false).activationBytes);
    }

    void profilingCountsTheRecomputation()
    {
        const Graph g = marked(mlpWithDropout(), {"fc0", "relu0"});
        const CheckedGraph cg = checkGraph(g, 4);
        Executor ex(cg, cpuBackend());
        for (const auto& [name, t] : inputsFor(cg, 3, 1)) ex.setInput(name, t);
        ex.setProfiling(true);
        ex.forward();
        ex.backward();
        QCOMPARE(ex.timings()[0].calls, std::int64_t(1));
        QVERIFY(ex.timings()[0].recomputeSeconds > 0);
        QVERIFY(ex.timings()[0].backwardSeconds >= ex.timings()[0].recomputeSeconds);
        QCOMPARE(ex.timings()[3].recomputeSeconds, 0.0);  // fc1: not marked
    }

    void yamlRoundTripsTheFlag()
    {
        const std::string layers = R"(dataset: {format: idx, path: /nowhere}
model:
  layers:
    - Flatten
    - Linear: {out_features: 32, checkpoint: true}
    - ReLU: {checkpoint: true}
    - Linear: {name: fc2, out_features: 10, checkpoint: false}
    - CrossEntropy
)";
        const ExperimentSpec spec = parseExperiment(layers, "x.yaml");
        QCOMPARE(spec.model.nodes[1].checkpoint, true);
        QCOMPARE(spec.model.nodes[2].checkpoint, true);
        QCOMPARE(spec.model.nodes[3].checkpoint, false);
        const std::string text = experimentToYaml(spec);
        QVERIFY2(text.find("- ReLU: {checkpoint: true}") != std::string::npos, text.c_str());
        QVERIFY(parseExperiment(text, "x.yaml").model == spec.model);

        const std::string nodes = R"(dataset: {format: idx, path: /nowhere}
model:
  nodes:
    - {name: flat, op: Flatten, inputs: [image]}
    - {name: a, op: Linear, out_features: 10, checkpoint: true}
    - {name: b, op: Linear, inputs: [flat], out_features: 10}
    - {name: sum, op: Add, inputs: [a, b], checkpoint: true}
    - {name: loss, op: CrossEntropy, inputs: [sum, label]}
)";
        const ExperimentSpec graph = parseExperiment(nodes, "x.yaml");
        QVERIFY(graph.model.nodes[1].checkpoint && graph.model.nodes[3].checkpoint && !graph.model.nodes[2].checkpoint);
        QVERIFY(parseExperiment(experimentToYaml(graph), "x.yaml").model == graph.model);

        for (const auto& [yaml, line, column] : {std::tuple{std::string(layers), 5, 46}, std::tuple{std::string(nodes), 5, 59}}) {
            std::string bad = yaml;
            bad.replace(bad.find("checkpoint: true"), 16, "checkpoint: yes-ish");
            try {
                parseExperiment(bad, "x.yaml");
                QFAIL("accepted checkpoint: yes-ish");
            } catch (const ExperimentError& e) {
                QVERIFY2(e.line() == line && e.column() == column && e.message().find("true or false") != std::string::npos, e.what());
            }
        }
    }

    void trainerLossesAreIdentical()
    {
        auto losses = [](const ExperimentSpec& spec) {
            Recorder rec;
            Trainer trainer(spec, blobSplits(), cpuBackend());
            trainer.addListener(&rec);
            trainer.run();
            std::vector<double> out;
            for (const auto& s : rec.all<StepEvent>()) out.push_back(s.loss);
            return out;
        };
        ExperimentSpec spec = blobSpec();
        spec.training.epochs = 2;
        ExperimentSpec ckpt = spec;
        ckpt.model = marked(spec.model, {"flatten", "fc1", "relu"});
        const std::vector<double> a = losses(spec), b = losses(ckpt);
        QCOMPARE(a.size(), std::size_t(30));
        QCOMPARE(a, b);
    }
};

QTEST_GUILESS_MAIN(TestCheckpointing)
#include "tst_checkpointing.moc"
