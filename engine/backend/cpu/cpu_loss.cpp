// Losses on the CPU: softmax cross-entropy, mean squared error, binary cross-entropy with
// logits. Each forward writes the batch mean into loss[0]; sums are taken in double over
// fixed blocks added in block order, so the value does not depend on the thread count.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/parallel.h"
#include "backend/robust_loss_math.h"

namespace ts {

namespace {

constexpr std::int64_t kGrain = 1 << 14;  // elementwise work per thread worth the fork

// The rows that count: every target in [0, cols), or ignoreIndex (a row that weighs nothing).
// Checked serially before any parallel work: an exception must not leave an OpenMP region.
void checkTargets(const std::int64_t* targets, std::int64_t rows, std::int64_t cols, std::int64_t ignoreIndex)
{
    for (std::int64_t r = 0; r < rows; ++r)
        if ((targets[r] < 0 || targets[r] >= cols) && targets[r] != ignoreIndex)
            throw std::out_of_range("cross-entropy target " + std::to_string(targets[r]) + " at row " +
                                    std::to_string(r) + " is outside [0, " + std::to_string(cols) +
                                    ") and is not the ignore index " + std::to_string(ignoreIndex));
}

struct RowWeights {
    const float* classWeights;
    const std::int64_t* targets;
    std::int64_t ignoreIndex;
    double operator()(std::int64_t r) const
    {
        if (targets[r] == ignoreIndex) return 0.0;
        return classWeights ? double(classWeights[targets[r]]) : 1.0;
    }
    // The divisor of the weighted mean. A batch whose targets all weigh 0 (or are all ignored)
    // gives loss 0 and no gradient rather than 0/0 = NaN, which would poison every parameter.
    double scale(std::int64_t rows) const
    {
        double total = 0;
        for (std::int64_t r = 0; r < rows; ++r) total += (*this)(r);
        return total > 0 ? 1.0 / total : 0.0;
    }
};

double stableSigmoid(double x)
{
    if (x >= 0) return 1.0 / (1.0 + std::exp(-x));
    const double e = std::exp(x);
    return e / (1.0 + e);
}

}  // namespace

// Per row, with logZ = log(sum_c exp(x_c)) and q = (1-s) onehot(t) + s/C:
//   -sum_c q_c log p_c = (1-s) (logZ - x_t) + s (logZ - mean_c x_c).
void CpuBackend::crossEntropyForward(const float* logits, const std::int64_t* targets, const float* classWeights,
                                     float* probs, float* loss, std::int64_t rows, std::int64_t cols,
                                     float labelSmoothing, std::int64_t ignoreIndex)
{
    checkTargets(targets, rows, cols, ignoreIndex);
    const RowWeights rowWeight{classWeights, targets, ignoreIndex};
    const double s = labelSmoothing;
    std::vector<double> rowLoss(static_cast<std::size_t>(rows), 0.0);
    cpu::parallelFor(rows, std::max<std::int64_t>(1, kGrain / std::max<std::int64_t>(cols, 1)),
                     [&](std::int64_t r0, std::int64_t r1) {
                         for (std::int64_t r = r0; r < r1; ++r) {
                             const float* x = logits + r * cols;
                             float* p = probs + r * cols;
                             const double maxLogit = *std::max_element(x, x + cols);
                             double sumExp = 0, sumLogits = 0;
                             for (std::int64_t c = 0; c < cols; ++c) {
                                 sumExp += std::exp(double(x[c]) - maxLogit);
                                 sumLogits += x[c];
                             }
                             for (std::int64_t c = 0; c < cols; ++c)
                                 p[c] = static_cast<float>(std::exp(double(x[c]) - maxLogit) / sumExp);
                             const double logZ = maxLogit + std::log(sumExp);
                             const double w = rowWeight(r);
                             if (w == 0) continue;  // an ignored row's target is no index
                             const double l = (1 - s) * (logZ - x[targets[r]]) + s * (logZ - sumLogits / double(cols));
                             rowLoss[static_cast<std::size_t>(r)] = w * l;
                         }
                     });
    double total = 0;
    for (double l : rowLoss) total += l;
    loss[0] = static_cast<float>(total * rowWeight.scale(rows));
}

// d loss / d x_rc = w_r / sum(w) * (p_rc - q_rc), since sum_c q_rc = 1.
void CpuBackend::crossEntropyBackward(const float* probs, const std::int64_t* targets, const float* classWeights,
                                      const float* dloss, float* dlogits, std::int64_t rows, std::int64_t cols,
                                      float labelSmoothing, std::int64_t ignoreIndex)
{
    if (!dlogits) return;
    checkTargets(targets, rows, cols, ignoreIndex);
    const RowWeights rowWeight{classWeights, targets, ignoreIndex};
    const double scale = double(dloss[0]) * rowWeight.scale(rows);
    const double s = labelSmoothing, uniform = s / double(cols);
    cpu::parallelFor(rows, std::max<std::int64_t>(1, kGrain / std::max<std::int64_t>(cols, 1)),
                     [&](std::int64_t r0, std::int64_t r1) {
                         for (std::int64_t r = r0; r < r1; ++r) {
                             const float* p = probs + r * cols;
                             float* d = dlogits + r * cols;
                             const double g = scale * rowWeight(r);
                             if (g == 0) continue;  // ignored, or weighs nothing
                             for (std::int64_t c = 0; c < cols; ++c) {
                                 const double q = (c == targets[r] ? 1 - s : 0.0) + uniform;
                                 d[c] += static_cast<float>(g * (double(p[c]) - q));
                             }
                         }
                     });
}

void CpuBackend::mseForward(const float* pred, const float* target, float* loss, std::int64_t n)
{
    const double sum = cpu::blockedSum(n, [&](std::int64_t i) {
        const double d = double(pred[i]) - double(target[i]);
        return d * d;
    });
    loss[0] = static_cast<float>(n > 0 ? sum / double(n) : 0.0);
}

void CpuBackend::robustLossForward(const float* pred, const float* target, float* loss, std::int64_t n, float delta)
{
    const double sum = cpu::blockedSum(n, [&](std::int64_t i) { return robustLoss(double(pred[i]) - double(target[i]), delta); });
    loss[0] = static_cast<float>(n > 0 ? sum / double(n) : 0.0);
}

void CpuBackend::robustLossBackward(const float* pred, const float* target, const float* dloss, float* dpred,
                                    float* dtarget, std::int64_t n, float delta)
{
    if (n <= 0) return;
    const float scale = static_cast<float>(double(dloss[0]) / double(n));
    cpu::parallelFor(n, kGrain, [&](std::int64_t i0, std::int64_t i1) {
        for (std::int64_t i = i0; i < i1; ++i) {
            const float g = scale * robustLossGradient(pred[i] - target[i], delta);
            if (dpred) dpred[i] += g;
            if (dtarget) dtarget[i] -= g;
        }
    });
}

void CpuBackend::mseBackward(const float* pred, const float* target, const float* dloss, float* dpred,
                             float* dtarget, std::int64_t n)
{
    if (n <= 0) return;
    const float scale = static_cast<float>(2.0 * double(dloss[0]) / double(n));
    cpu::parallelFor(n, kGrain, [&](std::int64_t i0, std::int64_t i1) {
        for (std::int64_t i = i0; i < i1; ++i) {
            const float g = scale * (pred[i] - target[i]);
            if (dpred) dpred[i] += g;
            if (dtarget) dtarget[i] -= g;
        }
    });
}

void CpuBackend::bceWithLogitsForward(const float* logits, const float* target, float* loss, std::int64_t n)
{
    const double sum = cpu::blockedSum(n, [&](std::int64_t i) {
        const double x = logits[i], t = target[i];
        return std::max(x, 0.0) - x * t + std::log1p(std::exp(-std::abs(x)));
    });
    loss[0] = static_cast<float>(n > 0 ? sum / double(n) : 0.0);
}

// d/dx = sigmoid(x) - t, d/dt = -x.
void CpuBackend::bceWithLogitsBackward(const float* logits, const float* target, const float* dloss,
                                       float* dlogits, float* dtarget, std::int64_t n)
{
    if (n <= 0) return;
    const double scale = double(dloss[0]) / double(n);
    cpu::parallelFor(n, kGrain, [&](std::int64_t i0, std::int64_t i1) {
        for (std::int64_t i = i0; i < i1; ++i) {
            const double x = logits[i];
            if (dlogits) dlogits[i] += static_cast<float>(scale * (stableSigmoid(x) - double(target[i])));
            if (dtarget) dtarget[i] += static_cast<float>(-scale * x);
        }
    });
}

}  // namespace ts
