// Activations, Softmax and Dropout: forward values and derivatives against independent
// double-precision references, dropout mask statistics, attribute errors. (Their gradient
// checks are the ops' own cases, run by tst_op_registry.)
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include "backend/backend.h"
#include "gradcheck.h"
#include "ops/registry.h"

using namespace ts;
using namespace ts::test;

namespace {

// Relative tolerance for float32 results against double references: a few ulp (~1.2e-7
// each) of the libm float functions plus the rounding of the result.
constexpr double kRelTol = 1e-6;

bool closeRel(double got, double want, double rel)
{
    return std::abs(got - want) <= rel * std::abs(want);
}

Tensor tensorOf(std::initializer_list<float> values)
{
    Tensor t = Tensor::empty(Shape{1, static_cast<std::int64_t>(values.size())});
    std::copy(values.begin(), values.end(), t.data<float>());
    return t;
}

// The tests' parameter for the activations that take one (as alpha in the primitive): not
// the defaults, so a parameter that is ignored shows.
double paramFor(const std::string& op)
{
    if (op == "LeakyReLU") return 0.1;
    if (op == "ELU") return 0.5;
    if (op == "Softplus") return 4.0;  // beta x crosses the threshold 20 at x = 5, inside the tested range
    return 0.0;
}
Attrs attrsFor(const std::string& op)
{
    if (op == "LeakyReLU") return {{"negative_slope", paramFor(op)}};
    if (op == "ELU") return {{"alpha", paramFor(op)}};
    if (op == "Softplus") return {{"beta", paramFor(op)}};
    return {};
}

// Independent references, in double, from the textbook definitions (no thresholds: double
// has the range these points need; log1p, since 1 + e^-24 would keep only 6 digits of e^-24).
double refGelu(double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }
double refSigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double refSoftplus(double x, double beta) { return std::log1p(std::exp(beta * x)) / beta; }
double reference(const std::string& op, double x)
{
    const double a = paramFor(op);
    if (op == "ReLU") return x > 0 ? x : 0.0;
    if (op == "LeakyReLU") return x > 0 ? x : a * x;
    if (op == "GELU") return refGelu(x);
    if (op == "SiLU") return x * refSigmoid(x);
    if (op == "Sigmoid") return refSigmoid(x);
    if (op == "Tanh") return std::tanh(x);
    if (op == "ELU") return x > 0 ? x : a * (std::exp(x) - 1.0);
    if (op == "Softplus") return refSoftplus(x, a);
    if (op == "Mish") return x * std::tanh(refSoftplus(x, 1.0));
    if (op == "Hardswish") return x * std::clamp(x + 3.0, 0.0, 6.0) / 6.0;
    throw std::invalid_argument("no reference for " + op);
}
// f'(x); at a kink, the side PyTorch takes (ReLU: 0 at 0).
double referenceDerivative(const std::string& op, double x)
{
    const double a = paramFor(op), s = refSigmoid(x), t = std::tanh(x);
    const double phi = std::exp(-0.5 * x * x) / std::sqrt(2.0 * std::numbers::pi);
    if (op == "ReLU") return x > 0 ? 1.0 : 0.0;
    if (op == "LeakyReLU") return x > 0 ? 1.0 : a;
    if (op == "GELU") return 0.5 * (1 + std::erf(x / std::sqrt(2.0))) + x * phi;
    if (op == "SiLU") return s + x * s * (1 - s);
    if (op == "Sigmoid") return s * (1 - s);
    if (op == "Tanh") return 1 - t * t;
    if (op == "ELU") return x > 0 ? 1.0 : a * std::exp(x);
    if (op == "Softplus") return refSigmoid(a * x);
    if (op == "Mish") {
        const double tsp = std::tanh(refSoftplus(x, 1.0));
        return tsp + x * s * (1 - tsp * tsp);
    }
    if (op == "Hardswish") return x < -3 ? 0.0 : x <= 3 ? x / 3 + 0.5 : 1.0;
    throw std::invalid_argument("no reference for " + op);
}

// The forward tolerance: kRelTol, and for GELU in its negative tail more. GELU runs in float
// as the GPU does, and the rounding of x / sqrt 2 (up to ~1.2e-7 relative with the constant's)
// is amplified by erfc's condition number there, ~x^2 (2.8e-6 relative at x = -6, where the
// value is -6e-9).
double forwardTolerance(const std::string& op, double x) { return kRelTol + (op == "GELU" ? 1.2e-7 * x * x : 0.0); }

Activation activationOf(const std::string& op)
{
    for (Activation a : kAllActivations)
        if (op == activationName(a)) return a;
    throw std::invalid_argument("no activation " + op);
}

// Every activation in the backend's list: a new one is tested here by being listed.
void addActivationRows()
{
    QTest::addColumn<QString>("op");
    for (Activation a : kAllActivations) QTest::newRow(activationName(a)) << QString(activationName(a));
}

// Runs Dropout's forward in training mode with a chosen seed; returns the saved mask.
Tensor dropoutMask(const Tensor& x, double p, std::uint64_t seed, Tensor* yOut = nullptr)
{
    const Op* op = OpRegistry::builtin().find("Dropout");
    Attrs attrs;
    const std::string err = normaliseAttrs(op->attrSpecs(), {{"p", p}}, attrs);
    if (!err.empty()) throw std::invalid_argument(err);
    const TensorSpec in{x.shape(), DType::F32};
    OpContext ctx{cpuBackend(), attrs};
    ctx.inputs = {x};
    ctx.output = Tensor::zeros(x.shape());
    for (const auto& s : op->saved(attrs, std::span(&in, 1), in)) ctx.saved.push_back(Tensor::zeros(s.shape, s.dtype));
    ctx.training = true;
    ctx.seed = seed;
    op->forward(ctx);
    if (yOut) *yOut = ctx.output;
    return ctx.saved.at(0);
}

Tensor normalTensor(Shape shape, std::uint64_t seed)
{
    Tensor t = Tensor::empty(std::move(shape));
    std::mt19937_64 rng(seed);
    normalFill()(t, rng);
    return t;
}

}  // namespace

