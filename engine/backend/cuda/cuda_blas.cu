// Linear algebra: GEMM through cuBLAS, the vector primitives and the two reductions
// (bias gradient, sum of squares) as our own deterministic kernels.
#include <climits>
#include <cstring>
#include <stdexcept>
#include <string>

#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_check.h"

namespace ts {

namespace {

#define TS_GRID_STRIDE(i, n) \
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < (n); i += (long long)gridDim.x * blockDim.x)

// C = beta * C on an [m, n] row-major matrix (GEMM with k == 0). beta == 0 writes zeros
// without reading C, as BLAS does, so NaN garbage in C does not survive.
__global__ void scaleMatrixKernel(float* c, long long ldc, long long m, long long n, float beta)
{
    TS_GRID_STRIDE(idx, m * n)
    {
        const long long r = idx / n, j = idx - r * n;
        float& v = c[r * ldc + j];
        v = beta == 0.0f ? 0.0f : beta * v;
    }
}

// __fmul_rn / __fadd_rn are never contracted into an FMA: the CPU backend (baseline x86-64,
// no FMA) rounds the product and the sum separately, and so do we, bit for bit.
__global__ void axpyKernel(long long n, float alpha, const float* x, float* y)
{
    TS_GRID_STRIDE(i, n) y[i] = __fadd_rn(y[i], __fmul_rn(alpha, x[i]));
}

__global__ void addKernel(long long n, const float* a, const float* b, float* y)
{
    TS_GRID_STRIDE(i, n) y[i] = a[i] + b[i];
}

__global__ void addBiasKernel(const float* bias, float* y, long long channels, long long inner, long long total)
{
    TS_GRID_STRIDE(i, total) y[i] += bias[(i / inner) % channels];
}

// Sum of a block's `v` (blockDim.x == kThreads) in a fixed tree order; valid in thread 0.
__device__ double blockSum(double v, double* shared)
{
    shared[threadIdx.x] = v;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) shared[threadIdx.x] += shared[threadIdx.x + s];
        __syncthreads();
    }
    return shared[0];
}

// biasBackward for inner > 1: one block per channel sums its outer * inner elements in
// double (as the CPU does), reading contiguous runs of `inner`. No atomics: deterministic.
__global__ void biasBackwardChannelKernel(const float* dy, float* dbias, long long outer, long long channels,
                                          long long inner)
{
    __shared__ double shared[cuda::kThreads];
    const long long perChannel = outer * inner;
    for (long long ch = blockIdx.x; ch < channels; ch += gridDim.x) {
        double sum = 0;
        for (long long j = threadIdx.x; j < perChannel; j += blockDim.x) {
            const long long o = j / inner, i = j - o * inner;
            sum += dy[(o * channels + ch) * inner + i];
        }
        sum = blockSum(sum, shared);
        if (threadIdx.x == 0) dbias[ch] += static_cast<float>(sum);
        __syncthreads();  // `shared` is reused by the next channel
    }
}

// biasBackward for inner == 1 (dy is [outer, channels], e.g. a Linear layer): column sums.
// Pass 1: block (tile, split) sums rows [split * rowsPer, ...) of 32 adjacent channels
// (coalesced: threadIdx.x walks the channels) into partial[split][ch]. Pass 2 adds the
// splits in order. Fixed order throughout: deterministic.
constexpr int kTileCols = 32, kTileRows = 8;
__global__ void columnPartialKernel(const float* dy, double* partial, long long outer, long long channels,
                                    long long rowsPer)
{
    __shared__ double shared[kTileRows][kTileCols + 1];
    const long long ch = blockIdx.x * (long long)kTileCols + threadIdx.x;
    const long long r0 = blockIdx.y * rowsPer;
    const long long r1 = r0 + rowsPer < outer ? r0 + rowsPer : outer;
    double sum = 0;
    if (ch < channels)
        for (long long r = r0 + threadIdx.y; r < r1; r += kTileRows) sum += dy[r * channels + ch];
    shared[threadIdx.y][threadIdx.x] = sum;
    __syncthreads();
    if (threadIdx.y == 0 && ch < channels) {
        double total = 0;
        for (int k = 0; k < kTileRows; ++k) total += shared[k][threadIdx.x];
        partial[blockIdx.y * channels + ch] = total;
    }
}

__global__ void columnFinishKernel(const double* partial, float* dbias, long long channels, long long splits)
{
    TS_GRID_STRIDE(ch, channels)
    {
        double sum = 0;
        for (long long s = 0; s < splits; ++s) sum += partial[s * channels + ch];
        dbias[ch] += static_cast<float>(sum);
    }
}

