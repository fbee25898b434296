// The executor: memory plan invariants, whole-graph gradients against finite differences,
// accumulation semantics, seeded initialisation and a short training run.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <map>
#include <random>

#include "backend/backend.h"
#include "backend/cpu/cpu_backend.h"
#include "exec/executor.h"
#include "graph/templates.h"
#include "ops/init.h"

using namespace ts;

namespace {

// A graph with branches: fc1 feeds two consumers, act feeds two, a residual Add and a Concat.
Graph branchy()
{
    Graph g;
    g.inputs = {{"x", Shape{6}}, {"label", Shape{}, DType::I64}};
    g.add("fc1", "Linear", {"x"}, {{"out_features", std::int64_t(8)}});
    g.add("act", "Tanh", {"fc1"});
    g.add("fc2", "Linear", {"act"}, {{"out_features", std::int64_t(8)}});
    g.add("res", "Add", {"fc2", "fc1"});
    g.add("cat", "Concat", {"res", "act"});
    g.add("fc3", "Linear", {"cat"}, {{"out_features", std::int64_t(3)}});
    g.add("loss", "CrossEntropy", {"fc3", "label"});
    return g;
}

Graph mlp(int depth, std::int64_t width)
{
    Graph g;
    g.inputs = {{"x", Shape{width}}, {"label", Shape{}, DType::I64}};
    std::string prev = "x";
    for (int i = 0; i < depth; ++i) {
        const std::string fc = "fc" + std::to_string(i), act = "relu" + std::to_string(i);
        g.add(fc, "Linear", {prev}, {{"out_features", width}});
        g.add(act, "ReLU", {fc});
        prev = act;
    }
    g.add("head", "Linear", {prev}, {{"out_features", std::int64_t(3)}});
    g.add("loss", "CrossEntropy", {"head", "label"});
    return g;
}

// Three Gaussian blobs in `dim` dimensions: an easy, seeded classification problem.
void blobs(std::int64_t n, std::int64_t dim, std::uint64_t seed, Tensor& x, Tensor& y)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<float> noise(0.0f, 0.3f);
    x = Tensor::empty(Shape{n, dim});
    y = Tensor::empty(Shape{n}, DType::I64);
    for (std::int64_t i = 0; i < n; ++i) {
        const std::int64_t label = i % 3;
        y.data<std::int64_t>()[i] = label;
        for (std::int64_t d = 0; d < dim; ++d)
            x.data<float>()[i * dim + d] = (d % 3 == label ? 1.5f : 0.0f) + noise(rng);
    }
}

// Every op that overwrites its fresh input gradient (Op::overwritesFreshGradients), as first
// writer of a buffer the plan reuses: conv (3x3 padded, 1x1), batch norm, ReLU and max pooling
// (or, smooth for finite differences, SiLU and average pooling), overlapping padded average
// pooling, Tanh, Flatten, Linear; and an Add taking one value twice.
Graph convChain(bool smooth)
{
    Graph g;
    g.inputs = {{"x", Shape{2, 8, 8}}, {"label", Shape{}, DType::I64}};
    g.add("conv1", "Conv2d", {"x"}, {{"out_channels", std::int64_t(4)}, {"kernel_size", std::int64_t(3)}, {"padding", std::int64_t(1)}});
    g.add("bn1", "BatchNorm2d", {"conv1"});
    g.add("act1", smooth ? "SiLU" : "ReLU", {"bn1"});
    g.add("pool1", smooth ? "AvgPool2d" : "MaxPool2d", {"act1"}, {{"kernel_size", std::int64_t(2)}});
    g.add("conv2", "Conv2d", {"pool1"}, {{"out_channels", std::int64_t(3)}, {"kernel_size", std::int64_t(1)}});
    g.add("act", "Tanh", {"conv2"});
    g.add("pool2", "AvgPool2d", {"act"}, {{"kernel_size", std::int64_t(3)}, {"stride", std::int64_t(2)}, {"padding", std::int64_t(1)}});
    g.add("res", "Add", {"pool2", "pool2"});
    g.add("flat", "Flatten", {"res"});
    g.add("fc", "Linear", {"flat"}, {{"out_features", std::int64_t(3)}});
    g.add("loss", "CrossEntropy", {"fc", "label"});
    return g;
}

