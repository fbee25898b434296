// Elementwise primitives on the GPU: activations, dropout and row softmax, with the formulas
// of cpu_elementwise.cpp (GELU through erfc in double, the overflow-free sigmoid, dropout's
// keep rule on the shared hashUniform), so the two backends agree to rounding.
#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_check.h"
#include "backend/cuda/cuda_reduce.cuh"

namespace ts {

namespace {

using cuda::gridFor;
using cuda::kThreads;

constexpr double kInvSqrt2 = 0.70710678118654752440;
constexpr double kInvSqrt2Pi = 0.39894228040143267794;

// exp only ever sees -|x|: no overflow for large |x|.
__device__ inline float stableSigmoid(float x)
{
    const float e = expf(-fabsf(x));
    const float s = 1.0f / (1.0f + e);
    return x >= 0.0f ? s : e * s;
}
// Phi through erfc (no cancellation for x << 0), in double like the CPU.
__device__ inline double normalCdf(double x) { return 0.5 * erfc(-x * kInvSqrt2); }
__device__ inline double normalPdf(double x) { return kInvSqrt2Pi * exp(-0.5 * x * x); }

template <Activation A> __device__ inline float activate(float v, float alpha)
{
    if constexpr (A == Activation::ReLU) return v > 0.0f ? v : 0.0f;
    else if constexpr (A == Activation::LeakyReLU) return v > 0.0f ? v : alpha * v;
    else if constexpr (A == Activation::GELU) return static_cast<float>(v * normalCdf(v));
    else if constexpr (A == Activation::SiLU) return v * stableSigmoid(v);
    else if constexpr (A == Activation::Sigmoid) return stableSigmoid(v);
    else return tanhf(v);
}

// f'(x) given x and y = f(x).
template <Activation A> __device__ inline float derivative(float v, float y, float alpha)
{
    if constexpr (A == Activation::ReLU) return v > 0.0f ? 1.0f : 0.0f;
    else if constexpr (A == Activation::LeakyReLU) return v > 0.0f ? 1.0f : alpha;
    else if constexpr (A == Activation::GELU) {
        const double d = v;
        return static_cast<float>(normalCdf(d) + d * normalPdf(d));
    } else if constexpr (A == Activation::SiLU) {
        const float s = stableSigmoid(v);  // recomputed: y / x fails at x = 0
        return s * (1.0f + v * (1.0f - s));
    } else if constexpr (A == Activation::Sigmoid) return y * (1.0f - y);
    else return 1.0f - y * y;
}

template <Activation A> __global__ void activationForwardKernel(const float* x, float* y, long long n, float alpha)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        y[i] = activate<A>(x[i], alpha);
}

template <Activation A>
__global__ void activationBackwardKernel(const float* x, const float* y, const float* dy, float* dx, long long n,
                                         float alpha)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        if constexpr (A == Activation::ReLU) {
            dx[i] += x[i] > 0.0f ? dy[i] : 0.0f;  // a select, as the CPU: 0 * inf would be NaN
        } else {
            // y is only read where the derivative uses it (it may be unset for the others).
            const float yi = (A == Activation::Sigmoid || A == Activation::Tanh) ? y[i] : 0.0f;
            dx[i] += dy[i] * derivative<A>(x[i], yi, alpha);
        }
    }
}

template <Activation A>
void launchForward(cudaStream_t stream, const float* x, float* y, long long n, float alpha)
{
    activationForwardKernel<A><<<gridFor(n), kThreads, 0, stream>>>(x, y, n, alpha);
    TS_CUDA_LAUNCHED();
}

template <Activation A>
void launchBackward(cudaStream_t stream, const float* x, const float* y, const float* dy, float* dx, long long n,
                    float alpha)
{
    activationBackwardKernel<A><<<gridFor(n), kThreads, 0, stream>>>(x, y, dy, dx, n, alpha);
    TS_CUDA_LAUNCHED();
}

