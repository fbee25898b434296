// Elementwise primitives on the CPU: activations, dropout and row softmax.
// Each activation is its functor from backend/activation_math.h (the expression the CUDA
// kernel runs too) applied by one generic loop, so the loop body is branch-light and GCC
// vectorises the cheap ones (those without exp, erf or tanh) and dropout.
#include <algorithm>
#include <cmath>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/grad_write.h"
#include "backend/cpu/parallel.h"

namespace ts {

namespace {

constexpr std::int64_t kCheapGrain = 1 << 14;   // a compare or multiply per element
constexpr std::int64_t kCostlyGrain = 1 << 11;  // an exp/erf/tanh or a hash per element

constexpr std::int64_t grain(bool cheap) { return cheap ? kCheapGrain : kCostlyGrain; }

}  // namespace

void CpuBackend::activationForward(Activation act, float alpha, const float* x, float* y, std::int64_t n)
{
    visitActivation(act, [&](auto f) {
        using F = decltype(f);
        cpu::parallelFor(n, grain(F::kCheapForward), [&](std::int64_t i0, std::int64_t i1) {
            for (std::int64_t i = i0; i < i1; ++i) y[i] = F::forward(x[i], alpha);
        });
    });
}

// dx[i] += dy[i] * f'(x[i]) (= with Overwrite); y is read only by the functors that use it.
void CpuBackend::activationBackward(Activation act, float alpha, const float* x, const float* y, const float* dy,
                                    float* dx, std::int64_t n, GradWrite write)
{
    visitActivation(act, [&](auto f) {
        using F = decltype(f);
        cpu::withGradWrite(write, [&](auto mode) {
            cpu::parallelFor(n, grain(F::kCheapGrad), [&](std::int64_t i0, std::int64_t i1) {
                for (std::int64_t i = i0; i < i1; ++i) {
                    const float yi = F::kReadsY ? y[i] : 0.0f;
                    cpu::putGrad(mode, dx[i], F::grad(x[i], yi, dy[i], alpha));
                }
            });
        });
    });
}

void CpuBackend::dropoutForward(const float* x, float* y, std::uint8_t* mask, std::int64_t n, float p,
                                std::uint64_t seed)
{
    // p >= 1 would make the scale infinite (0 * inf = NaN); everything is dropped anyway.
    const float scale = p < 1.0f ? 1.0f / (1.0f - p) : 0.0f;
    cpu::parallelFor(n, kCostlyGrain, [&](std::int64_t i0, std::int64_t i1) {
        for (std::int64_t i = i0; i < i1; ++i) {
            const bool keep = hashUniform(seed, static_cast<std::uint64_t>(i)) >= p;
            mask[i] = keep ? 1 : 0;
            y[i] = x[i] * (keep ? scale : 0.0f);  // a multiply, not a select: NaN in x stays visible
        }
    });
}

void CpuBackend::dropoutBackward(const float* dy, const std::uint8_t* mask, float* dx, std::int64_t n, float p)
{
    const float scale = p < 1.0f ? 1.0f / (1.0f - p) : 0.0f;
    cpu::parallelFor(n, kCheapGrain, [&](std::int64_t i0, std::int64_t i1) {
        for (std::int64_t i = i0; i < i1; ++i) dx[i] += dy[i] * (static_cast<float>(mask[i]) * scale);
    });
}

void CpuBackend::softmaxForward(const float* x, float* y, std::int64_t rows, std::int64_t cols)
{
    if (cols <= 0) return;
    cpu::parallelFor(rows, std::max<std::int64_t>(1, kCostlyGrain / cols), [&](std::int64_t r0, std::int64_t r1) {
        for (std::int64_t r = r0; r < r1; ++r) {
            const float* xr = x + r * cols;
            float* yr = y + r * cols;
            float m = xr[0];
            for (std::int64_t j = 1; j < cols; ++j) m = std::max(m, xr[j]);
            // Subtracting the max keeps every exp in (0, 1]: no overflow for large logits.
            double sum = 0;
            for (std::int64_t j = 0; j < cols; ++j) {
                yr[j] = std::exp(xr[j] - m);
                sum += yr[j];
            }
            const float inv = static_cast<float>(1.0 / sum);
            for (std::int64_t j = 0; j < cols; ++j) yr[j] *= inv;
        }
    });
}

void CpuBackend::softmaxBackward(const float* y, const float* dy, float* dx, std::int64_t rows, std::int64_t cols)
{
    if (cols <= 0) return;
    cpu::parallelFor(rows, std::max<std::int64_t>(1, kCheapGrain / cols), [&](std::int64_t r0, std::int64_t r1) {
        for (std::int64_t r = r0; r < r1; ++r) {
            const float* yr = y + r * cols;
            const float* dyr = dy + r * cols;
            float* dxr = dx + r * cols;
            double dot = 0;
            for (std::int64_t j = 0; j < cols; ++j) dot += double(dyr[j]) * yr[j];
            const float d = static_cast<float>(dot);
            for (std::int64_t j = 0; j < cols; ++j) dxr[j] += yr[j] * (dyr[j] - d);
        }
    });
}

}  // namespace ts
