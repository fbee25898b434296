// Losses on the GPU with the conventions of cpu_loss.cpp: cross-entropy with class weights
// and label smoothing (PyTorch's weighted mean), MSE, BCE with logits. The loss value never
// leaves the device: per-row or per-block partial sums in double go to backend scratch, and
// one block adds them in a fixed order (deterministic, no host sync). The backward kernels
// read dloss[0] on the device.
//
// A row whose target is the ignore index weighs 0. Any other cross-entropy target outside
// [0, cols) cannot throw here without waiting for the GPU: it is never used as an index, and
// its row weighs NaN instead, so the loss and the gradient come out NaN, which the trainer
// reports as divergence.
#include <math_constants.h>

#include <cmath>

#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_check.h"
#include "backend/cuda/cuda_reduce.cuh"

namespace ts {

namespace {

using cuda::gridFor;
using cuda::kThreads;
using cuda::SumOp;

__device__ inline bool validTarget(long long t, long long cols) { return t >= 0 && t < cols; }

__device__ inline double rowWeight(const float* classWeights, const std::int64_t* targets, long long r, long long cols,
                                   long long ignoreIndex)
{
    const long long t = targets[r];
    if (t == ignoreIndex) return 0.0;
    if (!validTarget(t, cols)) return CUDART_NAN;
    return classWeights ? double(classWeights[t]) : 1.0;
}

// One group of W threads per row: probs, and the row's weighted loss and weight into
// rowOut[2r], rowOut[2r + 1]. Loss per row, with logZ = log sum exp(x) and
// q = (1-s) onehot(t) + s/C:  (1-s) (logZ - x_t) + s (logZ - mean x).
template <int W>
__global__ void crossEntropyRowsKernel(const float* logits, const std::int64_t* targets, const float* classWeights,
                                       float* probs, double* rowOut, long long rows, long long cols, double s,
                                       long long ignoreIndex)
{
    constexpr int perBlock = kThreads / W;
    const int lane = threadIdx.x % W;
    for (long long r = (long long)blockIdx.x * perBlock + threadIdx.x / W; r < rows;
         r += (long long)gridDim.x * perBlock) {
        const float* x = logits + r * cols;
        float* p = probs + r * cols;
        float m = -INFINITY;
        for (long long c = lane; c < cols; c += W) m = fmaxf(m, x[c]);
        const double maxLogit = cuda::groupReduce<W>(m, cuda::MaxOp{});
        double sumExp = 0, sumLogits = 0;
        for (long long c = lane; c < cols; c += W) {
            sumExp += exp(double(x[c]) - maxLogit);
            sumLogits += x[c];
        }
        sumExp = cuda::groupReduce<W>(sumExp, SumOp{});
        sumLogits = cuda::groupReduce<W>(sumLogits, SumOp{});
        for (long long c = lane; c < cols; c += W) p[c] = static_cast<float>(exp(double(x[c]) - maxLogit) / sumExp);
        if (lane == 0) {
            const double w = rowWeight(classWeights, targets, r, cols, ignoreIndex);
            const long long t = targets[r];
            const double xt = validTarget(t, cols) ? double(x[t]) : 0.0;
            const double logZ = maxLogit + log(sumExp);
            const double l = (1 - s) * (logZ - xt) + s * (logZ - sumLogits / double(cols));
            rowOut[2 * r] = w == 0 ? 0.0 : w * l;
            rowOut[2 * r + 1] = w;
        }
    }
}

// One block: loss[0] = sum(weighted losses) / sum(weights); all-zero weights give 0, not NaN.
__global__ void crossEntropyFinishKernel(const double* rowOut, long long rows, float* loss)
{
    double total = 0, weights = 0;
    for (long long r = threadIdx.x; r < rows; r += blockDim.x) {
        total += rowOut[2 * r];
        weights += rowOut[2 * r + 1];
    }
    total = cuda::groupReduce<kThreads>(total, SumOp{});
    weights = cuda::groupReduce<kThreads>(weights, SumOp{});
    if (threadIdx.x == 0) loss[0] = static_cast<float>(total * (weights > 0 ? 1.0 / weights : 0.0));
}

// One block: scale[0] = dloss / sum(weights) (0 when the weights sum to 0).
__global__ void crossEntropyScaleKernel(const std::int64_t* targets, const float* classWeights, const float* dloss,
                                        double* scale, long long rows, long long cols, long long ignoreIndex)
{
    double weights = 0;
    for (long long r = threadIdx.x; r < rows; r += blockDim.x)
        weights += rowWeight(classWeights, targets, r, cols, ignoreIndex);
    weights = cuda::groupReduce<kThreads>(weights, SumOp{});
    if (threadIdx.x == 0) scale[0] = double(dloss[0]) * (weights > 0 ? 1.0 / weights : 0.0);
}

// d loss / d x_rc = w_r / sum(w) * (p_rc - q_rc).
__global__ void crossEntropyBackwardKernel(const float* probs, const std::int64_t* targets, const float* classWeights,
                                           const double* scale, float* dlogits, long long rows, long long cols,
                                           double s, long long ignoreIndex)
{
    const long long total = rows * cols;
    const double uniform = s / double(cols);
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < total;
         i += (long long)gridDim.x * blockDim.x) {
        const long long r = i / cols, c = i - r * cols;
        const double g = scale[0] * rowWeight(classWeights, targets, r, cols, ignoreIndex);
        if (g == 0) continue;  // ignored, or weighs nothing
        const double q = (c == targets[r] ? 1 - s : 0.0) + uniform;
        dlogits[i] += static_cast<float>(g * (double(probs[i]) - q));
    }
}

// Pass 1 of a deterministic mean: block b sums term(i) over its grid-stride share into
// partial[b]. The grid size comes from n alone (partialBlocks).
template <class Term> __global__ void partialSumKernel(long long n, double* partial, Term term)
{
    double s = 0;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        s += term(i);
    s = cuda::groupReduce<kThreads>(s, SumOp{});
    if (threadIdx.x == 0) partial[blockIdx.x] = s;
}

// Pass 2: loss[0] = sum(partial) / n.
__global__ void meanFinishKernel(const double* partial, int blocks, long long n, float* loss)
{
    double s = 0;
    for (int b = threadIdx.x; b < blocks; b += blockDim.x) s += partial[b];
    s = cuda::groupReduce<kThreads>(s, SumOp{});
    if (threadIdx.x == 0) loss[0] = static_cast<float>(n > 0 ? s / double(n) : 0.0);
}

struct SquaredError {
    const float* pred;
    const float* target;
    __device__ double operator()(long long i) const
    {
        const double d = double(pred[i]) - double(target[i]);
        return d * d;
    }
};

struct BceTerm {
    const float* logits;
    const float* target;
    __device__ double operator()(long long i) const
    {
        const double x = logits[i], t = target[i];
        return fmax(x, 0.0) - x * t + log1p(exp(-fabs(x)));
    }
};

__global__ void mseBackwardKernel(const float* pred, const float* target, const float* dloss, float* dpred,
                                  float* dtarget, long long n)
{
    const float scale = static_cast<float>(2.0 * double(dloss[0]) / double(n));
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        const float g = scale * (pred[i] - target[i]);
        if (dpred) dpred[i] += g;
        if (dtarget) dtarget[i] -= g;
    }
}

