// Allocators hand out raw storage and count what they hold. The CPU one caches freed
// blocks by size, like the CUDA caching allocator will, so "reserved" means the same
// thing on both: bytes taken from the system, in use or cached.
#pragma once
#include <cstddef>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "tensor/dtype.h"

namespace ts {

struct AllocatorStats {
    std::size_t allocated = 0;  // bytes in live blocks
    std::size_t reserved = 0;   // bytes held from the system (live + cached)
    std::size_t peak = 0;       // highest `allocated` seen since construction or resetPeak()
    std::size_t allocations = 0;  // number of allocate() calls
};

// A device allocation that failed for lack of memory, even after the cache was released.
// The trainer catches it and adds the run's planned breakdown and what would fit.
class DeviceOutOfMemory : public std::runtime_error {
public:
    DeviceOutOfMemory(const std::string& what, std::size_t requested, AllocatorStats stats, std::size_t deviceFree,
                      std::size_t deviceTotal)
        : std::runtime_error(what), requested(requested), stats(stats), deviceFree(deviceFree), deviceTotal(deviceTotal)
    {
    }
    std::size_t requested;  // bytes asked for
    AllocatorStats stats;   // the allocator's counts at the failure
    std::size_t deviceFree, deviceTotal;  // as the driver reported them (0 when unknown)
};

class Allocator {
public:
    virtual ~Allocator() = default;
    virtual Device device() const = 0;
    virtual void* allocate(std::size_t bytes) = 0;
    virtual void deallocate(void* ptr, std::size_t bytes) = 0;
    virtual AllocatorStats stats() const = 0;
    virtual void resetPeak() = 0;
    // Returns cached blocks to the system.
    virtual void releaseCached() = 0;
};

// Host memory, 64-byte aligned (AVX-512 loads), freed blocks kept for reuse.
class CpuAllocator final : public Allocator {
public:
    ~CpuAllocator() override;
    Device device() const override { return {DeviceKind::CPU, 0}; }
    void* allocate(std::size_t bytes) override;
    void deallocate(void* ptr, std::size_t bytes) override;
    AllocatorStats stats() const override;
    void resetPeak() override;
    void releaseCached() override;

    static CpuAllocator& instance();
    // Blocks are rounded up to this granularity so near sizes share cache entries.
    static std::size_t roundedSize(std::size_t bytes);

private:
    mutable std::mutex mutex_;
    std::multimap<std::size_t, void*> cache_;
    AllocatorStats stats_;
};

}  // namespace ts
