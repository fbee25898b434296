// CrossEntropy, MSE, BCEWithLogits: hand-computed losses, numerical stability at extreme
// logits, and the errors for bad targets and shapes. Their gradient checks are the ops' own
// cases, run by tst_op_registry.
//
// Known values are compared with an absolute tolerance of 1e-6: the losses are O(1), the
// CPU backend sums in double and rounds once to f32 (error ~3e-8), and the hand-derived
// constants carry 8 decimals.
#include <QProcess>
#include <QtTest>

#include <cmath>
#include <optional>
#include <random>

#include "backend/backend.h"
#include "exec/executor.h"
#include "gradcheck.h"
#include "graph/graph.h"
#include "ops/registry.h"

using namespace ts;
using namespace ts::test;

namespace {

constexpr double kTol = 1e-6;



// "" when |actual - expected| <= kTol, else a message for QVERIFY2.
std::string mismatch(double actual, double expected)
{
    if (std::abs(actual - expected) <= kTol) return {};
    return "got " + std::to_string(actual) + ", expected " + std::to_string(expected);
}
#define QCOMPARE_NEAR(actual, expected)                                                                                 \
    do {                                                                                                               \
        const std::string m_ = mismatch((actual), (expected));                                                         \
        QVERIFY2(m_.empty(), m_.c_str());                                                                              \
    } while (false)

// The one element of a loss output (rank 0).
float scalar(const Tensor& loss)
{
    if (loss.shape() != Shape{} || loss.numel() != 1) throw std::logic_error("loss is not a scalar: " + loss.shape().str());
    return loss.data<float>()[0];
}

std::optional<OpError> shapeError(const std::string& op, const Attrs& given, const std::vector<TensorSpec>& inputs)
{
    const Op* o = OpRegistry::builtin().find(op);
    Attrs attrs;
    const std::string err = normaliseAttrs(o->attrSpecs(), given, attrs);
    if (!err.empty()) throw std::invalid_argument(err);
    try {
        o->inferOutput(attrs, inputs);
    } catch (const OpError& e) {
        return e;
    }
    return std::nullopt;
}

bool names(const OpError& e, const std::string& attr)
{
    return std::find(e.attrs().begin(), e.attrs().end(), attr) != e.attrs().end();
}

// Logits [[1, 2, 3]] have log-softmax [-2.40760596, -1.40760596, -0.40760596]:
// logsumexp = 3 + log(1 + e^-1 + e^-2) = 3 + log(1.50321472) = 3.40760596.
constexpr double kNllOf2 = 0.40760596, kNllOf0 = 2.40760596;
constexpr double kMeanNll = (2.40760596 + 1.40760596 + 0.40760596) / 3;  // 1.40760596

}  // namespace