bool overlaps(const BufferPlan& a, const BufferPlan& b)
{
    const bool inTime = a.start <= b.end && b.start <= a.end;
    const bool inSpace = a.offset < b.offset + b.bytes && b.offset < a.offset + a.bytes;
    return a.bytes && b.bytes && inTime && inSpace;
}

}  // namespace

class TestExecutor : public QObject {
    Q_OBJECT
private slots:
    void planNeverOverlapsLiveBuffers()
    {
        for (bool training : {true, false}) {
            const MemoryPlan plan = planMemory(checkGraph(branchy(), 16), cpuBackend(), training);
            std::vector<BufferPlan> all = plan.values;
            all.insert(all.end(), plan.grads.begin(), plan.grads.end());
            for (const auto& list : plan.saved) all.insert(all.end(), list.begin(), list.end());
            for (std::size_t i = 0; i < all.size(); ++i) {
                QVERIFY(all[i].offset % kBufferAlignment == 0);
                QVERIFY(all[i].offset + all[i].bytes <= plan.activationBytes);
                for (std::size_t j = i + 1; j < all.size(); ++j) QVERIFY2(!overlaps(all[i], all[j]), "two live buffers share bytes");
            }
        }
    }

    void longChainsPlanInNearLinearTime()
    {
        // 12,000 nodes: past the exact placement's limit, so the allocator-style placement
        // plans it. Checked against an independent sweep over time: no two live buffers share
        // bytes, and the arena is within 25% of the most bytes ever alive at once (a lower bound
        // for any placement). The quadratic placement alone made `validate` of a 40,000-layer
        // chain take 52 s here; this plan takes well under a second.
        const CheckedGraph cg = checkGraph(mlp(6000, 16), 32);
        for (bool training : {true, false}) {
            QElapsedTimer timer;
            timer.start();
            const MemoryPlan plan = planMemory(cg, cpuBackend(), training);
            const qint64 ms = timer.elapsed();
            QVERIFY2(ms < 10000, qPrintable(QString("planning took %1 ms").arg(ms)));
            std::vector<BufferPlan> all;
            for (const auto* list : {&plan.values, &plan.grads})
                for (const BufferPlan& b : *list)
                    if (b.bytes) all.push_back(b);
            for (const auto& list : plan.saved) all.insert(all.end(), list.begin(), list.end());
            QVERIFY(all.size() > 8192);
            std::vector<std::size_t> order(all.size());
            for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
            std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return all[a].start < all[b].start; });
            std::multimap<int, std::size_t> ending;  // end slot -> buffer, of the live ones
            std::map<std::size_t, std::size_t> liveAt;  // offset -> end of its bytes
            std::size_t liveBytes = 0, peak = 0;
            for (std::size_t i : order) {
                const BufferPlan& b = all[i];
                while (!ending.empty() && ending.begin()->first < b.start) {
                    const BufferPlan& d = all[ending.begin()->second];
                    liveAt.erase(d.offset), liveBytes -= d.bytes, ending.erase(ending.begin());
                }
                const auto next = liveAt.lower_bound(b.offset);
                QVERIFY2(next == liveAt.end() || next->first >= b.offset + b.bytes, "two live buffers share bytes");
                QVERIFY2(next == liveAt.begin() || std::prev(next)->second <= b.offset, "two live buffers share bytes");
                QVERIFY(b.offset + b.bytes <= plan.activationBytes);
                liveAt.emplace(b.offset, b.offset + b.bytes), ending.emplace(b.end, i);
                liveBytes += b.bytes, peak = std::max(peak, liveBytes);
            }
            QVERIFY2(plan.activationBytes <= peak + peak / 4,
                     qPrintable(QString("arena %1 bytes, at most %2 alive at once").arg(plan.activationBytes).arg(peak)));
        }
    }

    void planReusesMemoryAndReportsBreakdown()
    {
        const CheckedGraph cg = checkGraph(mlp(8, 64), 32);
        const MemoryPlan train = planMemory(cg, cpuBackend(), true);
        const MemoryPlan infer = planMemory(cg, cpuBackend(), false);
        QVERIFY(train.activationBytes < train.unsharedBytes);  // gradients reuse dead buffers
        QVERIFY(infer.activationBytes < train.activationBytes / 4);  // inference keeps ~2 layers alive
        // Parameters: 8 x (64*64 + 64) + (64*3 + 3), each tensor aligned to 256 bytes.
        auto aligned = [](std::size_t b) { return (b + 255) / 256 * 256; };
        const std::size_t expected = 8 * (aligned(64 * 64 * 4) + aligned(64 * 4)) + aligned(64 * 3 * 4) + aligned(3 * 4);
        QCOMPARE(train.parameterBytes, expected);
        QCOMPARE(train.gradientBytes, expected);
        QCOMPARE(infer.gradientBytes, size_t(0));
        QCOMPARE(train.total(), train.parameterBytes + train.gradientBytes + train.activationBytes + train.workspaceBytes);
        QVERIFY(!train.runsBackward.empty() && train.runsBackward.front());
    }

    void valuesBeforeEveryParameterTakeNoGradient()
    {
        // The MLP template: Flatten of the image, then Linear. Nothing upstream of the flattened
        // image is trainable, so it gets no gradient buffer, Flatten no backward, and the first
        // Linear no input gradient; every later value and node keeps theirs.
        const CheckedGraph cg = checkGraph(templateGraph("mlp"), 4);
        const MemoryPlan plan = planMemory(cg, cpuBackend(), true);
        const int flat = cg.findValue("flatten1"), fc1 = cg.findValue("linear1");
        QVERIFY(flat >= 0 && fc1 >= 0);
        QCOMPARE(plan.grads[std::size_t(flat)].bytes, std::size_t(0));
        QVERIFY(plan.grads[std::size_t(fc1)].bytes > 0);
        QVERIFY(!plan.runsBackward[std::size_t(cg.values[std::size_t(flat)].producer)]);
        QVERIFY(plan.runsBackward[std::size_t(cg.values[std::size_t(fc1)].producer)]);
        Executor ex(cg, cpuBackend());  // and it trains: the first layer's weights get gradients
        Tensor x, y;
        blobs(4, 784, 3, x, y);
        ex.setInput("image", x.reshaped(Shape{4, 1, 28, 28}));
        ex.setInput("label", y);
        ex.forward();
        ex.backward();
        const Parameter* w = ex.findParameter("linear1.weight");
        QVERIFY(w);
        const Tensor g = w->grad;
        double norm = 0;
        for (std::int64_t i = 0; i < g.numel(); ++i) norm += double(g.data<float>()[i]) * g.data<float>()[i];
        QVERIFY(norm > 0);
    }

    void runningStatisticsHaveNoGradients()
    {
        Graph g;
        g.inputs = {{"x", Shape{4}}};
        g.add("bn", "BatchNorm1d", {"x"});
        const MemoryPlan plan = planMemory(checkGraph(g, 8), cpuBackend(), true);
        auto aligned = [](std::size_t b) { return (b + 255) / 256 * 256; };
        QCOMPARE(plan.parameterBytes, 4 * aligned(16));  // weight, bias, running mean, running var
        QCOMPARE(plan.gradientBytes, 2 * aligned(16));   // weight and bias only
    }

    void wholeGraphGradientsMatchFiniteDifferences()
    {
        Executor ex(checkGraph(branchy(), 5), cpuBackend());
        ex.initParameters(3);
        Tensor x, y;
        blobs(5, 6, 11, x, y);
        ex.setInput("x", x);
        ex.setInput("label", y);
        ex.forward();
        ex.backward();
        QVERIFY(gradientsMatchFiniteDifferences(ex, 3) > 50);
    }

