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

void CpuBackend::adamUpdate(float* param, const float* grad, float* m, float* v, std::int64_t n, double lr,
                            double beta1, double beta2, double eps, double weightDecay, bool decoupled,
                            std::int64_t step)
{
    // Bias corrections in double on the host, as torch does: folded into the step size and
    // into a divisor of sqrt(v), so the loop is a short chain of f32 multiply-adds.
    const double bc1 = 1.0 - std::pow(beta1, double(step));
    const double bc2 = 1.0 - std::pow(beta2, double(step));
    const float stepSize = static_cast<float>(lr / bc1);
    const float invBc2Sqrt = static_cast<float>(1.0 / std::sqrt(bc2));
    const float b1 = static_cast<float>(beta1), b2 = static_cast<float>(beta2);
    const float c1 = static_cast<float>(1.0 - beta1), c2 = static_cast<float>(1.0 - beta2);
    const float epsF = static_cast<float>(eps);
    const float decay = static_cast<float>(decoupled ? 1.0 - lr * weightDecay : 1.0);
    const float l2 = static_cast<float>(decoupled ? 0.0 : weightDecay);
    cpu::parallelFor(n, kGrain, [&](std::int64_t i0, std::int64_t i1) {
        for (std::int64_t i = i0; i < i1; ++i) {
            const float p = param[i] * decay;
            const float g = grad[i] + l2 * p;
            const float mi = b1 * m[i] + c1 * g;
            const float vi = b2 * v[i] + c2 * g * g;
            m[i] = mi;
            v[i] = vi;
            param[i] = p - stepSize * mi / (std::sqrt(vi) * invBc2Sqrt + epsF);
        }
    });
}

void CpuBackend::rmspropUpdate(float* param, const float* grad, float* squareAvg, float* momentumBuf,
                               std::int64_t n, double lr, double alpha, double eps, double weightDecay,
                               double momentum)
{
    const bool useMomentum = momentum > 0.0;
    const float a = static_cast<float>(alpha), c = static_cast<float>(1.0 - alpha), epsF = static_cast<float>(eps);
    const float wd = static_cast<float>(weightDecay), mu = static_cast<float>(momentum), step = static_cast<float>(lr);
    cpu::parallelFor(n, kGrain, [&](std::int64_t i0, std::int64_t i1) {
        for (std::int64_t i = i0; i < i1; ++i) {
            const float g = grad[i] + wd * param[i];
            const float sa = a * squareAvg[i] + c * g * g;
            squareAvg[i] = sa;
            const float d = g / (std::sqrt(sa) + epsF);
            if (useMomentum) {
                const float buf = mu * momentumBuf[i] + d;
                momentumBuf[i] = buf;
                param[i] -= step * buf;
            } else {
                param[i] -= step * d;
            }
        }
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