class TestOpsLoss : public QObject {
    Q_OBJECT
private slots:
    // ---- CrossEntropy -------------------------------------------------------------------
    void crossEntropyKnownValue()
    {
        std::vector<Tensor> saved;
        Tensor loss = runForward("CrossEntropy", {}, {floats(Shape{1, 3}, {1, 2, 3}), indices(Shape{1}, {2})}, {},
                                 true, &saved);
        QCOMPARE_NEAR(scalar(loss), kNllOf2);
        // softmax = [e, e^2, e^3] / 30.19287485 = [0.09003057, 0.24472847, 0.66524096]
        QCOMPARE(saved.size(), std::size_t(1));
        QCOMPARE_NEAR(saved[0].data<float>()[0], 0.09003057);
        QCOMPARE_NEAR(saved[0].data<float>()[1], 0.24472847);
        QCOMPARE_NEAR(saved[0].data<float>()[2], 0.66524096);
    }
    void crossEntropyLabelSmoothing()
    {
        // q = 0.9 onehot + 0.1/3: loss = 0.9 * 0.40760596 + 0.1 * 1.40760596 = 0.50760596
        Tensor loss = runForward("CrossEntropy", {{"label_smoothing", 0.1}},
                                 {floats(Shape{1, 3}, {1, 2, 3}), indices(Shape{1}, {2})}, {});
        QCOMPARE_NEAR(scalar(loss), 0.9 * kNllOf2 + 0.1 * kMeanNll);
        QCOMPARE_NEAR(scalar(loss), 0.50760596);
    }
    void crossEntropyClassWeights()
    {
        // Two rows of logits [1, 2, 3], targets 2 and 0: losses 0.40760596 and 2.40760596.
        const std::vector<Tensor> in{floats(Shape{2, 3}, {1, 2, 3, 1, 2, 3}), indices(Shape{2}, {2, 0})};
        QCOMPARE_NEAR(scalar(runForward("CrossEntropy", {}, in, {})), (kNllOf2 + kNllOf0) / 2);  // 1.40760596
        // Weights [2, 1, 0.5] weigh row 0 by w[2] = 0.5 and row 1 by w[0] = 2:
        // (0.5 * 0.40760596 + 2 * 2.40760596) / 2.5 = 5.0190149 / 2.5 = 2.00760596
        const Attrs weighted{{"class_weights", std::vector<double>{2, 1, 0.5}}};
        const Tensor w = floats(Shape{3}, {2, 1, 0.5f});
        QCOMPARE_NEAR(scalar(runForward("CrossEntropy", weighted, in, {w})), 2.00760596);

        // With label smoothing 0.1 each row's smoothed loss is weighted by its TARGET's class
        // weight (not per class inside the smoothing term, as PyTorch does):
        // row 0: 0.9 * 0.40760596 + 0.1 * 1.40760596 = 0.50760596
        // row 1: 0.9 * 2.40760596 + 0.1 * 1.40760596 = 2.30760596
        // (0.5 * 0.50760596 + 2 * 2.30760596) / 2.5 = 4.8690149 / 2.5 = 1.94760596
        Attrs both = weighted;
        both.set("label_smoothing", 0.1);
        QCOMPARE_NEAR(scalar(runForward("CrossEntropy", both, in, {w})), 1.94760596);
    }
    void crossEntropyBackwardKnownValues()
    {
        // Rows of logits [1, 2, 3] (softmax p = [0.09003057, 0.24472847, 0.66524096]) with
        // targets 2 and 0, weights [2, 1, 0.5], smoothing 0.1 (q = 0.9 onehot + 0.03333333),
        // dloss = 1. Row scales are w_t / sum(w_t): 0.5 / 2.5 = 0.2 and 2 / 2.5 = 0.8.
        //   row 0: 0.2 * (p - [0.03333333, 0.03333333, 0.93333333]) = [0.01133945, 0.04227903, -0.05361848]
        //   row 1: 0.8 * (p - [0.93333333, 0.03333333, 0.03333333]) = [-0.67464221, 0.16911611, 0.50552610]
        // The primitive accumulates onto the 1s already there.
        const float probs[] = {0.09003057f, 0.24472847f, 0.66524096f, 0.09003057f, 0.24472847f, 0.66524096f};
        const std::int64_t targets[] = {2, 0};
        const float weights[] = {2, 1, 0.5f}, dloss = 1.0f;
        std::vector<float> d(6, 1.0f);
        cpuBackend().crossEntropyBackward(probs, targets, weights, &dloss, d.data(), 2, 3, 0.1f, -100);
        const double expected[] = {0.01133945, 0.04227903, -0.05361848, -0.67464221, 0.16911611, 0.50552610};
        for (std::size_t i = 0; i < 6; ++i) QCOMPARE_NEAR(d[i], 1.0 + expected[i]);
    }
    void crossEntropyZeroTotalWeight()
    {
        // Every target weighs 0: the loss and its gradient are 0, not 0/0 = NaN.
        const float logits[] = {1, 2, 3, 3, 2, 1}, weights[] = {0, 1, 0}, dloss = 1.0f;
        const std::int64_t targets[] = {2, 0};
        float probs[6], loss = -1.0f;
        std::vector<float> d(6, 1.0f);
        cpuBackend().crossEntropyForward(logits, targets, weights, probs, &loss, 2, 3, 0.1f, -100);
        QCOMPARE(loss, 0.0f);
        cpuBackend().crossEntropyBackward(probs, targets, weights, &dloss, d.data(), 2, 3, 0.1f, -100);
        QCOMPARE(d, std::vector<float>(6, 1.0f));
    }
    void largeBatchesMatchDirectSums()
    {
        // Large enough to split over threads and blocks; compared with plain double sums.
        std::mt19937_64 rng(3);
        std::normal_distribution<double> normal;
        const std::int64_t n = 50000, rows = 5000, cols = 10;
        std::vector<float> a(n), b(n);
        for (auto& v : a) v = static_cast<float>(normal(rng));
        for (auto& v : b) v = static_cast<float>(normal(rng));
        std::vector<std::int64_t> targets(rows);
        for (std::int64_t r = 0; r < rows; ++r) targets[static_cast<std::size_t>(r)] = (r * 7) % cols;

        double mse = 0, bce = 0, ce = 0;
        for (std::int64_t i = 0; i < n; ++i) {
            const double x = a[static_cast<std::size_t>(i)], t = b[static_cast<std::size_t>(i)];
            mse += (x - t) * (x - t);
            bce += std::log(1 + std::exp(x)) - x * t;  // safe for |x| of a few units
        }
        for (std::int64_t r = 0; r < rows; ++r) {
            double z = 0;
            for (std::int64_t c = 0; c < cols; ++c) z += std::exp(double(a[static_cast<std::size_t>(r * cols + c)]));
            ce += std::log(z) - a[static_cast<std::size_t>(r * cols + targets[static_cast<std::size_t>(r)])];
        }
        float loss = 0;
        auto relativeError = [](double got, double want) { return std::abs(got - want) / std::abs(want); };
        cpuBackend().mseForward(a.data(), b.data(), &loss, n);
        QVERIFY(relativeError(loss, mse / double(n)) < 1e-6);
        cpuBackend().bceWithLogitsForward(a.data(), b.data(), &loss, n);
        QVERIFY(relativeError(loss, bce / double(n)) < 1e-6);
        std::vector<float> probs(static_cast<std::size_t>(rows * cols));
        cpuBackend().crossEntropyForward(a.data(), targets.data(), nullptr, probs.data(), &loss, rows, cols, 0.0f, -100);
        QVERIFY(relativeError(loss, ce / double(rows)) < 1e-6);
    }
    void crossEntropyClassWeightsParameter()
    {
        const Op* op = OpRegistry::builtin().find("CrossEntropy");
        QVERIFY(op->isLoss());
        QVERIFY(op->inputDifferentiable(0));
        QVERIFY(!op->inputDifferentiable(1));
        const std::vector<TensorSpec> in{{Shape{4, 3}}, {Shape{4}, DType::I64}};
        Attrs attrs;
        QVERIFY(normaliseAttrs(op->attrSpecs(), {{"class_weights", std::vector<double>{2, 1, 0.5}}}, attrs).empty());
        const auto params = op->params(attrs, in);
        QCOMPARE(params.size(), std::size_t(1));
        QCOMPARE(params[0].name, std::string("class_weights"));
        QCOMPARE(params[0].shape, Shape({3}));
        QVERIFY(!params[0].trainable);
        QVERIFY(params[0].init.kind == InitKind::Values);
        QCOMPARE(params[0].init.values, std::vector<float>({2, 1, 0.5f}));

        QVERIFY(normaliseAttrs(op->attrSpecs(), {}, attrs).empty());
        QVERIFY(op->params(attrs, in).empty());
        QCOMPARE(op->inferOutput(attrs, in).shape, Shape{});
    }
    void crossEntropyInAGraph()
    {
        // tokens -> Embedding -> Flatten -> CrossEntropy(class_weights [2, 1, 0.5]) through the
        // executor: the weights arrive by InitKind::Values, and the labels take no gradient.
        Graph g;
        g.inputs = {{"tokens", Shape{1}, DType::I64}, {"labels", Shape{}, DType::I64}};
        g.add("emb", "Embedding", {"tokens"}, {{"num_embeddings", std::int64_t(4)}, {"embedding_dim", std::int64_t(3)}});
        g.add("logits", "Flatten", {"emb"});
        g.add("loss", "CrossEntropy", {"logits", "labels"}, {{"class_weights", std::vector<double>{2, 1, 0.5}}});
        Executor ex(checkGraph(g, 2), cpuBackend());
        for (Parameter& p : ex.parameters()) {
            if (p.name == "loss.class_weights") {
                QVERIFY(!p.trainable && !p.grad.defined());
                QCOMPARE(std::vector<float>(p.value.data<float>(), p.value.data<float>() + 3),
                         std::vector<float>({2, 1, 0.5f}));
            } else {
                QCOMPARE(p.name, std::string("emb.weight"));
                std::fill_n(p.value.data<float>(), 12, 0.0f);
                const float row0[] = {1, 2, 3};
                std::copy(row0, row0 + 3, p.value.data<float>());
            }
        }
        ex.setInput("tokens", indices(Shape{2, 1}, {0, 0}));
        ex.setInput("labels", indices(Shape{2}, {2, 0}));
        ex.forward();
        QCOMPARE_NEAR(ex.loss(), 2.00760596);  // the weighted two-row case above
        ex.backward();
        // Both lookups hit row 0, which collects 0.2 * (p - e2) + 0.8 * (p - e0)
        // = [0.09003057 - 0.8, 0.24472847, 0.66524096 - 0.2] = [-0.70996943, 0.24472847, 0.46524096].
        const float* grad = ex.findParameter("emb.weight")->grad.data<float>();
        QCOMPARE_NEAR(grad[0], -0.70996943);
        QCOMPARE_NEAR(grad[1], 0.24472847);
        QCOMPARE_NEAR(grad[2], 0.46524096);
        for (int i = 3; i < 12; ++i) QCOMPARE(grad[i], 0.0f);
    }
    void crossEntropyTargetOutOfRange()
    {
        Tensor logits = Tensor::full(Shape{4, 10}, 0.5f);
        for (std::int64_t bad : {std::int64_t(12), std::int64_t(10), std::int64_t(-1)}) {
            try {
                runForward("CrossEntropy", {}, {logits, indices(Shape{4}, {0, 1, 9, bad})}, {});
                QFAIL("no exception for a target outside the classes");
            } catch (const std::out_of_range& e) {
                QCOMPARE(std::string(e.what()),
                         "cross-entropy target " + std::to_string(bad) +
                             " at row 3 is outside [0, 10) and is not the ignore index -100");
            }
        }
    }
    void crossEntropyErrors()
    {
        const auto weights = shapeError("CrossEntropy", {{"class_weights", std::vector<double>{1, 2}}},
                                        {{Shape{4, 3}}, {Shape{4}, DType::I64}});
        QVERIFY(weights && names(*weights, "class_weights"));
        QVERIFY(shapeError("CrossEntropy", {}, {{Shape{4, 3}}, {Shape{4, 1}, DType::I64}}));  // target not [N]
        QVERIFY(shapeError("CrossEntropy", {}, {{Shape{4, 3}}, {Shape{5}, DType::I64}}));
        QVERIFY(shapeError("CrossEntropy", {}, {{Shape{4, 3, 2}}, {Shape{4}, DType::I64}}));  // not [4, 3]
        QVERIFY(shapeError("CrossEntropy", {}, {{Shape{4, 3}}, {Shape{4}}}));                 // f32 target

        Attrs out;
        const auto specs = OpRegistry::builtin().find("CrossEntropy")->attrSpecs();
        QVERIFY(!normaliseAttrs(specs, {{"class_weights", std::vector<double>{1, -1}}}, out).empty());
        QVERIFY(!normaliseAttrs(specs, {{"label_smoothing", 1.0}}, out).empty());
    }

