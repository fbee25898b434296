// Optimizer updates: one pass over the flat buffers per step, each element independent,
// so the result does not depend on the thread count.
#include <cmath>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/parallel.h"

namespace ts {

namespace {
constexpr std::int64_t kGrain = 1 << 14;
}

void CpuBackend::sgdUpdate(float* param, const float* grad, float* momentumBuf, std::int64_t n, double lr,
                           double momentum, bool nesterov, double weightDecay)
{
    const bool useMomentum = momentum != 0.0;
    const float mu = static_cast<float>(momentum), wd = static_cast<float>(weightDecay), step = static_cast<float>(lr);
    cpu::parallelFor(n, kGrain, [&](std::int64_t i0, std::int64_t i1) {
        for (std::int64_t i = i0; i < i1; ++i) {
            float g = grad[i] + wd * param[i];
            if (useMomentum) {
                const float buf = mu * momentumBuf[i] + g;
                momentumBuf[i] = buf;
                g = nesterov ? g + mu * buf : buf;
            }
            param[i] -= step * g;
        }
    });
}

namespace {

// Adam's constants for one step, by value: a lambda capturing them by reference reads them
// through pointers that every float store might change, so GCC reloads them per element and
// vectorises nothing; with plain values and restrict pointers the loop runs 4 lanes wide.
struct AdamStep {
    float decay, l2, b1, c1, b2, c2, stepSize, invBc2Sqrt, eps;
};

void adamRange(float* __restrict param, const float* __restrict grad, float* __restrict m, float* __restrict v,
               std::int64_t n, const AdamStep s)
{
    for (std::int64_t i = 0; i < n; ++i) {
        const float p = param[i] * s.decay;
        const float g = grad[i] + s.l2 * p;
        const float mi = s.b1 * m[i] + s.c1 * g;
        const float vi = s.b2 * v[i] + s.c2 * g * g;
        m[i] = mi;
        v[i] = vi;
        param[i] = p - s.stepSize * mi / (std::sqrt(vi) * s.invBc2Sqrt + s.eps);
    }
}

}  // namespace

void CpuBackend::adamUpdate(float* param, const float* grad, float* m, float* v, std::int64_t n, double lr,
                            double beta1, double beta2, double eps, double weightDecay, bool decoupled,
                            std::int64_t step)
{
    // Bias corrections in double on the host, as torch does: folded into the step size and
    // into a divisor of sqrt(v), so the loop is a short chain of f32 multiply-adds.
    const double bc1 = 1.0 - std::pow(beta1, double(step));
    const double bc2 = 1.0 - std::pow(beta2, double(step));
    AdamStep s;
    s.stepSize = static_cast<float>(lr / bc1);
    s.invBc2Sqrt = static_cast<float>(1.0 / std::sqrt(bc2));
    s.b1 = static_cast<float>(beta1);
    s.b2 = static_cast<float>(beta2);
    s.c1 = static_cast<float>(1.0 - beta1);
    s.c2 = static_cast<float>(1.0 - beta2);
    s.eps = static_cast<float>(eps);
    s.decay = static_cast<float>(decoupled ? 1.0 - lr * weightDecay : 1.0);
    s.l2 = static_cast<float>(decoupled ? 0.0 : weightDecay);
    cpu::parallelFor(n, kGrain, [&](std::int64_t i0, std::int64_t i1) {
        adamRange(param + i0, grad + i0, m + i0, v + i0, i1 - i0, s);
    });
}

namespace {

struct RmspropStep {  // by value, as AdamStep
    float a, c, eps, wd, mu, step;
};

void rmspropRange(float* __restrict param, const float* __restrict grad, float* __restrict squareAvg,
                  float* __restrict momentumBuf, std::int64_t n, const RmspropStep s)
{
    for (std::int64_t i = 0; i < n; ++i) {
        const float g = grad[i] + s.wd * param[i];
        const float sa = s.a * squareAvg[i] + s.c * g * g;
        squareAvg[i] = sa;
        const float d = g / (std::sqrt(sa) + s.eps);
        if (momentumBuf) {
            const float buf = s.mu * momentumBuf[i] + d;
            momentumBuf[i] = buf;
            param[i] -= s.step * buf;
        } else {
            param[i] -= s.step * d;
        }
    }
}

}  // namespace

void CpuBackend::rmspropUpdate(float* param, const float* grad, float* squareAvg, float* momentumBuf,
                               std::int64_t n, double lr, double alpha, double eps, double weightDecay,
                               double momentum)
{
    RmspropStep s;
    s.a = static_cast<float>(alpha);
    s.c = static_cast<float>(1.0 - alpha);
    s.eps = static_cast<float>(eps);
    s.wd = static_cast<float>(weightDecay);
    s.mu = static_cast<float>(momentum);
    s.step = static_cast<float>(lr);
    float* const buf = momentum > 0.0 ? momentumBuf : nullptr;
    cpu::parallelFor(n, kGrain, [&](std::int64_t i0, std::int64_t i1) {
        rmspropRange(param + i0, grad + i0, squareAvg + i0, buf ? buf + i0 : nullptr, i1 - i0, s);
    });
}

void CpuBackend::scale(float* x, std::int64_t n, float alpha)
{
    cpu::parallelFor(n, kGrain, [&](std::int64_t i0, std::int64_t i1) {
        for (std::int64_t i = i0; i < i1; ++i) x[i] *= alpha;
    });
}

void CpuBackend::clampValues(float* x, std::int64_t n, float lo, float hi)
{
    cpu::parallelFor(n, kGrain, [&](std::int64_t i0, std::int64_t i1) {
        // Written so a NaN fails both comparisons and is kept (as torch.clamp does).
        for (std::int64_t i = i0; i < i1; ++i) x[i] = x[i] < lo ? lo : (x[i] > hi ? hi : x[i]);
    });
}

}  // namespace ts