__device__ inline double stableSigmoid(double x)
{
    if (x >= 0) return 1.0 / (1.0 + exp(-x));
    const double e = exp(x);
    return e / (1.0 + e);
}

// d/dx = sigmoid(x) - t, d/dt = -x.
__global__ void bceBackwardKernel(const float* logits, const float* target, const float* dloss, float* dlogits,
                                  float* dtarget, long long n)
{
    const double scale = double(dloss[0]) / double(n);
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        const double x = logits[i];
        if (dlogits) dlogits[i] += static_cast<float>(scale * (stableSigmoid(x) - double(target[i])));
        if (dtarget) dtarget[i] += static_cast<float>(-scale * x);
    }
}

constexpr long long kWarpRowMax = 1024;  // longer rows get a whole block

unsigned rowGrid(long long rows, int rowsPerBlock)
{
    const long long blocks = (rows + rowsPerBlock - 1) / rowsPerBlock;
    return static_cast<unsigned>(blocks < 1 ? 1 : (blocks > 65535LL * 8 ? 65535LL * 8 : blocks));
}

}  // namespace

void CudaBackend::crossEntropyForward(const float* logits, const std::int64_t* targets, const float* classWeights,
                                      float* probs, float* loss, std::int64_t rows, std::int64_t cols,
                                      float labelSmoothing, std::int64_t ignoreIndex)
{
    makeCurrent();
    if (rows <= 0 || cols <= 0) {
        fill(loss, 1, 0.0f);
        return;
    }
    auto* rowOut = static_cast<double*>(deviceScratch(static_cast<std::size_t>(2 * rows) * sizeof(double)));
    const double s = labelSmoothing;
    if (cols <= kWarpRowMax)
        crossEntropyRowsKernel<32><<<rowGrid(rows, kThreads / 32), kThreads, 0, stream_>>>(
            logits, targets, classWeights, probs, rowOut, rows, cols, s, ignoreIndex);
    else
        crossEntropyRowsKernel<kThreads><<<rowGrid(rows, 1), kThreads, 0, stream_>>>(
            logits, targets, classWeights, probs, rowOut, rows, cols, s, ignoreIndex);
    TS_CUDA_LAUNCHED();
    crossEntropyFinishKernel<<<1, kThreads, 0, stream_>>>(rowOut, rows, loss);
    TS_CUDA_LAUNCHED();
}

