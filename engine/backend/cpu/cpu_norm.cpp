// Batch and group normalisation on the CPU.
//
// Statistics and parameter gradients are summed each channel (or each (sample, group)) over
// its elements in one fixed order, so results do not depend on the thread count; batch norm's
// in training within a row in float (8 running sums, vectorised) and across rows in double, the
// rest in double. Mean and variance come from one pass over x shifted by its first element: the
// shift removes the cancellation of E[x^2] - E[x]^2 when |mean| >> std, and a row's float sums
// (a feature map, hundreds of values) err by ~1e-7 relative, far below what training notices.
// Synchronised batch norm (across ranks, cross_rank.h) takes two passes instead, the sum of x
// and then of (x - mean)^2, since a shift taken from one rank's data would differ on another.
//
// A null gradient pointer (an input that takes no gradient, a frozen parameter) is skipped.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/grad_write.h"
#include "backend/cross_rank.h"
#include "backend/cpu/parallel.h"

namespace ts {

namespace {

constexpr std::int64_t kGrain = 1 << 14;  // elements per thread worth the fork

std::int64_t itemGrain(std::int64_t elementsPerItem)
{
    return std::max<std::int64_t>(1, kGrain / std::max<std::int64_t>(elementsPerItem, 1));
}

struct Sums {
    double a = 0, b = 0;
};
// A term summed in float within a row (8 running sums, which vectorise), in double across rows:
// for batch norm's own statistics and gradients, whose rows are at most a feature map long.
struct FloatSums {
    float a = 0, b = 0;
};

// Per-channel sums of term(sample, ch, index) -> Sums or FloatSums over x viewed as [n, c, inner].
// Threads take blocks of channels; inside a block samples run outermost so memory is read in
// order, and every channel still sums over (sample, inner) in the same order however it is split.
template <class Term>
std::vector<Sums> channelSums(std::int64_t n, std::int64_t c, std::int64_t inner, Term term)
{
    // Several running sums per row, not one: a single chain of adds waits on each add's latency
    // (it was most of batch norm's time). Their number is fixed by the type, not the threads.
    using Acc = decltype(term(0, 0, 0).a);
    constexpr int kLanes = sizeof(Acc) == sizeof(float) ? 8 : 4;
    std::vector<Sums> out(static_cast<std::size_t>(c));
    cpu::parallelFor(c, itemGrain(n * inner), [&](std::int64_t c0, std::int64_t c1) {
        for (std::int64_t o = 0; o < n; ++o)
            for (std::int64_t ch = c0; ch < c1; ++ch) {
                const std::int64_t base = (o * c + ch) * inner;
                Acc a[kLanes] = {}, b[kLanes] = {};
                std::int64_t i = 0;
                for (; i + kLanes <= inner; i += kLanes)
                    for (int k = 0; k < kLanes; ++k) {
                        const auto t = term(o, ch, base + i + k);
                        a[k] += t.a;
                        b[k] += t.b;
                    }
                for (; i < inner; ++i) {
                    const auto t = term(o, ch, base + i);
                    a[0] += t.a;
                    b[0] += t.b;
                }
                Sums& s = out[static_cast<std::size_t>(ch)];
                s.a += cpu::pairwiseSum(a);
                s.b += cpu::pairwiseSum(b);
            }
    });
    return out;
}

// fn(row, ch) for every row of x viewed as [n * c rows, inner], in parallel.
template <class Fn> void forEachRow(std::int64_t n, std::int64_t c, std::int64_t inner, Fn fn)
{
    cpu::parallelFor(n * c, itemGrain(inner), [&](std::int64_t r0, std::int64_t r1) {
        for (std::int64_t r = r0; r < r1; ++r) fn(r, r % c);
    });
}

struct Moments {
    double mean = 0, var = 0;  // biased variance
};

// Mean and biased variance of `count` values from shifted sums (shift = the first value).
Moments momentsFromShifted(double shift, const Sums& s, std::int64_t count)
{
    const double dmean = s.a / double(count);
    return {shift + dmean, std::max(0.0, s.b / double(count) - dmean * dmean)};
}

// Host buffers go through the cross-rank sum as they are.
std::function<void(std::vector<float>&)> crossRankExchange(const CrossRankSum& sum)
{
    return [&sum](std::vector<float>& v) { sum(v.data(), v.size()); };
}

// Batch norm's output from its statistics. The fused backward recomputes it with this same
// expression (bit for bit) to find where a following ReLU passed the gradient.
inline float normalised(float x, float mean, float invStd, float gamma, float beta)
{
    return (x - mean) * (invStd * gamma) + beta;
}

// y = (x - mean) * invstd * gamma + beta per channel, and r = max(y, 0) where r is given.
void applyBatchNorm(const float* x, const float* gamma, const float* beta, const float* mean, const float* invStd,
                    float* y, float* relu, std::int64_t n, std::int64_t c, std::int64_t inner)
{
    forEachRow(n, c, inner, [&](std::int64_t r, std::int64_t ch) {
        const float m = mean[ch], s = invStd[ch], g = gamma[ch], b = beta[ch];
        const float* xr = x + r * inner;
        float* yr = y + r * inner;
        if (!relu) {
            for (std::int64_t i = 0; i < inner; ++i) yr[i] = normalised(xr[i], m, s, g, b);
            return;
        }
        float* rr = relu + r * inner;
        for (std::int64_t i = 0; i < inner; ++i) {
            const float v = normalised(xr[i], m, s, g, b);
            yr[i] = v;
            rr[i] = cpu::relu(v);
        }
    });
}

// The global batch's moments in two passes (a shift would differ per rank): the sum of x over
// the ranks gives the mean, then the sum of (x - mean)^2 the variance. Count travels along.
GlobalMoments globalMoments(const float* x, std::int64_t n, std::int64_t c, std::int64_t inner,
                            const CrossRankSum& sum)
{
    const auto meanOf = [&](const std::vector<Sums>& s) {
        std::vector<double> local(s.size());
        for (std::size_t ch = 0; ch < s.size(); ++ch) local[ch] = s[ch].a;
        return meanOverRanks(local, double(n * inner), crossRankExchange(sum));
    };
    GlobalMoments m;
    MeansOverRanks first = meanOf(channelSums(n, c, inner, [&](std::int64_t, std::int64_t, std::int64_t i) {
        return Sums{double(x[i]), 0};
    }));
    m.mean = std::move(first.mean);
    m.count = first.count;
    m.var = meanOf(channelSums(n, c, inner, [&](std::int64_t, std::int64_t ch, std::int64_t i) {
                const double d = double(x[i]) - m.mean[static_cast<std::size_t>(ch)];
                return Sums{d * d, 0};
            })).mean;
    return m;
}

// The batch's statistics into saveMean / saveInvStd and the running estimates.
void trainingStatistics(const float* x, float* saveMean, float* saveInvStd, float* runningMean, float* runningVar,
                        std::int64_t n, std::int64_t c, std::int64_t inner, float momentum, float eps,
                        const CrossRankSum* acrossRanks)
{
    if (acrossRanks) {
        finishBatchNormStatistics(globalMoments(x, n, c, inner, *acrossRanks), momentum, eps, saveMean, saveInvStd,
                                  runningMean, runningVar);
        return;
    }
    const std::int64_t count = n * inner;
    const auto sums = channelSums(n, c, inner, [&](std::int64_t, std::int64_t ch, std::int64_t i) {
        const float d = x[i] - x[ch * inner];
        return FloatSums{d, d * d};
    });
    // Unbiased variance for the running estimate; one value per channel has none, so the
    // batch's (zero) variance is used rather than dividing by zero.
    const double unbias = count > 1 ? double(count) / double(count - 1) : 1.0;
    for (std::int64_t ch = 0; ch < c; ++ch) {
        const Moments m = momentsFromShifted(x[ch * inner], sums[static_cast<std::size_t>(ch)], count);
        saveMean[ch] = static_cast<float>(m.mean);
        saveInvStd[ch] = static_cast<float>(1.0 / std::sqrt(m.var + double(eps)));
        runningMean[ch] = static_cast<float>((1.0 - momentum) * runningMean[ch] + double(momentum) * m.mean);
        runningVar[ch] = static_cast<float>((1.0 - momentum) * runningVar[ch] + double(momentum) * m.var * unbias);
    }
}

// Backward in training mode with the output gradient at element i of channel ch = grad(i, ch).
template <class Grad>
void trainingBackward(const float* x, const float* gamma, Grad grad, const float* saveMean, const float* saveInvStd,
                      float* dx, float* dgamma, float* dbeta, std::int64_t n, std::int64_t c, std::int64_t inner,
                      const CrossRankSum* acrossRanks, GradWrite write)
{
    // a: sum(dy), b: sum(dy * xhat) per channel.
    auto sums = channelSums(n, c, inner, [&](std::int64_t, std::int64_t ch, std::int64_t i) {
        const float dy = grad(i, ch);
        return FloatSums{dy, dy * ((x[i] - saveMean[ch]) * saveInvStd[ch])};
    });
    for (std::int64_t ch = 0; ch < c; ++ch) {
        if (dgamma) dgamma[ch] += static_cast<float>(sums[static_cast<std::size_t>(ch)].b);
        if (dbeta) dbeta[ch] += static_cast<float>(sums[static_cast<std::size_t>(ch)].a);
    }
    if (!dx) return;  // the same on every rank (one graph), so no rank waits for this exchange
    double count = double(n * inner);
    if (acrossRanks) {  // dx needs the global batch's sums: the mean normalised over all of it
        std::vector<double> local(2 * sums.size() + 1);
        for (std::size_t ch = 0; ch < sums.size(); ++ch) local[2 * ch] = sums[ch].a, local[2 * ch + 1] = sums[ch].b;
        local.back() = count;
        const std::vector<double> global =
            sumOverRanks(local, crossRankExchange(*acrossRanks));
        for (std::size_t ch = 0; ch < sums.size(); ++ch) sums[ch] = {global[2 * ch], global[2 * ch + 1]};
        count = global.back();
    }
    // dx = gamma * invstd * (dy - mean(dy) - xhat * mean(dy * xhat))
    cpu::withGradWrite(write, [&](auto mode) {
        forEachRow(n, c, inner, [&](std::int64_t r, std::int64_t ch) {
            const Sums& s = sums[static_cast<std::size_t>(ch)];
            const float mean = saveMean[ch], invstd = saveInvStd[ch], scale = gamma[ch] * invstd;
            const float meanDy = static_cast<float>(s.a / count), meanDyXhat = static_cast<float>(s.b / count);
            const float* xr = x + r * inner;
            float* dxr = dx + r * inner;
            for (std::int64_t i = 0; i < inner; ++i) {
                const float xhat = (xr[i] - mean) * invstd;
                cpu::putGrad(mode, dxr[i], scale * (grad(r * inner + i, ch) - meanDy - xhat * meanDyXhat));
            }
        });
    });
}

}  // namespace

void CpuBackend::batchNormForwardTraining(const float* x, const float* gamma, const float* beta, float* y,
                                          float* saveMean, float* saveInvStd, float* runningMean, float* runningVar,
                                          std::int64_t n, std::int64_t c, std::int64_t inner, float momentum, float eps,
                                          const CrossRankSum* acrossRanks)
{
    trainingStatistics(x, saveMean, saveInvStd, runningMean, runningVar, n, c, inner, momentum, eps, acrossRanks);
    applyBatchNorm(x, gamma, beta, saveMean, saveInvStd, y, nullptr, n, c, inner);
}

// One pass writes both outputs (the ReLU's would otherwise read y back).
void CpuBackend::batchNormReluForwardTraining(const float* x, const float* gamma, const float* beta, float* y,
                                              float* r, float* saveMean, float* saveInvStd, float* runningMean,
                                              float* runningVar, std::int64_t n, std::int64_t c, std::int64_t inner,
                                              float momentum, float eps, const CrossRankSum* acrossRanks)
{
    trainingStatistics(x, saveMean, saveInvStd, runningMean, runningVar, n, c, inner, momentum, eps, acrossRanks);
    applyBatchNorm(x, gamma, beta, saveMean, saveInvStd, y, r, n, c, inner);
}

void CpuBackend::batchNormForwardInference(const float* x, const float* gamma, const float* beta,
                                           const float* runningMean, const float* runningVar, float* y, std::int64_t n,
                                           std::int64_t c, std::int64_t inner, float eps)
{
    forEachRow(n, c, inner, [&](std::int64_t r, std::int64_t ch) {
        const float mean = runningMean[ch], shift = beta[ch];
        const float scale = static_cast<float>(double(gamma[ch]) / std::sqrt(double(runningVar[ch]) + double(eps)));
        const float* xr = x + r * inner;
        float* yr = y + r * inner;
        for (std::int64_t i = 0; i < inner; ++i) yr[i] = (xr[i] - mean) * scale + shift;
    });
}

void CpuBackend::batchNormBackward(const float* x, const float* gamma, const float* dy, const float* saveMean,
                                   const float* saveInvStd, float* dx, float* dgamma, float* dbeta, std::int64_t n,
                                   std::int64_t c, std::int64_t inner, const CrossRankSum* acrossRanks,
                                   GradWrite write)
{
    trainingBackward(x, gamma, [dy](std::int64_t i, std::int64_t) { return dy[i]; }, saveMean, saveInvStd, dx, dgamma,
                     dbeta, n, c, inner, acrossRanks, write);
}

// The ReLU's backward inside both passes: where the recomputed y is not above zero the gradient
// stops (its rule, NaN included), so neither y, r nor the scratch dy is read or written.
void CpuBackend::batchNormReluBackward(const float* x, const float* gamma, const float* beta, const float*, const float*,
                                       const float* dr, float*, const float* saveMean, const float* saveInvStd,
                                       float* dx, float* dgamma, float* dbeta, std::int64_t n, std::int64_t c,
                                       std::int64_t inner, const CrossRankSum* acrossRanks, GradWrite write)
{
    const auto passed = [=](std::int64_t i, std::int64_t ch) {
        // As a mask, not a select: GCC branches on a select here, which mispredicts on real
        // activations (10x slower). +0 where stopped, exactly as the select gives.
        const std::uint32_t keep = -std::uint32_t(normalised(x[i], saveMean[ch], saveInvStd[ch], gamma[ch], beta[ch]) > 0.0f);
        return std::bit_cast<float>(std::bit_cast<std::uint32_t>(dr[i]) & keep);
    };
    trainingBackward(x, gamma, passed, saveMean, saveInvStd, dx, dgamma, dbeta, n, c, inner, acrossRanks, write);
}

void CpuBackend::batchNormBackwardInference(const float* x, const float* gamma, const float* dy,
                                            const float* runningMean, const float* runningVar, float* dx, float* dgamma,
                                            float* dbeta, std::int64_t n, std::int64_t c, std::int64_t inner, float eps)
{
    std::vector<double> invstd(static_cast<std::size_t>(c));
    for (std::int64_t ch = 0; ch < c; ++ch)
        invstd[static_cast<std::size_t>(ch)] = 1.0 / std::sqrt(double(runningVar[ch]) + double(eps));
    if (dgamma || dbeta) {
        const auto sums = channelSums(n, c, inner, [&](std::int64_t, std::int64_t ch, std::int64_t i) {
            const double xhat = (double(x[i]) - runningMean[ch]) * invstd[static_cast<std::size_t>(ch)];
            return Sums{dy[i], double(dy[i]) * xhat};
        });
        for (std::int64_t ch = 0; ch < c; ++ch) {
            if (dgamma) dgamma[ch] += static_cast<float>(sums[static_cast<std::size_t>(ch)].b);
            if (dbeta) dbeta[ch] += static_cast<float>(sums[static_cast<std::size_t>(ch)].a);
        }
    }
    if (!dx) return;
    // The statistics are constants: the layer is y = x * scale + shift per channel.
    forEachRow(n, c, inner, [&](std::int64_t r, std::int64_t ch) {
        const float scale = static_cast<float>(gamma[ch] * invstd[static_cast<std::size_t>(ch)]);
        const float* dyr = dy + r * inner;
        float* dxr = dx + r * inner;
        for (std::int64_t i = 0; i < inner; ++i) dxr[i] += scale * dyr[i];
    });
}

void CpuBackend::groupNormForward(const float* x, const float* gamma, const float* beta, float* y, float* mean,
                                  float* rstd, std::int64_t n, std::int64_t c, std::int64_t inner, std::int64_t groups,
                                  float eps)
{
    // Each (sample, group) is one contiguous block of (c / groups) * inner values.
    const std::int64_t perGroup = c / groups, count = perGroup * inner;
    cpu::parallelFor(n * groups, itemGrain(count), [&](std::int64_t g0, std::int64_t g1) {
        for (std::int64_t g = g0; g < g1; ++g) {
            const float* xg = x + g * count;
            Sums s;
            for (std::int64_t i = 0; i < count; ++i) {
                const double d = double(xg[i]) - double(xg[0]);
                s.a += d;
                s.b += d * d;
            }
            const Moments m = momentsFromShifted(xg[0], s, count);
            const float mu = static_cast<float>(m.mean), r = static_cast<float>(1.0 / std::sqrt(m.var + double(eps)));
            mean[g] = mu;
            rstd[g] = r;
            const std::int64_t firstChannel = (g % groups) * perGroup;
            float* yg = y + g * count;
            for (std::int64_t k = 0; k < perGroup; ++k) {
                const std::int64_t ch = firstChannel + k;
                const float scale = r * gamma[ch], shift = beta[ch];
                for (std::int64_t i = k * inner; i < (k + 1) * inner; ++i) yg[i] = (xg[i] - mu) * scale + shift;
            }
        }
    });
}

void CpuBackend::groupNormBackward(const float* x, const float* gamma, const float* dy, const float* mean,
                                   const float* rstd, float* dx, float* dgamma, float* dbeta, std::int64_t n,
                                   std::int64_t c, std::int64_t inner, std::int64_t groups)
{
    const std::int64_t perGroup = c / groups, count = perGroup * inner;
    if (dgamma || dbeta) {
        // Per channel, over every sample: channels outermost keeps the order fixed.
        const auto sums = channelSums(n, c, inner, [&](std::int64_t o, std::int64_t ch, std::int64_t i) {
            const std::int64_t g = o * groups + ch / perGroup;
            const double xhat = (double(x[i]) - mean[g]) * rstd[g];
            return Sums{dy[i], double(dy[i]) * xhat};
        });
        for (std::int64_t ch = 0; ch < c; ++ch) {
            if (dgamma) dgamma[ch] += static_cast<float>(sums[static_cast<std::size_t>(ch)].b);
            if (dbeta) dbeta[ch] += static_cast<float>(sums[static_cast<std::size_t>(ch)].a);
        }
    }
    if (!dx) return;
    // With h = dy * gamma (the gradient reaching xhat):
    // dx = rstd * (h - mean(h) - xhat * mean(h * xhat)), means over the group.
    cpu::parallelFor(n * groups, itemGrain(count), [&](std::int64_t g0, std::int64_t g1) {
        for (std::int64_t g = g0; g < g1; ++g) {
            const float* xg = x + g * count;
            const float* dyg = dy + g * count;
            float* dxg = dx + g * count;
            const float mu = mean[g], r = rstd[g];
            const std::int64_t firstChannel = (g % groups) * perGroup;
            Sums s;  // a: sum(h), b: sum(h * xhat)
            for (std::int64_t k = 0; k < perGroup; ++k) {
                const double gam = gamma[firstChannel + k];
                for (std::int64_t i = k * inner; i < (k + 1) * inner; ++i) {
                    const double h = dyg[i] * gam;
                    s.a += h;
                    s.b += h * ((double(xg[i]) - mu) * r);
                }
            }
            const float meanH = static_cast<float>(s.a / double(count)), meanHXhat = static_cast<float>(s.b / double(count));
            for (std::int64_t k = 0; k < perGroup; ++k) {
                const float gam = gamma[firstChannel + k];
                for (std::int64_t i = k * inner; i < (k + 1) * inner; ++i) {
                    const float xhat = (xg[i] - mu) * r;
                    dxg[i] += r * (dyg[i] * gam - meanH - xhat * meanHXhat);
                }
            }
        }
    });
}

}  // namespace ts
