// Batch and group normalisation on the GPU, over x viewed as [n, c, inner].
//
// Batch norm in training (forward and backward) goes through cuDNN's spatial batch norm on
// an NCHW descriptor [n, c, inner, 1]. Its semantics are the contract's: saveInvVariance is
// 1/sqrt(biased var + eps), the running variance is updated with the unbiased variance, and
// exponentialAverageFactor = momentum gives running = (1 - m) running + m batch. The
// backward blends with alpha = beta = 1 so dx, dgamma and dbeta accumulate.
//
// Our own kernels cover the rest and every case cuDNN does not: inference, group norm, a
// backward without dx, one value per channel (cuDNN's unbiased variance would divide by 0;
// the CPU keeps the biased one), tensors beyond cuDNN's 32-bit sizes. They follow
// cpu_norm.cpp step for step: statistics as double sums of x shifted by its first value,
// parameter gradients as double sums, the same float expressions for y and dx. Reductions
// are one block per channel or per (sample, group), in a fixed order (deterministic).
// TS_CUDA_OWN_BATCHNORM=1 in the environment routes batch norm to them too, so a selftest
// can check both paths against the CPU.
//
// cuDNN's batch norm API is deprecated in cuDNN 9 but present; its headers only warn when
// CUDNN_WARN_DEPRECATED is defined, which this build does not do.
#include <climits>
#include <cstdlib>
#include <cstring>

#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_check.h"
#include "backend/cuda/cuda_reduce.cuh"
#include "backend/cross_rank.h"

#include <functional>
#include <vector>

namespace ts {

namespace {

using cuda::gridFor;
using cuda::kThreads;
using cuda::SumOp;

// One block per item (channel or group), grid-strided beyond this many blocks.
unsigned itemGrid(long long items)
{
    return static_cast<unsigned>(items < 1 ? 1 : (items > 65535LL * 8 ? 65535LL * 8 : items));
}

// Where the statistics of element (sample o, channel ch) live: per channel (batch norm) or
// per (sample, group) (group norm); 1/std either stored or formed from a variance + eps.
struct Stats {
    const float* mean;
    const float* invStd;  // null: 1 / sqrt(var + eps) in double
    const float* var;
    double eps;
    long long groups, perGroup;  // perGroup 0: per channel
    __device__ long long index(long long o, long long ch) const
    {
        return perGroup > 0 ? o * groups + ch / perGroup : ch;
    }
    __device__ double invStdAt(long long s) const { return invStd ? double(invStd[s]) : 1.0 / sqrt(double(var[s]) + eps); }
};

// Batch norm statistics, one block per channel: mean and biased variance from double sums of
// x - x[first of channel], then the saved values and the running update.
__global__ void bnStatsKernel(const float* x, long long n, long long c, long long inner, float momentum, float eps,
                              float* saveMean, float* saveInvStd, float* runningMean, float* runningVar)
{
    const long long count = n * inner;
    for (long long ch = blockIdx.x; ch < c; ch += gridDim.x) {
        const double shift = x[ch * inner];
        double a = 0, b = 0;
        for (long long j = threadIdx.x; j < count; j += blockDim.x) {
            const long long o = j / inner, i = j - o * inner;
            const double d = double(x[(o * c + ch) * inner + i]) - shift;
            a += d;
            b += d * d;
        }
        a = cuda::groupReduce<kThreads>(a, SumOp{});
        b = cuda::groupReduce<kThreads>(b, SumOp{});
        if (threadIdx.x == 0) {
            const double dmean = a / double(count);
            const double mean = shift + dmean, var = fmax(0.0, b / double(count) - dmean * dmean);
            // One value per channel has no unbiased variance: the batch's (zero) one is used.
            const double unbias = count > 1 ? double(count) / double(count - 1) : 1.0;
            saveMean[ch] = static_cast<float>(mean);
            saveInvStd[ch] = static_cast<float>(1.0 / sqrt(var + double(eps)));
            runningMean[ch] = static_cast<float>((1.0 - momentum) * runningMean[ch] + double(momentum) * mean);
            runningVar[ch] = static_cast<float>((1.0 - momentum) * runningVar[ch] + double(momentum) * var * unbias);
        }
    }
}

// y = (x - mean) * scale + beta per channel; scale = invStd * gamma (training) or
// gamma / sqrt(var + eps) in double (inference), as the CPU forms them.
__global__ void bnApplyKernel(const float* x, float* y, long long total, long long c, long long inner,
                              const float* mean, const float* invStd, const float* var, float eps, const float* gamma,
                              const float* beta)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < total; i += (long long)gridDim.x * blockDim.x) {
        const long long ch = (i / inner) % c;
        const float scale = invStd ? invStd[ch] * gamma[ch]
                                   : static_cast<float>(double(gamma[ch]) / sqrt(double(var[ch]) + double(eps)));
        y[i] = (x[i] - mean[ch]) * scale + beta[ch];
    }
}