    // ---- MSE ----------------------------------------------------------------------------
    void mseKnownValue()
    {
        // differences [1, 0, -2, 0]: (1 + 0 + 4 + 0) / 4 = 1.25
        Tensor loss = runForward("MSE", {}, {floats(Shape{2, 2}, {1, 2, 3, 4}), floats(Shape{2, 2}, {0, 2, 5, 4})}, {});
        QCOMPARE_NEAR(scalar(loss), 1.25);
    }
    void mseErrors()
    {
        QVERIFY(shapeError("MSE", {}, {{Shape{2, 3}}, {Shape{2, 4}}}));
        QVERIFY(shapeError("MSE", {}, {{Shape{2, 3}}, {Shape{2, 3}, DType::I64}}));
    }

    // ---- L1 and Huber ---------------------------------------------------------------------
    void robustLossesKnownValues()
    {
        // errors [1, 0, -2, 0.5]: L1 (1 + 0 + 2 + 0.5) / 4; Huber(1): (0.5 + 0 + 1.5 + 0.125) / 4;
        // Huber(0.5): (0.375 + 0 + 0.875 + 0.125) / 4.
        const Tensor pred = floats(Shape{2, 2}, {1, 2, 3, 4.5f}), target = floats(Shape{2, 2}, {0, 2, 5, 4});
        QCOMPARE_NEAR(scalar(runForward("L1", {}, {pred, target}, {})), 3.5 / 4);
        QCOMPARE_NEAR(scalar(runForward("Huber", {}, {pred, target}, {})), 2.125 / 4);
        QCOMPARE_NEAR(scalar(runForward("Huber", {{"delta", 0.5}}, {pred, target}, {})), 1.375 / 4);
        std::vector<AttrSpec> specs = OpRegistry::builtin().find("Huber")->attrSpecs();
        Attrs out;
        QVERIFY(normaliseAttrs(specs, {{"delta", 0.0}}, out).find("must be > 0") != std::string::npos);
        QVERIFY(shapeError("L1", {}, {{Shape{2, 3}}, {Shape{2, 3}, DType::I64}}));
        QVERIFY(shapeError("Huber", {}, {{Shape{2, 3}}, {Shape{3, 2}}}));
    }

