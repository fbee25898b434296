// Normalisation ops: hand-computed forwards, the running statistics, shape errors, and
// thread-count independence of the reductions. Their gradient checks are the ops' own cases
// (tst_op_registry).
#include <QtTest>

#include <barrier>
#include <cmath>
#include <random>
#include <thread>
#include <sstream>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "gradcheck.h"
#include "ops/common.h"
#include "ops/registry.h"

using namespace ts;
using namespace ts::test;

namespace {


// "" when t matches `expected` within tol * (1 + |expected|); otherwise the first mismatch.
std::string mismatch(const Tensor& t, const std::vector<float>& expected, double tol = 1e-5)
{
    if (static_cast<std::int64_t>(expected.size()) != t.numel()) return "element count differs";
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const double got = t.data<float>()[i], want = expected[i];
        if (!(std::abs(got - want) <= tol * (1 + std::abs(want)))) {
            std::ostringstream s;
            s << "element " << i << ": got " << got << ", expected " << want;
            return s.str();
        }
    }
    return {};
}

// The OpError a shape rule throws, or a default one with message "no error" when none is thrown.
OpError shapeError(const std::string& op, const Attrs& given, const Shape& input)
{
    const Op* o = OpRegistry::builtin().find(op);
    if (!o) return OpError("unknown op " + op);
    Attrs attrs;
    const std::string err = normaliseAttrs(o->attrSpecs(), given, attrs);
    if (!err.empty()) return OpError("attribute error: " + err);
    const std::vector<TensorSpec> in{{input}};
    try {
        o->inferOutput(attrs, in);
    } catch (const OpError& e) {
        return e;
    }
    return OpError("no error");
}

std::string attrError(const std::string& op, const Attrs& given)
{
    Attrs attrs;
    return normaliseAttrs(OpRegistry::builtin().find(op)->attrSpecs(), given, attrs);
}

// Two ranks on two threads for synchronised batch norm: each hands its buffer over, and both
// get slot 0 + slot 1 (rank order, as MpiCommunicator adds), without MPI.
class TwoThreadRanks {
public:
    CrossRankSum sumFor(int rank)
    {
        return [this, rank](float* data, std::size_t count) {
            slot_[rank] = data;
            turn_.arrive_and_wait();  // both buffers are there
            std::vector<float> sum(count);
            for (std::size_t i = 0; i < count; ++i) sum[i] = slot_[0][i] + slot_[1][i];
            turn_.arrive_and_wait();  // both have read both
            std::copy(sum.begin(), sum.end(), data);
        };
    }

private:
    float* slot_[2] = {nullptr, nullptr};
    std::barrier<> turn_{2};
};

std::vector<std::string> paramNames(const std::string& op, const Attrs& given, const Shape& input)
{
    const Op* o = OpRegistry::builtin().find(op);
    Attrs attrs;
    normaliseAttrs(o->attrSpecs(), given, attrs);
    const std::vector<TensorSpec> in{{input}};
    std::vector<std::string> names;
    for (const auto& p : o->params(attrs, in)) names.push_back(p.name + (p.trainable ? "" : " (buffer)"));
    return names;
}

}  // namespace