class TestOpsActivation : public QObject {
    Q_OBJECT
private slots:
    void knownValues()
    {
        struct Case {
            const char* op;
            float x;
            double want;
        };
        // Published constants: Phi(1), sigma(1), tanh(0.5); then the values the definitions give.
        const Case cases[] = {
            {"GELU", 1.0f, 0.8413447460685429},   {"SiLU", 1.0f, 0.7310585786300049},
            {"Sigmoid", 1.0f, 0.7310585786300049}, {"Tanh", 0.5f, 0.46211715726000974},
            {"Sigmoid", 100.0f, 1.0},              {"ReLU", -2.0f, 0.0},
            {"LeakyReLU", -2.0f, -0.2},            {"LeakyReLU", 3.0f, 3.0},
            {"ELU", -1.0f, -0.31606027941427883},  {"ELU", 2.0f, 2.0},  // 0.5 (e^-1 - 1)
            {"Softplus", 0.5f, 0.5317320027607432},  // ln(1 + e^2) / 4
            {"Mish", 1.0f, 0.8650983882673103},      // tanh(ln(1 + e))
            {"Hardswish", 1.0f, 0.6666666666666666}, {"Hardswish", -4.0f, 0.0},  // 1 * 4 / 6; 0 below -3
            {"Hardswish", 4.0f, 4.0},                                            // x above 3
        };
        for (const auto& c : cases) {
            const float y = runForward(c.op, attrsFor(c.op), {tensorOf({c.x})}, {}).data<float>()[0];
            QVERIFY2(closeRel(y, c.want, kRelTol), qPrintable(QString("%1(%2) = %3, want %4")
                                                                   .arg(c.op).arg(c.x).arg(double(y), 0, 'g', 17)
                                                                   .arg(c.want, 0, 'g', 17)));
        }
    }

