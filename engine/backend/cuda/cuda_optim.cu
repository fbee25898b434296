// Optimizer updates: one fused kernel each, element-independent. The coefficients are formed
// in double on the host exactly as cpu_optim.cpp forms them, and every kernel evaluates the
// CPU's expression in the CPU's order with explicitly rounded operations (__fmul_rn etc.
// are never fused into FMAs; the CPU build has no FMA), so both backends give the same bits.
// sqrtf and '/' are IEEE correctly rounded under nvcc's defaults (-prec-sqrt/-prec-div true).
#include <cmath>

#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_check.h"

namespace ts {

namespace {

#define TS_GRID_STRIDE(i, n) \
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < (n); i += (long long)gridDim.x * blockDim.x)

__device__ __forceinline__ float mul(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ float add(float a, float b) { return __fadd_rn(a, b); }
__device__ __forceinline__ float sub(float a, float b) { return __fsub_rn(a, b); }

__global__ void sgdKernel(float* param, const float* grad, float* momentumBuf, long long n, float step, float mu,
                          bool useMomentum, bool nesterov, float wd)
{
    TS_GRID_STRIDE(i, n)
    {
        float g = add(grad[i], mul(wd, param[i]));
        if (useMomentum) {
            const float buf = add(mul(mu, momentumBuf[i]), g);
            momentumBuf[i] = buf;
            g = nesterov ? add(g, mul(mu, buf)) : buf;
        }
        param[i] = sub(param[i], mul(step, g));
    }
}

__global__ void adamKernel(float* param, const float* grad, float* m, float* v, long long n, float stepSize,
                           float invBc2Sqrt, float b1, float b2, float c1, float c2, float eps, float decay, float l2)
{
    TS_GRID_STRIDE(i, n)
    {
        const float p = mul(param[i], decay);
        const float g = add(grad[i], mul(l2, p));
        const float mi = add(mul(b1, m[i]), mul(c1, g));
        const float vi = add(mul(b2, v[i]), mul(mul(c2, g), g));
        m[i] = mi;
        v[i] = vi;
        // CPU: p - stepSize * mi / (sqrt(vi) * invBc2Sqrt + eps), i.e. (stepSize * mi) / (...).
        param[i] = sub(p, __fdiv_rn(mul(stepSize, mi), add(mul(__fsqrt_rn(vi), invBc2Sqrt), eps)));
    }
}

__global__ void rmspropKernel(float* param, const float* grad, float* squareAvg, float* momentumBuf, long long n,
                              float step, float a, float c, float eps, float wd, float mu, bool useMomentum)
{
    TS_GRID_STRIDE(i, n)
    {
        const float g = add(grad[i], mul(wd, param[i]));
        const float sa = add(mul(a, squareAvg[i]), mul(mul(c, g), g));
        squareAvg[i] = sa;
        const float d = __fdiv_rn(g, add(__fsqrt_rn(sa), eps));
        if (useMomentum) {
            const float buf = add(mul(mu, momentumBuf[i]), d);
            momentumBuf[i] = buf;
            param[i] = sub(param[i], mul(step, buf));
        } else {
            param[i] = sub(param[i], mul(step, d));
        }
    }
}

__global__ void scaleKernel(float* x, long long n, float alpha)
{
    TS_GRID_STRIDE(i, n) x[i] = x[i] * alpha;
}

// Explicit comparisons, not fminf/fmaxf: those return the other operand for a NaN, and a
// NaN gradient must stay NaN (torch.clamp, and the CPU backend, keep it).
__global__ void clampKernel(float* x, long long n, float lo, float hi)
{
    TS_GRID_STRIDE(i, n)
    {
        const float v = x[i];
        x[i] = v < lo ? lo : (v > hi ? hi : v);
    }
}

}  // namespace

void CudaBackend::sgdUpdate(float* param, const float* grad, float* momentumBuf, std::int64_t n, double lr,
                            double momentum, bool nesterov, double weightDecay)
{
    if (n <= 0) return;
    makeCurrent();
    const bool useMomentum = momentum != 0.0;
    sgdKernel<<<cuda::gridFor(n), cuda::kThreads, 0, stream_>>>(
        param, grad, momentumBuf, n, static_cast<float>(lr), static_cast<float>(momentum), useMomentum, nesterov,
        static_cast<float>(weightDecay));
    TS_CUDA_LAUNCHED();
}

void CudaBackend::adamUpdate(float* param, const float* grad, float* m, float* v, std::int64_t n, double lr,
                             double beta1, double beta2, double eps, double weightDecay, bool decoupled,
                             std::int64_t step)
{
    if (n <= 0) return;
    makeCurrent();
    // Exactly cpu_optim.cpp's host-side coefficients.
    const double bc1 = 1.0 - std::pow(beta1, double(step));
    const double bc2 = 1.0 - std::pow(beta2, double(step));
    const float stepSize = static_cast<float>(lr / bc1);
    const float invBc2Sqrt = static_cast<float>(1.0 / std::sqrt(bc2));
    const float decay = static_cast<float>(decoupled ? 1.0 - lr * weightDecay : 1.0);
    const float l2 = static_cast<float>(decoupled ? 0.0 : weightDecay);
    adamKernel<<<cuda::gridFor(n), cuda::kThreads, 0, stream_>>>(
        param, grad, m, v, n, stepSize, invBc2Sqrt, static_cast<float>(beta1), static_cast<float>(beta2),
        static_cast<float>(1.0 - beta1), static_cast<float>(1.0 - beta2), static_cast<float>(eps), decay, l2);
    TS_CUDA_LAUNCHED();
}

void CudaBackend::rmspropUpdate(float* param, const float* grad, float* squareAvg, float* momentumBuf,
                                std::int64_t n, double lr, double alpha, double eps, double weightDecay,
                                double momentum)
{
    if (n <= 0) return;
    makeCurrent();
    const bool useMomentum = momentum > 0.0;
    rmspropKernel<<<cuda::gridFor(n), cuda::kThreads, 0, stream_>>>(
        param, grad, squareAvg, momentumBuf, n, static_cast<float>(lr), static_cast<float>(alpha),
        static_cast<float>(1.0 - alpha), static_cast<float>(eps), static_cast<float>(weightDecay),
        static_cast<float>(momentum), useMomentum);
    TS_CUDA_LAUNCHED();
}

void CudaBackend::scale(float* x, std::int64_t n, float alpha)
{
    if (n <= 0) return;
    makeCurrent();
    scaleKernel<<<cuda::gridFor(n), cuda::kThreads, 0, stream_>>>(x, n, alpha);
    TS_CUDA_LAUNCHED();
}

void CudaBackend::clampValues(float* x, std::int64_t n, float lo, float hi)
{
    if (n <= 0) return;
    makeCurrent();
    clampKernel<<<cuda::gridFor(n), cuda::kThreads, 0, stream_>>>(x, n, lo, hi);
    TS_CUDA_LAUNCHED();
}

}  // namespace ts
