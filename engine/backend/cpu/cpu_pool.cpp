// PLACEHOLDER: to be written.
#include <stdexcept>
#include "backend/cpu/cpu_backend.h"
namespace ts {
void CpuBackend::pool2dForward(PoolKind kind, const PoolGeometry& g, const float* x, float* y, std::int32_t* argmax) { throw std::logic_error("pool2dForward: not written yet"); }
void CpuBackend::pool2dBackward(PoolKind kind, const PoolGeometry& g, const float* dy, const std::int32_t* argmax,
                        float* dx) { throw std::logic_error("pool2dBackward: not written yet"); }
}  // namespace ts