    // Forward and both gradients against PyTorch 1.13's l1_loss and huber_loss on the same numbers,
    // errors on both sides of delta and a few large ones.
    void robustLossesAgainstPyTorch()
    {
        QProcess probe;
        probe.start("/usr/bin/python3", {"-c", "import torch"});
        if (!probe.waitForFinished(120000) || probe.exitCode() != 0) QSKIP("Debian's python3-torch is not installed");
        const std::int64_t n = 40;
        std::vector<float> p(n), t(n);
        std::mt19937 rng(3);
        std::normal_distribution<float> normal(0, 1.5f);
        QString text;
        for (std::int64_t i = 0; i < n; ++i) {
            p[std::size_t(i)] = normal(rng) * (i % 10 == 0 ? 8.0f : 1.0f);
            t[std::size_t(i)] = normal(rng);
            text += QString::number(p[std::size_t(i)], 'g', 9) + ' ' + QString::number(t[std::size_t(i)], 'g', 9) + '\n';
        }
        QProcess py;
        py.start("/usr/bin/python3",
                 {"-c", "import sys, torch, numpy as np\n"
                        "a = torch.tensor(np.loadtxt(sys.stdin, dtype=np.float32))\n"
                        "for f in (lambda x, y: torch.nn.functional.l1_loss(x, y), lambda x, y: torch.nn.functional.huber_loss(x, y, delta=1.0),\n"
                        "          lambda x, y: torch.nn.functional.huber_loss(x, y, delta=0.4)):\n"
                        "    x = a[:, 0].clone().double().requires_grad_(); y = a[:, 1].clone().double().requires_grad_()\n"
                        "    l = f(x, y); l.backward()\n"
                        "    print(repr(l.item()), ' '.join(repr(v) for v in x.grad.tolist()), ' '.join(repr(v) for v in y.grad.tolist()))\n"});
        py.write(text.toUtf8());
        py.closeWriteChannel();
        QVERIFY(py.waitForFinished(120000));
        QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
        const QStringList lines = QString::fromUtf8(py.readAllStandardOutput()).trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        const float deltas[] = {0, 1, 0.4f};
        for (int k = 0; k < 3; ++k) {
            const QStringList ref = lines[k].split(' ');
            QCOMPARE(ref.size(), qsizetype(1 + 2 * n));
            float loss = 0, dloss = 1;
            std::vector<float> dp(n, 0.25f), dt(n, -0.5f);  // backward accumulates: start from garbage
            cpuBackend().robustLossForward(p.data(), t.data(), &loss, n, deltas[k]);
            cpuBackend().robustLossBackward(p.data(), t.data(), &dloss, dp.data(), dt.data(), n, deltas[k]);
            QVERIFY2(std::abs(loss - ref[0].toDouble()) < 1e-6 * std::max(1.0, std::abs(ref[0].toDouble())),
                     qPrintable(QString("delta %1: loss %2, PyTorch %3").arg(deltas[k]).arg(loss).arg(ref[0])));
            for (std::int64_t i = 0; i < n; ++i) {
                QVERIFY(std::abs(dp[std::size_t(i)] - 0.25f - ref[1 + int(i)].toDouble()) < 1e-7);
                QVERIFY(std::abs(dt[std::size_t(i)] + 0.5f - ref[1 + int(n) + int(i)].toDouble()) < 1e-7);
            }
        }
    }