__global__ void dropoutForwardKernel(const float* x, float* y, std::uint8_t* mask, long long n, float p, float scale,
                                     std::uint64_t seed)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        const bool keep = hashUniform(seed, static_cast<std::uint64_t>(i)) >= p;
        mask[i] = keep ? 1 : 0;
        y[i] = x[i] * (keep ? scale : 0.0f);  // a multiply: NaN in x stays visible
    }
}

__global__ void dropoutBackwardKernel(const float* dy, const std::uint8_t* mask, float* dx, long long n, float scale)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        dx[i] += dy[i] * (static_cast<float>(mask[i]) * scale);
}

// Rows handled by groups of W threads: W = 32 packs kThreads / 32 short rows per block, W =
// kThreads gives a long row the whole block. Rows are grid-strided; a group's trip count is
// uniform within the group, so the block-wide barriers (W = kThreads) are never divergent.
template <int W> struct RowGroups {
    long long first, stride;
    int lane;
    __device__ RowGroups()
    {
        constexpr int perBlock = kThreads / W;
        first = (long long)blockIdx.x * perBlock + threadIdx.x / W;
        stride = (long long)gridDim.x * perBlock;
        lane = threadIdx.x % W;
    }
};

template <int W> __global__ void softmaxForwardKernel(const float* x, float* y, long long rows, long long cols)
{
    const RowGroups<W> rg;
    for (long long r = rg.first; r < rows; r += rg.stride) {
        const float* xr = x + r * cols;
        float* yr = y + r * cols;
        float m = -INFINITY;
        for (long long j = rg.lane; j < cols; j += W) m = fmaxf(m, xr[j]);
        m = cuda::groupReduce<W>(m, cuda::MaxOp{});
        // Subtracting the max keeps every exp in (0, 1]; NaN inputs still give NaN (via the sum).
        double sum = 0;
        for (long long j = rg.lane; j < cols; j += W) sum += expf(xr[j] - m);
        sum = cuda::groupReduce<W>(sum, cuda::SumOp{});
        const float inv = static_cast<float>(1.0 / sum);
        for (long long j = rg.lane; j < cols; j += W) yr[j] = expf(xr[j] - m) * inv;
    }
}

template <int W>
__global__ void softmaxBackwardKernel(const float* y, const float* dy, float* dx, long long rows, long long cols)
{
    const RowGroups<W> rg;
    for (long long r = rg.first; r < rows; r += rg.stride) {
        const float* yr = y + r * cols;
        const float* dyr = dy + r * cols;
        float* dxr = dx + r * cols;
        double dot = 0;
        for (long long j = rg.lane; j < cols; j += W) dot += double(dyr[j]) * yr[j];
        const float d = static_cast<float>(cuda::groupReduce<W>(dot, cuda::SumOp{}));
        for (long long j = rg.lane; j < cols; j += W) dxr[j] += yr[j] * (dyr[j] - d);
    }
}

// Rows longer than this get a whole block.
constexpr long long kWarpRowMax = 1024;

unsigned rowGrid(long long rows, int rowsPerBlock)
{
    const long long blocks = (rows + rowsPerBlock - 1) / rowsPerBlock;
    return static_cast<unsigned>(blocks < 1 ? 1 : (blocks > 65535LL * 8 ? 65535LL * 8 : blocks));
}

}  // namespace

void CudaBackend::activationForward(Activation act, float alpha, const float* x, float* y, std::int64_t n)
{
    makeCurrent();
    if (n <= 0) return;
    switch (act) {
    case Activation::ReLU: return launchForward<Activation::ReLU>(stream_, x, y, n, alpha);
    case Activation::LeakyReLU: return launchForward<Activation::LeakyReLU>(stream_, x, y, n, alpha);
    case Activation::GELU: return launchForward<Activation::GELU>(stream_, x, y, n, alpha);
    case Activation::SiLU: return launchForward<Activation::SiLU>(stream_, x, y, n, alpha);
    case Activation::Sigmoid: return launchForward<Activation::Sigmoid>(stream_, x, y, n, alpha);
    case Activation::Tanh: return launchForward<Activation::Tanh>(stream_, x, y, n, alpha);
    }
}

