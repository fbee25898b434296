// The CUDA backend: every primitive of backend.h on one NVIDIA GPU, checked against the CPU
// backend by `trainstudio-cli selftest --device cuda`. GEMM goes through cuBLAS (the math
// precision picks the compute type: F32 exact, TF32/BF16/F16 on tensor cores with f32
// accumulation); convolution and batch norm through cuDNN; everything else is our own
// kernels in cuda_*.cu, one file per family like the CPU backend. All work is queued on one
// stream in order; only the calls that return data to the host (copyToHost, sumSquares)
// wait for it.
//
// Only .cu files include this header (it needs the CUDA headers); the rest of the engine
// reaches the backend through makeCudaBackend() in backend/devices.h.
#pragma once
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cudnn.h>

#include <map>
#include <vector>
#include <mutex>
#include <tuple>

#include "backend/backend.h"
#include "backend/cuda/cuda_allocator.h"

namespace ts {

class CudaBackend final : public Backend {
public:
    // Opens device `index`: stream, cuBLAS and cuDNN handles. Throws std::runtime_error
    // naming the device and the failing call.
    explicit CudaBackend(int index);
    ~CudaBackend() override;
    CudaBackend(const CudaBackend&) = delete;
    CudaBackend& operator=(const CudaBackend&) = delete;

    std::string name() const override { return name_; }  // "cuda:0 (NVIDIA H200)"
    // Answered without a device (cudaSupports in backend/devices.h), so it is one list.
    static bool implements(Primitive p, DType dtype);
    bool supports(Primitive p, DType dtype) const override { return implements(p, dtype); }
    Device device() const override { return {DeviceKind::CUDA, index_}; }
    Allocator& allocator() override { return allocator_; }
    Allocator& hostAllocator() override { return pinned_; }
    void synchronize() override;
    cudaStream_t stream() const { return stream_; }
    int index() const { return index_; }
    // Makes this backend's device current on the calling thread (every entry point does it:
    // the trainer runs on its own thread).
    void makeCurrent() const;

    // cuda_memory.cu
    void fill(float* x, std::int64_t n, float value) override;
    void zeroBytes(void* x, std::size_t bytes) override;
    void copyBytes(void* dst, const void* src, std::size_t bytes) override;
    void copyToHost(void* hostDst, const void* src, std::size_t bytes) override;
    void copyFromHost(void* dst, const void* hostSrc, std::size_t bytes) override;
    void copy2d(const float* src, std::int64_t srcStride, float* dst, std::int64_t dstStride, std::int64_t rows,
                std::int64_t cols, bool accumulate) override;

    // cuda_blas.cu
    void gemm(bool transA, bool transB, std::int64_t m, std::int64_t n, std::int64_t k, float alpha, const float* a,
              std::int64_t lda, const float* b, std::int64_t ldb, float beta, float* c, std::int64_t ldc) override;
    void axpy(std::int64_t n, float alpha, const float* x, float* y) override;
    void add(std::int64_t n, const float* a, const float* b, float* y) override;
    void addBias(const float* bias, float* y, std::int64_t outer, std::int64_t channels, std::int64_t inner) override;
    void biasBackward(const float* dy, float* dbias, std::int64_t outer, std::int64_t channels,
                      std::int64_t inner) override;
    double sumSquares(const float* x, std::int64_t n) override;
    void segmentedSumSquares(const float* x, const std::vector<std::pair<std::int64_t, std::int64_t>>& ranges,
                             double* out) override;

    // cuda_elementwise.cu
    void activationForward(Activation act, float alpha, const float* x, float* y, std::int64_t n) override;
    void activationBackward(Activation act, float alpha, const float* x, const float* y, const float* dy, float* dx,
                            std::int64_t n, GradWrite write = GradWrite::Accumulate) override;
    void dropoutForward(const float* x, float* y, std::uint8_t* mask, std::int64_t n, float p,
                        std::uint64_t seed) override;
    void dropoutBackward(const float* dy, const std::uint8_t* mask, float* dx, std::int64_t n, float p) override;
    void softmaxForward(const float* x, float* y, std::int64_t rows, std::int64_t cols) override;
    void softmaxBackward(const float* y, const float* dy, float* dx, std::int64_t rows, std::int64_t cols) override;

    // cuda_conv.cu (cuDNN; the algorithm is chosen once per geometry and precision, and cached)
    std::size_t conv2dWorkspaceBytes(const ConvGeometry& g) override;
    void conv2dForward(const ConvGeometry& g, const float* x, const float* w, float* y, void* workspace) override;
    void conv2dBackwardData(const ConvGeometry& g, const float* w, const float* dy, float* dx,
                            void* workspace, GradWrite write = GradWrite::Accumulate) override;
    void conv2dBackwardFilter(const ConvGeometry& g, const float* x, const float* dy, float* dw,
                              void* workspace) override;
    // cuda_pool.cu (own kernels: they record the argmax the CPU backend records, so the op's
    // saved buffers are the same on both backends)
    void pool2dForward(PoolKind kind, const PoolGeometry& g, const float* x, float* y, std::int32_t* argmax) override;
    void pool2dBackward(PoolKind kind, const PoolGeometry& g, const float* dy, const std::int32_t* argmax,
                        float* dx, GradWrite write = GradWrite::Accumulate) override;

