// Optimizers, clipping and learning-rate schedules: hand-computed updates on a three-element
// parameter vector, a naive double-precision transcription of torch.optim's published
// algorithms, state round trips, every schedule at chosen steps, reduce-on-plateau, and
// gradient accumulation against one large batch.
#include <QtTest>

#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "backend/backend.h"
#include "exec/executor.h"
#include "backend/math_precision.h"
#include "optim/loss_scaler.h"
#include "optim/optimizer.h"
#include "optim/schedule.h"
#include "optim/weight_decay.h"

using namespace ts;

namespace {

using Vec = std::vector<double>;

// fc.weight [1, 2] and fc.bias [1]: three trainable values, p = (w0, w1, b).
Graph tinyGraph()
{
    Graph g;
    g.inputs = {{"x", Shape{2}}};
    g.add("fc", "Linear", {"x"}, {{"out_features", std::int64_t(1)}});
    return g;
}

struct Tiny {
    Executor ex{checkGraph(tinyGraph(), 1), cpuBackend()};
    float* value(int i) const
    {
        const Parameter* w = ex.findParameter("fc.weight");
        return i < 2 ? w->value.data<float>() + i : ex.findParameter("fc.bias")->value.data<float>();
    }
    float* grad(int i) const
    {
        const Parameter* w = ex.findParameter("fc.weight");
        return i < 2 ? w->grad.data<float>() + i : ex.findParameter("fc.bias")->grad.data<float>();
    }
    void setParams(const Vec& p) { for (int i = 0; i < 3; ++i) *value(i) = float(p[i]); }
    void setGrads(const Vec& g) { for (int i = 0; i < 3; ++i) *grad(i) = float(g[i]); }
    Vec params() const { return {*value(0), *value(1), *value(2)}; }
    Vec grads() const { return {*grad(0), *grad(1), *grad(2)}; }
};

const Vec kP0{1, -2, 0.5}, kG1{0.5, -1, 2}, kG2{1, 1, -1}, kZero{0, 0, 0};

OptimizerSpec opt(const std::string& type, double lr)
{
    OptimizerSpec s;
    s.type = type;
    s.lr = lr;
    return s;
}

// Runs `grads.size()` steps from kP0 and returns the parameters after each step.
std::vector<Vec> run(const OptimizerSpec& spec, const std::vector<Vec>& grads)
{
    Tiny t;
    t.setParams(kP0);
    auto o = makeOptimizer(spec, t.ex);
    std::vector<Vec> out;
    for (const Vec& g : grads) {
        t.setGrads(g);
        o->step(float(spec.lr));
        out.push_back(t.params());
    }
    return out;
}

bool close(double a, double b, double rel = 1e-5, double abs = 1e-6) { return std::abs(a - b) <= abs + rel * std::abs(b); }

#define COMPARE_VEC(actual, expected)                                                                       \
    do {                                                                                                    \
        const Vec a_ = (actual), e_ = (expected);                                                           \
        for (std::size_t i_ = 0; i_ < e_.size(); ++i_)                                                      \
            QVERIFY2(close(a_[i_], e_[i_]),                                                                 \
                     qPrintable(QString("[%1] got %2, expected %3").arg(i_).arg(a_[i_], 0, 'g', 10).arg(e_[i_], 0, 'g', 10))); \
    } while (0)

// torch.optim's documented algorithms, written out literally in double (one element at a
// time, bias corrections as m-hat / v-hat): the reference the fused float kernels must meet.
// Weight decay as two param groups: fc.weight (i < 2) decays, fc.bias (i = 2) only with decayAll.
struct Reference {
    OptimizerSpec s;
    Vec p, m, v, buf;
    int t = 0;
    explicit Reference(OptimizerSpec spec) : s(std::move(spec)), p(kP0), m(3, 0.0), v(3, 0.0), buf(3, 0.0) {}
    void step(const Vec& grad)
    {
        ++t;
        for (int i = 0; i < 3; ++i) {
            double g = grad[i];
            const double wd = i < 2 || s.decayAll ? s.weightDecay : 0.0;
            if (s.type == "sgd") {
                g += wd * p[i];
                if (s.momentum != 0) {
                    buf[i] = t == 1 ? g : s.momentum * buf[i] + g;  // torch: b_1 = g_1
                    g = s.nesterov ? g + s.momentum * buf[i] : buf[i];
                }
                p[i] -= s.lr * g;
            } else if (s.type == "adam" || s.type == "adamw") {
                if (s.type == "adamw") p[i] -= s.lr * wd * p[i];
                else g += wd * p[i];
                m[i] = s.beta1 * m[i] + (1 - s.beta1) * g;
                v[i] = s.beta2 * v[i] + (1 - s.beta2) * g * g;
                const double mh = m[i] / (1 - std::pow(s.beta1, t)), vh = v[i] / (1 - std::pow(s.beta2, t));
                p[i] -= s.lr * mh / (std::sqrt(vh) + s.eps);
            } else {  // rmsprop
                g += wd * p[i];
                v[i] = s.alpha * v[i] + (1 - s.alpha) * g * g;
                const double d = g / (std::sqrt(v[i]) + s.eps);
                if (s.momentum > 0) {
                    buf[i] = s.momentum * buf[i] + d;
                    p[i] -= s.lr * buf[i];
                } else {
                    p[i] -= s.lr * d;
                }
            }
        }
    }
};

// Three Gaussian blobs in `dim` dimensions (as in tst_executor).
void blobs(std::int64_t n, std::int64_t dim, std::uint64_t seed, Tensor& x, Tensor& y)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<float> noise(0.0f, 0.5f);
    x = Tensor::empty(Shape{n, dim});
    y = Tensor::empty(Shape{n}, DType::I64);
    for (std::int64_t i = 0; i < n; ++i) {
        y.data<std::int64_t>()[i] = i % 3;
        for (std::int64_t d = 0; d < dim; ++d) x.data<float>()[i * dim + d] = (d % 3 == i % 3 ? 1.0f : 0.0f) + noise(rng);
    }
}

Tensor rows(const Tensor& t, std::int64_t begin, std::int64_t count)
{
    std::vector<std::int64_t> dims = t.shape().dims();
    const std::size_t rowBytes = t.bytes() / std::size_t(dims[0]);
    dims[0] = count;
    Tensor out = Tensor::empty(Shape(dims), t.dtype());
    std::memcpy(out.raw(), static_cast<const char*>(t.raw()) + rowBytes * std::size_t(begin), rowBytes * std::size_t(count));
    return out;
}