// sumSquares pass 1: each block's share of x into partial[blockIdx.x]; pass 2 (one block)
// sums the partials into partial[blocks]. The grid depends only on n: deterministic.
// double(x) * x is exact (24-bit mantissas), so only the summation order differs from the
// CPU; NaN and inf propagate through the sums.
__global__ void sumSquaresPartialKernel(const float* x, long long n, double* partial)
{
    __shared__ double shared[cuda::kThreads];
    double sum = 0;
    TS_GRID_STRIDE(i, n)
    {
        const double v = x[i];
        sum += v * v;
    }
    sum = blockSum(sum, shared);
    if (threadIdx.x == 0) partial[blockIdx.x] = sum;
}

__global__ void sumPartialsKernel(double* partial, int count)
{
    __shared__ double shared[cuda::kThreads];
    double sum = 0;
    for (int i = threadIdx.x; i < count; i += blockDim.x) sum += partial[i];
    sum = blockSum(sum, shared);
    if (threadIdx.x == 0) partial[count] = sum;
}

// segmentedSumSquares: block b sums the squares of x[ranges[2b], ranges[2b + 1]) into sums[b].
__global__ void segmentSumSquaresKernel(const float* x, const long long* ranges, double* sums)
{
    __shared__ double shared[cuda::kThreads];
    const long long begin = ranges[2 * blockIdx.x], end = ranges[2 * blockIdx.x + 1];
    double sum = 0;
    for (long long i = begin + threadIdx.x; i < end; i += blockDim.x) {
        const double v = x[i];
        sum += v * v;
    }
    sum = blockSum(sum, shared);
    if (threadIdx.x == 0) sums[blockIdx.x] = sum;
}

cublasComputeType_t computeTypeFor(MathPrecision p)
{
    switch (p) {
    case MathPrecision::TF32: return CUBLAS_COMPUTE_32F_FAST_TF32;
    case MathPrecision::BF16: return CUBLAS_COMPUTE_32F_FAST_16BF;
    case MathPrecision::F16: return CUBLAS_COMPUTE_32F_FAST_16F;
    case MathPrecision::F32: break;
    }
    return CUBLAS_COMPUTE_32F;  // exact f32: never TF32 (the handle's math mode is the default)
}

int checkedInt(std::int64_t v, const char* what)
{
    if (v < 0 || v > INT_MAX)
        throw std::invalid_argument(std::string("gemm: ") + what + " = " + std::to_string(v) +
                                    " is outside cuBLAS's 32-bit range");
    return static_cast<int>(v);
}

}  // namespace

// Row-major to column-major: a row-major [r, c] matrix with leading dimension ld is, read
// column-major, its transpose [c, r] with the same ld. So row-major C = op(A) op(B) is
// column-major C^T = op(B)^T op(A)^T, where B's storage read column-major is already B^T:
// op(B)^T is that storage untransposed when !transB, transposed when transB (and likewise
// A). Hence cuBLAS gets (opB, opA) with the same flags, dimensions (n, m, k), B before A,
// and every leading dimension unchanged.
void CudaBackend::gemm(bool transA, bool transB, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
                       const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float beta, float* c,
                       std::int64_t ldc)
{
    if (m <= 0 || n <= 0) return;
    makeCurrent();
    if (k <= 0) {  // empty product: C = beta * C (cuBLAS's checks on lda/ldb need not hold here)
        scaleMatrixKernel<<<cuda::gridFor(m * n), cuda::kThreads, 0, stream_>>>(c, ldc, m, n, beta);
        TS_CUDA_LAUNCHED();
        return;
    }
    TS_CUBLAS(cublasGemmEx(cublas_, transB ? CUBLAS_OP_T : CUBLAS_OP_N, transA ? CUBLAS_OP_T : CUBLAS_OP_N,
                           checkedInt(n, "n"), checkedInt(m, "m"), checkedInt(k, "k"), &alpha, b, CUDA_R_32F,
                           checkedInt(ldb, "ldb"), a, CUDA_R_32F, checkedInt(lda, "lda"), &beta, c, CUDA_R_32F,
                           checkedInt(ldc, "ldc"), computeTypeFor(mathPrecision_), CUBLAS_GEMM_DEFAULT));
}

void CudaBackend::axpy(std::int64_t n, float alpha, const float* x, float* y)
{
    if (n <= 0) return;
    makeCurrent();
    axpyKernel<<<cuda::gridFor(n), cuda::kThreads, 0, stream_>>>(n, alpha, x, y);
    TS_CUDA_LAUNCHED();
}

void CudaBackend::add(std::int64_t n, const float* a, const float* b, float* y)
{
    if (n <= 0) return;
    makeCurrent();
    addKernel<<<cuda::gridFor(n), cuda::kThreads, 0, stream_>>>(n, a, b, y);
    TS_CUDA_LAUNCHED();
}

void CudaBackend::addBias(const float* bias, float* y, std::int64_t outer, std::int64_t channels, std::int64_t inner)
{
    const long long total = outer * channels * inner;
    if (total <= 0) return;
    makeCurrent();
    addBiasKernel<<<cuda::gridFor(total), cuda::kThreads, 0, stream_>>>(bias, y, channels, inner, total);
    TS_CUDA_LAUNCHED();
}