    // cuda_norm.cu
    void batchNormForwardTraining(const float* x, const float* gamma, const float* beta, float* y, float* saveMean,
                                  float* saveInvStd, float* runningMean, float* runningVar, std::int64_t n,
                                  std::int64_t c, std::int64_t inner, float momentum, float eps,
                                  const CrossRankSum* acrossRanks) override;
    void batchNormForwardInference(const float* x, const float* gamma, const float* beta, const float* runningMean,
                                   const float* runningVar, float* y, std::int64_t n, std::int64_t c,
                                   std::int64_t inner, float eps) override;
    void batchNormBackward(const float* x, const float* gamma, const float* dy, const float* saveMean,
                           const float* saveInvStd, float* dx, float* dgamma, float* dbeta, std::int64_t n,
                           std::int64_t c, std::int64_t inner,
                           const CrossRankSum* acrossRanks, GradWrite write = GradWrite::Accumulate) override;
    void batchNormBackwardInference(const float* x, const float* gamma, const float* dy, const float* runningMean,
                                    const float* runningVar, float* dx, float* dgamma, float* dbeta, std::int64_t n,
                                    std::int64_t c, std::int64_t inner, float eps) override;
    void groupNormForward(const float* x, const float* gamma, const float* beta, float* y, float* mean, float* rstd,
                          std::int64_t n, std::int64_t c, std::int64_t inner, std::int64_t groups, float eps) override;
    void groupNormBackward(const float* x, const float* gamma, const float* dy, const float* mean, const float* rstd,
                           float* dx, float* dgamma, float* dbeta, std::int64_t n, std::int64_t c, std::int64_t inner,
                           std::int64_t groups) override;

    // cuda_loss.cu
    void crossEntropyForward(const float* logits, const std::int64_t* targets, const float* classWeights, float* probs,
                             float* loss, std::int64_t rows, std::int64_t cols, float labelSmoothing,
                             std::int64_t ignoreIndex) override;
    void crossEntropyBackward(const float* probs, const std::int64_t* targets, const float* classWeights,
                              const float* dloss, float* dlogits, std::int64_t rows, std::int64_t cols,
                              float labelSmoothing, std::int64_t ignoreIndex) override;
    void mseForward(const float* pred, const float* target, float* loss, std::int64_t n) override;
    void mseBackward(const float* pred, const float* target, const float* dloss, float* dpred, float* dtarget,
                     std::int64_t n) override;
    void bceWithLogitsForward(const float* logits, const float* target, float* loss, std::int64_t n) override;
    void bceWithLogitsBackward(const float* logits, const float* target, const float* dloss, float* dlogits,
                               float* dtarget, std::int64_t n) override;

    // cuda_embedding.cu (an index out of range is caught on the device and thrown here, which
    // waits for the lookup: embeddings are not on any hot benchmark path)
    void embeddingForward(const std::int64_t* indices, const float* table, float* y, std::int64_t count,
                          std::int64_t rows, std::int64_t dim) override;
    void embeddingBackward(const std::int64_t* indices, const float* dy, float* dtable, std::int64_t count,
                           std::int64_t dim) override;

    // cuda_optim.cu (one fused kernel per update over the flat parameter buffer)
    void sgdUpdate(float* param, const float* grad, float* momentumBuf, std::int64_t n, double lr, double momentum,
                   bool nesterov, double weightDecay) override;
    void adamUpdate(float* param, const float* grad, float* m, float* v, std::int64_t n, double lr, double beta1,
                    double beta2, double eps, double weightDecay, bool decoupled, std::int64_t step) override;
    void rmspropUpdate(float* param, const float* grad, float* squareAvg, float* momentumBuf, std::int64_t n,
                       double lr, double alpha, double eps, double weightDecay, double momentum) override;
    void scale(float* x, std::int64_t n, float alpha) override;
    void clampValues(float* x, std::int64_t n, float lo, float hi) override;

    // Scratch owned by the backend (cuda_memory.cu): device bytes for reductions and small
    // results, and a pinned host slot the reductions return through. Grown on demand.
    void* deviceScratch(std::size_t bytes);
    // Synchronised batch norm (cross_rank.h): the forward's two passes, and the float round trip.
    void batchNormTrainingAcrossRanks(const float* x, const float* gamma, const float* beta, float* y,
                                      float* saveMean, float* saveInvStd, float* runningMean, float* runningVar,
                                      std::int64_t n, std::int64_t c, std::int64_t inner, float momentum, float eps,
                                      const CrossRankSum& sum);
    std::function<void(std::vector<float>&)> deviceExchange(float* devicePairs, const CrossRankSum& sum);
    void* hostScratch(std::size_t bytes);

private:
    struct ConvAlgos {
        cudnnConvolutionFwdAlgo_t forward;
        cudnnConvolutionBwdDataAlgo_t backwardData;
        cudnnConvolutionBwdFilterAlgo_t backwardFilter;
        std::size_t workspaceBytes;
    };
    // cuda_conv.cu: chosen once per (geometry, precision), then reused.
    const ConvAlgos& convAlgos(const ConvGeometry& g);

    int index_;
    std::string name_;
    cudaStream_t stream_ = nullptr;
    cublasHandle_t cublas_ = nullptr;
    cudnnHandle_t cudnn_ = nullptr;
    CudaAllocator allocator_;
    PinnedHostAllocator pinned_;
    void* deviceScratch_ = nullptr;
    std::size_t deviceScratchBytes_ = 0;
    void* hostScratch_ = nullptr;
    std::size_t hostScratchBytes_ = 0;
    std::mutex convMutex_;
    std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t,
                        std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t,
                        std::int64_t, std::int64_t, int>,
             ConvAlgos>
        convCache_;
};

}  // namespace ts