Graph mlp()
{
    Graph g;
    g.inputs = {{"x", Shape{6}}, {"label", Shape{}, DType::I64}};
    g.add("fc1", "Linear", {"x"}, {{"out_features", std::int64_t(8)}});
    g.add("relu", "ReLU", {"fc1"});
    g.add("fc2", "Linear", {"relu"}, {{"out_features", std::int64_t(3)}});
    g.add("loss", "CrossEntropy", {"fc2", "label"});
    return g;
}

ScheduleSpec sched(const std::string& type)
{
    ScheduleSpec s;
    s.type = type;
    return s;
}

}  // namespace

class TestOptim : public QObject {
    Q_OBJECT
private slots:
    // ---- optimizers against hand arithmetic (p0 = (1, -2, 0.5), g1 = (0.5, -1, 2), g2 = (1, 1, -1)) ----

    void sgdPlain()
    {
        // p1 = p0 - 0.1 g1 = (0.95, -1.9, 0.3); p2 = p1 - 0.1 g2 = (0.85, -2.0, 0.4)
        const auto p = run(opt("sgd", 0.1), {kG1, kG2});
        COMPARE_VEC(p[0], (Vec{0.95, -1.9, 0.3}));
        COMPARE_VEC(p[1], (Vec{0.85, -2.0, 0.4}));
    }

    void sgdMomentum()
    {
        OptimizerSpec s = opt("sgd", 0.1);
        s.momentum = 0.9;
        // b1 = g1 = (0.5, -1, 2)                      p1 = (0.95, -1.9, 0.3)
        // b2 = 0.9 b1 + g2 = (1.45, 0.1, 0.8)         p2 = p1 - 0.1 b2 = (0.805, -1.91, 0.22)
        // b3 = 0.9 b2 + 0 = (1.305, 0.09, 0.72)       p3 = p2 - 0.1 b3 = (0.6745, -1.919, 0.148)
        const auto p = run(s, {kG1, kG2, kZero});
        COMPARE_VEC(p[0], (Vec{0.95, -1.9, 0.3}));
        COMPARE_VEC(p[1], (Vec{0.805, -1.91, 0.22}));
        COMPARE_VEC(p[2], (Vec{0.6745, -1.919, 0.148}));
    }

    void sgdNesterov()
    {
        OptimizerSpec s = opt("sgd", 0.1);
        s.momentum = 0.9;
        s.nesterov = true;
        // b1 = g1; d1 = g1 + 0.9 b1 = (0.95, -1.9, 3.8)           p1 = (0.905, -1.81, 0.12)
        // b2 = (1.45, 0.1, 0.8); d2 = g2 + 0.9 b2 = (2.305, 1.09, -0.28)
        //                                                          p2 = (0.6745, -1.919, 0.148)
        const auto p = run(s, {kG1, kG2});
        COMPARE_VEC(p[0], (Vec{0.905, -1.81, 0.12}));
        COMPARE_VEC(p[1], (Vec{0.6745, -1.919, 0.148}));
    }

    void sgdWeightDecay()
    {
        OptimizerSpec s = opt("sgd", 0.1);
        s.weightDecay = 0.1;
        s.decayAll = true;  // the bias too, as torch.optim given all parameters in one group
        // g1' = g1 + 0.1 p0 = (0.6, -1.2, 2.05)                    p1 = (0.94, -1.88, 0.295)
        // g2' = g2 + 0.1 p1 = (1.094, 0.812, -0.9705)              p2 = (0.8306, -1.9612, 0.39205)
        const auto p = run(s, {kG1, kG2});
        COMPARE_VEC(p[0], (Vec{0.94, -1.88, 0.295}));
        COMPARE_VEC(p[1], (Vec{0.8306, -1.9612, 0.39205}));
    }

    void adamHand()
    {
        // Step 1: m = 0.1 g1, v = 0.001 g1^2, so m^ = g1, v^ = g1^2 and the step is
        // lr * g/(|g| + 1e-8) = 0.1 sign(g): p1 = (0.9, -1.9, 0.4).
        // Step 2: m = 0.9 m + 0.1 g2 = (0.145, 0.01, 0.08); v = 0.999 v + 0.001 g2^2 =
        // (0.00124975, 0.001999, 0.004996); 1 - 0.9^2 = 0.19, 1 - 0.999^2 = 0.001999;
        // m^ = (0.763158, 0.0526316, 0.421053), v^ = (0.625188, 1.0, 2.499250);
        // step = 0.1 m^ / sqrt(v^) = (0.0965182, 0.00526316, 0.0266337)
        // p2 = (0.8034818, -1.9052632, 0.3733663)
        const auto p = run(opt("adam", 0.1), {kG1, kG2});
        COMPARE_VEC(p[0], (Vec{0.9, -1.9, 0.4}));
        COMPARE_VEC(p[1], (Vec{0.8034818, -1.9052632, 0.3733663}));
    }

    void adamwDecouplesWeightDecay()
    {
        // Adam + L2 folds wd p into g before normalising, so at step 1 (step = lr sign(g'))
        // the decay vanishes: g1' = (0.6, -1.2, 2.05) has g1's signs, p1 = (0.9, -1.9, 0.4).
        // AdamW shrinks p first: p0 (1 - 0.1 * 0.1) = (0.99, -1.98, 0.495), then the same
        // sign step: p1 = (0.89, -1.88, 0.395).
        OptimizerSpec adam = opt("adam", 0.1), adamw = opt("adamw", 0.1);
        adam.weightDecay = adamw.weightDecay = 0.1;
        adam.decayAll = adamw.decayAll = true;
        const auto pa = run(adam, {kG1, kG2}), pw = run(adamw, {kG1, kG2});
        COMPARE_VEC(pa[0], (Vec{0.9, -1.9, 0.4}));
        COMPARE_VEC(pw[0], (Vec{0.89, -1.88, 0.395}));
        // Step 2 is where L2 does act in Adam, differently from AdamW: both follow the reference.
        Reference ra(adam), rw(adamw);
        ra.step(kG1), ra.step(kG2), rw.step(kG1), rw.step(kG2);
        COMPARE_VEC(pa[1], ra.p);
        COMPARE_VEC(pw[1], rw.p);
        QVERIFY(std::abs(pa[1][0] - pw[1][0]) > 1e-3);
        // Adam + L2 differs from plain Adam at step 2 (the decay entered m and v).
        const auto plain = run(opt("adam", 0.1), {kG1, kG2});
        QVERIFY(std::abs(pa[1][0] - plain[1][0]) > 1e-4);
    }

