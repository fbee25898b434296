// The CPU backend: the numerical reference for every other backend. f32 throughout,
// OpenBLAS for matrix products, OpenMP over the cores. Primitives are grouped by family
// in cpu_*.cpp files.
#pragma once
#include "backend/backend.h"

namespace ts {

// Threads for the OpenMP loops and the GEMM tiles (n <= 0: all hardware threads).
void setCpuThreads(int n);

namespace cpu {
// ReLU's value (NaN gives 0): the activation primitive and batch norm's fused ReLU share it, so
// the fusion gives the same bits.
inline float relu(float v) { return v > 0.0f ? v : 0.0f; }
}  // namespace cpu

class CpuBackend : public Backend {
public:
    std::string name() const override { return "cpu"; }
    Device device() const override { return {DeviceKind::CPU, 0}; }
    Allocator& allocator() override;
    // The reference: every primitive, on f32.
    bool supports(Primitive p, DType dtype) const override { return isMemoryPrimitive(p) || dtype == DType::F32; }

    // cpu_memory.cpp
    void fill(float* x, std::int64_t n, float value) override;
    void zeroBytes(void* x, std::size_t bytes) override;
    void copyBytes(void* dst, const void* src, std::size_t bytes) override;
    void copyToHost(void* hostDst, const void* src, std::size_t bytes) override;
    void copyFromHost(void* dst, const void* hostSrc, std::size_t bytes) override;
    void copy2d(const float* src, std::int64_t srcStride, float* dst, std::int64_t dstStride, std::int64_t rows,
                std::int64_t cols, bool accumulate) override;

    // cpu_blas.cpp
    void gemm(bool transA, bool transB, std::int64_t m, std::int64_t n, std::int64_t k, float alpha, const float* a,
              std::int64_t lda, const float* b, std::int64_t ldb, float beta, float* c, std::int64_t ldc) override;
    // gemm with tiled = false: one OpenBLAS call on the calling thread, for callers that run
    // their own parallel lanes around it (convolution); its result depends on the shape alone.
    void gemmProduct(bool tiled, bool transA, bool transB, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
                     const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float beta, float* c,
                     std::int64_t ldc);
    void axpy(std::int64_t n, float alpha, const float* x, float* y) override;
    void add(std::int64_t n, const float* a, const float* b, float* y) override;
    void addBias(const float* bias, float* y, std::int64_t outer, std::int64_t channels, std::int64_t inner) override;
    void biasBackward(const float* dy, float* dbias, std::int64_t outer, std::int64_t channels,
                      std::int64_t inner) override;
    double sumSquares(const float* x, std::int64_t n) override;

    // cpu_elementwise.cpp
    void activationForward(Activation act, float alpha, const float* x, float* y, std::int64_t n) override;
    void activationBackward(Activation act, float alpha, const float* x, const float* y, const float* dy, float* dx,
                            std::int64_t n, GradWrite write = GradWrite::Accumulate) override;
    void dropoutForward(const float* x, float* y, std::uint8_t* mask, std::int64_t n, float p,
                        std::uint64_t seed) override;
    void dropoutBackward(const float* dy, const std::uint8_t* mask, float* dx, std::int64_t n, float p) override;
    void softmaxForward(const float* x, float* y, std::int64_t rows, std::int64_t cols) override;
    void softmaxBackward(const float* y, const float* dy, float* dx, std::int64_t rows, std::int64_t cols) override;

    // cpu_conv.cpp (cpu_winograd.cpp for 3x3 stride-1 layers)
    bool useWinograd(const ConvGeometry& g) const;
    std::size_t conv2dWorkspaceBytes(const ConvGeometry& g) override;
    void conv2dForward(const ConvGeometry& g, const float* x, const float* w, float* y, void* workspace) override;
    void conv2dBackwardData(const ConvGeometry& g, const float* w, const float* dy, float* dx,
                            void* workspace, GradWrite write = GradWrite::Accumulate) override;
    void conv2dBackwardFilter(const ConvGeometry& g, const float* x, const float* dy, float* dw,
                              void* workspace) override;
    void conv2dBackward(const ConvGeometry& g, const float* x, const float* w, const float* dy, float* dx, float* dw,
                        void* workspace, GradWrite write) override;
    // cpu_pool.cpp
    void pool2dForward(PoolKind kind, const PoolGeometry& g, const float* x, float* y, std::int32_t* argmax) override;
    void pool2dBackward(PoolKind kind, const PoolGeometry& g, const float* dy, const std::int32_t* argmax,
                        float* dx, GradWrite write = GradWrite::Accumulate) override;
    // cpu_upsample.cpp
    void upsample2dForward(UpsampleMode mode, const UpsampleGeometry& g, const float* x, float* y) override;
    void upsample2dBackward(UpsampleMode mode, const UpsampleGeometry& g, const float* dy, float* dx) override;