    // ---- BCEWithLogits ------------------------------------------------------------------
    void bceKnownValue()
    {
        // x = 0, t = 1: 0 - 0 + log 2 = 0.69314718; x = 2, t = 0: 2 - 0 + log(1 + e^-2) = 2.12692801
        // mean = 2.82007519 / 2 = 1.41003760
        Tensor loss = runForward("BCEWithLogits", {}, {floats(Shape{2, 1}, {0, 2}), floats(Shape{2, 1}, {1, 0})}, {});
        QCOMPARE_NEAR(scalar(loss), 1.41003760);
    }
    void bceExtremeLogitsStayFinite()
    {
        // Confidently right: log(1 + e^-100) ~ 4e-44, so the mean is 0 to f32 precision.
        Tensor right = runForward("BCEWithLogits", {},
                                  {floats(Shape{2, 1}, {100, -100}), floats(Shape{2, 1}, {1, 0})}, {});
        QVERIFY(std::isfinite(scalar(right)));
        QCOMPARE_NEAR(scalar(right), 0.0);
        // Confidently wrong: each element costs |x| = 100.
        const Tensor logits = floats(Shape{2, 1}, {100, -100}), target = floats(Shape{2, 1}, {0, 1});
        Tensor wrong = runForward("BCEWithLogits", {}, {logits, target}, {});
        QCOMPARE_NEAR(scalar(wrong), 100.0);

        // Gradients (dloss = 1, mean over 2): d/dx = (sigmoid(x) - t) / 2 = [0.5, -0.5],
        // d/dt = -x / 2 = [-50, 50], accumulated onto 1.
        const float one = 1.0f;
        float dx[] = {1, 1}, dt[] = {1, 1};
        cpuBackend().bceWithLogitsBackward(logits.data<float>(), target.data<float>(), &one, dx, dt, 2);
        QCOMPARE_NEAR(dx[0], 1.5);
        QCOMPARE_NEAR(dx[1], 0.5);
        QCOMPARE_NEAR(dt[0], -49.0);
        QCOMPARE_NEAR(dt[1], 51.0);
    }
    void bceErrors()
    {
        QVERIFY(shapeError("BCEWithLogits", {}, {{Shape{2, 3}}, {Shape{3, 2}}}));
        QVERIFY(shapeError("BCEWithLogits", {}, {{Shape{2, 3}, DType::I64}, {Shape{2, 3}}}));
    }
};

QTEST_GUILESS_MAIN(TestOpsLoss)
#include "tst_ops_loss.moc"
