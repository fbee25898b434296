// Device memory with a cache, like PyTorch's caching allocator but simpler: freed blocks are
// kept by rounded size and handed out again, so a training loop that allocates the same sizes
// every step never calls cudaMalloc after its first step. The executor's plan allocates the
// arena once anyway; the cache serves the evaluator, optimizer state and scratch.
// An allocation that fails releases the cache and retries once, then throws DeviceOutOfMemory.
#pragma once
#include <cstddef>
#include <map>
#include <mutex>

#include "tensor/allocator.h"

namespace ts {

class CudaAllocator final : public Allocator {
public:
    explicit CudaAllocator(int device) : device_(device) {}
    ~CudaAllocator() override;
    Device device() const override { return {DeviceKind::CUDA, device_}; }
    void* allocate(std::size_t bytes) override;
    void deallocate(void* ptr, std::size_t bytes) override;
    AllocatorStats stats() const override;
    void resetPeak() override;
    void releaseCached() override;

    // Blocks are rounded to 512 bytes (small) or 2 MiB (from 1 MiB up) so near sizes share entries.
    static std::size_t roundedSize(std::size_t bytes);

private:
    int device_;
    mutable std::mutex mutex_;
    std::multimap<std::size_t, void*> cache_;
    AllocatorStats stats_;
};

// Page-locked host memory (cudaHostAlloc), for batches the loader assembles: copies from it
// to the device are true DMA and can overlap compute. Cached like the device allocator.
class PinnedHostAllocator final : public Allocator {
public:
    ~PinnedHostAllocator() override;
    Device device() const override { return {DeviceKind::CPU, 0}; }
    void* allocate(std::size_t bytes) override;
    void deallocate(void* ptr, std::size_t bytes) override;
    AllocatorStats stats() const override;
    void resetPeak() override;
    void releaseCached() override;

private:
    mutable std::mutex mutex_;
    std::multimap<std::size_t, void*> cache_;
    AllocatorStats stats_;
};

}  // namespace ts