// Per channel over samples and inner: a = sum(dy), b = sum(dy * xhat) in double, xhat from
// `stats`. dgamma += b, dbeta += a (each if wanted); sums[2ch], sums[2ch+1] = a, b if wanted.
__global__ void channelGradSumsKernel(const float* x, const float* dy, long long n, long long c, long long inner,
                                      Stats stats, float* dgamma, float* dbeta, double* sums)
{
    const long long count = n * inner;
    for (long long ch = blockIdx.x; ch < c; ch += gridDim.x) {
        double a = 0, b = 0;
        for (long long j = threadIdx.x; j < count; j += blockDim.x) {
            const long long o = j / inner, i = j - o * inner;
            const long long at = (o * c + ch) * inner + i, s = stats.index(o, ch);
            const double xhat = (double(x[at]) - stats.mean[s]) * stats.invStdAt(s);
            a += dy[at];
            b += double(dy[at]) * xhat;
        }
        a = cuda::groupReduce<kThreads>(a, SumOp{});
        b = cuda::groupReduce<kThreads>(b, SumOp{});
        if (threadIdx.x == 0) {
            if (dgamma) dgamma[ch] += static_cast<float>(b);
            if (dbeta) dbeta[ch] += static_cast<float>(a);
            if (sums) {
                sums[2 * ch] = a;
                sums[2 * ch + 1] = b;
            }
        }
    }
}

// Synchronised batch norm's per-channel sums, one block per channel: sum(x) when center is null,
// else sum((x - center)^2) (the second pass, around the global mean).
__global__ void channelMomentKernel(const float* x, long long n, long long c, long long inner, const double* center,
                                    double* out)
{
    const long long count = n * inner;
    for (long long ch = blockIdx.x; ch < c; ch += gridDim.x) {
        double a = 0;
        for (long long j = threadIdx.x; j < count; j += blockDim.x) {
            const long long o = j / inner, i = j - o * inner;
            const double v = x[(o * c + ch) * inner + i];
            a += center ? (v - center[ch]) * (v - center[ch]) : v;
        }
        a = cuda::groupReduce<kThreads>(a, SumOp{});
        if (threadIdx.x == 0) out[ch] = a;
    }
}

// Training backward: dx += gamma * invstd * (dy - mean(dy) - xhat * mean(dy * xhat)).
__global__ void bnBackwardDxKernel(const float* x, const float* gamma, const float* dy, const float* saveMean,
                                   const float* saveInvStd, const double* sums, float* dx, long long total, long long c,
                                   long long inner, double count)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < total; i += (long long)gridDim.x * blockDim.x) {
        const long long ch = (i / inner) % c;
        const float mean = saveMean[ch], invstd = saveInvStd[ch], scale = gamma[ch] * invstd;
        const float meanDy = static_cast<float>(sums[2 * ch] / count);
        const float meanDyXhat = static_cast<float>(sums[2 * ch + 1] / count);
        const float xhat = (x[i] - mean) * invstd;
        dx[i] += scale * (dy[i] - meanDy - xhat * meanDyXhat);
    }
}

// Inference backward: the statistics are constants, so dx += gamma / sqrt(var + eps) * dy.
__global__ void bnInferenceDxKernel(const float* gamma, const float* runningVar, const float* dy, float* dx,
                                    long long total, long long c, long long inner, float eps)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < total; i += (long long)gridDim.x * blockDim.x) {
        const long long ch = (i / inner) % c;
        const double invstd = 1.0 / sqrt(double(runningVar[ch]) + double(eps));
        const float scale = static_cast<float>(gamma[ch] * invstd);
        dx[i] += scale * dy[i];
    }
}

