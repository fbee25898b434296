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
namespace {
// One core's memset or memcpy reaches about half the memory bandwidth two cores do; the
// executor zeroes every activation gradient before its first backward (62 MB a step in the CNN).
constexpr std::int64_t kSliceBytes = 1 << 20;
}  // namespace

void CpuBackend::zeroBytes(void* x, std::size_t bytes)
{
    auto* p = static_cast<char*>(x);
    cpu::parallelFor(static_cast<std::int64_t>(bytes), kSliceBytes,
                     [&](std::int64_t b0, std::int64_t b1) { std::memset(p + b0, 0, static_cast<std::size_t>(b1 - b0)); });
}

void CpuBackend::copyBytes(void* dst, const void* src, std::size_t bytes)
{
    auto* d = static_cast<char*>(dst);
    const auto* s = static_cast<const char*>(src);
    if (d < s + bytes && s < d + bytes) {  // overlapping: memmove's order matters
        std::memmove(dst, src, bytes);
        return;
    }
    cpu::parallelFor(static_cast<std::int64_t>(bytes), kSliceBytes,
                     [&](std::int64_t b0, std::int64_t b1) { std::memcpy(d + b0, s + b0, static_cast<std::size_t>(b1 - b0)); });
}
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
