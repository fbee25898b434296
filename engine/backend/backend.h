// The Backend interface: the small set of primitives every op is written in (rule 3 of
// ARCHITECTURE.md). A backend implements primitives, never ops. All float data is f32,
// row-major; pointers point into the backend's own memory (host for CPU, device for CUDA).
//
// Gradient contract: every *Backward primitive ACCUMULATES (+=) into the gradients it
// produces. The executor zeroes gradient buffers once; ops never need to. The exception is
// the input gradient of the primitives that take a GradWrite: with Overwrite they write it
// (=) instead, for the first writer of a buffer the executor left unzeroed. A gradient
// pointer may be null where no gradient is wanted (a graph input, a frozen parameter):
// the primitive then skips that output.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "backend/activation_math.h"  // the Activation enum and its functors
#include "backend/host_device.h"
#include "backend/primitive.h"
#include "tensor/allocator.h"
#include "tensor/dtype.h"

namespace ts {

enum class PoolKind : std::uint8_t { Max, Avg };
enum class UpsampleMode : std::uint8_t { Nearest, Bilinear };
// How a backward primitive writes its input gradient dx: dx += ... or dx = ... (its buffer's
// first writer, which saves zeroing it and reading the zeros back: 64 MB a step in the CNN).
enum class GradWrite : std::uint8_t { Accumulate, Overwrite };
// The precision matrix products (GEMM, convolution) compute in; accumulation is always f32
// and every tensor stays f32 (master weights, activations, gradients). F32 is exact IEEE;
// TF32 keeps 10 mantissa bits, BF16 7 and F16 10 with a 5-bit exponent (values beyond
// 65504 become inf: the loss scaler's business). The CUDA backend runs them on tensor
// cores; the CPU backend rounds the operands the same way (round to nearest even), so it
// stays the numerical reference for mixed precision too.
enum class MathPrecision : std::uint8_t { F32, TF32, BF16, F16 };

// Sums a float buffer in this backend's memory over the ranks of a data-parallel run, in place,
// the same bits on every rank (the trainer routes it to the communicator). Synchronised batch
// norm's statistics cross the ranks through it; a null one means this process's batch alone.
using CrossRankSum = std::function<void(float* data, std::size_t count)>;

constexpr std::int64_t floorDiv(std::int64_t a, std::int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

// x: [n, c, h, w]; w: [k, c/groups, r, s]; y: [n, k, outH, outW].
struct ConvGeometry {
    std::int64_t n = 1, c = 1, h = 1, w = 1;
    std::int64_t k = 1, r = 1, s = 1;
    std::int64_t strideH = 1, strideW = 1, padH = 0, padW = 0, dilH = 1, dilW = 1;
    std::int64_t groups = 1;
    // Floor division: a kernel larger than the padded input gives <= 0, never a false 1.
    std::int64_t outH() const { return floorDiv(h + 2 * padH - dilH * (r - 1) - 1, strideH) + 1; }
    std::int64_t outW() const { return floorDiv(w + 2 * padW - dilW * (s - 1) - 1, strideW) + 1; }
};

// x: [n, c, h, w]; y: [n, c, outH, outW]. Padding counts as -inf for max, and for
// average is excluded from the divisor unless countIncludePad.
struct PoolGeometry {
    std::int64_t n = 1, c = 1, h = 1, w = 1;
    std::int64_t kh = 1, kw = 1, strideH = 1, strideW = 1, padH = 0, padW = 0;
    bool countIncludePad = true;
    std::int64_t outH() const { return floorDiv(h + 2 * padH - kh, strideH) + 1; }
    std::int64_t outW() const { return floorDiv(w + 2 * padW - kw, strideW) + 1; }
};

// x: [n, c, h, w]; y: [n, c, outH, outW]. Nearest takes source row floor(i * h / outH) (as
// PyTorch's "nearest"); bilinear samples at (i + 0.5) * h / outH - 0.5, clamped at the edges
// (align_corners false, ONNX's half_pixel).
struct UpsampleGeometry {
    std::int64_t n = 1, c = 1, h = 1, w = 1, outH = 1, outW = 1;
};

// Scaled dot-product attention, per sample b and head h: o_i = sum_j softmax_j(scale * q_i.k_j)
// v_j over the keys j allowed (causal: j <= i + keys - queries; keyMask[b * keys + j] != 0, or
// every key when keyMask is null). q, k, v and o are token rows of a [batch, tokens, ...]
// layout: token t of sample b, head h starts at b * batchStride + t * rowStride + h * headDim
// (strides per tensor, so q, k and v may be views into one packed [B, T, 3C] projection).
// Dropout (p > 0, training) drops attention weights after the softmax, drawn from
// hashUniform(seed, ((b * heads + h) * queries + i) * keys + j) so backward redraws them.
struct AttentionGeometry {
    std::int64_t batch = 1, heads = 1, queries = 1, keys = 1, headDim = 1;
    std::int64_t qRowStride = 1, kRowStride = 1, vRowStride = 1, oRowStride = 1;
    std::int64_t qBatchStride = 1, kBatchStride = 1, vBatchStride = 1, oBatchStride = 1;
    float scale = 1.0f;
    bool causal = false;
    float dropout = 0.0f;
};

// y = x with its dimensions reordered: y's dimension d is x's dimension perm[d] (numpy's
// transpose). shape is x's; at most 8 dimensions.
struct PermuteGeometry {
    std::vector<std::int64_t> shape;
    std::vector<int> perm;
};

// One time step of a recurrent cell for `batch` rows, with PyTorch's gates and maths (G gates:
// LSTM 4, i f g o; GRU 3, r z n). gx = x W_ih^T + b_ih and gh = h_prev W_hh^T + b_hh are the
// step's projections, [batch, G * hidden] each.
//   LSTM: (i, f, g, o) = (s, s, tanh, s)(gx + gh); c = f c_prev + i g; h = o tanh(c)
//   GRU:  r, z = s(gx + gh); n = tanh(gx_n + r gh_n); h = (1 - z) n + z h_prev
// act [batch, 4 * hidden] keeps what backward needs: LSTM's i, f, g, o; GRU's r, z, n, gh_n.
// Every pointer is the step's first row and rows are their stride apart, so a step is read
// and written in place inside [batch, time, ...] buffers: gx and dgx (gxStride), gh and dgh
// (ghStride), act, h, h_prev, dh and dhPrev (hStride), c and c_prev (cStride). A null h_prev or
// c_prev is the zero state.
enum class RecurrentCell : std::uint8_t { LSTM, GRU };
struct RecurrentStep {
    RecurrentCell cell = RecurrentCell::LSTM;
    std::int64_t batch = 1, hidden = 1;
    std::int64_t gxStride = 1, ghStride = 1, actStride = 1, hStride = 1, cStride = 1;
    std::int64_t gates() const { return cell == RecurrentCell::LSTM ? 4 : 3; }
};

// Thrown by a primitive this backend does not implement (Backend::supports says false). The
// executor never calls one: it plans such an op on the CPU.
class UnsupportedPrimitive : public std::runtime_error {
public:
    UnsupportedPrimitive(const std::string& backend, Primitive p)
        : std::runtime_error(std::string(primitiveName(p)) + " is not supported by the " + backend + " backend"),
          primitive_(p)
    {
    }
    Primitive primitive() const { return primitive_; }

private:
    Primitive primitive_;
};

class Backend {
public:
    virtual ~Backend() = default;
    virtual std::string name() const = 0;
    virtual Device device() const = 0;
    virtual Allocator& allocator() = 0;
    // Host memory that copies to this backend fastest: page-locked on CUDA (the loader
    // assembles batches in it), ordinary host memory on the CPU.
    virtual Allocator& hostAllocator() { return CpuAllocator::instance(); }
    // Whether this backend runs `p` on `dtype` data (every float primitive is f32 today). The
    // memory primitives are always there. The base answers true for the primitives every
    // backend must implement (the pure virtuals) and false for the optional ones, whose base
    // implementation throws UnsupportedPrimitive: a new primitive may land CPU-first.
    virtual bool supports(Primitive p, DType dtype = DType::F32) const;
    // Waits for queued work (no-op on the CPU).
    virtual void synchronize() {}
    // Matrix-product precision for the following calls (see MathPrecision).
    void setMathPrecision(MathPrecision p) { mathPrecision_ = p; }
    MathPrecision mathPrecision() const { return mathPrecision_; }

    // ---- memory --------------------------------------------------------------------------
    virtual void fill(float* x, std::int64_t n, float value) = 0;
    virtual void zeroBytes(void* x, std::size_t bytes) = 0;
    virtual void copyBytes(void* dst, const void* src, std::size_t bytes) = 0;  // same device
    virtual void copyToHost(void* hostDst, const void* src, std::size_t bytes) = 0;
    virtual void copyFromHost(void* dst, const void* hostSrc, std::size_t bytes) = 0;
    // dst[r * dstStride + j] (+)= src[r * srcStride + j] for r < rows, j < cols (Concat).
    virtual void copy2d(const float* src, std::int64_t srcStride, float* dst, std::int64_t dstStride,
                        std::int64_t rows, std::int64_t cols, bool accumulate) = 0;

    // ---- linear algebra ------------------------------------------------------------------
    // C[m,n] = alpha * op(A) op(B) + beta * C, row-major; op(A) is [m,k], op(B) is [k,n].
    virtual void gemm(bool transA, bool transB, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
                      const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float beta, float* c,
                      std::int64_t ldc) = 0;
    // y += alpha * x
    virtual void axpy(std::int64_t n, float alpha, const float* x, float* y) = 0;
    // y = a + b
    virtual void add(std::int64_t n, const float* a, const float* b, float* y) = 0;
    // y[o, ch, i] += bias[ch] for y viewed as [outer, channels, inner].
    virtual void addBias(const float* bias, float* y, std::int64_t outer, std::int64_t channels,
                         std::int64_t inner) = 0;
    // dbias[ch] += sum over o, i of dy[o, ch, i].
    virtual void biasBackward(const float* dy, float* dbias, std::int64_t outer, std::int64_t channels,
                              std::int64_t inner) = 0;
    // sum of x[i]^2, accumulated in double, returned to the host (synchronises).
    virtual double sumSquares(const float* x, std::int64_t n) = 0;
    // out[i] = sumSquares over x[ranges[i].first, ranges[i].second): per-layer gradient norms.
    // A GPU backend does it in one launch and one wait instead of one per range.
    virtual void segmentedSumSquares(const float* x, const std::vector<std::pair<std::int64_t, std::int64_t>>& ranges,
                                     double* out)
    {
        for (std::size_t i = 0; i < ranges.size(); ++i)
            out[i] = sumSquares(x + ranges[i].first, ranges[i].second - ranges[i].first);
    }

    // ---- elementwise ---------------------------------------------------------------------
    // alpha is the activation's parameter where it has one (LeakyReLU's negative slope);
    // the maths of each is its functor in backend/activation_math.h, which says what alpha is.
    virtual void activationForward(Activation act, float alpha, const float* x, float* y, std::int64_t n) = 0;
    // dx += dy * f'(x) (= with Overwrite); y = f(x) is passed so sigmoid/tanh need not recompute.
    virtual void activationBackward(Activation act, float alpha, const float* x, const float* y,
                                    const float* dy, float* dx, std::int64_t n,
                                    GradWrite write = GradWrite::Accumulate) = 0;
    // Inverted dropout: mask[i] = keep ? 1 : 0 with keep drawn from a counter-based hash of
    // (seed, i), so every backend draws the same mask; y = x * mask / (1 - p).
    virtual void dropoutForward(const float* x, float* y, std::uint8_t* mask, std::int64_t n, float p,
                                std::uint64_t seed) = 0;
    virtual void dropoutBackward(const float* dy, const std::uint8_t* mask, float* dx, std::int64_t n,
                                 float p) = 0;

    // ---- convolution and pooling -----------------------------------------------------------
    // Scratch bytes the three conv primitives may use (the executor plans the largest).
    virtual std::size_t conv2dWorkspaceBytes(const ConvGeometry& g) = 0;
    // y = conv(x, w) (overwrites y; bias is added separately with addBias).
    virtual void conv2dForward(const ConvGeometry& g, const float* x, const float* w, float* y,
                               void* workspace) = 0;
    virtual void conv2dBackwardData(const ConvGeometry& g, const float* w, const float* dy, float* dx,
                                    void* workspace, GradWrite write = GradWrite::Accumulate) = 0;
    virtual void conv2dBackwardFilter(const ConvGeometry& g, const float* x, const float* dy, float* dw,
                                      void* workspace) = 0;
    // Both: dx as `write` says and dw += (either may be null). The two primitives above unless a
    // backend shares work between them.
    virtual void conv2dBackward(const ConvGeometry& g, const float* x, const float* w, const float* dy, float* dx,
                                float* dw, void* workspace, GradWrite write)
    {
        if (dx) conv2dBackwardData(g, w, dy, dx, workspace, write);
        if (dw) conv2dBackwardFilter(g, x, dy, dw, workspace);
    }
    // argmax (max pooling only) records the flat h*w index of each window's maximum.
    virtual void pool2dForward(PoolKind kind, const PoolGeometry& g, const float* x, float* y,
                               std::int32_t* argmax) = 0;
    virtual void pool2dBackward(PoolKind kind, const PoolGeometry& g, const float* dy,
                                const std::int32_t* argmax, float* dx, GradWrite write = GradWrite::Accumulate) = 0;

    // Optional (see supports). y = upsampled x; backward: dx += the adjoint of the forward.
    virtual void upsample2dForward(UpsampleMode mode, const UpsampleGeometry& g, const float* x, float* y)
    {
        (void)mode, (void)g, (void)x, (void)y;
        throw UnsupportedPrimitive(name(), Primitive::upsample2dForward);
    }
    virtual void upsample2dBackward(UpsampleMode mode, const UpsampleGeometry& g, const float* dy, float* dx)
    {
        (void)mode, (void)g, (void)dy, (void)dx;
        throw UnsupportedPrimitive(name(), Primitive::upsample2dBackward);
    }

    // ---- normalisation ---------------------------------------------------------------------
    // Batch norm over x viewed as [n, c, inner]: statistics per channel over n and inner.
    // Training: saves mean and 1/sqrt(var + eps) (biased var), and updates the running
    // statistics as running = (1 - momentum) * running + momentum * batch (unbiased var).
    // With acrossRanks the statistics are the global batch's: every rank's shard counts
    // (cross_rank.h); every rank must then call it, in the same order.
    virtual void batchNormForwardTraining(const float* x, const float* gamma, const float* beta, float* y,
                                          float* saveMean, float* saveInvStd, float* runningMean,
                                          float* runningVar, std::int64_t n, std::int64_t c, std::int64_t inner,
                                          float momentum, float eps, const CrossRankSum* acrossRanks) = 0;
    virtual void batchNormForwardInference(const float* x, const float* gamma, const float* beta,
                                           const float* runningMean, const float* runningVar, float* y,
                                           std::int64_t n, std::int64_t c, std::int64_t inner, float eps) = 0;
    // Backward of the training-mode forward: dx (unless Overwrite), dgamma, dbeta accumulate. With
    // acrossRanks (as in the forward), dx is the global batch's; dgamma and dbeta stay this
    // rank's share (the gradient all-reduce adds the shares).
    virtual void batchNormBackward(const float* x, const float* gamma, const float* dy, const float* saveMean,
                                   const float* saveInvStd, float* dx, float* dgamma, float* dbeta,
                                   std::int64_t n, std::int64_t c, std::int64_t inner,
                                   const CrossRankSum* acrossRanks, GradWrite write = GradWrite::Accumulate) = 0;
    // Batch norm in training and the ReLU of its output as one, for the executor's fusion
    // (Executor::setFusion): y = BN(x), r = max(y, 0), or batch norm alone where r is null.
    // By default the two primitives in turn; a backend that does both in one pass over memory
    // overrides both functions.
    virtual void batchNormReluForwardTraining(const float* x, const float* gamma, const float* beta, float* y,
                                              float* r, float* saveMean, float* saveInvStd, float* runningMean,
                                              float* runningVar, std::int64_t n, std::int64_t c, std::int64_t inner,
                                              float momentum, float eps, const CrossRankSum* acrossRanks)
    {
        batchNormForwardTraining(x, gamma, beta, y, saveMean, saveInvStd, runningMean, runningVar, n, c, inner,
                                 momentum, eps, acrossRanks);
        if (r) activationForward(Activation::ReLU, 0.0f, y, r, n * c * inner);
    }
    // Its backward from dr, the gradient of r. dy, the gradient of y, is scratch: the default
    // writes the ReLU's backward there.
    virtual void batchNormReluBackward(const float* x, const float* gamma, const float* /*beta*/, const float* y,
                                       const float* r, const float* dr, float* dy, const float* saveMean,
                                       const float* saveInvStd, float* dx, float* dgamma, float* dbeta, std::int64_t n,
                                       std::int64_t c, std::int64_t inner, const CrossRankSum* acrossRanks,
                                       GradWrite write)
    {
        activationBackward(Activation::ReLU, 0.0f, y, r, dr, dy, n * c * inner, GradWrite::Overwrite);
        batchNormBackward(x, gamma, dy, saveMean, saveInvStd, dx, dgamma, dbeta, n, c, inner, acrossRanks, write);
    }
    // Backward of the inference-mode forward (running statistics are constants here).
    virtual void batchNormBackwardInference(const float* x, const float* gamma, const float* dy,
                                            const float* runningMean, const float* runningVar, float* dx,
                                            float* dgamma, float* dbeta, std::int64_t n, std::int64_t c,
                                            std::int64_t inner, float eps) = 0;
    // Group norm over x viewed as [n, c, inner] with `groups` groups of c/groups channels;
    // statistics per (sample, group), affine per channel. LayerNorm over the last dim D is
    // group norm with n = rows, c = D, inner = 1, groups = 1. mean/rstd: [n * groups].
    virtual void groupNormForward(const float* x, const float* gamma, const float* beta, float* y, float* mean,
                                  float* rstd, std::int64_t n, std::int64_t c, std::int64_t inner,
                                  std::int64_t groups, float eps) = 0;
    virtual void groupNormBackward(const float* x, const float* gamma, const float* dy, const float* mean,
                                   const float* rstd, float* dx, float* dgamma, float* dbeta, std::int64_t n,
                                   std::int64_t c, std::int64_t inner, std::int64_t groups) = 0;

    // ---- softmax and losses (each loss writes the batch mean into a 1-element `loss`) -------
    virtual void softmaxForward(const float* x, float* y, std::int64_t rows, std::int64_t cols) = 0;
    // dx += y * (dy - sum(dy * y))
    virtual void softmaxBackward(const float* y, const float* dy, float* dx, std::int64_t rows,
                                 std::int64_t cols) = 0;
    // Cross-entropy of logits [rows, cols] with integer targets. classWeights may be null.
    // With weights the mean is sum(w_t * l) / sum(w_t) (PyTorch's convention). Label
    // smoothing s mixes the one-hot target with the uniform distribution: (1-s)*onehot + s/cols.
    // probs [rows, cols] is saved for the backward. A row whose target is ignoreIndex (PyTorch's
    // ignore_index: padding in a language model's labels) weighs 0: it adds nothing and is not
    // counted in the mean; any other target outside [0, cols) is an error.
    virtual void crossEntropyForward(const float* logits, const std::int64_t* targets, const float* classWeights,
                                     float* probs, float* loss, std::int64_t rows, std::int64_t cols,
                                     float labelSmoothing, std::int64_t ignoreIndex) = 0;
    // dlogits += dloss * d(loss)/d(logits); dloss is a 1-element device value.
    virtual void crossEntropyBackward(const float* probs, const std::int64_t* targets, const float* classWeights,
                                      const float* dloss, float* dlogits, std::int64_t rows, std::int64_t cols,
                                      float labelSmoothing, std::int64_t ignoreIndex) = 0;
    // mean((pred - target)^2); grads for pred and target (either may be null).
    virtual void mseForward(const float* pred, const float* target, float* loss, std::int64_t n) = 0;
    virtual void mseBackward(const float* pred, const float* target, const float* dloss, float* dpred,
                             float* dtarget, std::int64_t n) = 0;
    // mean(max(x,0) - x*t + log(1 + exp(-|x|))), numerically stable.
    virtual void bceWithLogitsForward(const float* logits, const float* target, float* loss, std::int64_t n) = 0;
    virtual void bceWithLogitsBackward(const float* logits, const float* target, const float* dloss,
                                       float* dlogits, float* dtarget, std::int64_t n) = 0;
    // L1 (delta = 0) and Huber (delta > 0) losses (backend/robust_loss_math.h): the mean over n
    // errors pred - target; grads for pred and target (either may be null). Optional (supports).
    virtual void robustLossForward(const float* pred, const float* target, float* loss, std::int64_t n, float delta)
    {
        (void)pred, (void)target, (void)loss, (void)n, (void)delta;
        throw UnsupportedPrimitive(name(), Primitive::robustLossForward);
    }
    virtual void robustLossBackward(const float* pred, const float* target, const float* dloss, float* dpred,
                                    float* dtarget, std::int64_t n, float delta)
    {
        (void)pred, (void)target, (void)dloss, (void)dpred, (void)dtarget, (void)n, (void)delta;
        throw UnsupportedPrimitive(name(), Primitive::robustLossBackward);
    }

    // ---- embedding ---------------------------------------------------------------------------
    // y[i, :] = table[indices[i], :]; an index outside [0, rows) throws std::out_of_range.
    virtual void embeddingForward(const std::int64_t* indices, const float* table, float* y, std::int64_t count,
                                  std::int64_t rows, std::int64_t dim) = 0;
    // dtable[indices[i], :] += dy[i, :]
    virtual void embeddingBackward(const std::int64_t* indices, const float* dy, float* dtable,
                                   std::int64_t count, std::int64_t dim) = 0;

    // ---- attention (optional, see supports) --------------------------------------------------
    // o as AttentionGeometry says; lse[(b * heads + h) * queries + i] = the row's log-sum-exp
    // of the scaled scores (what backward recomputes the weights from, so nothing of size
    // queries x keys is kept). A row with no allowed key gets o = 0 and lse = -inf.
    virtual void attentionForward(const AttentionGeometry& g, const float* q, const float* k, const float* v,
                                  const float* keyMask, float* o, float* lse, std::uint64_t seed)
    {
        (void)g, (void)q, (void)k, (void)v, (void)keyMask, (void)o, (void)lse, (void)seed;
        throw UnsupportedPrimitive(name(), Primitive::attentionForward);
    }
    // dq, dk, dv += the gradients of sum(o * dout) (each may be null: not wanted); they have
    // the layout of q, k and v. o and lse are the forward's.
    virtual void attentionBackward(const AttentionGeometry& g, const float* q, const float* k, const float* v,
                                   const float* keyMask, const float* o, const float* lse, const float* dout,
                                   float* dq, float* dk, float* dv, std::uint64_t seed)
    {
        (void)g, (void)q, (void)k, (void)v, (void)keyMask, (void)o, (void)lse, (void)dout, (void)dq, (void)dk,
            (void)dv, (void)seed;
        throw UnsupportedPrimitive(name(), Primitive::attentionBackward);
    }

    // ---- layout (optional, see supports) -----------------------------------------------------
    // y = permute(x) (write Overwrite) or y += permute(x) (Accumulate: backward, with the
    // inverse permutation).
    virtual void permute(const PermuteGeometry& g, const float* x, float* y, GradWrite write)
    {
        (void)g, (void)x, (void)y, (void)write;
        throw UnsupportedPrimitive(name(), Primitive::permute);
    }

    // ---- recurrent cells (optional, see supports) ----------------------------------------------
    // One step forward as RecurrentStep says: act, h and (LSTM) c are written; c is unused for GRU.
    virtual void recurrentCellForward(const RecurrentStep& s, const float* gx, const float* gh, const float* hPrev,
                                      const float* cPrev, float* act, float* c, float* h)
    {
        (void)s, (void)gx, (void)gh, (void)hPrev, (void)cPrev, (void)act, (void)c, (void)h;
        throw UnsupportedPrimitive(name(), Primitive::recurrentCellForward);
    }
    // One step backward from dh (the step's whole gradient: its output's and what the next step
    // sent back). dgx and dgh, the gradients of gx and gh, are overwritten (LSTM's are equal:
    // dgh may be null); dhPrev += the part of h_prev's gradient that bypasses gh (GRU's z dh),
    // where not null. LSTM's dc [batch, hidden] (contiguous) comes in from the next step and goes
    // out to the previous one. act, c and c_prev are the forward's.
    virtual void recurrentCellBackward(const RecurrentStep& s, const float* act, const float* hPrev,
                                       const float* cPrev, const float* c, const float* dh, float* dc, float* dgx,
                                       float* dgh, float* dhPrev)
    {
        (void)s, (void)act, (void)hPrev, (void)cPrev, (void)c, (void)dh, (void)dc, (void)dgx, (void)dgh, (void)dhPrev;
        throw UnsupportedPrimitive(name(), Primitive::recurrentCellBackward);
    }

    // ---- optimizer updates -------------------------------------------------------------------
    // One fused sweep each over n elements of the flat parameter/gradient buffers, with
    // torch.optim's update formulas (so a run matches PyTorch step for step). State buffers
    // start zeroed. Hyperparameters come in double so coefficients such as 1 - beta2 are
    // formed exactly (as torch does on the host) before the f32 sweep; 0.999f would make
    // 1 - beta2 off by 1.3e-5 relative. Weight decay wd is L2: g' = g + wd * p, unless said otherwise.
    // SGD (dampening 0): buf = momentum * buf + g'; d = nesterov ? g' + momentum * buf : buf;
    // p -= lr * d. With momentum 0, d = g' and momentumBuf may be null.
    virtual void sgdUpdate(float* param, const float* grad, float* momentumBuf, std::int64_t n, double lr,
                           double momentum, bool nesterov, double weightDecay) = 0;
    // Adam / AdamW. decoupled (AdamW): p *= 1 - lr * wd first, and g is not decayed.
    // m = b1 m + (1-b1) g'; v = b2 v + (1-b2) g'^2; p -= lr * m^ / (sqrt(v^) + eps) with the
    // bias corrections m^ = m / (1 - b1^step), v^ = v / (1 - b2^step); step is 1-based.
    virtual void adamUpdate(float* param, const float* grad, float* m, float* v, std::int64_t n, double lr,
                            double beta1, double beta2, double eps, double weightDecay, bool decoupled,
                            std::int64_t step) = 0;
    // RMSprop (not centred): sa = alpha sa + (1-alpha) g'^2; d = g' / (sqrt(sa) + eps);
    // momentum > 0: buf = momentum buf + d, p -= lr buf; else p -= lr d (momentumBuf may be null).
    virtual void rmspropUpdate(float* param, const float* grad, float* squareAvg, float* momentumBuf,
                               std::int64_t n, double lr, double alpha, double eps, double weightDecay,
                               double momentum) = 0;
    // x *= alpha (gradient-norm clipping).
    virtual void scale(float* x, std::int64_t n, float alpha) = 0;
    // x = min(max(x, lo), hi); NaN stays NaN (gradient-value clipping).
    virtual void clampValues(float* x, std::int64_t n, float lo, float hi) = 0;

protected:
    MathPrecision mathPrecision_ = MathPrecision::F32;
};

// The backends compiled into this build, e.g. "cpu" or "cpu, cuda".
std::string compiledBackends();
// The process-wide CPU backend.
Backend& cpuBackend();

// Counter-based uniform in [0, 1): a pure function of (seed, index), so CPU and CUDA
// produce identical random streams (dropout masks, augmentation). One definition for both:
// the CUDA kernels call this very function.
TS_HOST_DEVICE inline float hashUniform(std::uint64_t seed, std::uint64_t index)
{
    std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * (index + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return static_cast<float>(z >> 40) * (1.0f / 16777216.0f);
}

}  // namespace ts