    void forwardMatchesDoubleReference_data() { addActivationRows(); }
    void forwardMatchesDoubleReference()
    {
        QFETCH(QString, op);
        const std::string name = op.toStdString();
        QVERIFY2(OpRegistry::builtin().find(name), "every activation in the backend's list is an op of that name");
        // Hand-picked points, then a tensor large enough to be split over the threads.
        const float points[] = {-3.0f, -1.0f, -0.5f, -0.125f, 0.0f, 0.125f, 0.5f, 1.0f, 3.0f, 6.0f};
        Tensor x = Tensor::empty(Shape{40009});
        for (std::int64_t i = 0; i < x.numel(); ++i)
            x.data<float>()[i] = i < 10 ? points[i] : -6.0f + 12.0f * float(i) / float(x.numel());
        const Tensor y = runForward(name, attrsFor(name), {x}, {});
        for (std::int64_t i = 0; i < x.numel(); ++i) {
            const double want = reference(name, x.data<float>()[i]);
            const float got = y.data<float>()[i];
            if (!closeRel(got, want, forwardTolerance(name, x.data<float>()[i])))
                QFAIL(qPrintable(QString("%1(%2) = %3, want %4").arg(op).arg(double(x.data<float>()[i]), 0, 'g', 9)
                                     .arg(double(got), 0, 'g', 9).arg(want, 0, 'g', 17)));
        }
    }

    void saturatedTailsStayFinite()
    {
        const Tensor x = tensorOf({-100.0f, 100.0f, -1000.0f, -10.0f});
        // The ReLU-like ones: x itself far right, finite far left (no exp overflowing to inf or NaN).
        for (const char* op : {"ELU", "Softplus", "Mish", "Hardswish"}) {
            const Tensor y = runForward(op, {}, {x}, {});
            for (int i = 0; i < 4; ++i) QVERIFY2(std::isfinite(y.data<float>()[i]), op);
            QCOMPARE(y.data<float>()[1], 100.0f);
        }
        QCOMPARE(runForward("ELU", {}, {x}, {}).data<float>()[2], -1.0f);  // -alpha
        QCOMPARE(runForward("Softplus", {}, {x}, {}).data<float>()[2], 0.0f);
        const Tensor sig = runForward("Sigmoid", {}, {x}, {});
        QVERIFY(std::isfinite(sig.data<float>()[0]) && sig.data<float>()[0] >= 0.0f && sig.data<float>()[0] < 1e-30f);
        QCOMPARE(sig.data<float>()[1], 1.0f);
        QCOMPARE(sig.data<float>()[2], 0.0f);  // exp(-1000) underflows to 0, not NaN
        const Tensor silu = runForward("SiLU", {}, {x}, {});
        for (int i = 0; i < 4; ++i) QVERIFY(std::isfinite(silu.data<float>()[i]));
        QCOMPARE(silu.data<float>()[1], 100.0f);
        const Tensor gelu = runForward("GELU", {}, {x}, {});
        for (int i = 0; i < 4; ++i) QVERIFY(std::isfinite(gelu.data<float>()[i]));
        // GELU(-10) = -10 Phi(-10) ~ -7.6e-23: tiny and negative, not 0 from 1 + erf cancelling.
        QVERIFY(gelu.data<float>()[3] < 0.0f && gelu.data<float>()[3] > -1e-21f);
        const Tensor t = runForward("Tanh", {}, {x}, {});
        QCOMPARE(t.data<float>()[0], -1.0f);
        QCOMPARE(t.data<float>()[1], 1.0f);
    }

    // The backward primitive directly, against the analytic derivatives in double, on top of
    // a non-zero dx (it must accumulate) and with dy = 2.
    void derivativesMatchDoubleReference_data() { addActivationRows(); }
    void derivativesMatchDoubleReference()
    {
        QFETCH(QString, op);
        const std::string name = op.toStdString();
        const float xs[] = {-4.0f, -2.0f, -1.0f, -0.5f, 0.5f, 1.0f, 2.0f, 4.0f, 6.0f};
        const int n = 9;
        float y[n], dy[n], dx[n];
        for (int i = 0; i < n; ++i) dy[i] = 2.0f, dx[i] = 0.25f;
        const Activation act = activationOf(name);
        const float alpha = static_cast<float>(paramFor(name));
        cpuBackend().activationForward(act, alpha, xs, y, n);
        cpuBackend().activationBackward(act, alpha, xs, y, dy, dx, n);
        for (int i = 0; i < n; ++i) {
            const double x = xs[i], want = referenceDerivative(name, x);
            // 1e-5 relative: sigmoid' and tanh' are formed from the float y, and 1 - y^2 (or
            // 1 - y) loses digits as y approaches 1. 2e-7 absolute where the derivative is
            // nearly 0: tanh'(6) = 2.5e-5 from y = 1 - 1.2e-5 carries ~6e-8 of y's rounding,
            // and the float sum 0.25 + 2 f' up to ~2e-8 more.
            const double got = (double(dx[i]) - 0.25) / 2.0;
            QVERIFY2(std::abs(got - want) <= 1e-5 * std::abs(want) + 2e-7,
                     qPrintable(QString("%1'(%2) = %3, want %4").arg(op).arg(double(x)).arg(got, 0, 'g', 9).arg(want, 0, 'g', 9)));
        }
    }

