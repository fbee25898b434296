// PLACEHOLDER: to be written.
#include <stdexcept>
#include "backend/cpu/cpu_backend.h"
namespace ts {
std::size_t CpuBackend::conv2dWorkspaceBytes(const ConvGeometry& g) { throw std::logic_error("conv2dWorkspaceBytes: not written yet"); }
void CpuBackend::conv2dForward(const ConvGeometry& g, const float* x, const float* w, float* y, void* workspace) { throw std::logic_error("conv2dForward: not written yet"); }
void CpuBackend::conv2dBackwardData(const ConvGeometry& g, const float* w, const float* dy, float* dx,
                            void* workspace) { throw std::logic_error("conv2dBackwardData: not written yet"); }
void CpuBackend::conv2dBackwardFilter(const ConvGeometry& g, const float* x, const float* dy, float* dw,
                              void* workspace) { throw std::logic_error("conv2dBackwardFilter: not written yet"); }
}  // namespace ts
