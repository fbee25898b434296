// Embedding lookup on the CPU: a gather forward and a scatter-add backward.
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/parallel.h"

namespace ts {

void CpuBackend::embeddingForward(const std::int64_t* indices, const float* table, float* y, std::int64_t count,
                                  std::int64_t rows, std::int64_t dim)
{
    // Checked serially before any parallel work: an exception must not leave an OpenMP region.
    for (std::int64_t i = 0; i < count; ++i)
        if (indices[i] < 0 || indices[i] >= rows)
            throw std::out_of_range("embedding index " + std::to_string(indices[i]) + " at position " +
                                    std::to_string(i) + " is outside [0, " + std::to_string(rows) + ")");
    cpu::parallelFor(count, std::max<std::int64_t>(1, 16384 / std::max<std::int64_t>(dim, 1)),
                     [&](std::int64_t i0, std::int64_t i1) {
                         for (std::int64_t i = i0; i < i1; ++i)
                             std::memcpy(y + i * dim, table + indices[i] * dim,
                                         static_cast<std::size_t>(dim) * sizeof(float));
                     });
}

// Repeated indices add into the same table row, so threads split the embedding dimension
// (never the lookups): no two threads touch one element, and each element sums its
// contributions in lookup order whatever the thread count.
void CpuBackend::embeddingBackward(const std::int64_t* indices, const float* dy, float* dtable, std::int64_t count,
                                   std::int64_t dim)
{
    if (!dtable) return;
    cpu::parallelFor(dim, std::max<std::int64_t>(1, 16384 / std::max<std::int64_t>(count, 1)),
                     [&](std::int64_t d0, std::int64_t d1) {
                         for (std::int64_t i = 0; i < count; ++i) {
                             const float* src = dy + i * dim;
                             float* dst = dtable + indices[i] * dim;
                             for (std::int64_t d = d0; d < d1; ++d) dst[d] += src[d];
                         }
                     });
}

}  // namespace ts