// Group norm forward, one block per (sample, group): the group is one contiguous run of
// perGroup * inner values.
__global__ void groupNormForwardKernel(const float* x, const float* gamma, const float* beta, float* y, float* mean,
                                       float* rstd, long long items, long long groups, long long perGroup,
                                       long long inner, float eps)
{
    const long long count = perGroup * inner;
    for (long long g = blockIdx.x; g < items; g += gridDim.x) {
        const float* xg = x + g * count;
        const double shift = xg[0];
        double a = 0, b = 0;
        for (long long i = threadIdx.x; i < count; i += blockDim.x) {
            const double d = double(xg[i]) - shift;
            a += d;
            b += d * d;
        }
        a = cuda::groupReduce<kThreads>(a, SumOp{});
        b = cuda::groupReduce<kThreads>(b, SumOp{});
        // Every thread holds the same sums, so every thread forms the same mu and r.
        const double dmean = a / double(count);
        const double var = fmax(0.0, b / double(count) - dmean * dmean);
        const float mu = static_cast<float>(shift + dmean), r = static_cast<float>(1.0 / sqrt(var + double(eps)));
        if (threadIdx.x == 0) {
            mean[g] = mu;
            rstd[g] = r;
        }
        const long long firstChannel = (g % groups) * perGroup;
        float* yg = y + g * count;
        for (long long i = threadIdx.x; i < count; i += blockDim.x) {
            const long long ch = firstChannel + i / inner;
            yg[i] = (xg[i] - mu) * (r * gamma[ch]) + beta[ch];
        }
    }
}

// Group norm dx, one block per (sample, group). With h = dy * gamma:
// dx += rstd * (h - mean(h) - xhat * mean(h * xhat)), means over the group.
__global__ void groupNormBackwardDxKernel(const float* x, const float* gamma, const float* dy, const float* mean,
                                          const float* rstd, float* dx, long long items, long long groups,
                                          long long perGroup, long long inner)
{
    const long long count = perGroup * inner;
    for (long long g = blockIdx.x; g < items; g += gridDim.x) {
        const float* xg = x + g * count;
        const float* dyg = dy + g * count;
        float* dxg = dx + g * count;
        const float mu = mean[g], r = rstd[g];
        const long long firstChannel = (g % groups) * perGroup;
        double a = 0, b = 0;
        for (long long i = threadIdx.x; i < count; i += blockDim.x) {
            const double h = dyg[i] * double(gamma[firstChannel + i / inner]);
            a += h;
            b += h * ((double(xg[i]) - mu) * r);
        }
        a = cuda::groupReduce<kThreads>(a, SumOp{});
        b = cuda::groupReduce<kThreads>(b, SumOp{});
        const float meanH = static_cast<float>(a / double(count)), meanHXhat = static_cast<float>(b / double(count));
        for (long long i = threadIdx.x; i < count; i += blockDim.x) {
            const float gam = gamma[firstChannel + i / inner];
            const float xhat = (xg[i] - mu) * r;
            dxg[i] += r * (dyg[i] * gam - meanH - xhat * meanHXhat);
        }
    }
}

bool ownBatchNormForced()
{
    static const bool forced = [] {
        const char* v = std::getenv("TS_CUDA_OWN_BATCHNORM");
        return v && *v && std::strcmp(v, "0") != 0;
    }();
    return forced;
}

// Whether cuDNN's batch norm takes this shape: more than one value per channel (see the top),
// eps cuDNN accepts, and sizes within its int descriptors.
bool cudnnBatchNormFits(std::int64_t n, std::int64_t c, std::int64_t inner, double eps)
{
    return !ownBatchNormForced() && n * inner > 1 && eps >= CUDNN_BN_MIN_EPSILON && n <= INT_MAX && c <= INT_MAX &&
           inner <= INT_MAX && n * c * inner <= INT_MAX;
}

// x as NCHW [n, c, inner, 1] and the derived per-channel [1, c, 1, 1] descriptor.
struct BatchNormDescriptors {
    cudnnTensorDescriptor_t x = nullptr, channel = nullptr;
    BatchNormDescriptors(std::int64_t n, std::int64_t c, std::int64_t inner)
    {
        try {
            TS_CUDNN(cudnnCreateTensorDescriptor(&x));
            TS_CUDNN(cudnnCreateTensorDescriptor(&channel));
            TS_CUDNN(cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, static_cast<int>(n),
                                                static_cast<int>(c), static_cast<int>(inner), 1));
            TS_CUDNN(cudnnDeriveBNTensorDescriptor(channel, x, CUDNN_BATCHNORM_SPATIAL));
        } catch (...) {
            destroy();
            throw;
        }
    }
    ~BatchNormDescriptors() { destroy(); }
    BatchNormDescriptors(const BatchNormDescriptors&) = delete;
    BatchNormDescriptors& operator=(const BatchNormDescriptors&) = delete;
    void destroy()
    {
        if (channel) cudnnDestroyTensorDescriptor(channel);
        if (x) cudnnDestroyTensorDescriptor(x);
        channel = nullptr, x = nullptr;
    }
};