void CudaBackend::activationBackward(Activation act, float alpha, const float* x, const float* y, const float* dy,
                                     float* dx, std::int64_t n, GradWrite write)
{
    makeCurrent();
    if (n <= 0 || !dx) return;
    // Overwrite as zero + accumulate: a memset is cheap here, and the kernels stay one form.
    if (write == GradWrite::Overwrite) zeroBytes(dx, static_cast<std::size_t>(n) * sizeof(float));
    switch (act) {
    case Activation::ReLU: return launchBackward<Activation::ReLU>(stream_, x, y, dy, dx, n, alpha);
    case Activation::LeakyReLU: return launchBackward<Activation::LeakyReLU>(stream_, x, y, dy, dx, n, alpha);
    case Activation::GELU: return launchBackward<Activation::GELU>(stream_, x, y, dy, dx, n, alpha);
    case Activation::SiLU: return launchBackward<Activation::SiLU>(stream_, x, y, dy, dx, n, alpha);
    case Activation::Sigmoid: return launchBackward<Activation::Sigmoid>(stream_, x, y, dy, dx, n, alpha);
    case Activation::Tanh: return launchBackward<Activation::Tanh>(stream_, x, y, dy, dx, n, alpha);
    }
}

void CudaBackend::dropoutForward(const float* x, float* y, std::uint8_t* mask, std::int64_t n, float p,
                                 std::uint64_t seed)
{
    makeCurrent();
    if (n <= 0) return;
    // p >= 1 would make the scale infinite (0 * inf = NaN); everything is dropped anyway.
    const float scale = p < 1.0f ? 1.0f / (1.0f - p) : 0.0f;
    dropoutForwardKernel<<<gridFor(n), kThreads, 0, stream_>>>(x, y, mask, n, p, scale, seed);
    TS_CUDA_LAUNCHED();
}

void CudaBackend::dropoutBackward(const float* dy, const std::uint8_t* mask, float* dx, std::int64_t n, float p)
{
    makeCurrent();
    if (n <= 0 || !dx) return;
    const float scale = p < 1.0f ? 1.0f / (1.0f - p) : 0.0f;
    dropoutBackwardKernel<<<gridFor(n), kThreads, 0, stream_>>>(dy, mask, dx, n, scale);
    TS_CUDA_LAUNCHED();
}

void CudaBackend::softmaxForward(const float* x, float* y, std::int64_t rows, std::int64_t cols)
{
    makeCurrent();
    if (rows <= 0 || cols <= 0) return;
    if (cols <= kWarpRowMax)
        softmaxForwardKernel<32><<<rowGrid(rows, kThreads / 32), kThreads, 0, stream_>>>(x, y, rows, cols);
    else
        softmaxForwardKernel<kThreads><<<rowGrid(rows, 1), kThreads, 0, stream_>>>(x, y, rows, cols);
    TS_CUDA_LAUNCHED();
}

void CudaBackend::softmaxBackward(const float* y, const float* dy, float* dx, std::int64_t rows, std::int64_t cols)
{
    makeCurrent();
    if (rows <= 0 || cols <= 0 || !dx) return;
    if (cols <= kWarpRowMax)
        softmaxBackwardKernel<32><<<rowGrid(rows, kThreads / 32), kThreads, 0, stream_>>>(y, dy, dx, rows, cols);
    else
        softmaxBackwardKernel<kThreads><<<rowGrid(rows, 1), kThreads, 0, stream_>>>(y, dy, dx, rows, cols);
    TS_CUDA_LAUNCHED();
}

}  // namespace ts