private:
    // The executor's parameter gradients (after forward + backward on its inputs) against central
    // differences of its loss, every stride-th element of each trainable parameter; float32,
    // eps 1e-2: |analytic - numeric| <= 1e-3 + 1e-2 |numeric|. Returns how many were checked (0: a
    // mismatch, reported).
    static int gradientsMatchFiniteDifferences(Executor& ex, std::int64_t stride)
    {
        const double eps = 1e-2;
        int checked = 0;
        for (Parameter& p : ex.parameters()) {
            if (!p.grad.defined()) continue;  // running statistics
            const Tensor grad = p.grad.clone();
            for (std::int64_t i = 0; i < p.value.numel(); i += stride) {
                float* w = p.value.data<float>() + i;
                const float keep = *w;
                *w = float(keep + eps);
                ex.forward();
                const double plus = ex.loss();
                *w = float(keep - eps);
                ex.forward();
                const double minus = ex.loss();
                *w = keep;
                const double numeric = (plus - minus) / (2 * eps), analytic = grad.data<float>()[i];
                if (std::abs(analytic - numeric) > 1e-3 + 1e-2 * std::abs(numeric)) {
                    qWarning("%s[%lld]: analytic %g, numeric %g", p.name.c_str(), (long long)i, analytic, numeric);
                    return 0;
                }
                ++checked;
            }
        }
        return checked;
    }