// cuDNN's backward wants an epsilon "as in the forward"; it only uses it to recompute the
// statistics when none are saved, and we always pass the saved ones.
constexpr double kUnusedEps = 1e-5;

// Device scratch for synchronised batch norm: per-channel doubles (sums, then the mean as the
// second pass's center) and the hi/lo floats that cross the ranks (cross_rank.h).
struct CrossRankScratch {
    double* sums;
    double* center;
    float* pairs;
};

}  // namespace

// The round trip of cross_rank.h's floats: to the device, summed over the ranks, back.
std::function<void(std::vector<float>&)> CudaBackend::deviceExchange(float* devicePairs, const CrossRankSum& sum)
{
    return [this, devicePairs, &sum](std::vector<float>& v) {
        copyFromHost(devicePairs, v.data(), v.size() * sizeof(float));  // synchronises the stream
        sum(devicePairs, v.size());
        copyToHost(v.data(), devicePairs, v.size() * sizeof(float));
    };
}

void CudaBackend::batchNormTrainingAcrossRanks(const float* x, const float* gamma, const float* beta, float* y,
                                               float* saveMean, float* saveInvStd, float* runningMean,
                                               float* runningVar, std::int64_t n, std::int64_t c, std::int64_t inner,
                                               float momentum, float eps, const CrossRankSum& sum)
{
    const std::size_t channels = static_cast<std::size_t>(c);
    auto* base = static_cast<double*>(deviceScratch(2 * channels * sizeof(double) + (2 * channels + 2) * sizeof(float)));
    const CrossRankScratch s{base, base + channels, reinterpret_cast<float*>(base + 2 * channels)};
    std::vector<double> local(channels);
    // One pass of per-channel sums, averaged over the ranks' values.
    const auto pass = [&](const double* center) {
        channelMomentKernel<<<itemGrid(c), kThreads, 0, stream_>>>(x, n, c, inner, center, s.sums);
        TS_CUDA_LAUNCHED();
        copyToHost(local.data(), s.sums, channels * sizeof(double));
        return meanOverRanks(local, double(n * inner), deviceExchange(s.pairs, sum));
    };
    GlobalMoments m;
    MeansOverRanks first = pass(nullptr);
    m.mean = std::move(first.mean);
    m.count = first.count;
    copyFromHost(s.center, m.mean.data(), channels * sizeof(double));
    m.var = pass(s.center).mean;
    // The few per-channel values are finished on the host, as on the CPU.
    std::vector<float> host(4 * channels);
    float* hostMean = host.data();
    float* hostInvStd = hostMean + channels;
    float* hostRunMean = hostInvStd + channels;
    float* hostRunVar = hostRunMean + channels;
    copyToHost(hostRunMean, runningMean, channels * sizeof(float));
    copyToHost(hostRunVar, runningVar, channels * sizeof(float));
    finishBatchNormStatistics(m, momentum, eps, hostMean, hostInvStd, hostRunMean, hostRunVar);
    copyFromHost(saveMean, hostMean, channels * sizeof(float));
    copyFromHost(saveInvStd, hostInvStd, channels * sizeof(float));
    copyFromHost(runningMean, hostRunMean, channels * sizeof(float));
    copyFromHost(runningVar, hostRunVar, channels * sizeof(float));
    const std::int64_t total = n * c * inner;
    bnApplyKernel<<<gridFor(total), kThreads, 0, stream_>>>(x, y, total, c, inner, saveMean, saveInvStd, nullptr, eps,
                                                            gamma, beta);
    TS_CUDA_LAUNCHED();
}

