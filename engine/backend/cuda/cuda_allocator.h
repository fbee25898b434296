// Device memory with a cache, like PyTorch's caching allocator but simpler: freed blocks are
// kept by rounded size and handed out again, so a training loop that allocates the same sizes
// every step never calls cudaMalloc after its first step. The executor's plan allocates the
// arena once anyway; the cache serves the evaluator, optimizer state and scratch.
// An allocation that fails releases the cache and retries once, then throws DeviceOutOfMemory.
#pragma once
#include <cstddef>

#include "tensor/allocator.h"

namespace ts {

class CudaAllocator final : public CachingAllocator {
public:
    explicit CudaAllocator(int device) : device_(device) {}
    ~CudaAllocator() override;
    Device device() const override { return {DeviceKind::CUDA, device_}; }

    // Blocks are rounded to 512 bytes (small) or 2 MiB (from 1 MiB up) so near sizes share entries.
    static std::size_t roundedSize(std::size_t bytes);

private:
    std::size_t roundUp(std::size_t bytes) const override { return roundedSize(bytes); }
    void* systemAllocate(std::size_t bytes) override;
    void systemFree(void* ptr) override;
    [[noreturn]] void outOfMemory(std::size_t bytes, const AllocatorStats& held) override;

    int device_;
};

// Page-locked host memory (cudaHostAlloc), for batches the loader assembles: copies from it
// to the device are true DMA and can overlap compute. Cached like the device allocator.
class PinnedHostAllocator final : public CachingAllocator {
public:
    ~PinnedHostAllocator() override;
    Device device() const override { return {DeviceKind::CPU, 0}; }

private:
    std::size_t roundUp(std::size_t bytes) const override { return CudaAllocator::roundedSize(bytes); }
    void* systemAllocate(std::size_t bytes) override;
    void systemFree(void* ptr) override;
    [[noreturn]] void outOfMemory(std::size_t bytes, const AllocatorStats& held) override;
};

}  // namespace ts