class TestOpsNorm : public QObject {
    Q_OBJECT
private slots:
    void batchNormTrainingKnownValues()
    {
        // x [2, 2, 1, 2] (n, c, h, w); each channel holds four values:
        //   channel 0: {1, 2, 4, 5}   mean 3, deviations -2 -1 1 2, biased var 10/4 = 2.5
        //   channel 1: {-1, 2, -2, 1} mean 0, deviations -1 2 -2 1, biased var 10/4 = 2.5
        // eps = 1.5, so var + eps = 4 and invstd = 0.5 in both channels.
        // gamma = [2, -1], beta = [0.5, 1]:
        //   channel 0: y = 2 * 0.5 * (x - 3) + 0.5 = x - 2.5  -> {-1.5, -0.5, 1.5, 2.5}
        //   channel 1: y = -1 * 0.5 * x + 1 = 1 - x / 2       -> {1.5, 0, 2, 0.5}
        const Tensor x = floats(Shape{2, 2, 1, 2}, {1, 2, -1, 2, 4, 5, -2, 1});
        const Tensor gamma = floats(Shape{2}, {2, -1}), beta = floats(Shape{2}, {0.5f, 1});
        Tensor runningMean = floats(Shape{2}, {1, -1}), runningVar = floats(Shape{2}, {2, 0.5f});
        std::vector<Tensor> saved;
        const Tensor y = runForward("BatchNorm2d", {{"eps", 1.5}}, {x}, {gamma, beta, runningMean, runningVar}, true,
                                    &saved);
        std::string r = mismatch(y, {-1.5f, -0.5f, 1.5f, 0, 1.5f, 2.5f, 2, 0.5f});
        QVERIFY2(r.empty(), r.c_str());
        QCOMPARE(saved.size(), std::size_t{2});
        r = mismatch(saved[0], {3, 0});
        QVERIFY2(r.empty(), ("saved mean: " + r).c_str());
        r = mismatch(saved[1], {0.5f, 0.5f});
        QVERIFY2(r.empty(), ("saved invstd: " + r).c_str());
        // momentum 0.1; the running variance takes the unbiased variance 10/3:
        //   running_mean = 0.9 * [1, -1] + 0.1 * [3, 0] = [1.2, -0.9]
        //   running_var  = 0.9 * [2, 0.5] + 0.1 * 10/3  = [1.8 + 1/3, 0.45 + 1/3] = [2.133333, 0.783333]
        r = mismatch(runningMean, {1.2f, -0.9f});
        QVERIFY2(r.empty(), ("running_mean: " + r).c_str());
        r = mismatch(runningVar, {1.8f + 1.0f / 3, 0.45f + 1.0f / 3});
        QVERIFY2(r.empty(), ("running_var: " + r).c_str());
    }
    void batchNormTrainingWithoutAffine()
    {
        // x [4, 1] = {1, 2, 4, 5}: mean 3, var 2.5, eps 1.5 -> invstd 0.5, y = (x - 3) / 2.
        const Tensor x = floats(Shape{4, 1}, {1, 2, 4, 5});
        Tensor runningMean = floats(Shape{1}, {0}), runningVar = floats(Shape{1}, {1});
        const Tensor y =
            runForward("BatchNorm1d", {{"eps", 1.5}, {"affine", false}}, {x}, {runningMean, runningVar}, true);
        const std::string r = mismatch(y, {-1, -0.5f, 0.5f, 1});
        QVERIFY2(r.empty(), r.c_str());
    }
    void batchNormEvalKnownValues()
    {
        // x [3, 2]; running_mean = [1, -2], running_var = [3, 8], eps = 1 -> invstd = [1/2, 1/3].
        // gamma = [2, 3], beta = [0, -1]:
        //   channel 0: y = 2 * (x - 1) / 2 = x - 1
        //   channel 1: y = 3 * (x + 2) / 3 - 1 = x + 1
        // The batch's own statistics play no part, and the running statistics stay put.
        const Tensor x = floats(Shape{3, 2}, {1, 1, 3, -2, -1, 4});
        const Tensor gamma = floats(Shape{2}, {2, 3}), beta = floats(Shape{2}, {0, -1});
        Tensor runningMean = floats(Shape{2}, {1, -2}), runningVar = floats(Shape{2}, {3, 8});
        const Tensor y =
            runForward("BatchNorm1d", {{"eps", 1.0}}, {x}, {gamma, beta, runningMean, runningVar}, false);
        std::string r = mismatch(y, {0, 2, 2, -1, -2, 5});
        QVERIFY2(r.empty(), r.c_str());
        r = mismatch(runningMean, {1, -2}, 0);
        QVERIFY2(r.empty(), ("running_mean changed: " + r).c_str());
        r = mismatch(runningVar, {3, 8}, 0);
        QVERIFY2(r.empty(), ("running_var changed: " + r).c_str());
    }
    void runningStatisticsConverge()
    {
        // Starting from running_mean = 0 and running_var = 1, k training steps on the same batch
        // with momentum m give running_mean = mean * (1 - (1 - m)^k) and
        // running_var = (1 - m)^k + unbiasedVar * (1 - (1 - m)^k).
        const double m = 0.25;
        const Shape shape{8, 3, 2};
        Tensor x = Tensor::empty(shape);
        std::mt19937_64 rng(5);
        normalFill(2.0)(x, rng);
        for (std::int64_t i = 0; i < x.numel(); ++i) x.data<float>()[i] += float(i % 3);  // channel offsets
        std::vector<double> mean(3, 0.0), var(3, 0.0);
        for (std::int64_t i = 0; i < x.numel(); ++i) mean[std::size_t((i / 2) % 3)] += x.data<float>()[i] / 16.0;
        for (std::int64_t i = 0; i < x.numel(); ++i) {
            const double d = x.data<float>()[i] - mean[std::size_t((i / 2) % 3)];
            var[std::size_t((i / 2) % 3)] += d * d / 15.0;
        }
        const Tensor gamma = Tensor::full(Shape{3}, 1), beta = Tensor::zeros(Shape{3});
        Tensor runningMean = Tensor::zeros(Shape{3}), runningVar = Tensor::full(Shape{3}, 1);
        for (int k = 1; k <= 12; ++k) {
            runForward("BatchNorm1d", {{"momentum", m}}, {x}, {gamma, beta, runningMean, runningVar}, true);
            const double reached = 1 - std::pow(1 - m, k);
            for (std::size_t ch = 0; ch < 3; ++ch) {
                QVERIFY(std::abs(runningMean.data<float>()[ch] - mean[ch] * reached) <= 1e-5 * (1 + std::abs(mean[ch])));
                const double wantVar = std::pow(1 - m, k) + var[ch] * reached;
                QVERIFY(std::abs(runningVar.data<float>()[ch] - wantVar) <= 1e-5 * (1 + wantVar));
            }
        }
    }
    void layerNormKnownValues()
    {
        // x [2, 4], eps = 1.5 (var + eps = 4, rstd = 0.5 in both rows):
        //   row 0: {1, 2, 4, 5}  mean 3, var 2.5, xhat = {-1, -0.5, 0.5, 1}
        //   row 1: {7, 9, 10, 6} mean 8, var 2.5, xhat = {-0.5, 0.5, 1, -1}
        // weight = [1, 2, -1, 0.5], bias = [0, 0, 1, 1]; y = weight * xhat + bias:
        //   row 0: {-1, -1, 0.5, 1.5}; row 1: {-0.5, 1, 0, 0.5}
        const Tensor x = floats(Shape{2, 4}, {1, 2, 4, 5, 7, 9, 10, 6});
        const Tensor w = floats(Shape{4}, {1, 2, -1, 0.5f}), b = floats(Shape{4}, {0, 0, 1, 1});
        std::vector<Tensor> saved;
        const Tensor y = runForward("LayerNorm", {{"eps", 1.5}}, {x}, {w, b}, true, &saved);
        std::string r = mismatch(y, {-1, -1, 0.5f, 1.5f, -0.5f, 1, 0, 0.5f});
        QVERIFY2(r.empty(), r.c_str());
        r = mismatch(saved[0], {3, 8});
        QVERIFY2(r.empty(), ("saved mean: " + r).c_str());
        r = mismatch(saved[1], {0.5f, 0.5f});
        QVERIFY2(r.empty(), ("saved rstd: " + r).c_str());
    }
    void groupNormKnownValues()
    {
        // x [2, 4, 2], 2 groups of 2 channels, eps = 1.5 (every group has var 2.5, rstd 0.5).
        // Sample 0: group 0 = channels {1, 2}, {4, 5}: mean 3, xhat {-1, -0.5}, {0.5, 1}
        //           group 1 = channels {7, 9}, {10, 6}: mean 8, xhat {-0.5, 0.5}, {1, -1}
        // Sample 1 is sample 0 negated: means -3 and -8, every xhat negated.
        // weight = [1, 2, -1, 0.5], bias = [0, 0, 1, 1] per channel:
        //   sample 0: {-1, -0.5}, {1, 2}, {1.5, 0.5}, {1.5, 0.5}
        //   sample 1: {1, 0.5}, {-1, -2}, {0.5, 1.5}, {0.5, 1.5}
        const Tensor x = floats(Shape{2, 4, 2}, {1, 2, 4, 5, 7, 9, 10, 6, -1, -2, -4, -5, -7, -9, -10, -6});
        const Tensor w = floats(Shape{4}, {1, 2, -1, 0.5f}), b = floats(Shape{4}, {0, 0, 1, 1});
        std::vector<Tensor> saved;
        const Tensor y =
            runForward("GroupNorm", {{"num_groups", std::int64_t(2)}, {"eps", 1.5}}, {x}, {w, b}, true, &saved);
        std::string r = mismatch(y, {-1, -0.5f, 1, 2, 1.5f, 0.5f, 1.5f, 0.5f, 1, 0.5f, -1, -2, 0.5f, 1.5f, 0.5f, 1.5f});
        QVERIFY2(r.empty(), r.c_str());
        r = mismatch(saved[0], {3, 8, -3, -8});
        QVERIFY2(r.empty(), ("saved mean: " + r).c_str());
        r = mismatch(saved[1], {0.5f, 0.5f, 0.5f, 0.5f});
        QVERIFY2(r.empty(), ("saved rstd: " + r).c_str());
    }
    void largeMeanKeepsPrecision()
    {
        // {1000, 1001, 1003, 1004}: mean 1002, var 2.5; eps 1.5 -> y = (x - 1002) / 2. A naive
        // E[x^2] - E[x]^2 in float32 would lose the variance to cancellation.
        const Tensor x = floats(Shape{1, 4}, {1000, 1001, 1003, 1004});
        const Tensor y = runForward("LayerNorm", {{"eps", 1.5}, {"elementwise_affine", false}}, {x}, {}, true);
        const std::string r = mismatch(y, {-1, -0.5f, 0.5f, 1});
        QVERIFY2(r.empty(), r.c_str());
    }