private slots:

    void firstWritersOverwriteStaleGradients()
    {
        // The first writer of each activation gradient overwrites it instead of the executor
        // zeroing it. A backward after another batch's (the buffers hold its gradients) must
        // give the same bits as a fresh executor's, and these must match finite differences
        // (where the graph is smooth: max pooling's argmax flips under eps).
        QFETCH(bool, smooth);
        Tensor x, y, other, otherY;
        blobs(3, 128, 21, x, y);
        blobs(3, 128, 22, other, otherY);
        for (Tensor* t : {&x, &other}) *t = t->reshaped(Shape{3, 2, 8, 8});
        Executor fresh(checkGraph(convChain(smooth), 3), cpuBackend()), reused(checkGraph(convChain(smooth), 3), cpuBackend());
        fresh.initParameters(4);
        reused.initParameters(4);
        reused.setInput("x", other);
        reused.setInput("label", otherY);
        reused.forward();
        reused.backward();
        reused.zeroGrad();
        for (Executor* ex : {&fresh, &reused}) {
            ex->setInput("x", x);
            ex->setInput("label", y);
            ex->forward();
            ex->backward();
        }
        const Tensor a = fresh.flatGradients().clone(), b = reused.flatGradients().clone();
        for (std::int64_t i = 0; i < a.numel(); ++i)
            QVERIFY2(a.data<float>()[i] == b.data<float>()[i],
                     qPrintable(QString("gradient %1: fresh %2, after another batch %3").arg(i).arg(a.data<float>()[i]).arg(b.data<float>()[i])));
        if (smooth) QVERIFY(gradientsMatchFiniteDifferences(fresh, 2) > 50);
    }
    void firstWritersOverwriteStaleGradients_data()
    {
        QTest::addColumn<bool>("smooth");
        QTest::newRow("relu, max pooling") << false;
        QTest::newRow("silu, average pooling") << true;
    }

    void fusedBatchNormReluMatchesUnfusedBitForBit()
    {
        // A backend without fused kernels (as CUDA is) inherits Backend's defaults, which run
        // the two primitives; it must give the same bits as well.
        class Composed : public CpuBackend {
        public:
            void batchNormReluForwardTraining(const float* x, const float* gamma, const float* beta, float* y, float* r,
                                              float* saveMean, float* saveInvStd, float* runningMean, float* runningVar,
                                              std::int64_t n, std::int64_t c, std::int64_t inner, float momentum,
                                              float eps, const CrossRankSum* acrossRanks) override
            {
                Backend::batchNormReluForwardTraining(x, gamma, beta, y, r, saveMean, saveInvStd, runningMean,
                                                      runningVar, n, c, inner, momentum, eps, acrossRanks);
            }
            void batchNormReluBackward(const float* x, const float* gamma, const float* beta, const float* y,
                                       const float* r, const float* dr, float* dy, const float* saveMean,
                                       const float* saveInvStd, float* dx, float* dgamma, float* dbeta, std::int64_t n,
                                       std::int64_t c, std::int64_t inner, const CrossRankSum* acrossRanks,
                                       GradWrite write) override
            {
                Backend::batchNormReluBackward(x, gamma, beta, y, r, dr, dy, saveMean, saveInvStd, dx, dgamma, dbeta, n,
                                               c, inner, acrossRanks, write);
            }
        } composedBackend;
        // The CNN template's batch norms run their ReLUs in training (Executor::setFusion): the
        // same loss, ReLU outputs, running statistics and gradients as running them apart, to the
        // bit, over three steps (the second and later on buffers holding the last step's values).
        const Graph cnn = templateGraph("cnn", TemplateInput{{2, 12, 12}, 10});
        Executor fused(checkGraph(cnn, 6), cpuBackend()), apart(checkGraph(cnn, 6), cpuBackend());
        Executor composed(checkGraph(cnn, 6), composedBackend);
        apart.setFusion(false);
        const CheckedGraph& g = fused.graph();
        int pairs = 0;
        for (std::size_t i = 0; i < g.nodes.size(); ++i)
            if (fused.fusedWith(i) >= 0) {
                QCOMPARE(g.nodes[i].op->type(), std::string("ReLU"));
                QCOMPARE(g.nodes[std::size_t(fused.fusedWith(i))].op->type(), std::string("BatchNorm2d"));
                ++pairs;
            }
        QCOMPARE(pairs, 2);
        const auto same = [](const Tensor& a, const Tensor& b) {
            return a.numel() == b.numel() && std::memcmp(a.raw(), b.raw(), std::size_t(a.bytes())) == 0;
        };
        for (std::uint64_t step = 0; step < 3; ++step) {
            Tensor x, y;
            blobs(6, 2 * 12 * 12, 40 + step, x, y);
            x = x.reshaped(Shape{6, 2, 12, 12});
            for (Executor* ex : {&fused, &apart, &composed}) {
                if (step == 0) ex->initParameters(7);
                ex->zeroGrad();
                ex->setInput("image", x);
                ex->setInput("label", y);
                ex->forward();
                ex->backward();
            }
            for (Executor* other : {&apart, &composed}) {
                QCOMPARE(fused.loss(), other->loss());
                for (const char* relu : {"relu1", "relu2"}) QVERIFY2(same(fused.value(relu), other->value(relu)), relu);
                QVERIFY(same(fused.flatGradients(), other->flatGradients()));
                QVERIFY(same(fused.flatParameters(), other->flatParameters()));
                for (std::size_t p = 0; p < fused.parameters().size(); ++p)  // running statistics too
                    QVERIFY2(same(fused.parameters()[p].value, other->parameters()[p].value),
                             fused.parameters()[p].name.c_str());
            }
        }
        // In evaluation the executor runs them apart (batch norm then uses running statistics).
        fused.setTraining(false);
        apart.setTraining(false);
        fused.forward();
        apart.forward();
        QCOMPARE(fused.loss(), apart.loss());
    }

    void backwardAccumulatesUntilZeroGrad()
    {
        Executor ex(checkGraph(branchy(), 4), cpuBackend());
        Tensor x, y;
        blobs(4, 6, 5, x, y);
        ex.setInput("x", x);
        ex.setInput("label", y);
        ex.forward();
        ex.backward();
        const Tensor once = ex.flatGradients().clone();
        ex.forward();
        ex.backward();
        const Tensor twice = ex.flatGradients().clone();
        double maxAbs = 0;
        for (std::int64_t i = 0; i < once.numel(); ++i) {
            QVERIFY(std::abs(twice.data<float>()[i] - 2 * once.data<float>()[i]) <= 1e-5f + 1e-5f * std::abs(once.data<float>()[i]));
            maxAbs = std::max(maxAbs, double(std::abs(once.data<float>()[i])));
        }
        QVERIFY(maxAbs > 0);
        ex.zeroGrad();
        for (std::int64_t i = 0; i < once.numel(); ++i) QCOMPARE(ex.flatGradients().data<float>()[i], 0.0f);
    }

    void initialisationFollowsTheSeed()
    {
        Executor a(checkGraph(mlp(2, 256), 1), cpuBackend()), b(checkGraph(mlp(2, 256), 1), cpuBackend());
        a.initParameters(42);
        b.initParameters(42);
        const Tensor& wa = a.findParameter("fc0.weight")->value;
        QCOMPARE(std::memcmp(wa.raw(), b.findParameter("fc0.weight")->value.raw(), wa.bytes()), 0);
        b.initParameters(43);
        QVERIFY(std::memcmp(wa.raw(), b.findParameter("fc0.weight")->value.raw(), wa.bytes()) != 0);
        // Kaiming normal for ReLU: std = sqrt(2 / fan_in) = sqrt(2/256); 65536 samples -> within 2%.
        double sum = 0, sq = 0;
        for (std::int64_t i = 0; i < wa.numel(); ++i) sum += wa.data<float>()[i], sq += double(wa.data<float>()[i]) * wa.data<float>()[i];
        const double mean = sum / wa.numel(), stddev = std::sqrt(sq / wa.numel() - mean * mean);
        QVERIFY2(std::abs(stddev / std::sqrt(2.0 / 256) - 1) < 0.02, qPrintable(QString::number(stddev)));
        QVERIFY(std::abs(mean) < 0.003);
        const Tensor& bias = a.findParameter("fc0.bias")->value;
        for (std::int64_t i = 0; i < bias.numel(); ++i) QCOMPARE(bias.data<float>()[i], 0.0f);
    }

    void xavierUniformBounds()
    {
        InitSpec s{InitKind::XavierUniform, 100, 300, 1.0};
        std::vector<float> w(40000);
        initialise(s, w.data(), std::int64_t(w.size()), 9);
        const double bound = std::sqrt(6.0 / 400);
        float lo = 0, hi = 0;
        for (float v : w) lo = std::min(lo, v), hi = std::max(hi, v);
        QVERIFY(lo >= -bound && hi <= bound);
        QVERIFY(lo < -0.95 * bound && hi > 0.95 * bound);  // the range is actually used
    }

    // init: pytorch is torch.nn.Linear's default: weight and bias uniform in +-1/sqrt(fan_in).
    void pytorchInitBounds()
    {
        Graph g;
        g.inputs = {{"x", Shape{400}}};
        g.add("fc", "Linear", {"x"}, {{"out_features", std::int64_t(300)}, {"init", std::string("pytorch")}});
        Executor ex(checkGraph(g, 1), cpuBackend(), false);
        ex.initParameters(5);
        const double bound = 1.0 / std::sqrt(400.0);
        for (const char* name : {"fc.weight", "fc.bias"}) {
            const Tensor& t = ex.findParameter(name)->value;
            float lo = 0, hi = 0;
            for (std::int64_t i = 0; i < t.numel(); ++i) lo = std::min(lo, t.data<float>()[i]), hi = std::max(hi, t.data<float>()[i]);
            QVERIFY2(lo >= -bound && hi <= bound, name);
            QVERIFY2(lo < -0.9 * bound && hi > 0.9 * bound, name);  // the whole range is used: the bias is not zero
        }
    }

    void sgdTrainingLowersTheLossDeterministically()
    {
        auto run = [](std::vector<float>& losses) {
            Executor ex(checkGraph(mlp(2, 32), 30), cpuBackend());
            ex.initParameters(7);
            Tensor x, y;
            blobs(30, 32, 1, x, y);
            ex.setInput("x", x);
            ex.setInput("label", y);
            for (int step = 0; step < 60; ++step) {
                ex.zeroGrad();
                ex.forward();
                ex.backward();
                losses.push_back(ex.loss());
                cpuBackend().axpy(ex.flatParameters().numel(), -0.1f, ex.flatGradients().data<float>(),
                                  ex.flatParameters().data<float>());
            }
        };
        std::vector<float> first, second;
        run(first);
        run(second);
        QVERIFY2(first.front() > 0.8f && first.back() < 0.1f,
                 qPrintable(QString("loss %1 -> %2").arg(first.front()).arg(first.back())));
        QCOMPARE(first, second);  // bit-identical on the CPU backend
    }

    void inputsAreCheckedForShapeAndType()
    {
        Executor ex(checkGraph(branchy(), 4), cpuBackend());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ex.setInput("x", Tensor::zeros(Shape{4, 7})));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ex.setInput("label", Tensor::zeros(Shape{4})));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ex.setInput("fc1", Tensor::zeros(Shape{4, 8})));
        Executor inference(checkGraph(branchy(), 4), cpuBackend(), false);
        QVERIFY_THROWS_EXCEPTION(std::logic_error, inference.backward());
    }
};

QTEST_GUILESS_MAIN(TestExecutor)
#include "tst_executor.moc"
