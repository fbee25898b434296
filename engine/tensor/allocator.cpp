#include "tensor/allocator.h"

#include <algorithm>
#include <cstdlib>
#include <new>

namespace ts {

namespace {
constexpr std::size_t kAlignment = 64;
constexpr std::size_t kGranularity = 512;
}  // namespace

std::size_t CpuAllocator::roundedSize(std::size_t bytes)
{
    if (bytes == 0) bytes = 1;
    return (bytes + kGranularity - 1) / kGranularity * kGranularity;
}

CpuAllocator::~CpuAllocator() { releaseCached(); }

CpuAllocator& CpuAllocator::instance()
{
    static CpuAllocator* allocator = new CpuAllocator;  // lives until exit: tensors may outlive statics
    return *allocator;
}

void* CpuAllocator::allocate(std::size_t bytes)
{
    const std::size_t size = roundedSize(bytes);
    std::lock_guard lock(mutex_);
    void* ptr = nullptr;
    if (auto it = cache_.find(size); it != cache_.end()) {
        ptr = it->second;
        cache_.erase(it);
    } else {
        ptr = std::aligned_alloc(kAlignment, size);
        if (!ptr) throw std::bad_alloc();
        stats_.reserved += size;
    }
    stats_.allocated += size;
    stats_.peak = std::max(stats_.peak, stats_.allocated);
    ++stats_.allocations;
    return ptr;
}

void CpuAllocator::deallocate(void* ptr, std::size_t bytes)
{
    if (!ptr) return;
    const std::size_t size = roundedSize(bytes);
    std::lock_guard lock(mutex_);
    stats_.allocated -= size;
    cache_.emplace(size, ptr);
}

AllocatorStats CpuAllocator::stats() const
{
    std::lock_guard lock(mutex_);
    return stats_;
}

void CpuAllocator::resetPeak()
{
    std::lock_guard lock(mutex_);
    stats_.peak = stats_.allocated;
}

void CpuAllocator::releaseCached()
{
    std::lock_guard lock(mutex_);
    for (auto& [size, ptr] : cache_) {
        std::free(ptr);
        stats_.reserved -= size;
    }
    cache_.clear();
}

}  // namespace ts