    void parametersAndBuffers()
    {
        using Names = std::vector<std::string>;
        QCOMPARE(paramNames("BatchNorm2d", {}, Shape{2, 3, 4, 4}),
                 (Names{"weight", "bias", "running_mean (buffer)", "running_var (buffer)"}));
        QCOMPARE(paramNames("BatchNorm1d", {{"affine", false}}, Shape{2, 3}),
                 (Names{"running_mean (buffer)", "running_var (buffer)"}));
        QCOMPARE(paramNames("LayerNorm", {{"elementwise_affine", false}}, Shape{2, 3}), Names{});
        QCOMPARE(paramNames("GroupNorm", {{"num_groups", std::int64_t(3)}}, Shape{2, 3}), (Names{"weight", "bias"}));
    }

    void shapeErrors()
    {
        OpError e = shapeError("BatchNorm1d", {{"num_features", std::int64_t(7)}}, Shape{4, 5});
        QCOMPARE(e.attrs(), std::vector<std::string>{"num_features"});
        QVERIFY2(std::string(e.what()).find("5 channels") != std::string::npos, e.what());

        e = shapeError("BatchNorm2d", {{"num_features", std::int64_t(2)}}, Shape{1, 3, 2, 2});
        QCOMPARE(e.attrs(), std::vector<std::string>{"num_features"});

        e = shapeError("BatchNorm2d", {}, Shape{4, 3});
        QVERIFY2(std::string(e.what()).find("[N, C, H, W]") != std::string::npos, e.what());
        QVERIFY2(std::string(e.what()).find("[4, 3]") != std::string::npos, e.what());

        e = shapeError("BatchNorm1d", {}, Shape{2, 3, 4, 5});
        QVERIFY2(std::string(e.what()).find("[N, C] or [N, C, L]") != std::string::npos, e.what());

        e = shapeError("GroupNorm", {{"num_groups", std::int64_t(4)}}, Shape{2, 6, 3});
        QCOMPARE(e.attrs(), std::vector<std::string>{"num_groups"});
        QVERIFY2(std::string(e.what()).find("6 channels") != std::string::npos, e.what());

        e = shapeError("GroupNorm", {{"num_groups", std::int64_t(8)}}, Shape{2, 4, 3});  // more groups than channels
        QCOMPARE(e.attrs(), std::vector<std::string>{"num_groups"});

        e = shapeError("GroupNorm", {{"num_groups", std::int64_t(1)}, {"num_channels", std::int64_t(4)}}, Shape{2, 6});
        QCOMPARE(e.attrs(), std::vector<std::string>{"num_channels"});

        e = shapeError("LayerNorm", {{"normalized_size", std::int64_t(8)}}, Shape{2, 3, 5});
        QCOMPARE(e.attrs(), std::vector<std::string>{"normalized_size"});
        QVERIFY2(std::string(e.what()).find("5") != std::string::npos, e.what());

        // Accepted shapes do not throw.
        QCOMPARE(std::string(shapeError("GroupNorm", {{"num_groups", std::int64_t(3)}}, Shape{2, 6, 3}).what()),
                 std::string("no error"));
        QCOMPARE(std::string(shapeError("BatchNorm1d", {{"num_features", std::int64_t(3)}}, Shape{2, 3, 7}).what()),
                 std::string("no error"));
    }
    void attributeChecks()
    {
        QVERIFY(attrError("BatchNorm2d", {{"eps", 0.0}}).find("eps") != std::string::npos);
        QVERIFY(attrError("LayerNorm", {{"eps", -1e-5}}).find("eps") != std::string::npos);
        QVERIFY(attrError("BatchNorm1d", {{"momentum", 1.5}}).find("momentum") != std::string::npos);
        QVERIFY(attrError("GroupNorm", {}).find("num_groups") != std::string::npos);  // required
        QVERIFY(attrError("GroupNorm", {{"num_groups", std::int64_t(0)}}).find("num_groups") != std::string::npos);
        QCOMPARE(attrError("BatchNorm1d", {{"momentum", 1.0}}), std::string());
    }

