// Batch and group normalisation on the CPU.
//
// Statistics and parameter gradients are summed in double, each channel (or each
// (sample, group)) over its elements in one fixed order, so results do not depend on the
// thread count. Mean and variance come from one pass over x shifted by its first element:
// in double, sum(d) and sum(d^2) of the shifted values lose nothing that matters for
// float32 data, and the shift removes the cancellation of E[x^2] - E[x]^2 when |mean| >> std.
// Synchronised batch norm (across ranks, cross_rank.h) takes two passes instead, the sum of x
// and then of (x - mean)^2, since a shift taken from one rank's data would differ on another.
//
// A null gradient pointer (an input that takes no gradient, a frozen parameter) is skipped.
#include <algorithm>
#include <cmath>
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

// Per-channel sums of term(sample, ch, index) -> Sums over x viewed as [n, c, inner]. Threads take
// blocks of channels; inside a block samples run outermost so memory is read in order, and
// every channel still sums over (sample, inner) in the same order however it is split.
template <class Term>
std::vector<Sums> channelSums(std::int64_t n, std::int64_t c, std::int64_t inner, Term term)
{
    std::vector<Sums> out(static_cast<std::size_t>(c));
    cpu::parallelFor(c, itemGrain(n * inner), [&](std::int64_t c0, std::int64_t c1) {
        for (std::int64_t o = 0; o < n; ++o)
            for (std::int64_t ch = c0; ch < c1; ++ch) {
                // Four running sums per row, not one: a single chain of double adds waits on
                // each add's latency (it was most of batch norm's time). Fixed by the shape.
                const std::int64_t base = (o * c + ch) * inner;
                double a[4] = {0, 0, 0, 0}, b[4] = {0, 0, 0, 0};
                std::int64_t i = 0;
                for (; i + 4 <= inner; i += 4)
                    for (int k = 0; k < 4; ++k) {
                        const Sums t = term(o, ch, base + i + k);
                        a[k] += t.a;
                        b[k] += t.b;
                    }
                for (; i < inner; ++i) {
                    const Sums t = term(o, ch, base + i);
                    a[0] += t.a;
                    b[0] += t.b;
                }
                Sums& s = out[static_cast<std::size_t>(ch)];
                s.a += (a[0] + a[1]) + (a[2] + a[3]);
                s.b += (b[0] + b[1]) + (b[2] + b[3]);
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

// y = (x - mean) * invstd * gamma + beta per channel.
void applyBatchNorm(const float* x, const float* gamma, const float* beta, const float* mean, const float* invStd,
                    float* y, std::int64_t n, std::int64_t c, std::int64_t inner)
{
    forEachRow(n, c, inner, [&](std::int64_t r, std::int64_t ch) {
        const float m = mean[ch], scale = invStd[ch] * gamma[ch], shift = beta[ch];
        const float* xr = x + r * inner;
        float* yr = y + r * inner;
        for (std::int64_t i = 0; i < inner; ++i) yr[i] = (xr[i] - m) * scale + shift;
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

}  // namespace

void CpuBackend::batchNormForwardTraining(const float* x, const float* gamma, const float* beta, float* y,
                                          float* saveMean, float* saveInvStd, float* runningMean, float* runningVar,
                                          std::int64_t n, std::int64_t c, std::int64_t inner, float momentum, float eps,
                                          const CrossRankSum* acrossRanks)
{
    if (acrossRanks) {
        finishBatchNormStatistics(globalMoments(x, n, c, inner, *acrossRanks), momentum, eps, saveMean, saveInvStd,
                                  runningMean, runningVar);
        applyBatchNorm(x, gamma, beta, saveMean, saveInvStd, y, n, c, inner);
        return;
    }
    const std::int64_t count = n * inner;
    const auto sums = channelSums(n, c, inner, [&](std::int64_t, std::int64_t ch, std::int64_t i) {
        const double d = double(x[i]) - double(x[ch * inner]);
        return Sums{d, d * d};
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
    applyBatchNorm(x, gamma, beta, saveMean, saveInvStd, y, n, c, inner);
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
    // a: sum(dy), b: sum(dy * xhat) per channel.
    auto sums = channelSums(n, c, inner, [&](std::int64_t, std::int64_t ch, std::int64_t i) {
        const double xhat = (double(x[i]) - saveMean[ch]) * saveInvStd[ch];
        return Sums{dy[i], double(dy[i]) * xhat};
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
            const float* dyr = dy + r * inner;
            float* dxr = dx + r * inner;
            for (std::int64_t i = 0; i < inner; ++i) {
                const float xhat = (xr[i] - mean) * invstd;
                cpu::putGrad(mode, dxr[i], scale * (dyr[i] - meanDy - xhat * meanDyXhat));
            }
        });
    });
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