void CudaBackend::batchNormForwardTraining(const float* x, const float* gamma, const float* beta, float* y,
                                           float* saveMean, float* saveInvStd, float* runningMean, float* runningVar,
                                           std::int64_t n, std::int64_t c, std::int64_t inner, float momentum, float eps,
                                           const CrossRankSum* acrossRanks)
{
    makeCurrent();
    const std::int64_t total = n * c * inner;
    if (acrossRanks) {  // every rank takes part, even one with an empty shard
        batchNormTrainingAcrossRanks(x, gamma, beta, y, saveMean, saveInvStd, runningMean, runningVar, n, c, inner,
                                     momentum, eps, *acrossRanks);
        return;
    }
    if (total <= 0) return;
    if (cudnnBatchNormFits(n, c, inner, eps)) {
        const BatchNormDescriptors d(n, c, inner);
        const float one = 1.0f, zero = 0.0f;
        TS_CUDNN(cudnnBatchNormalizationForwardTraining(cudnn_, CUDNN_BATCHNORM_SPATIAL, &one, &zero, d.x, x, d.x, y,
                                                        d.channel, gamma, beta, double(momentum), runningMean,
                                                        runningVar, double(eps), saveMean, saveInvStd));
        return;
    }
    bnStatsKernel<<<itemGrid(c), kThreads, 0, stream_>>>(x, n, c, inner, momentum, eps, saveMean, saveInvStd,
                                                        runningMean, runningVar);
    TS_CUDA_LAUNCHED();
    bnApplyKernel<<<gridFor(total), kThreads, 0, stream_>>>(x, y, total, c, inner, saveMean, saveInvStd, nullptr, eps,
                                                            gamma, beta);
    TS_CUDA_LAUNCHED();
}

void CudaBackend::batchNormForwardInference(const float* x, const float* gamma, const float* beta,
                                            const float* runningMean, const float* runningVar, float* y, std::int64_t n,
                                            std::int64_t c, std::int64_t inner, float eps)
{
    makeCurrent();
    const std::int64_t total = n * c * inner;
    if (total <= 0) return;
    bnApplyKernel<<<gridFor(total), kThreads, 0, stream_>>>(x, y, total, c, inner, runningMean, nullptr, runningVar,
                                                            eps, gamma, beta);
    TS_CUDA_LAUNCHED();
}

void CudaBackend::batchNormBackward(const float* x, const float* gamma, const float* dy, const float* saveMean,
                                    const float* saveInvStd, float* dx, float* dgamma, float* dbeta, std::int64_t n,
                                    std::int64_t c, std::int64_t inner, const CrossRankSum* acrossRanks,
                                    GradWrite write)
{
    makeCurrent();
    const std::int64_t total = n * c * inner;
    // Overwrite as zero + accumulate: a memset is cheap here, and cuDNN's and our kernels stay one form.
    if (write == GradWrite::Overwrite && dx && total > 0) zeroBytes(dx, static_cast<std::size_t>(total) * sizeof(float));
    const Stats stats{saveMean, saveInvStd, nullptr, 0.0, 1, 0};
    if (acrossRanks && dx) {  // dx needs the global batch's sums (cpu_norm.cpp); no dx: no exchange
        const std::size_t channels = static_cast<std::size_t>(c);
        auto* sums = static_cast<double*>(deviceScratch((2 * channels + 1) * sizeof(double) + (4 * channels + 2) * sizeof(float)));
        float* pairs = reinterpret_cast<float*>(sums + 2 * channels + 1);
        channelGradSumsKernel<<<itemGrid(c), kThreads, 0, stream_>>>(x, dy, n, c, inner, stats, dgamma, dbeta, sums);
        TS_CUDA_LAUNCHED();
        std::vector<double> local(2 * channels + 1);
        copyToHost(local.data(), sums, 2 * channels * sizeof(double));
        local.back() = double(n * inner);
        const std::vector<double> global = sumOverRanks(local, deviceExchange(pairs, *acrossRanks));
        copyFromHost(sums, global.data(), 2 * channels * sizeof(double));
        if (total > 0) {
            bnBackwardDxKernel<<<gridFor(total), kThreads, 0, stream_>>>(x, gamma, dy, saveMean, saveInvStd, sums, dx,
                                                                         total, c, inner, global.back());
            TS_CUDA_LAUNCHED();
        }
        return;
    }
    if (total <= 0 || (!dx && !dgamma && !dbeta)) return;
    if (!dx) {  // parameter gradients only: cuDNN always computes dx
        channelGradSumsKernel<<<itemGrid(c), kThreads, 0, stream_>>>(x, dy, n, c, inner, stats, dgamma, dbeta,
                                                                     nullptr);
        TS_CUDA_LAUNCHED();
        return;
    }
    if (cudnnBatchNormFits(n, c, inner, kUnusedEps)) {
        // cuDNN writes both parameter gradients: a missing one goes to scratch and is dropped.
        float* scratch = (!dgamma || !dbeta) ? static_cast<float*>(deviceScratch(2 * std::size_t(c) * sizeof(float)))
                                             : nullptr;
        const BatchNormDescriptors d(n, c, inner);
        const float one = 1.0f;  // alpha 1, beta 1: every result accumulates
        TS_CUDNN(cudnnBatchNormalizationBackward(cudnn_, CUDNN_BATCHNORM_SPATIAL, &one, &one, &one, &one, d.x, x, d.x,
                                                 dy, d.x, dx, d.channel, gamma, dgamma ? dgamma : scratch,
                                                 dbeta ? dbeta : scratch + c, kUnusedEps, saveMean, saveInvStd));
        return;
    }
    auto* sums = static_cast<double*>(deviceScratch(2 * std::size_t(c) * sizeof(double)));
    channelGradSumsKernel<<<itemGrid(c), kThreads, 0, stream_>>>(x, dy, n, c, inner, stats, dgamma, dbeta, sums);
    TS_CUDA_LAUNCHED();
    bnBackwardDxKernel<<<gridFor(total), kThreads, 0, stream_>>>(x, gamma, dy, saveMean, saveInvStd, sums, dx, total,
                                                                 c, inner, double(n * inner));
    TS_CUDA_LAUNCHED();
}

