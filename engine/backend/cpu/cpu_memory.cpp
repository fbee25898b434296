#include <algorithm>
#include <cstring>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/parallel.h"

namespace ts {

Allocator& CpuBackend::allocator() { return CpuAllocator::instance(); }

Backend& cpuBackend()
{
    static CpuBackend backend;
    return backend;
}

void CpuBackend::fill(float* x, std::int64_t n, float value) { std::fill_n(x, n, value); }
void CpuBackend::zeroBytes(void* x, std::size_t bytes) { std::memset(x, 0, bytes); }
void CpuBackend::copyBytes(void* dst, const void* src, std::size_t bytes) { std::memmove(dst, src, bytes); }
void CpuBackend::copyToHost(void* dst, const void* src, std::size_t bytes) { std::memcpy(dst, src, bytes); }
void CpuBackend::copyFromHost(void* dst, const void* src, std::size_t bytes) { std::memcpy(dst, src, bytes); }

void CpuBackend::copy2d(const float* src, std::int64_t srcStride, float* dst, std::int64_t dstStride,
                        std::int64_t rows, std::int64_t cols, bool accumulate)
{
    cpu::parallelFor(rows, std::max<std::int64_t>(1, 16384 / std::max<std::int64_t>(cols, 1)), [&](std::int64_t r0, std::int64_t r1) {
        for (std::int64_t r = r0; r < r1; ++r) {
            const float* s = src + r * srcStride;
            float* d = dst + r * dstStride;
            if (accumulate)
                for (std::int64_t j = 0; j < cols; ++j) d[j] += s[j];
            else
                std::memcpy(d, s, static_cast<std::size_t>(cols) * sizeof(float));
        }
    });
}

}  // namespace ts