void CudaBackend::crossEntropyBackward(const float* probs, const std::int64_t* targets, const float* classWeights,
                                       const float* dloss, float* dlogits, std::int64_t rows, std::int64_t cols,
                                       float labelSmoothing, std::int64_t ignoreIndex)
{
    makeCurrent();
    if (!dlogits || rows <= 0 || cols <= 0) return;
    auto* scale = static_cast<double*>(deviceScratch(sizeof(double)));
    crossEntropyScaleKernel<<<1, kThreads, 0, stream_>>>(targets, classWeights, dloss, scale, rows, cols, ignoreIndex);
    TS_CUDA_LAUNCHED();
    crossEntropyBackwardKernel<<<gridFor(rows * cols), kThreads, 0, stream_>>>(
        probs, targets, classWeights, scale, dlogits, rows, cols, labelSmoothing, ignoreIndex);
    TS_CUDA_LAUNCHED();
}

void CudaBackend::mseForward(const float* pred, const float* target, float* loss, std::int64_t n)
{
    makeCurrent();
    const unsigned blocks = cuda::partialBlocks(n);
    auto* partial = static_cast<double*>(deviceScratch(blocks * sizeof(double)));
    partialSumKernel<<<blocks, kThreads, 0, stream_>>>(n, partial, SquaredError{pred, target});
    TS_CUDA_LAUNCHED();
    meanFinishKernel<<<1, kThreads, 0, stream_>>>(partial, static_cast<int>(blocks), n, loss);
    TS_CUDA_LAUNCHED();
}

void CudaBackend::mseBackward(const float* pred, const float* target, const float* dloss, float* dpred,
                              float* dtarget, std::int64_t n)
{
    makeCurrent();
    if (n <= 0 || (!dpred && !dtarget)) return;
    mseBackwardKernel<<<gridFor(n), kThreads, 0, stream_>>>(pred, target, dloss, dpred, dtarget, n);
    TS_CUDA_LAUNCHED();
}

void CudaBackend::bceWithLogitsForward(const float* logits, const float* target, float* loss, std::int64_t n)
{
    makeCurrent();
    const unsigned blocks = cuda::partialBlocks(n);
    auto* partial = static_cast<double*>(deviceScratch(blocks * sizeof(double)));
    partialSumKernel<<<blocks, kThreads, 0, stream_>>>(n, partial, BceTerm{logits, target});
    TS_CUDA_LAUNCHED();
    meanFinishKernel<<<1, kThreads, 0, stream_>>>(partial, static_cast<int>(blocks), n, loss);
    TS_CUDA_LAUNCHED();
}

void CudaBackend::bceWithLogitsBackward(const float* logits, const float* target, const float* dloss, float* dlogits,
                                        float* dtarget, std::int64_t n)
{
    makeCurrent();
    if (n <= 0 || (!dlogits && !dtarget)) return;
    bceBackwardKernel<<<gridFor(n), kThreads, 0, stream_>>>(logits, target, dloss, dlogits, dtarget, n);
    TS_CUDA_LAUNCHED();
}

}  // namespace ts