void CudaBackend::batchNormBackwardInference(const float* x, const float* gamma, const float* dy,
                                             const float* runningMean, const float* runningVar, float* dx,
                                             float* dgamma, float* dbeta, std::int64_t n, std::int64_t c,
                                             std::int64_t inner, float eps)
{
    makeCurrent();
    const std::int64_t total = n * c * inner;
    if (total <= 0) return;
    if (dgamma || dbeta) {
        const Stats stats{runningMean, nullptr, runningVar, double(eps), 1, 0};
        channelGradSumsKernel<<<itemGrid(c), kThreads, 0, stream_>>>(x, dy, n, c, inner, stats, dgamma, dbeta,
                                                                     nullptr);
        TS_CUDA_LAUNCHED();
    }
    if (!dx) return;
    bnInferenceDxKernel<<<gridFor(total), kThreads, 0, stream_>>>(gamma, runningVar, dy, dx, total, c, inner, eps);
    TS_CUDA_LAUNCHED();
}

void CudaBackend::groupNormForward(const float* x, const float* gamma, const float* beta, float* y, float* mean,
                                   float* rstd, std::int64_t n, std::int64_t c, std::int64_t inner,
                                   std::int64_t groups, float eps)
{
    makeCurrent();
    if (n * c * inner <= 0 || groups <= 0) return;
    const std::int64_t items = n * groups;
    groupNormForwardKernel<<<itemGrid(items), kThreads, 0, stream_>>>(x, gamma, beta, y, mean, rstd, items, groups,
                                                                      c / groups, inner, eps);
    TS_CUDA_LAUNCHED();
}

void CudaBackend::groupNormBackward(const float* x, const float* gamma, const float* dy, const float* mean,
                                    const float* rstd, float* dx, float* dgamma, float* dbeta, std::int64_t n,
                                    std::int64_t c, std::int64_t inner, std::int64_t groups)
{
    makeCurrent();
    if (n * c * inner <= 0 || groups <= 0) return;
    const std::int64_t perGroup = c / groups;
    if (dgamma || dbeta) {
        const Stats stats{mean, rstd, nullptr, 0.0, groups, perGroup};
        channelGradSumsKernel<<<itemGrid(c), kThreads, 0, stream_>>>(x, dy, n, c, inner, stats, dgamma, dbeta,
                                                                     nullptr);
        TS_CUDA_LAUNCHED();
    }
    if (!dx) return;
    const std::int64_t items = n * groups;
    groupNormBackwardDxKernel<<<itemGrid(items), kThreads, 0, stream_>>>(x, gamma, dy, mean, rstd, dx, items, groups,
                                                                         perGroup, inner);
    TS_CUDA_LAUNCHED();
}

}  // namespace ts