    void rmspropHand()
    {
        // sa1 = 0.01 g1^2 = (0.0025, 0.01, 0.04); d1 = g1 / sqrt(sa1) = (10, -10, 10);
        // p1 = p0 - 0.01 d1 = (0.9, -1.9, 0.4)
        // sa2 = 0.99 sa1 + 0.01 g2^2 = (0.012475, 0.0199, 0.0496);
        // sqrt = (0.1116915, 0.1410674, 0.2227106); d2 = (8.953229, 7.088812, -4.490132)
        // p2 = p1 - 0.01 d2 = (0.8104677, -1.9708881, 0.4449013)
        const auto p = run(opt("rmsprop", 0.01), {kG1, kG2});
        COMPARE_VEC(p[0], (Vec{0.9, -1.9, 0.4}));
        COMPARE_VEC(p[1], (Vec{0.8104677, -1.9708881, 0.4449013}));
        // With momentum 0.9: b1 = d1, b2 = 0.9 d1 + d2 = (17.953229, -1.911188, 4.509868);
        // p2 = p1 - 0.01 b2 = (0.7204677, -1.8808881, 0.3549013)
        OptimizerSpec m = opt("rmsprop", 0.01);
        m.momentum = 0.9;
        const auto pm = run(m, {kG1, kG2});
        COMPARE_VEC(pm[0], (Vec{0.9, -1.9, 0.4}));
        COMPARE_VEC(pm[1], (Vec{0.7204677, -1.8808881, 0.3549013}));
    }