    void softmaxKnownValues()
    {
        const Tensor y = runForward("Softmax", {}, {tensorOf({1.0f, 2.0f, 3.0f})}, {});
        const double want[] = {0.09003057, 0.24472847, 0.66524096};  // e^i / (e + e^2 + e^3), 8 digits
        for (int i = 0; i < 3; ++i) QVERIFY(std::abs(y.data<float>()[i] - want[i]) < 1e-7);
    }
    void softmaxLargeLogitsAreShiftInvariant()
    {
        const Tensor big = runForward("Softmax", {}, {tensorOf({1000.0f, 1001.0f})}, {});
        const Tensor small = runForward("Softmax", {}, {tensorOf({0.0f, 1.0f})}, {});
        for (int i = 0; i < 2; ++i) {
            QVERIFY(std::isfinite(big.data<float>()[i]));
            QCOMPARE(big.data<float>()[i], small.data<float>()[i]);
        }
        QVERIFY(std::abs(small.data<float>()[1] - refSigmoid(1.0)) < 1e-7);  // softmax([0,1])[1] = sigma(1)
    }
    void softmaxRowsSumToOneOverLastDimension()
    {
        const Tensor x = normalTensor(Shape{3, 4, 50}, 11);
        const Tensor y = runForward("Softmax", {}, {x}, {});
        QCOMPARE(y.shape(), x.shape());
        for (int r = 0; r < 12; ++r) {
            double sum = 0;
            for (int j = 0; j < 50; ++j) {
                const float v = y.data<float>()[r * 50 + j];
                QVERIFY(v > 0.0f);
                sum += v;
            }
            QVERIFY2(std::abs(sum - 1.0) < 1e-5, qPrintable(QString("row %1 sums to %2").arg(r).arg(sum, 0, 'g', 9)));
        }
    }

    void dropoutStatistics()
    {
        const std::int64_t n = 100000;
        const Tensor x = normalTensor(Shape{n}, 5);
        std::vector<Tensor> saved;
        const Tensor y = runForward("Dropout", {{"p", 0.3}}, {x}, {}, true, &saved);
        QCOMPARE(saved.size(), size_t(1));
        QCOMPARE(saved[0].dtype(), DType::U8);
        QCOMPARE(saved[0].shape(), x.shape());
        const std::uint8_t* mask = saved[0].data<std::uint8_t>();
        std::int64_t kept = 0;
        for (std::int64_t i = 0; i < n; ++i) {
            QVERIFY(mask[i] == 0 || mask[i] == 1);
            const float xi = x.data<float>()[i], yi = y.data<float>()[i];
            if (mask[i]) {
                ++kept;
                if (!closeRel(yi, double(xi) / 0.7, kRelTol)) QFAIL(qPrintable(QString("kept %1 -> %2").arg(xi).arg(yi)));
            } else if (yi != 0.0f) {
                QFAIL(qPrintable(QString("dropped element %1 is %2").arg(i).arg(yi)));
            }
        }
        // 100000 Bernoulli(0.7) draws: standard deviation of the fraction ~0.0014, so +-0.01 is ~7 sigma.
        const double fraction = double(kept) / double(n);
        QVERIFY2(std::abs(fraction - 0.7) <= 0.01, qPrintable(QString("kept fraction %1").arg(fraction)));
    }
    void dropoutMaskIsAFunctionOfTheSeed()
    {
        const Tensor x = normalTensor(Shape{1000, 100}, 9);
        const Tensor a = dropoutMask(x, 0.3, 42), b = dropoutMask(x, 0.3, 42), c = dropoutMask(x, 0.3, 43);
        const std::uint8_t *ma = a.data<std::uint8_t>(), *mb = b.data<std::uint8_t>(), *mc = c.data<std::uint8_t>();
        std::int64_t differing = 0;
        for (std::int64_t i = 0; i < x.numel(); ++i) {
            if (ma[i] != mb[i]) QFAIL("the same seed gave a different mask");
            differing += ma[i] != mc[i];
            // The shared counter-based hash, so the CUDA backend draws the same mask.
            if (ma[i] != (hashUniform(42, std::uint64_t(i)) >= 0.3f ? 1 : 0))
                QFAIL(qPrintable(QString("mask[%1] differs from hashUniform").arg(i)));
        }
        // Independent masks differ where exactly one keeps: 2 * 0.7 * 0.3 = 42% of elements.
        QVERIFY2(differing > x.numel() / 3, qPrintable(QString("%1 differing").arg(differing)));
    }
    void dropoutWithPZeroIsTheIdentity()
    {
        const Tensor x = normalTensor(Shape{7, 9}, 3);
        Tensor y;
        const Tensor mask = dropoutMask(x, 0.0, 5, &y);
        for (std::int64_t i = 0; i < x.numel(); ++i) {
            QCOMPARE(mask.data<std::uint8_t>()[i], std::uint8_t(1));
            QCOMPARE(y.data<float>()[i], x.data<float>()[i]);
        }
    }
    void dropoutInEvalModeCopies()
    {
        const Tensor x = normalTensor(Shape{5, 11}, 4);
        const Tensor y = runForward("Dropout", {{"p", 0.5}}, {x}, {}, false);
        for (std::int64_t i = 0; i < x.numel(); ++i) QCOMPARE(y.data<float>()[i], x.data<float>()[i]);
    }

