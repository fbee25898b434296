// Caching device and pinned-host allocators (see cuda_allocator.h). Every block in the cache
// is reused only through the backend's single stream, so stream order alone makes reuse safe:
// a block freed while a queued kernel still reads it is handed out to work queued after it.
#include <algorithm>
#include <cstdio>
#include <new>
#include <stdexcept>
#include <string>

#include "backend/cuda/cuda_allocator.h"
#include "backend/cuda/cuda_check.h"

namespace ts {

namespace {

constexpr std::size_t kSmall = 512;
constexpr std::size_t kLargeFrom = std::size_t(1) << 20;
constexpr std::size_t kLarge = std::size_t(2) << 20;

// "1.5 GiB", or MiB below a GiB so small requests do not read "0.0 GiB".
std::string gib(std::size_t bytes)
{
    const double mib = static_cast<double>(bytes) / (1024.0 * 1024.0);
    char buf[32];
    if (mib >= 1024.0)
        std::snprintf(buf, sizeof buf, "%.1f GiB", mib / 1024.0);
    else
        std::snprintf(buf, sizeof buf, "%.1f MiB", mib);
    return buf;
}

// Frees every cached block with `release`; returns the bytes freed.
template <class Release>
std::size_t drain(std::multimap<std::size_t, void*>& cache, Release release)
{
    std::size_t freed = 0;
    for (auto& [size, ptr] : cache) {
        release(ptr);
        freed += size;
    }
    cache.clear();
    return freed;
}

void noteAllocation(AllocatorStats& s, std::size_t size)
{
    s.allocated += size;
    s.peak = std::max(s.peak, s.allocated);
    ++s.allocations;
}

}  // namespace

// ---- device ---------------------------------------------------------------------------------

std::size_t CudaAllocator::roundedSize(std::size_t bytes)
{
    if (bytes == 0) bytes = 1;  // a zero-byte tensor still gets a distinct, valid pointer
    const std::size_t g = bytes >= kLargeFrom ? kLarge : kSmall;
    return (bytes + g - 1) / g * g;
}

CudaAllocator::~CudaAllocator()
{
    // Never throws: at process exit the driver may already be shutting down.
    std::lock_guard lock(mutex_);
    if (cudaSetDevice(device_) == cudaSuccess) drain(cache_, [](void* p) { cudaFree(p); });
    cudaGetLastError();
}

void* CudaAllocator::allocate(std::size_t bytes)
{
    const std::size_t size = roundedSize(bytes);
    std::lock_guard lock(mutex_);
    void* ptr = nullptr;
    if (auto it = cache_.find(size); it != cache_.end()) {
        ptr = it->second;
        cache_.erase(it);
    } else {
        TS_CUDA(cudaSetDevice(device_));
        cudaError_t err = cudaMalloc(&ptr, size);
        if (err == cudaErrorMemoryAllocation) {
            // Cached blocks of other sizes may be what stands in the way: give them back, retry.
            cudaGetLastError();
            stats_.reserved -= drain(cache_, [](void* p) { cudaFree(p); });
            err = cudaMalloc(&ptr, size);
        }
        if (err == cudaErrorMemoryAllocation) {
            cudaGetLastError();
            std::size_t freeBytes = 0, totalBytes = 0;
            if (cudaMemGetInfo(&freeBytes, &totalBytes) != cudaSuccess) {
                freeBytes = totalBytes = 0;
                cudaGetLastError();
            }
            std::string what = "the GPU (cuda:" + std::to_string(device_) + ") is out of memory: asked for " +
                               gib(size) + " with " + gib(stats_.allocated) + " allocated and " + gib(stats_.reserved) +
                               " reserved by TrainStudio";
            if (totalBytes) what += ", " + gib(freeBytes) + " free of " + gib(totalBytes) + " on the device";
            throw DeviceOutOfMemory(what, size, stats_, freeBytes, totalBytes);
        }
        if (err != cudaSuccess) cuda::throwCudaError(err, "cudaMalloc", __FILE__, __LINE__);
        stats_.reserved += size;
    }
    noteAllocation(stats_, size);
    return ptr;
}

void CudaAllocator::deallocate(void* ptr, std::size_t bytes)
{
    if (!ptr) return;
    const std::size_t size = roundedSize(bytes);
    std::lock_guard lock(mutex_);
    stats_.allocated -= size;
    cache_.emplace(size, ptr);
}

AllocatorStats CudaAllocator::stats() const
{
    std::lock_guard lock(mutex_);
    return stats_;
}

void CudaAllocator::resetPeak()
{
    std::lock_guard lock(mutex_);
    stats_.peak = stats_.allocated;
}

void CudaAllocator::releaseCached()
{
    std::lock_guard lock(mutex_);
    if (cache_.empty()) return;
    TS_CUDA(cudaSetDevice(device_));
    // cudaFree waits for the device, so no queued kernel can still be using a freed block.
    stats_.reserved -= drain(cache_, [](void* p) { cudaFree(p); });
}

// ---- pinned host ----------------------------------------------------------------------------

PinnedHostAllocator::~PinnedHostAllocator()
{
    std::lock_guard lock(mutex_);
    drain(cache_, [](void* p) { cudaFreeHost(p); });
    cudaGetLastError();
}

void* PinnedHostAllocator::allocate(std::size_t bytes)
{
    const std::size_t size = CudaAllocator::roundedSize(bytes);
    std::lock_guard lock(mutex_);
    void* ptr = nullptr;
    if (auto it = cache_.find(size); it != cache_.end()) {
        ptr = it->second;
        cache_.erase(it);
    } else {
        // Portable: pinned for every device's context, whichever is current here.
        cudaError_t err = cudaHostAlloc(&ptr, size, cudaHostAllocPortable);
        if (err == cudaErrorMemoryAllocation) {
            cudaGetLastError();
            stats_.reserved -= drain(cache_, [](void* p) { cudaFreeHost(p); });
            err = cudaHostAlloc(&ptr, size, cudaHostAllocPortable);
        }
        if (err == cudaErrorMemoryAllocation) {
            cudaGetLastError();
            throw std::runtime_error("out of page-locked host memory: asked for " + gib(size) + " with " +
                                     gib(stats_.reserved) + " already pinned by TrainStudio");
        }
        if (err != cudaSuccess) cuda::throwCudaError(err, "cudaHostAlloc", __FILE__, __LINE__);
        stats_.reserved += size;
    }
    noteAllocation(stats_, size);
    return ptr;
}

void PinnedHostAllocator::deallocate(void* ptr, std::size_t bytes)
{
    if (!ptr) return;
    const std::size_t size = CudaAllocator::roundedSize(bytes);
    std::lock_guard lock(mutex_);
    stats_.allocated -= size;
    cache_.emplace(size, ptr);
}

AllocatorStats PinnedHostAllocator::stats() const
{
    std::lock_guard lock(mutex_);
    return stats_;
}

void PinnedHostAllocator::resetPeak()
{
    std::lock_guard lock(mutex_);
    stats_.peak = stats_.allocated;
}

void PinnedHostAllocator::releaseCached()
{
    std::lock_guard lock(mutex_);
    stats_.reserved -= drain(cache_, [](void* p) { cudaFreeHost(p); });
}

}  // namespace ts
