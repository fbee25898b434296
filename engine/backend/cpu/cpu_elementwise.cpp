// PLACEHOLDER: to be written.
#include <stdexcept>
#include "backend/cpu/cpu_backend.h"
namespace ts {
void CpuBackend::activationForward(Activation act, float alpha, const float* x, float* y, std::int64_t n) { throw std::logic_error("activationForward: not written yet"); }
void CpuBackend::activationBackward(Activation act, float alpha, const float* x, const float* y, const float* dy, float* dx,
                            std::int64_t n) { throw std::logic_error("activationBackward: not written yet"); }
void CpuBackend::dropoutForward(const float* x, float* y, std::uint8_t* mask, std::int64_t n, float p,
                        std::uint64_t seed) { throw std::logic_error("dropoutForward: not written yet"); }
void CpuBackend::dropoutBackward(const float* dy, const std::uint8_t* mask, float* dx, std::int64_t n, float p) { throw std::logic_error("dropoutBackward: not written yet"); }
void CpuBackend::softmaxForward(const float*, float*, std::int64_t, std::int64_t) { throw std::logic_error("softmaxForward: not written yet"); }
void CpuBackend::softmaxBackward(const float*, const float*, float*, std::int64_t, std::int64_t) { throw std::logic_error("softmaxBackward: not written yet"); }
}  // namespace ts