    void dropoutRejectsPOutsideRange_data()
    {
        QTest::addColumn<double>("p");
        QTest::newRow("p=1") << 1.0;
        QTest::newRow("p=-0.1") << -0.1;
    }
    void dropoutRejectsPOutsideRange()
    {
        QFETCH(double, p);
        const Op* op = OpRegistry::builtin().find("Dropout");
        QVERIFY(op);
        Attrs out;
        const std::string err = normaliseAttrs(op->attrSpecs(), {{"p", p}}, out);
        QVERIFY2(err.find("'p'") != std::string::npos, err.c_str());
    }
    void leakyReluSlopeDefaultsTo001()
    {
        const float y = runForward("LeakyReLU", {}, {tensorOf({-3.0f})}, {}).data<float>()[0];
        QVERIFY(closeRel(y, -0.03, kRelTol));
    }
    void softmaxRejectsOtherDims()
    {
        const Op* op = OpRegistry::builtin().find("Softmax");
        QVERIFY(op);
        const TensorSpec in{Shape{2, 3, 4}, DType::F32};
        for (std::int64_t dim : {std::int64_t(-1), std::int64_t(2)}) {
            Attrs a;
            QVERIFY(normaliseAttrs(op->attrSpecs(), {{"dim", dim}}, a).empty());
            QCOMPARE(op->inferOutput(a, std::span(&in, 1)).shape, in.shape);
        }
        Attrs a;
        QVERIFY(normaliseAttrs(op->attrSpecs(), {{"dim", std::int64_t(0)}}, a).empty());
        try {
            op->inferOutput(a, std::span(&in, 1));
            QFAIL("dim = 0 on a rank-3 input was accepted");
        } catch (const OpError& e) {
            QCOMPARE(e.attrs(), std::vector<std::string>{"dim"});
            QVERIFY2(std::string(e.what()).find("dim") != std::string::npos, e.what());
        }
    }
    void integerInputIsRejected()
    {
        const TensorSpec in{Shape{2, 3}, DType::I64};
        for (const char* type : {"ReLU", "Softmax", "Dropout"}) {
            const Op* op = OpRegistry::builtin().find(type);
            QVERIFY(op);
            Attrs a;
            QVERIFY(normaliseAttrs(op->attrSpecs(), {}, a).empty());
            QVERIFY_THROWS_EXCEPTION(OpError, op->inferOutput(a, std::span(&in, 1)));
        }
    }
};

QTEST_GUILESS_MAIN(TestOpsActivation)
#include "tst_ops_activation.moc"
