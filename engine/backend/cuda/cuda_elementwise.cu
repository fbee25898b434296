// Elementwise primitives on the GPU: activations, dropout and row softmax. Each activation
// is its functor from backend/activation_math.h run by one generic kernel, the very float
// expression the CPU backend runs; dropout keeps its mask by the shared hashUniform. So the
// two backends agree to the rounding of the math library (erfcf, expf, tanhf, ...).
#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_check.h"
#include "backend/cuda/cuda_reduce.cuh"

namespace ts {

namespace {

using cuda::gridFor;
using cuda::kThreads;

template <class F> __global__ void activationForwardKernel(const float* x, float* y, long long n, float alpha)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        y[i] = F::forward(x[i], alpha);
}

// dx += dy * f'(x), or = with overwrite (a uniform branch: dx's old bits are never read).
template <class F>
__global__ void activationBackwardKernel(const float* x, const float* y, const float* dy, float* dx, long long n,
                                         float alpha, bool overwrite)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        const float yi = F::kReadsY ? y[i] : 0.0f;  // y is read only where the derivative uses it
        const float g = F::grad(x[i], yi, dy[i], alpha);
        if (overwrite) dx[i] = g;
        else dx[i] += g;
    }
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
    visitActivation(act, [&](auto f) {
        activationForwardKernel<decltype(f)><<<gridFor(n), kThreads, 0, stream_>>>(x, y, n, alpha);
    });
    TS_CUDA_LAUNCHED();
}

void CudaBackend::activationBackward(Activation act, float alpha, const float* x, const float* y, const float* dy,
                                     float* dx, std::int64_t n, GradWrite write)
{
    makeCurrent();
    if (n <= 0 || !dx) return;
    visitActivation(act, [&](auto f) {
        activationBackwardKernel<decltype(f)>
            <<<gridFor(n), kThreads, 0, stream_>>>(x, y, dy, dx, n, alpha, write == GradWrite::Overwrite);
    });
    TS_CUDA_LAUNCHED();
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