void CudaBackend::biasBackward(const float* dy, float* dbias, std::int64_t outer, std::int64_t channels,
                               std::int64_t inner)
{
    if (!dbias || channels <= 0) return;
    if (outer <= 0 || inner <= 0) return;  // nothing to add
    makeCurrent();
    if (inner > 1) {
        const unsigned blocks = static_cast<unsigned>(channels < 65535 ? channels : 65535);
        biasBackwardChannelKernel<<<blocks, cuda::kThreads, 0, stream_>>>(dy, dbias, outer, channels, inner);
        TS_CUDA_LAUNCHED();
        return;
    }
    // Enough splits of the rows to fill the GPU, each at least 64 rows, at most 256 splits.
    const long long tiles = (channels + kTileCols - 1) / kTileCols;
    long long splits = (outer + 63) / 64;
    if (splits > 256) splits = 256;
    const long long rowsPer = (outer + splits - 1) / splits;
    splits = (outer + rowsPer - 1) / rowsPer;
    auto* partial = static_cast<double*>(deviceScratch(static_cast<std::size_t>(splits * channels) * sizeof(double)));
    if (tiles > INT_MAX) throw std::invalid_argument("biasBackward: too many channels");
    columnPartialKernel<<<dim3(static_cast<unsigned>(tiles), static_cast<unsigned>(splits)), dim3(kTileCols, kTileRows),
                          0, stream_>>>(dy, partial, outer, channels, rowsPer);
    TS_CUDA_LAUNCHED();
    columnFinishKernel<<<cuda::gridFor(channels), cuda::kThreads, 0, stream_>>>(partial, dbias, channels, splits);
    TS_CUDA_LAUNCHED();
}

double CudaBackend::sumSquares(const float* x, std::int64_t n)
{
    if (n <= 0) return 0.0;
    makeCurrent();
    const unsigned grid = cuda::gridFor(n);
    const int blocks = static_cast<int>(grid < 1024 ? grid : 1024);
    auto* partial = static_cast<double*>(deviceScratch(static_cast<std::size_t>(blocks + 1) * sizeof(double)));
    auto* result = static_cast<double*>(hostScratch(sizeof(double)));
    sumSquaresPartialKernel<<<blocks, cuda::kThreads, 0, stream_>>>(x, n, partial);
    TS_CUDA_LAUNCHED();
    sumPartialsKernel<<<1, cuda::kThreads, 0, stream_>>>(partial, blocks);
    TS_CUDA_LAUNCHED();
    TS_CUDA(cudaMemcpyAsync(result, partial + blocks, sizeof(double), cudaMemcpyDeviceToHost, stream_));
    TS_CUDA(cudaStreamSynchronize(stream_));
    return *result;
}

// One launch and one wait for every range (per-layer gradient norms each step), instead of
// one of each per range. The ranges go up through the pinned scratch, the sums come back
// through it; nothing reuses it before the final wait.
void CudaBackend::segmentedSumSquares(const float* x, const std::vector<std::pair<std::int64_t, std::int64_t>>& ranges,
                                      double* out)
{
    const std::size_t count = ranges.size();
    if (count == 0) return;
    if (count > 65535) {  // beyond one grid row: the per-range path is fine for such oddities
        Backend::segmentedSumSquares(x, ranges, out);
        return;
    }
    makeCurrent();
    const std::size_t rangeBytes = 2 * count * sizeof(long long), sumBytes = count * sizeof(double);
    auto* host = static_cast<unsigned char*>(hostScratch(rangeBytes + sumBytes));
    auto* device = static_cast<unsigned char*>(deviceScratch(rangeBytes + sumBytes));
    auto* hostRanges = reinterpret_cast<long long*>(host);
    for (std::size_t i = 0; i < count; ++i) {
        hostRanges[2 * i] = ranges[i].first;
        hostRanges[2 * i + 1] = ranges[i].second;
    }
    auto* deviceRanges = reinterpret_cast<long long*>(device);
    auto* deviceSums = reinterpret_cast<double*>(device + rangeBytes);
    TS_CUDA(cudaMemcpyAsync(deviceRanges, hostRanges, rangeBytes, cudaMemcpyHostToDevice, stream_));
    segmentSumSquaresKernel<<<static_cast<unsigned>(count), cuda::kThreads, 0, stream_>>>(x, deviceRanges, deviceSums);
    TS_CUDA_LAUNCHED();
    TS_CUDA(cudaMemcpyAsync(host + rangeBytes, deviceSums, sumBytes, cudaMemcpyDeviceToHost, stream_));
    TS_CUDA(cudaStreamSynchronize(stream_));
    std::memcpy(out, host + rangeBytes, sumBytes);
}

}  // namespace ts