    void batchNormAcrossTwoRanksIsTheWholeBatchs()
    {
        // x [8, 3, 50] split into two shards of 4 samples, each normalised on its own thread with
        // the statistics of both: y, the saved and running statistics and dx must be the whole
        // batch's, dgamma and dbeta the shares that add up to the whole batch's. Off-centre data
        // (mean 3, std 0.5) so a statistic taken from one shard shows. Tolerance 2e-6 relative:
        // the float results of one process's one-pass statistics and the two-pass global ones
        // differ by float rounding only.
        const std::int64_t n = 8, c = 3, inner = 50, half = n / 2, shard = half * c * inner;
        Tensor x = Tensor::empty(Shape{n, c, inner}), dy = Tensor::empty(Shape{n, c, inner});
        std::mt19937_64 rng(5);
        normalFill(0.5)(x, rng);
        for (std::int64_t i = 0; i < x.numel(); ++i) x.data<float>()[i] += 3.0f;
        normalFill()(dy, rng);
        const Tensor gamma = floats(Shape{c}, {0.5f, 1.5f, -1}), beta = floats(Shape{c}, {0.1f, 0, -0.2f});
        struct Side {
            Tensor y, dx, mean, invStd, runMean, runVar, dgamma, dbeta;
        };
        auto side = [&](std::int64_t rows) {
            return Side{Tensor::zeros(Shape{rows, c, inner}), Tensor::zeros(Shape{rows, c, inner}), Tensor::zeros(Shape{c}),
                        Tensor::zeros(Shape{c}), Tensor::zeros(Shape{c}), Tensor::full(Shape{c}, 1), Tensor::zeros(Shape{c}),
                        Tensor::zeros(Shape{c})};
        };
        auto run = [&](Side& s, std::int64_t first, std::int64_t rows, const CrossRankSum* across) {
            const float* xs = f32(x) + first * c * inner;
            const float* dys = f32(dy) + first * c * inner;
            cpuBackend().batchNormForwardTraining(xs, f32(gamma), f32(beta), f32(s.y), f32(s.mean), f32(s.invStd),
                                                  f32(s.runMean), f32(s.runVar), rows, c, inner, 0.1f, 1e-5f, across);
            cpuBackend().batchNormBackward(xs, f32(gamma), dys, f32(s.mean), f32(s.invStd), f32(s.dx), f32(s.dgamma),
                                           f32(s.dbeta), rows, c, inner, across);
        };
        Side whole = side(n), rank0 = side(half), rank1 = side(half);
        run(whole, 0, n, nullptr);
        TwoThreadRanks ranks;
        const CrossRankSum sum0 = ranks.sumFor(0), sum1 = ranks.sumFor(1);
        std::thread other([&] { run(rank1, half, half, &sum1); });
        run(rank0, 0, half, &sum0);
        other.join();

        auto values = [](const Tensor& t, std::int64_t from = 0, std::int64_t count = -1) {
            const float* p = t.data<float>() + from;
            return std::vector<float>(p, p + (count < 0 ? t.numel() : count));
        };
        for (const auto& [name, r] : {std::pair{"rank 0", &rank0}, std::pair{"rank 1", &rank1}}) {
            const std::int64_t from = (r == &rank0 ? 0 : shard);
            for (const auto& [what, got, want] :
                 {std::tuple{"y", &r->y, values(whole.y, from, shard)}, std::tuple{"dx", &r->dx, values(whole.dx, from, shard)},
                  std::tuple{"saved mean", &r->mean, values(whole.mean)},
                  std::tuple{"saved invstd", &r->invStd, values(whole.invStd)},
                  std::tuple{"running mean", &r->runMean, values(whole.runMean)},
                  std::tuple{"running var", &r->runVar, values(whole.runVar)}}) {
                const std::string m = mismatch(*got, want, 2e-6);
                QVERIFY2(m.empty(), (std::string(name) + " " + what + ": " + m).c_str());
            }
        }
        QCOMPARE(values(rank0.mean), values(rank1.mean));  // the same bits on both ranks
        QCOMPARE(values(rank0.invStd), values(rank1.invStd));
        for (std::int64_t ch = 0; ch < c; ++ch) {
            QVERIFY(std::abs(rank0.dgamma.data<float>()[ch] + rank1.dgamma.data<float>()[ch] - whole.dgamma.data<float>()[ch]) <=
                    2e-5 * (1 + std::abs(whole.dgamma.data<float>()[ch])));
            QVERIFY(std::abs(rank0.dbeta.data<float>()[ch] + rank1.dbeta.data<float>()[ch] - whole.dbeta.data<float>()[ch]) <=
                    2e-5 * (1 + std::abs(whole.dbeta.data<float>()[ch])));
        }
        // A shard's own statistics are not the whole batch's: the check above could fail.
        Side alone = side(half);
        run(alone, 0, half, nullptr);
        QVERIFY(!mismatch(alone.mean, values(whole.mean), 1e-4).empty());
    }
    void reductionsIndependentOfThreadCount()
    {
#ifndef _OPENMP
        QSKIP("built without OpenMP");
#else
        // Large enough that both channel-parallel and group-parallel loops split across threads.
        const std::int64_t n = 4, c = 6, inner = 4096, groups = 3;
        Tensor x = Tensor::empty(Shape{n, c, inner}), dy = Tensor::empty(Shape{n, c, inner});
        std::mt19937_64 rng(11);
        normalFill()(x, rng);
        normalFill()(dy, rng);
        const Tensor gamma = floats(Shape{c}, {0.5f, 1, 1.5f, -1, 2, 0.25f}), beta = Tensor::zeros(Shape{c});
        struct Result {
            std::vector<float> y, dx, dgamma, dbeta, stats;
        };
        auto run = [&](int threads, bool batchNorm) {
            const int before = omp_get_max_threads();
            omp_set_num_threads(threads);
            Backend& b = cpuBackend();
            Tensor y = Tensor::zeros(x.shape()), dx = Tensor::zeros(x.shape());
            Tensor dgamma = Tensor::zeros(Shape{c}), dbeta = Tensor::zeros(Shape{c});
            const std::int64_t statCount = batchNorm ? c : n * groups;
            Tensor m = Tensor::zeros(Shape{statCount}), s = Tensor::zeros(Shape{statCount});
            Tensor rm = Tensor::zeros(Shape{c}), rv = Tensor::full(Shape{c}, 1);
            if (batchNorm) {
                b.batchNormForwardTraining(f32(x), f32(gamma), f32(beta), f32(y), f32(m), f32(s), f32(rm), f32(rv), n,
                                           c, inner, 0.1f, 1e-5f, nullptr);
                b.batchNormBackward(f32(x), f32(gamma), f32(dy), f32(m), f32(s), f32(dx), f32(dgamma), f32(dbeta), n,
                                    c, inner, nullptr);
            } else {
                b.groupNormForward(f32(x), f32(gamma), f32(beta), f32(y), f32(m), f32(s), n, c, inner, groups, 1e-5f);
                b.groupNormBackward(f32(x), f32(gamma), f32(dy), f32(m), f32(s), f32(dx), f32(dgamma), f32(dbeta), n,
                                    c, inner, groups);
            }
            omp_set_num_threads(before);
            auto vec = [](const Tensor& t) { return std::vector<float>(t.data<float>(), t.data<float>() + t.numel()); };
            Result r{vec(y), vec(dx), vec(dgamma), vec(dbeta), vec(m)};
            const auto sv = vec(s), rmv = vec(rm), rvv = vec(rv);
            r.stats.insert(r.stats.end(), sv.begin(), sv.end());
            r.stats.insert(r.stats.end(), rmv.begin(), rmv.end());
            r.stats.insert(r.stats.end(), rvv.begin(), rvv.end());
            return r;
        };
        for (bool batchNorm : {true, false}) {
            const Result one = run(1, batchNorm), three = run(3, batchNorm);
            QVERIFY(one.y == three.y);  // bitwise
            QVERIFY(one.dx == three.dx);
            QVERIFY(one.dgamma == three.dgamma);
            QVERIFY(one.dbeta == three.dbeta);
            QVERIFY(one.stats == three.stats);
        }
#endif
    }
};

QTEST_GUILESS_MAIN(TestOpsNorm)
#include "tst_ops_norm.moc"