    void matchesNaiveTorchFormulas_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<double>("momentum");
        QTest::addColumn<bool>("nesterov");
        QTest::addColumn<double>("weightDecay");
        QTest::addColumn<bool>("decayAll");
        QTest::newRow("sgd") << "sgd" << 0.0 << false << 0.0 << false;
        QTest::newRow("sgd momentum wd") << "sgd" << 0.8 << false << 0.05 << false;
        QTest::newRow("sgd nesterov wd all") << "sgd" << 0.8 << true << 0.05 << true;
        QTest::newRow("adam") << "adam" << 0.0 << false << 0.0 << false;
        QTest::newRow("adam l2") << "adam" << 0.0 << false << 0.05 << false;
        QTest::newRow("adam l2 all") << "adam" << 0.0 << false << 0.05 << true;
        QTest::newRow("adamw") << "adamw" << 0.0 << false << 0.05 << false;
        QTest::newRow("adamw all") << "adamw" << 0.0 << false << 0.05 << true;
        QTest::newRow("rmsprop wd") << "rmsprop" << 0.0 << false << 0.05 << false;
        QTest::newRow("rmsprop momentum wd all") << "rmsprop" << 0.5 << false << 0.05 << true;
    }

    void matchesNaiveTorchFormulas()
    {
        // Six steps of seeded random gradients; float kernels vs the double reference,
        // |got - want| <= 1e-6 + 1e-5 |want|.
        QFETCH(QString, type);
        QFETCH(double, momentum);
        QFETCH(bool, nesterov);
        QFETCH(double, weightDecay);
        QFETCH(bool, decayAll);
        OptimizerSpec s = opt(type.toStdString(), 0.03);
        s.momentum = momentum, s.nesterov = nesterov, s.weightDecay = weightDecay, s.decayAll = decayAll;
        s.beta1 = 0.8, s.beta2 = 0.95, s.alpha = 0.9;
        std::mt19937 rng(5);
        std::normal_distribution<double> n01;
        std::vector<Vec> grads;
        for (int k = 0; k < 6; ++k) grads.push_back({n01(rng), n01(rng), n01(rng)});
        const auto got = run(s, grads);
        Reference ref(s);
        for (int k = 0; k < 6; ++k) {
            ref.step(grads[k]);
            COMPARE_VEC(got[k], ref.p);
        }
    }

    void stateRoundTripContinuesIdentically_data()
    {
        QTest::addColumn<QString>("type");
        QTest::newRow("sgd") << "sgd";
        QTest::newRow("adam") << "adam";
        QTest::newRow("adamw") << "adamw";
        QTest::newRow("rmsprop") << "rmsprop";
    }

    void stateRoundTripContinuesIdentically()
    {
        QFETCH(QString, type);
        OptimizerSpec s = opt(type.toStdString(), 0.05);
        s.momentum = type == "sgd" || type == "rmsprop" ? 0.9 : 0.0;
        s.weightDecay = 0.01;
        const Vec g3{-0.3, 0.7, 0.2}, g4{0.4, -0.1, -0.6};
        Tiny a;
        a.setParams(kP0);
        auto oa = makeOptimizer(s, a.ex);
        for (const Vec& g : {kG1, kG2}) a.setGrads(g), oa->step(0.05f);
        const auto saved = oa->state();
        const Vec midway = a.params();
        QCOMPARE(oa->stepCount(), std::int64_t(2));
        for (const Vec& g : {g3, g4}) a.setGrads(g), oa->step(0.05f);

        // A fresh optimizer on a fresh executor, given the saved state, takes the same steps bit for bit.
        Tiny b, c;
        b.setParams(midway);
        c.setParams(midway);
        auto ob = makeOptimizer(s, b.ex), oc = makeOptimizer(s, c.ex);
        ob->loadState(saved);
        QCOMPARE(ob->stepCount(), std::int64_t(2));
        for (const Vec& g : {g3, g4}) b.setGrads(g), ob->step(0.05f), c.setGrads(g), oc->step(0.05f);
        for (int i = 0; i < 3; ++i) QCOMPARE(*b.value(i), *a.value(i));
        QVERIFY(c.params() != a.params());  // without the state the steps differ: the test can fail
    }

    void loadStateRejectsMismatches()
    {
        Tiny t;
        auto adam = makeOptimizer(opt("adam", 0.1), t.ex);
        OptimizerSpec m = opt("sgd", 0.1);
        m.momentum = 0.9;
        auto sgd = makeOptimizer(m, t.ex);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, adam->loadState(sgd->state()));
        auto st = adam->state();
        st.pop_back();  // drop "step"
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, adam->loadState(st));
        st = adam->state();
        st[0].second = Tensor::zeros(Shape{3});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, adam->loadState(st));
        adam->loadState(adam->state());  // its own state is fine
    }

    void stateBytesAndNames()
    {
        Tiny t;
        const std::int64_t n = t.ex.flatGradients().numel();  // 3 values, padded per tensor
        QVERIFY(n >= 3);
        QCOMPARE(makeOptimizer(opt("sgd", 0.1), t.ex)->stateBytes(), std::size_t(0));
        auto adam = makeOptimizer(opt("adamw", 0.1), t.ex);
        QCOMPARE(adam->stateBytes(), std::size_t(2 * n * 4));
        const auto st = adam->state();
        QCOMPARE(st.size(), std::size_t(3));
        QCOMPARE(st[0].first, std::string("exp_avg"));
        QCOMPARE(st[1].first, std::string("exp_avg_sq"));
        QCOMPARE(st[2].first, std::string("step"));
        OptimizerSpec r = opt("rmsprop", 0.1);
        r.momentum = 0.5;
        QCOMPARE(makeOptimizer(r, t.ex)->stateBytes(), std::size_t(2 * n * 4));
    }

    void rejectsBadSpecs()
    {
        Tiny t;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeOptimizer(opt("lamb", 0.1), t.ex));
        OptimizerSpec s = opt("sgd", 0.1);
        s.nesterov = true;  // torch: nesterov needs momentum
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeOptimizer(s, t.ex));
        s = opt("adam", -1);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeOptimizer(s, t.ex));
        s = opt("adam", 0.1);
        s.beta2 = 1.0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeOptimizer(s, t.ex));
    }

    void onlyTrainableParametersMove()
    {
        // Batch norm's running statistics sit after the trainable prefix: weight decay and a
        // large lr must leave them alone.
        Graph g;
        g.inputs = {{"x", Shape{4}}};
        g.add("bn", "BatchNorm1d", {"x"});
        Executor ex(checkGraph(g, 2), cpuBackend());
        for (Parameter& p : ex.parameters())
            for (std::int64_t i = 0; i < p.value.numel(); ++i) p.value.data<float>()[i] = 0.5f;
        std::fill_n(ex.flatGradients().data<float>(), ex.flatGradients().numel(), 1.0f);
        OptimizerSpec s = opt("sgd", 1.0);
        s.weightDecay = 0.5;
        s.decayAll = true;  // batch norm's scale and shift decay only so
        makeOptimizer(s, ex)->step(1.0f);
        int frozen = 0;
        for (const Parameter& p : ex.parameters()) {
            // trainable: 0.5 - (1 + 0.5 * 0.5) = -0.75; frozen: still 0.5
            const float want = p.trainable ? -0.75f : 0.5f;
            for (std::int64_t i = 0; i < p.value.numel(); ++i) QCOMPARE(p.value.data<float>()[i], want);
            frozen += !p.trainable;
        }
        QCOMPARE(frozen, 2);
    }

    void weightDecayGroupsMatchTorchParamGroups()
    {
        // A small Transformer's parameters: AdamW (lr 0.1, wd 0.1) decays the three weight
        // matrices and leaves the embedding and position tables, the norm and the biases alone,
        // as torch.optim.AdamW with two param groups does. Parameter values and gradients come
        // from one formula over the parameters in this order (flat index j); per parameter the
        // first and last value and the sum after 3 steps, from PyTorch 1.13:
        //   names = [...the order below...]; sizes = [20, 12, 4, 4, 48, 12, 16, 4, 24, 6]
        //   p[j] = float32(0.5 sin(0.7 j + 0.3)); at step t: grad[j] = float32(cos(0.37 j t + t))
        //   AdamW([{"params": weights, "weight_decay": 0.1}, {"params": others, "weight_decay": 0.0}], lr=0.1)
        //   and for decay_all AdamW(all, lr=0.1, weight_decay=0.1): the sums only.
        Graph g;
        g.inputs = {{"tokens", Shape{3}, DType::I64}};
        g.add("embed", "Embedding", {"tokens"}, {{"num_embeddings", std::int64_t(5)}, {"embedding_dim", std::int64_t(4)}});
        g.add("pos", "PositionalEncoding", {"embed"}, {{"kind", std::string("learned")}, {"max_length", std::int64_t(3)}});
        g.add("ln", "LayerNorm", {"pos"});
        g.add("attn", "MultiHeadAttention", {"ln"}, {{"heads", std::int64_t(2)}});
        g.add("fc", "Linear", {"attn"}, {{"out_features", std::int64_t(6)}});
        struct Want {
            const char* name;
            double first, last, sum, sumDecayAll;
        };
        const Want want[] = {
            {"embed.weight", 0.0893722922, 0.64359355, 1.06202729, 1.04169782},
            {"pos.weight", 0.684353411, -0.304243147, 1.43357257, 1.39947998},
            {"ln.weight", -0.622871161, -0.131871402, -1.9564279, -1.90522876},
            {"ln.bias", 0.392842084, 0.443413556, 2.09706798, 2.04467648},
            {"attn.in_proj_weight", 0.114250056, -0.275820941, -1.07026173, -1.07026173},
            {"attn.in_proj_bias", -0.212529793, -0.0668231472, 0.114067176, 0.116760734},
            {"attn.out_proj.weight", 0.156018853, -0.657697558, 0.244731806, 0.244731806},
            {"attn.out_proj.bias", -0.390135646, 0.430028945, 0.25040248, 0.228562858},
            {"fc.weight", 0.277439296, 0.0708417073, -0.102570832, -0.102570832},
            {"fc.bias", 0.442491412, -0.688033998, 0.880898595, 0.856324434},
        };
        const CheckedGraph checked = checkGraph(g, 1);
        for (bool decayAll : {false, true}) {
            Executor ex(checked, cpuBackend());
            const auto fill = [&](bool grads, int t) {
                std::int64_t j = 0;
                for (const Want& w : want) {
                    const Parameter* p = ex.findParameter(w.name);
                    float* data = (grads ? p->grad : p->value).data<float>();
                    for (std::int64_t k = 0; k < p->value.numel(); ++k, ++j)
                        data[k] = grads ? float(std::cos(0.37 * double(j) * t + t)) : float(0.5 * std::sin(0.7 * double(j) + 0.3));
                }
                QCOMPARE(j, std::int64_t(150));  // every trainable value
            };
            fill(false, 0);
            OptimizerSpec s = opt("adamw", 0.1);
            s.weightDecay = 0.1;
            s.decayAll = decayAll;
            auto o = makeOptimizer(s, ex);
            for (int t = 1; t <= 3; ++t) {
                fill(true, t);
                o->step(0.1f);
            }
            for (const Want& w : want) {
                const Parameter* p = ex.findParameter(w.name);
                const float* v = p->value.data<float>();
                const std::int64_t n = p->value.numel();
                const double sum = std::accumulate(v, v + n, 0.0);
                const QString at = QString("%1 (decay_all %2)").arg(w.name).arg(decayAll);
                QVERIFY2(close(sum, decayAll ? w.sumDecayAll : w.sum, 1e-5, 1e-5), qPrintable(at + QString(": sum %1").arg(sum, 0, 'g', 9)));
                if (decayAll) continue;
                QVERIFY2(close(v[0], w.first) && close(v[n - 1], w.last), qPrintable(at));
            }
        }

        // The groups as the Hyperparameters page and the run's log count them.
        OptimizerSpec s = opt("adamw", 1e-3);
        s.weightDecay = 0.01;
        const WeightDecayGroups groups = weightDecayGroups(checked, s);
        QCOMPARE(groups.decayed.names, (std::vector<std::string>{"attn.in_proj_weight", "attn.out_proj.weight", "fc.weight"}));
        QCOMPARE(groups.decayed.values, std::int64_t(48 + 16 + 24));
        QCOMPARE(groups.kept.names.size(), std::size_t(7));
        QCOMPARE(groups.kept.values, std::int64_t(150 - 88));
        QCOMPARE(weightDecayMessage(checked, s)->text,
                 std::string("weight decay 0.01 on 3 weight matrices and kernels (88 values); not on 7 bias, norm and "
                             "embedding tensors (62 values; optimizer.decay_all: true decays them too)"));
        s.decayAll = true;
        QCOMPARE(weightDecayGroups(checked, s).decayed.values, std::int64_t(150));
        QCOMPARE(weightDecayMessage(checked, s)->text,
                 std::string("weight decay 0.01 on all 10 parameter tensors (150 values), biases, norms and embeddings "
                             "included (optimizer.decay_all)"));
        s.weightDecay = 0;
        QVERIFY(!weightDecayMessage(checked, s));
    }

    void primitivesCoverLargeBuffers()
    {
        // 100003 elements: split over the threads (OpenMP), each element must get exactly one
        // update. Checked against the formulas in double, 1e-5 relative + 1e-6 absolute.
        const std::int64_t n = 100003;
        std::mt19937 rng(9);
        std::normal_distribution<float> n01;
        std::vector<float> p0(n), g(n), p(n), m(n, 0.0f), v(n, 0.0f);
        for (std::int64_t i = 0; i < n; ++i) p0[i] = n01(rng), g[i] = n01(rng);
        Backend& be = cpuBackend();
        p = p0;
        be.adamUpdate(p.data(), g.data(), m.data(), v.data(), n, 0.01, 0.9, 0.999, 1e-8, 0.1, true, 1);
        for (std::int64_t i = 0; i < n; ++i) {
            const double pd = p0[i] * (1 - 0.01 * 0.1), want = pd - 0.01 * g[i] / (std::abs(double(g[i])) + 1e-8);
            QVERIFY2(close(p[i], want), qPrintable(QString("adam[%1]").arg(i)));
            // 1e-6: 1 - beta2 must be formed in double (in f32 it is 1.3e-5 off).
            QVERIFY2(close(m[i], 0.1 * g[i], 1e-6, 0) && close(v[i], 0.001 * g[i] * g[i], 1e-6, 0),
                     qPrintable(QString("adam state[%1]").arg(i)));
        }
        p = p0;
        std::fill(m.begin(), m.end(), 0.0f);
        be.sgdUpdate(p.data(), g.data(), m.data(), n, 0.1, 0.9, true, 0.0);
        for (std::int64_t i = 0; i < n; ++i) QVERIFY(close(p[i], p0[i] - 0.1 * 1.9 * g[i]));  // nesterov step 1
        p = p0;
        std::fill(v.begin(), v.end(), 0.0f);
        be.rmspropUpdate(p.data(), g.data(), v.data(), nullptr, n, 0.01, 0.99, 0.0, 0.0, 0.0);
        for (std::int64_t i = 0; i < n; ++i) QVERIFY(close(p[i], p0[i] - 0.1 * (g[i] > 0 ? 1 : -1)));  // g/|g|/0.1
        p = p0;
        be.scale(p.data(), n, -2.0f);
        for (std::int64_t i = 0; i < n; ++i) QCOMPARE(p[i], -2.0f * p0[i]);
        p = p0;
        be.clampValues(p.data(), n, -0.5f, 0.25f);
        for (std::int64_t i = 0; i < n; ++i) QCOMPARE(p[i], std::min(std::max(p0[i], -0.5f), 0.25f));
    }

    // ---- gradient norms and clipping ----

    void gradientNormAndClipping()
    {
        Tiny t;
        t.setGrads({3, 4, 12});  // norm sqrt(9 + 16 + 144) = 13; padding gradients are 0
        QCOMPARE(gradientNorm(t.ex), 13.0);
        const auto per = parameterGradientNorms(t.ex);
        QCOMPARE(per.size(), std::size_t(2));
        QCOMPARE(per[0].first, std::string("fc.weight"));
        QCOMPARE(per[0].second, 5.0);
        QCOMPARE(per[1].second, 12.0);

        QCOMPARE(clipGradientNorm(t.ex, 20.0), 13.0);  // below the limit: untouched
        COMPARE_VEC(t.grads(), (Vec{3, 4, 12}));
        // 13 > 6.5: scaled by 6.5 / (13 + 1e-6) -> (1.5, 2, 6) up to 1e-7 relative.
        QCOMPARE(clipGradientNorm(t.ex, 6.5), 13.0);
        COMPARE_VEC(t.grads(), (Vec{1.5, 2, 6}));
        QVERIFY(close(gradientNorm(t.ex), 6.5));
        QVERIFY(gradientNorm(t.ex) < 6.5);

        t.setGrads({3, -4, 0.5});
        clipGradientValue(t.ex, 1.0);
        COMPARE_VEC(t.grads(), (Vec{1, -1, 0.5}));

        // A non-finite norm is reported, and the gradients are left for the trainer to judge.
        t.setGrads({std::numeric_limits<double>::infinity(), 1, 1});
        QVERIFY(std::isinf(clipGradientNorm(t.ex, 1.0)));
        QCOMPARE(*t.grad(1), 1.0f);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, clipGradientNorm(t.ex, 0.0));
    }

    // ---- gradient accumulation ----

    void accumulationEqualsOneLargeBatch_data()
    {
        QTest::addColumn<QString>("type");
        QTest::newRow("sgd") << "sgd";
        QTest::newRow("adam") << "adam";
    }

    void accumulationEqualsOneLargeBatch()
    {
        // One step on a batch of 8 vs 4 micro-batches of 2 with the loss scaled by 1/4 (the
        // CrossEntropy mean over 8 is the mean of the four means over 2). Tolerance on the
        // parameters after the step: 1e-5 relative, with 1e-7 absolute for values near 0.
        QFETCH(QString, type);
        OptimizerSpec s = opt(type.toStdString(), 0.05);
        s.momentum = type == "sgd" ? 0.9 : 0.0;
        Tensor x, y;
        blobs(8, 6, 3, x, y);

        Executor big(checkGraph(mlp(), 8), cpuBackend()), small(checkGraph(mlp(), 2), cpuBackend());
        big.initParameters(7);
        small.initParameters(7);
        auto ob = makeOptimizer(s, big), os = makeOptimizer(s, small);
        big.setInput("x", x), big.setInput("label", y);
        big.forward();
        big.backward();

        auto accumulate = [&](float scale) {
            small.zeroGrad();
            small.setLossScale(scale);
            for (std::int64_t k = 0; k < 4; ++k) {
                small.setInput("x", rows(x, 2 * k, 2)), small.setInput("label", rows(y, 2 * k, 2));
                small.forward();
                small.backward();
            }
        };
        const Tensor& gb = big.flatGradients();
        const Tensor& gs = small.flatGradients();
        const std::int64_t n = gb.numel();
        QCOMPARE(gs.numel(), n);
        accumulate(1.0f);  // unscaled: four times the mean gradient, so the check below can fail
        QVERIFY(std::abs(gradientNorm(small) - 4 * gradientNorm(big)) < 1e-4 * gradientNorm(big));
        accumulate(0.25f);
        for (std::int64_t i = 0; i < n; ++i)
            QVERIFY2(close(gs.data<float>()[i], gb.data<float>()[i], 1e-5, 1e-7),
                     qPrintable(QString("grad[%1]: %2 vs %3").arg(i).arg(gs.data<float>()[i]).arg(gb.data<float>()[i])));

        const Tensor before = big.flatParameters().clone();
        ob->step(0.05f);
        os->step(0.05f);
        int moved = 0;  // the step did something (else equal parameters would prove nothing)
        for (std::int64_t i = 0; i < n; ++i) moved += before.data<float>()[i] != big.flatParameters().data<float>()[i];
        QVERIFY(moved > 50);
        for (const Parameter& p : big.parameters()) {
            const Parameter* q = small.findParameter(p.name);
            for (std::int64_t i = 0; i < p.value.numel(); ++i) {
                const double a = q->value.data<float>()[i], b = p.value.data<float>()[i];
                QVERIFY2(close(a, b, 1e-5, 1e-7), qPrintable(QString("%1[%2]: %3 vs %4").arg(p.name.c_str()).arg(i).arg(a).arg(b)));
            }
        }
    }

    // ---- schedules (base lr 0.1 unless said) ----

    void constantAndPlateauAndUnknown()
    {
        QCOMPARE(scheduledLr(sched("constant"), 0.1, 0, 10, 100), 0.1);
        QCOMPARE(scheduledLr(sched("constant"), 0.1, 1000, 10, 100), 0.1);
        QCOMPARE(scheduledLr(sched("plateau"), 0.1, 57, 10, 100), 0.1);
        try {
            scheduledLr(sched("triangle"), 0.1, 0, 10, 100);
            QFAIL("no exception");
        } catch (const std::invalid_argument& e) {
            QVERIFY(QString(e.what()).contains("cosine_restarts"));
            QVERIFY(QString(e.what()).contains("triangle"));
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, scheduledLr(sched("constant"), 0.1, 0, 0, 100));
    }

    void stepSchedule()
    {
        ScheduleSpec s = sched("step");
        s.stepSize = 2, s.gamma = 0.5;  // 10 steps per epoch: halves at epochs 2, 4, ...
        QCOMPARE(scheduledLr(s, 0.1, 19, 10, 100), 0.1);   // epoch 1
        QCOMPARE(scheduledLr(s, 0.1, 20, 10, 100), 0.05);  // epoch 2
        QCOMPARE(scheduledLr(s, 0.1, 39, 10, 100), 0.05);  // epoch 3
        QCOMPARE(scheduledLr(s, 0.1, 40, 10, 100), 0.025); // epoch 4
    }

    void multistepSchedule()
    {
        ScheduleSpec s = sched("multistep");
        s.milestones = {3, 1};  // order does not matter; 5 steps per epoch
        QVERIFY(close(scheduledLr(s, 0.1, 4, 5, 100), 0.1, 1e-12, 0));     // epoch 0
        QVERIFY(close(scheduledLr(s, 0.1, 5, 5, 100), 0.01, 1e-12, 0));    // epoch 1: 0.1 * 0.1
        QVERIFY(close(scheduledLr(s, 0.1, 14, 5, 100), 0.01, 1e-12, 0));   // epoch 2
        QVERIFY(close(scheduledLr(s, 0.1, 15, 5, 100), 0.001, 1e-12, 0));  // epoch 3: 0.1 * 0.1^2
    }

    void exponentialSchedule()
    {
        ScheduleSpec s = sched("exponential");
        s.gamma = 0.9;  // 4 steps per epoch, constant within an epoch
        QVERIFY(close(scheduledLr(s, 0.1, 3, 4, 100), 0.1, 1e-12, 0));
        QVERIFY(close(scheduledLr(s, 0.1, 4, 4, 100), 0.09, 1e-12, 0));
        QVERIFY(close(scheduledLr(s, 0.1, 8, 4, 100), 0.081, 1e-12, 0));
        QVERIFY(close(scheduledLr(s, 0.1, 11, 4, 100), 0.081, 1e-12, 0));
    }

    void cosineSchedule()
    {
        ScheduleSpec s = sched("cosine");
        s.minLr = 0.001;  // T = 100
        QVERIFY(close(scheduledLr(s, 0.1, 0, 10, 100), 0.1, 1e-12, 0));
        QVERIFY(close(scheduledLr(s, 0.1, 50, 10, 100), (0.1 + 0.001) / 2, 1e-12, 0));  // midpoint
        // a quarter: 0.001 + 0.099 (1 + cos(pi/4)) / 2 = 0.0855018
        QVERIFY(close(scheduledLr(s, 0.1, 25, 10, 100), 0.0855017857, 1e-9, 0));
        QVERIFY(close(scheduledLr(s, 0.1, 100, 10, 100), 0.001, 1e-12, 0));
        QVERIFY(close(scheduledLr(s, 0.1, 150, 10, 100), 0.001, 1e-12, 0));  // held at the floor
    }

    void cosineRestartsSchedule()
    {
        ScheduleSpec s = sched("cosine_restarts");
        s.restartEpochs = 2, s.restartMultiplier = 2, s.minLr = 0;  // 5 steps/epoch: periods 10, 20, 40
        auto lr = [&](std::int64_t step) { return scheduledLr(s, 0.1, step, 5, 1000); };
        QVERIFY(close(lr(0), 0.1, 1e-12, 0));
        QVERIFY(close(lr(5), 0.05, 1e-12, 1e-15));
        QVERIFY(close(lr(9), 0.1 * (1 + std::cos(0.9 * M_PI)) / 2, 1e-12, 0));  // 0.00244717
        QVERIFY(close(lr(10), 0.1, 1e-12, 0));   // restart
        QVERIFY(close(lr(20), 0.05, 1e-12, 0));  // middle of the 20-step period
        QVERIFY(close(lr(30), 0.1, 1e-12, 0));   // restart
        QVERIFY(close(lr(50), 0.05, 1e-12, 0));  // middle of the 40-step period
        QVERIFY(close(lr(70), 0.1, 1e-12, 0));
        s.restartMultiplier = 1;
        QVERIFY(close(lr(15), 0.05, 1e-12, 0));
        QVERIFY(close(lr(20), 0.1, 1e-12, 0));
        s.minLr = 0.02;
        QVERIFY(close(lr(25), 0.06, 1e-12, 0));  // (0.1 + 0.02) / 2
    }

    void onecycleSchedule()
    {
        // base 0.01, maxLr 0 -> 0.1; T = 100, pctStart 0.3: start 0.1/25 = 0.004, peak 0.1 at
        // step 0.3*100 - 1 = 29, end 0.1/25/1e4 = 4e-7 at step 99; phase two's midpoint is
        // step (29 + 99)/2 = 64 with (0.1 + 4e-7)/2.
        ScheduleSpec s = sched("onecycle");
        auto lr = [&](std::int64_t step) { return scheduledLr(s, 0.01, step, 10, 100); };
        QVERIFY(close(lr(0), 0.004, 1e-12, 0));
        QVERIFY(close(lr(29), 0.1, 1e-12, 0));
        QVERIFY(lr(28) < 0.1 && lr(30) < 0.1);
        QVERIFY(close(lr(64), 0.0500002, 1e-12, 0));
        QVERIFY(close(lr(99), 4e-7, 1e-9, 0));
        QVERIFY(close(lr(150), 4e-7, 1e-9, 0));
        s.maxLr = 0.5;
        QVERIFY(close(lr(0), 0.02, 1e-12, 0));
    }

    void warmupMultipliesTheSchedule()
    {
        ScheduleSpec s = sched("constant");
        s.warmupSteps = 10, s.warmupStartFactor = 0.1;
        // factor(step) = 0.1 + 0.9 step/10: 0.1 at 0, 0.55 at 5, 1 from step 10
        QVERIFY(close(scheduledLr(s, 0.1, 0, 5, 100), 0.01, 1e-12, 0));
        QVERIFY(close(scheduledLr(s, 0.1, 5, 5, 100), 0.055, 1e-12, 0));
        QVERIFY(close(scheduledLr(s, 0.1, 9, 5, 100), 0.091, 1e-12, 0));
        QVERIFY(close(scheduledLr(s, 0.1, 10, 5, 100), 0.1, 1e-12, 0));
        s.type = "cosine";  // the cosine runs from step 0 underneath the warm-up
        ScheduleSpec plain = sched("cosine");
        QVERIFY(close(scheduledLr(s, 0.1, 5, 5, 100), 0.55 * scheduledLr(plain, 0.1, 5, 5, 100), 1e-12, 0));
        QVERIFY(close(scheduledLr(s, 0.1, 50, 5, 100), 0.05, 1e-12, 0));
        QCOMPARE(warmupFactor(s, 10), 1.0);
    }

    void plateauReducesAfterPatience()
    {
        ScheduleSpec s = sched("plateau");
        s.patience = 2, s.factor = 0.5, s.threshold = 0.1, s.minLr = 0.2;
        PlateauScheduler p(s, 1.0);
        QCOMPARE(p.update(1.0, true), 1.0);   // first value: best = 1
        QCOMPARE(p.update(0.95, true), 1.0);  // not below 1 - 10%: bad 1
        QCOMPARE(p.update(0.91, true), 1.0);  // bad 2 (= patience, not beyond it)
        QCOMPARE(p.update(0.89, true), 1.0);  // below 0.9: best = 0.89, count reset
        QCOMPARE(p.update(0.89, true), 1.0);  // bad 1
        QCOMPARE(p.update(0.85, true), 1.0);  // bad 2 (0.85 > 0.89 - 0.089)
        QCOMPARE(p.update(0.88, true), 0.5);  // bad 3 > patience: halve, count reset
        const PlateauState saved = p.state();
        for (int i = 0; i < 3; ++i) p.update(0.9, true);
        QCOMPARE(p.lr(), 0.25);
        for (int i = 0; i < 3; ++i) p.update(std::nan(""), true);  // NaN is a bad epoch
        QCOMPARE(p.lr(), 0.2);  // 0.125 floored at minLr
        for (int i = 0; i < 3; ++i) p.update(0.9, true);
        QCOMPARE(p.lr(), 0.2);

        PlateauScheduler r(s, 1.0);  // restored mid-run, it continues like the original did
        r.restore(saved);
        for (int i = 0; i < 3; ++i) r.update(0.9, true);
        QCOMPARE(r.lr(), 0.25);
    }

    void plateauHigherIsBetter()
    {
        ScheduleSpec s = sched("plateau");
        s.patience = 1, s.factor = 0.1, s.threshold = 0.0;
        PlateauScheduler p(s, 0.1);
        p.update(0.5, false);
        QCOMPARE(p.update(0.6, false), 0.1);  // better
        QCOMPARE(p.update(0.6, false), 0.1);  // equal: bad 1
        QVERIFY(close(p.update(0.55, false), 0.01, 1e-12, 0));  // bad 2 > 1
        s.factor = 1.0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, PlateauScheduler(s, 0.1));
    }

    // GradScaler's rules: start 65536, halve and skip on overflow, double after 2000 clean steps.
    void lossScalerRules()
    {
        LossScaler s(true);
        QCOMPARE(s.scale(), 65536.0);
        QVERIFY(!s.update(std::numeric_limits<double>::infinity()));
        QCOMPARE(s.scale(), 32768.0);
        QVERIFY(!s.update(std::nan("")));
        QCOMPARE(s.scale(), 16384.0);
        for (int i = 0; i < 1999; ++i) QVERIFY(s.update(1.0));
        QCOMPARE(s.scale(), 16384.0);
        QCOMPARE(s.cleanSteps(), std::int64_t(1999));
        QVERIFY(s.update(1.0));  // the 2000th clean step in a row
        QCOMPARE(s.scale(), 32768.0);
        QCOMPARE(s.cleanSteps(), std::int64_t(0));
        for (int i = 0; i < 1000; ++i) s.update(1.0);
        QVERIFY(!s.update(std::numeric_limits<double>::infinity()));  // an overflow restarts the count
        QCOMPARE(s.cleanSteps(), std::int64_t(0));
        QCOMPARE(s.scale(), 16384.0);
        LossScaler tiny(true, 1.0);
        for (int i = 0; i < 100; ++i) tiny.update(std::numeric_limits<double>::infinity());
        QCOMPARE(tiny.scale(), std::ldexp(1.0, -24));  // bounded below
        LossScaler off(false);
        QCOMPARE(off.scale(), 1.0);
        QVERIFY(!off.update(std::numeric_limits<double>::infinity()));
        QCOMPARE(off.scale(), 1.0);
    }

    // Rounding to nearest, ties to even, at each format's precision, against values worked by hand.
    void mathPrecisionRounding()
    {
        const float oneUlpAbove1 = std::nextafter(1.0f, 2.0f);
        QCOMPARE(roundToPrecision(oneUlpAbove1, MathPrecision::F32), oneUlpAbove1);
        QCOMPARE(roundToPrecision(oneUlpAbove1, MathPrecision::BF16), 1.0f);
        QCOMPARE(roundToPrecision(1.0f + 1.0f / 256, MathPrecision::BF16), 1.0f);  // tie: to even (1.0)
        QCOMPARE(roundToPrecision(1.0f + 3.0f / 256, MathPrecision::BF16), 1.0f + 4.0f / 256);  // tie: to even (1+2/128)
        QCOMPARE(roundToPrecision(1.0f + 1.0f / 2048, MathPrecision::TF32), 1.0f);
        QCOMPARE(roundToPrecision(1.0f + 3.0f / 2048, MathPrecision::TF32), 1.0f + 4.0f / 2048);
        QCOMPARE(roundToPrecision(1.0f + 3.0f / 2048, MathPrecision::F16), 1.0f + 4.0f / 2048);
        QCOMPARE(roundToPrecision(65504.0f, MathPrecision::F16), 65504.0f);
        QVERIFY(std::isinf(roundToPrecision(70000.0f, MathPrecision::F16)));   // beyond fp16's range
        QCOMPARE(roundToPrecision(70000.0f, MathPrecision::BF16), 70144.0f);   // bf16 keeps f32's range
        QVERIFY(std::isnan(roundToPrecision(std::nanf(""), MathPrecision::BF16)));
        QVERIFY(std::isinf(roundToPrecision(std::numeric_limits<float>::infinity(), MathPrecision::TF32)));
        QCOMPARE(parseMathPrecision("fp16"), std::optional(MathPrecision::F16));
        QVERIFY(!parseMathPrecision("fp8"));
    }

    // The CPU GEMM in reduced precision equals an f64 product of the rounded operands (to f32
    // accumulation error), and differs from the f32 product by about the format's precision.
    void gemmInReducedPrecision_data()
    {
        QTest::addColumn<int>("precision");
        QTest::addColumn<double>("formatEps");
        QTest::newRow("tf32") << int(MathPrecision::TF32) << std::ldexp(1.0, -11);
        QTest::newRow("bf16") << int(MathPrecision::BF16) << std::ldexp(1.0, -8);
        QTest::newRow("f16") << int(MathPrecision::F16) << std::ldexp(1.0, -11);
    }
    void gemmInReducedPrecision()
    {
        QFETCH(int, precision);
        QFETCH(double, formatEps);
        const auto p = MathPrecision(precision);
        const int m = 7, n = 5, k = 300;
        std::mt19937 rng(3);
        std::normal_distribution<float> d(0.f, 1.f);
        std::vector<float> a(m * k), b(n * k), c(m * n), c32(m * n);  // b stored transposed: [n, k]
        for (float& v : a) v = d(rng);
        for (float& v : b) v = d(rng);
        Backend& cpu = cpuBackend();
        cpu.setMathPrecision(p);
        cpu.gemm(false, true, m, n, k, 1.f, a.data(), k, b.data(), k, 0.f, c.data(), n);
        cpu.setMathPrecision(MathPrecision::F32);
        cpu.gemm(false, true, m, n, k, 1.f, a.data(), k, b.data(), k, 0.f, c32.data(), n);
        double worstRounded = 0, worstVsF32 = 0;
        for (int i = 0; i < m; ++i)
            for (int j = 0; j < n; ++j) {
                double ref = 0, scaleSum = 0;
                for (int q = 0; q < k; ++q) {
                    ref += double(roundToPrecision(a[i * k + q], p)) * roundToPrecision(b[j * k + q], p);
                    scaleSum += std::abs(double(a[i * k + q]) * b[j * k + q]);
                }
                worstRounded = std::max(worstRounded, std::abs(c[i * n + j] - ref) / scaleSum);
                worstVsF32 = std::max(worstVsF32, std::abs(c[i * n + j] - c32[i * n + j]) / scaleSum);
            }
        QVERIFY2(worstRounded < 1e-6, std::to_string(worstRounded).c_str());  // f32 accumulation only
        QVERIFY2(worstVsF32 > 0.05 * formatEps && worstVsF32 < 2 * formatEps, std::to_string(worstVsF32).c_str());
    }
};

QTEST_GUILESS_MAIN(TestOptim)
#include "tst_optim.moc"
