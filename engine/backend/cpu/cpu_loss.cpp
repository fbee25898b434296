// PLACEHOLDER: to be written.
#include <stdexcept>
#include "backend/cpu/cpu_backend.h"
namespace ts {
void CpuBackend::crossEntropyForward(const float* logits, const std::int64_t* targets, const float* classWeights, float* probs,
                             float* loss, std::int64_t rows, std::int64_t cols, float labelSmoothing) { throw std::logic_error("crossEntropyForward: not written yet"); }
void CpuBackend::crossEntropyBackward(const float* probs, const std::int64_t* targets, const float* classWeights,
                              const float* dloss, float* dlogits, std::int64_t rows, std::int64_t cols,
                              float labelSmoothing) { throw std::logic_error("crossEntropyBackward: not written yet"); }
void CpuBackend::mseForward(const float* pred, const float* target, float* loss, std::int64_t n) { throw std::logic_error("mseForward: not written yet"); }
void CpuBackend::mseBackward(const float* pred, const float* target, const float* dloss, float* dpred, float* dtarget,
                     std::int64_t n) { throw std::logic_error("mseBackward: not written yet"); }
void CpuBackend::bceWithLogitsForward(const float* logits, const float* target, float* loss, std::int64_t n) { throw std::logic_error("bceWithLogitsForward: not written yet"); }
void CpuBackend::bceWithLogitsBackward(const float* logits, const float* target, const float* dloss, float* dlogits,
                               float* dtarget, std::int64_t n) { throw std::logic_error("bceWithLogitsBackward: not written yet"); }
}  // namespace ts
