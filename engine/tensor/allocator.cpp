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

void* CachingAllocator::allocate(std::size_t bytes)
{
    const std::size_t size = roundUp(bytes);
    std::lock_guard lock(mutex_);
    void* ptr = nullptr;
    if (auto it = cache_.find(size); it != cache_.end()) {
        ptr = it->second;
        cache_.erase(it);
    } else {
        ptr = systemAllocate(size);
        if (!ptr) {  // cached blocks of other sizes may be what stands in the way
            stats_.reserved -= releaseCachedLocked();
            ptr = systemAllocate(size);
        }
        if (!ptr) outOfMemory(size, stats_);
        stats_.reserved += size;
    }
    stats_.allocated += size;
    stats_.peak = std::max(stats_.peak, stats_.allocated);
    ++stats_.allocations;
    return ptr;
}

void CachingAllocator::deallocate(void* ptr, std::size_t bytes)
{
    if (!ptr) return;
    const std::size_t size = roundUp(bytes);
    std::lock_guard lock(mutex_);
    stats_.allocated -= size;
    cache_.emplace(size, ptr);
}

AllocatorStats CachingAllocator::stats() const
{
    std::lock_guard lock(mutex_);
    return stats_;
}

void CachingAllocator::resetPeak()
{
    std::lock_guard lock(mutex_);
    stats_.peak = stats_.allocated;
}

void CachingAllocator::releaseCached()
{
    std::lock_guard lock(mutex_);
    stats_.reserved -= releaseCachedLocked();
}

std::size_t CachingAllocator::releaseCachedLocked()
{
    std::size_t freed = 0;
    for (auto& [size, ptr] : cache_) {
        systemFree(ptr);
        freed += size;
    }
    cache_.clear();
    return freed;
}

CpuAllocator::~CpuAllocator() { releaseCached(); }

CpuAllocator& CpuAllocator::instance()
{
    static CpuAllocator* allocator = new CpuAllocator;  // lives until exit: tensors may outlive statics
    return *allocator;
}

void* CpuAllocator::systemAllocate(std::size_t bytes) { return std::aligned_alloc(kAlignment, bytes); }
void CpuAllocator::systemFree(void* ptr) { std::free(ptr); }
void CpuAllocator::outOfMemory(std::size_t, const AllocatorStats&) { throw std::bad_alloc(); }

}  // namespace ts
