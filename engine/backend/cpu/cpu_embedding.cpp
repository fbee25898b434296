// PLACEHOLDER: to be written.
#include <stdexcept>
#include "backend/cpu/cpu_backend.h"
namespace ts {
void CpuBackend::embeddingForward(const std::int64_t* indices, const float* table, float* y, std::int64_t count,
                          std::int64_t rows, std::int64_t dim) { throw std::logic_error("embeddingForward: not written yet"); }
void CpuBackend::embeddingBackward(const std::int64_t* indices, const float* dy, float* dtable, std::int64_t count,
                           std::int64_t dim) { throw std::logic_error("embeddingBackward: not written yet"); }
}  // namespace ts