    // cpu_norm.cpp
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
    void batchNormReluForwardTraining(const float* x, const float* gamma, const float* beta, float* y, float* r,
                                      float* saveMean, float* saveInvStd, float* runningMean, float* runningVar,
                                      std::int64_t n, std::int64_t c, std::int64_t inner, float momentum, float eps,
                                      const CrossRankSum* acrossRanks) override;
    void batchNormReluBackward(const float* x, const float* gamma, const float* beta, const float* y, const float* r,
                               const float* dr, float* dy, const float* saveMean, const float* saveInvStd, float* dx,
                               float* dgamma, float* dbeta, std::int64_t n, std::int64_t c, std::int64_t inner,
                               const CrossRankSum* acrossRanks, GradWrite write) override;
    void batchNormBackwardInference(const float* x, const float* gamma, const float* dy, const float* runningMean,
                                    const float* runningVar, float* dx, float* dgamma, float* dbeta, std::int64_t n,
                                    std::int64_t c, std::int64_t inner, float eps) override;
    void groupNormForward(const float* x, const float* gamma, const float* beta, float* y, float* mean, float* rstd,
                          std::int64_t n, std::int64_t c, std::int64_t inner, std::int64_t groups, float eps) override;
    void groupNormBackward(const float* x, const float* gamma, const float* dy, const float* mean, const float* rstd,
                           float* dx, float* dgamma, float* dbeta, std::int64_t n, std::int64_t c, std::int64_t inner,
                           std::int64_t groups) override;

    // cpu_loss.cpp
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
    void robustLossForward(const float* pred, const float* target, float* loss, std::int64_t n, float delta) override;
    void robustLossBackward(const float* pred, const float* target, const float* dloss, float* dpred, float* dtarget,
                            std::int64_t n, float delta) override;
    void bceWithLogitsBackward(const float* logits, const float* target, const float* dloss, float* dlogits,
                               float* dtarget, std::int64_t n) override;

    // cpu_attention.cpp
    void attentionForward(const AttentionGeometry& g, const float* q, const float* k, const float* v,
                          const float* keyMask, float* o, float* lse, std::uint64_t seed) override;
    void attentionBackward(const AttentionGeometry& g, const float* q, const float* k, const float* v,
                           const float* keyMask, const float* o, const float* lse, const float* dout, float* dq,
                           float* dk, float* dv, std::uint64_t seed) override;
    // cpu_permute.cpp
    void permute(const PermuteGeometry& g, const float* x, float* y, GradWrite write) override;
    // cpu_recurrent.cpp
    void recurrentCellForward(const RecurrentStep& s, const float* gx, const float* gh, const float* hPrev,
                              const float* cPrev, float* act, float* c, float* h) override;
    void recurrentCellBackward(const RecurrentStep& s, const float* act, const float* hPrev, const float* cPrev,
                               const float* c, const float* dh, float* dc, float* dgx, float* dgh,
                               float* dhPrev) override;
    // cpu_embedding.cpp
    void embeddingForward(const std::int64_t* indices, const float* table, float* y, std::int64_t count,
                          std::int64_t rows, std::int64_t dim) override;
    void embeddingBackward(const std::int64_t* indices, const float* dy, float* dtable, std::int64_t count,
                           std::int64_t dim) override;

    // cpu_optim.cpp
    void sgdUpdate(float* param, const float* grad, float* momentumBuf, std::int64_t n, double lr, double momentum,
                   bool nesterov, double weightDecay) override;
    void adamUpdate(float* param, const float* grad, float* m, float* v, std::int64_t n, double lr, double beta1,
                    double beta2, double eps, double weightDecay, bool decoupled, std::int64_t step) override;
    void rmspropUpdate(float* param, const float* grad, float* squareAvg, float* momentumBuf, std::int64_t n,
                       double lr, double alpha, double eps, double weightDecay, double momentum) override;
    void scale(float* x, std::int64_t n, float alpha) override;
    void clampValues(float* x, std::int64_t n, float lo, float hi) override;
};

}  // namespace ts
