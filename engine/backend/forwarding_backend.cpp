#include "backend/forwarding_backend.h"

#include <algorithm>

namespace ts {

void* PlaceholderAllocator::allocate(std::size_t bytes)
{
    void* p = reinterpret_cast<void*>(next_);
    next_ += (std::max<std::size_t>(bytes, 1) + 255) / 256 * 256;
    return p;
}

std::string ForwardingBackend::name() const { return inner_ ? inner_->name() : "dry run"; }
Device ForwardingBackend::device() const { return inner_ ? inner_->device() : Device{DeviceKind::CPU, 0}; }
Allocator& ForwardingBackend::allocator() { return inner_ ? inner_->allocator() : placeholders_; }
Allocator& ForwardingBackend::hostAllocator() { return inner_ ? inner_->hostAllocator() : placeholders_; }
bool ForwardingBackend::supports(Primitive p, DType dtype) const { return !inner_ || inner_->supports(p, dtype); }
void ForwardingBackend::synchronize()
{
    if (inner_) inner_->synchronize();
}

// Each primitive: tell, then pass on.
#define TS_FORWARD(primitive, ...)           \
    called(Primitive::primitive);            \
    if (inner_) inner_->primitive(__VA_ARGS__)

void ForwardingBackend::fill(float* x, std::int64_t n, float value) { TS_FORWARD(fill, x, n, value); }
void ForwardingBackend::zeroBytes(void* x, std::size_t bytes) { TS_FORWARD(zeroBytes, x, bytes); }
void ForwardingBackend::copyBytes(void* dst, const void* src, std::size_t bytes) { TS_FORWARD(copyBytes, dst, src, bytes); }
void ForwardingBackend::copyToHost(void* hostDst, const void* src, std::size_t bytes)
{
    TS_FORWARD(copyToHost, hostDst, src, bytes);
}
void ForwardingBackend::copyFromHost(void* dst, const void* hostSrc, std::size_t bytes)
{
    TS_FORWARD(copyFromHost, dst, hostSrc, bytes);
}
void ForwardingBackend::copy2d(const float* src, std::int64_t srcStride, float* dst, std::int64_t dstStride,
                               std::int64_t rows, std::int64_t cols, bool accumulate)
{
    TS_FORWARD(copy2d, src, srcStride, dst, dstStride, rows, cols, accumulate);
}

void ForwardingBackend::gemm(bool transA, bool transB, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
                             const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float beta, float* c,
                             std::int64_t ldc)
{
    TS_FORWARD(gemm, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
void ForwardingBackend::axpy(std::int64_t n, float alpha, const float* x, float* y) { TS_FORWARD(axpy, n, alpha, x, y); }
void ForwardingBackend::add(std::int64_t n, const float* a, const float* b, float* y) { TS_FORWARD(add, n, a, b, y); }
void ForwardingBackend::addBias(const float* bias, float* y, std::int64_t outer, std::int64_t channels,
                                std::int64_t inner)
{
    TS_FORWARD(addBias, bias, y, outer, channels, inner);
}
void ForwardingBackend::biasBackward(const float* dy, float* dbias, std::int64_t outer, std::int64_t channels,
                                     std::int64_t inner)
{
    TS_FORWARD(biasBackward, dy, dbias, outer, channels, inner);
}
double ForwardingBackend::sumSquares(const float* x, std::int64_t n)
{
    called(Primitive::sumSquares);
    return inner_ ? inner_->sumSquares(x, n) : 0.0;
}
void ForwardingBackend::segmentedSumSquares(const float* x,
                                            const std::vector<std::pair<std::int64_t, std::int64_t>>& ranges,
                                            double* out)
{
    called(Primitive::segmentedSumSquares);
    if (inner_)
        inner_->segmentedSumSquares(x, ranges, out);
    else
        std::fill(out, out + ranges.size(), 0.0);
}

void ForwardingBackend::activationForward(Activation act, float alpha, const float* x, float* y, std::int64_t n)
{
    called(Primitive::activationForward, act);
    if (inner_) inner_->activationForward(act, alpha, x, y, n);
}
void ForwardingBackend::activationBackward(Activation act, float alpha, const float* x, const float* y,
                                           const float* dy, float* dx, std::int64_t n, GradWrite write)
{
    called(Primitive::activationBackward, act);
    if (inner_) inner_->activationBackward(act, alpha, x, y, dy, dx, n, write);
}
void ForwardingBackend::dropoutForward(const float* x, float* y, std::uint8_t* mask, std::int64_t n, float p,
                                       std::uint64_t seed)
{
    TS_FORWARD(dropoutForward, x, y, mask, n, p, seed);
}
void ForwardingBackend::dropoutBackward(const float* dy, const std::uint8_t* mask, float* dx, std::int64_t n, float p)
{
    TS_FORWARD(dropoutBackward, dy, mask, dx, n, p);
}

std::size_t ForwardingBackend::conv2dWorkspaceBytes(const ConvGeometry& g)
{
    return inner_ ? inner_->conv2dWorkspaceBytes(g) : 0;
}
void ForwardingBackend::conv2dForward(const ConvGeometry& g, const float* x, const float* w, float* y, void* workspace)
{
    TS_FORWARD(conv2dForward, g, x, w, y, workspace);
}
void ForwardingBackend::conv2dBackwardData(const ConvGeometry& g, const float* w, const float* dy, float* dx,
                                           void* workspace, GradWrite write)
{
    TS_FORWARD(conv2dBackwardData, g, w, dy, dx, workspace, write);
}
void ForwardingBackend::conv2dBackwardFilter(const ConvGeometry& g, const float* x, const float* dy, float* dw,
                                             void* workspace)
{
    TS_FORWARD(conv2dBackwardFilter, g, x, dy, dw, workspace);
}
void ForwardingBackend::conv2dBackward(const ConvGeometry& g, const float* x, const float* w, const float* dy,
                                       float* dx, float* dw, void* workspace, GradWrite write)
{
    TS_FORWARD(conv2dBackward, g, x, w, dy, dx, dw, workspace, write);
}
void ForwardingBackend::pool2dForward(PoolKind kind, const PoolGeometry& g, const float* x, float* y,
                                      std::int32_t* argmax)
{
    TS_FORWARD(pool2dForward, kind, g, x, y, argmax);
}
void ForwardingBackend::pool2dBackward(PoolKind kind, const PoolGeometry& g, const float* dy,
                                       const std::int32_t* argmax, float* dx, GradWrite write)
{
    TS_FORWARD(pool2dBackward, kind, g, dy, argmax, dx, write);
}
void ForwardingBackend::upsample2dForward(UpsampleMode mode, const UpsampleGeometry& g, const float* x, float* y)
{
    TS_FORWARD(upsample2dForward, mode, g, x, y);
}
void ForwardingBackend::upsample2dBackward(UpsampleMode mode, const UpsampleGeometry& g, const float* dy, float* dx)
{
    TS_FORWARD(upsample2dBackward, mode, g, dy, dx);
}

void ForwardingBackend::attentionForward(const AttentionGeometry& g, const float* q, const float* k, const float* v,
                                         const float* keyMask, float* o, float* lse, std::uint64_t seed)
{
    TS_FORWARD(attentionForward, g, q, k, v, keyMask, o, lse, seed);
}
void ForwardingBackend::attentionBackward(const AttentionGeometry& g, const float* q, const float* k, const float* v,
                                          const float* keyMask, const float* o, const float* lse, const float* dout,
                                          float* dq, float* dk, float* dv, std::uint64_t seed)
{
    TS_FORWARD(attentionBackward, g, q, k, v, keyMask, o, lse, dout, dq, dk, dv, seed);
}
void ForwardingBackend::permute(const PermuteGeometry& g, const float* x, float* y, GradWrite write)
{
    TS_FORWARD(permute, g, x, y, write);
}
void ForwardingBackend::recurrentCellForward(const RecurrentStep& s, const float* gx, const float* gh,
                                             const float* hPrev, const float* cPrev, float* act, float* c, float* h)
{
    TS_FORWARD(recurrentCellForward, s, gx, gh, hPrev, cPrev, act, c, h);
}
void ForwardingBackend::recurrentCellBackward(const RecurrentStep& s, const float* act, const float* hPrev,
                                              const float* cPrev, const float* c, const float* dh, float* dc,
                                              float* dgx, float* dgh, float* dhPrev)
{
    TS_FORWARD(recurrentCellBackward, s, act, hPrev, cPrev, c, dh, dc, dgx, dgh, dhPrev);
}

void ForwardingBackend::batchNormForwardTraining(const float* x, const float* gamma, const float* beta, float* y,
                                                 float* saveMean, float* saveInvStd, float* runningMean,
                                                 float* runningVar, std::int64_t n, std::int64_t c, std::int64_t inner,
                                                 float momentum, float eps, const CrossRankSum* acrossRanks)
{
    TS_FORWARD(batchNormForwardTraining, x, gamma, beta, y, saveMean, saveInvStd, runningMean, runningVar, n, c, inner,
               momentum, eps, acrossRanks);
}
void ForwardingBackend::batchNormForwardInference(const float* x, const float* gamma, const float* beta,
                                                  const float* runningMean, const float* runningVar, float* y,
                                                  std::int64_t n, std::int64_t c, std::int64_t inner, float eps)
{
    TS_FORWARD(batchNormForwardInference, x, gamma, beta, runningMean, runningVar, y, n, c, inner, eps);
}
void ForwardingBackend::batchNormBackward(const float* x, const float* gamma, const float* dy, const float* saveMean,
                                          const float* saveInvStd, float* dx, float* dgamma, float* dbeta,
                                          std::int64_t n, std::int64_t c, std::int64_t inner,
                                          const CrossRankSum* acrossRanks, GradWrite write)
{
    TS_FORWARD(batchNormBackward, x, gamma, dy, saveMean, saveInvStd, dx, dgamma, dbeta, n, c, inner, acrossRanks,
               write);
}
void ForwardingBackend::batchNormReluForwardTraining(const float* x, const float* gamma, const float* beta, float* y,
                                                     float* r, float* saveMean, float* saveInvStd, float* runningMean,
                                                     float* runningVar, std::int64_t n, std::int64_t c,
                                                     std::int64_t inner, float momentum, float eps,
                                                     const CrossRankSum* acrossRanks)
{
    TS_FORWARD(batchNormReluForwardTraining, x, gamma, beta, y, r, saveMean, saveInvStd, runningMean, runningVar, n, c,
               inner, momentum, eps, acrossRanks);
}
void ForwardingBackend::batchNormReluBackward(const float* x, const float* gamma, const float* beta, const float* y,
                                              const float* r, const float* dr, float* dy, const float* saveMean,
                                              const float* saveInvStd, float* dx, float* dgamma, float* dbeta,
                                              std::int64_t n, std::int64_t c, std::int64_t inner,
                                              const CrossRankSum* acrossRanks, GradWrite write)
{
    TS_FORWARD(batchNormReluBackward, x, gamma, beta, y, r, dr, dy, saveMean, saveInvStd, dx, dgamma, dbeta, n, c,
               inner, acrossRanks, write);
}
void ForwardingBackend::batchNormBackwardInference(const float* x, const float* gamma, const float* dy,
                                                   const float* runningMean, const float* runningVar, float* dx,
                                                   float* dgamma, float* dbeta, std::int64_t n, std::int64_t c,
                                                   std::int64_t inner, float eps)
{
    TS_FORWARD(batchNormBackwardInference, x, gamma, dy, runningMean, runningVar, dx, dgamma, dbeta, n, c, inner, eps);
}
void ForwardingBackend::groupNormForward(const float* x, const float* gamma, const float* beta, float* y, float* mean,
                                         float* rstd, std::int64_t n, std::int64_t c, std::int64_t inner,
                                         std::int64_t groups, float eps)
{
    TS_FORWARD(groupNormForward, x, gamma, beta, y, mean, rstd, n, c, inner, groups, eps);
}
void ForwardingBackend::groupNormBackward(const float* x, const float* gamma, const float* dy, const float* mean,
                                          const float* rstd, float* dx, float* dgamma, float* dbeta, std::int64_t n,
                                          std::int64_t c, std::int64_t inner, std::int64_t groups)
{
    TS_FORWARD(groupNormBackward, x, gamma, dy, mean, rstd, dx, dgamma, dbeta, n, c, inner, groups);
}

void ForwardingBackend::softmaxForward(const float* x, float* y, std::int64_t rows, std::int64_t cols)
{
    TS_FORWARD(softmaxForward, x, y, rows, cols);
}
void ForwardingBackend::softmaxBackward(const float* y, const float* dy, float* dx, std::int64_t rows,
                                        std::int64_t cols)
{
    TS_FORWARD(softmaxBackward, y, dy, dx, rows, cols);
}
void ForwardingBackend::crossEntropyForward(const float* logits, const std::int64_t* targets,
                                            const float* classWeights, float* probs, float* loss, std::int64_t rows,
                                            std::int64_t cols, float labelSmoothing, std::int64_t ignoreIndex)
{
    TS_FORWARD(crossEntropyForward, logits, targets, classWeights, probs, loss, rows, cols, labelSmoothing, ignoreIndex);
}
void ForwardingBackend::crossEntropyBackward(const float* probs, const std::int64_t* targets,
                                             const float* classWeights, const float* dloss, float* dlogits,
                                             std::int64_t rows, std::int64_t cols, float labelSmoothing,
                                             std::int64_t ignoreIndex)
{
    TS_FORWARD(crossEntropyBackward, probs, targets, classWeights, dloss, dlogits, rows, cols, labelSmoothing, ignoreIndex);
}
void ForwardingBackend::mseForward(const float* pred, const float* target, float* loss, std::int64_t n)
{
    TS_FORWARD(mseForward, pred, target, loss, n);
}
void ForwardingBackend::mseBackward(const float* pred, const float* target, const float* dloss, float* dpred,
                                    float* dtarget, std::int64_t n)
{
    TS_FORWARD(mseBackward, pred, target, dloss, dpred, dtarget, n);
}
void ForwardingBackend::robustLossForward(const float* pred, const float* target, float* loss, std::int64_t n, float delta)
{
    TS_FORWARD(robustLossForward, pred, target, loss, n, delta);
}
void ForwardingBackend::robustLossBackward(const float* pred, const float* target, const float* dloss, float* dpred,
                                           float* dtarget, std::int64_t n, float delta)
{
    TS_FORWARD(robustLossBackward, pred, target, dloss, dpred, dtarget, n, delta);
}
void ForwardingBackend::bceWithLogitsForward(const float* logits, const float* target, float* loss, std::int64_t n)
{
    TS_FORWARD(bceWithLogitsForward, logits, target, loss, n);
}
void ForwardingBackend::bceWithLogitsBackward(const float* logits, const float* target, const float* dloss,
                                              float* dlogits, float* dtarget, std::int64_t n)
{
    TS_FORWARD(bceWithLogitsBackward, logits, target, dloss, dlogits, dtarget, n);
}

void ForwardingBackend::embeddingForward(const std::int64_t* indices, const float* table, float* y,
                                         std::int64_t count, std::int64_t rows, std::int64_t dim)
{
    TS_FORWARD(embeddingForward, indices, table, y, count, rows, dim);
}
void ForwardingBackend::embeddingBackward(const std::int64_t* indices, const float* dy, float* dtable,
                                          std::int64_t count, std::int64_t dim)
{
    TS_FORWARD(embeddingBackward, indices, dy, dtable, count, dim);
}

void ForwardingBackend::sgdUpdate(float* param, const float* grad, float* momentumBuf, std::int64_t n, double lr,
                                  double momentum, bool nesterov, double weightDecay)
{
    TS_FORWARD(sgdUpdate, param, grad, momentumBuf, n, lr, momentum, nesterov, weightDecay);
}
void ForwardingBackend::adamUpdate(float* param, const float* grad, float* m, float* v, std::int64_t n, double lr,
                                   double beta1, double beta2, double eps, double weightDecay, bool decoupled,
                                   std::int64_t step)
{
    TS_FORWARD(adamUpdate, param, grad, m, v, n, lr, beta1, beta2, eps, weightDecay, decoupled, step);
}
void ForwardingBackend::rmspropUpdate(float* param, const float* grad, float* squareAvg, float* momentumBuf,
                                      std::int64_t n, double lr, double alpha, double eps, double weightDecay,
                                      double momentum)
{
    TS_FORWARD(rmspropUpdate, param, grad, squareAvg, momentumBuf, n, lr, alpha, eps, weightDecay, momentum);
}
void ForwardingBackend::scale(float* x, std::int64_t n, float alpha) { TS_FORWARD(scale, x, n, alpha); }
void ForwardingBackend::clampValues(float* x, std::int64_t n, float lo, float hi)
{
    TS_FORWARD(clampValues, x, n, lo, hi);
}

#undef TS_FORWARD

}  // namespace ts
