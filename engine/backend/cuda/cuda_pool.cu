// 2-D max and average pooling on the GPU, bit for bit the rules of cpu_pool.cpp: the same
// clipped windows, -inf padding and first-maximum argmax (NaN wins), the same divisor.
// The forward runs one thread per output; the backward one thread per input element that
// gathers, in the CPU's (oy, ox) order, every window covering it, so dx gets the same
// float sums as the CPU's scatter and no atomics are needed (deterministic).
#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_check.h"

namespace ts {

namespace {

using cuda::gridFor;
using cuda::kThreads;

// The plain-data part of PoolGeometry the kernels need (no host member calls on the device).
struct Pool {
    long long planes, h, w, kh, kw, strideH, strideW, padH, padW, outH, outW;
    bool countIncludePad;
};

Pool toPool(const PoolGeometry& g)
{
    return {g.n * g.c, g.h, g.w, g.kh, g.kw, g.strideH, g.strideW, g.padH, g.padW, g.outH(), g.outW(),
            g.countIncludePad};
}

// The part of output (oy, ox)'s window inside the input.
struct Window {
    long long y0, y1, x0, x1;
};
__device__ inline Window windowAt(const Pool& p, long long oy, long long ox)
{
    const long long top = oy * p.strideH - p.padH, left = ox * p.strideW - p.padW;
    return {max(top, 0LL), min(top + p.kh, p.h), max(left, 0LL), min(left + p.kw, p.w)};
}

__device__ inline float divisor(const Pool& p, const Window& win)
{
    return static_cast<float>(p.countIncludePad ? p.kh * p.kw : (win.y1 - win.y0) * (win.x1 - win.x0));
}

// The outputs [lo, hi] along one axis whose window [o*stride - pad, o*stride - pad + k)
// contains input coordinate i (hi < lo when none).
__device__ inline void coveringOutputs(long long i, long long k, long long stride, long long pad, long long out,
                                       long long& lo, long long& hi)
{
    const long long a = i + pad - k + 1;  // o*stride >= a
    lo = a > 0 ? (a + stride - 1) / stride : 0;
    hi = min((i + pad) / stride, out - 1);  // i + pad >= 0
}

__global__ void maxPoolForwardKernel(Pool p, const float* x, float* y, std::int32_t* argmax)
{
    const long long outPlane = p.outH * p.outW, total = p.planes * outPlane;
    for (long long o = blockIdx.x * (long long)blockDim.x + threadIdx.x; o < total; o += (long long)gridDim.x * blockDim.x) {
        const long long plane = o / outPlane, rem = o - plane * outPlane;
        const long long oy = rem / p.outW, ox = rem - oy * p.outW;
        const Window win = windowAt(p, oy, ox);
        const float* xp = x + plane * p.h * p.w;
        float best = -INFINITY;
        long long where = -1;
        for (long long iy = win.y0; iy < win.y1; ++iy)
            for (long long ix = win.x0; ix < win.x1; ++ix) {
                const float v = xp[iy * p.w + ix];
                // First maximum in row-major order; a NaN wins so divergence stays visible.
                if (where < 0 || v > best || (isnan(v) && !isnan(best))) {
                    best = v;
                    where = iy * p.w + ix;
                }
            }
        y[o] = best;
        if (argmax) argmax[o] = static_cast<std::int32_t>(where);
    }
}

__global__ void avgPoolForwardKernel(Pool p, const float* x, float* y)
{
    const long long outPlane = p.outH * p.outW, total = p.planes * outPlane;
    for (long long o = blockIdx.x * (long long)blockDim.x + threadIdx.x; o < total; o += (long long)gridDim.x * blockDim.x) {
        const long long plane = o / outPlane, rem = o - plane * outPlane;
        const long long oy = rem / p.outW, ox = rem - oy * p.outW;
        const Window win = windowAt(p, oy, ox);
        const float* xp = x + plane * p.h * p.w;
        double sum = 0;
        for (long long iy = win.y0; iy < win.y1; ++iy)
            for (long long ix = win.x0; ix < win.x1; ++ix) sum += xp[iy * p.w + ix];
        const float d = divisor(p, win);
        y[o] = d > 0 ? static_cast<float>(sum / d) : 0.0f;
    }
}

// kind Max: dx[i] += dy of the windows whose argmax is i; Avg: dx[i] += dy / divisor of
// every window covering i. Either way in (oy, ox) order, one float add at a time, as the CPU.
template <PoolKind K>
__global__ void poolBackwardKernel(Pool p, const float* dy, const std::int32_t* argmax, float* dx)
{
    const long long inPlane = p.h * p.w, outPlane = p.outH * p.outW, total = p.planes * inPlane;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < total; i += (long long)gridDim.x * blockDim.x) {
        const long long plane = i / inPlane, rem = i - plane * inPlane;
        const long long iy = rem / p.w, ix = rem - iy * p.w;
        long long oy0, oy1, ox0, ox1;
        coveringOutputs(iy, p.kh, p.strideH, p.padH, p.outH, oy0, oy1);
        coveringOutputs(ix, p.kw, p.strideW, p.padW, p.outW, ox0, ox1);
        const long long outBase = plane * outPlane;
        float acc = dx[i];
        for (long long oy = oy0; oy <= oy1; ++oy)
            for (long long ox = ox0; ox <= ox1; ++ox) {
                const long long o = outBase + oy * p.outW + ox;
                if constexpr (K == PoolKind::Max) {
                    if (argmax[o] == rem) acc += dy[o];
                } else {
                    const float d = divisor(p, windowAt(p, oy, ox));
                    if (d > 0) acc += dy[o] / d;
                }
            }
        dx[i] = acc;
    }
}

}  // namespace

void CudaBackend::pool2dForward(PoolKind kind, const PoolGeometry& g, const float* x, float* y, std::int32_t* argmax)
{
    makeCurrent();
    const Pool p = toPool(g);
    const long long total = p.planes * p.outH * p.outW;
    if (total <= 0 || p.outH <= 0 || p.outW <= 0) return;
    if (kind == PoolKind::Max) maxPoolForwardKernel<<<gridFor(total), kThreads, 0, stream_>>>(p, x, y, argmax);
    else avgPoolForwardKernel<<<gridFor(total), kThreads, 0, stream_>>>(p, x, y);
    TS_CUDA_LAUNCHED();
}

void CudaBackend::pool2dBackward(PoolKind kind, const PoolGeometry& g, const float* dy, const std::int32_t* argmax,
                                 float* dx, GradWrite write)
{
    makeCurrent();
    if (!dx) return;  // no gradient wanted
    const Pool p = toPool(g);
    const long long total = p.planes * p.h * p.w;
    if (write == GradWrite::Overwrite && total > 0) zeroBytes(dx, static_cast<std::size_t>(total) * sizeof(float));
    if (total <= 0 || p.outH <= 0 || p.outW <= 0) return;
    if (kind == PoolKind::Max)
        poolBackwardKernel<PoolKind::Max><<<gridFor(total), kThreads, 0, stream_>>>(p, dy, argmax, dx);
    else
        poolBackwardKernel<PoolKind::Avg><<<gridFor(total), kThreads, 0, stream_>>>(p, dy, argmax, dx);
    TS_CUDA_LAUNCHED();
}

}  // namespace ts
