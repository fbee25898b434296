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

// What every allocator here shares: freed blocks are kept by rounded size and handed out
// again, a failed system allocation releases the cache and retries once, and the counts are
// kept under one lock. A subclass supplies the rounding and the system calls, and calls
// releaseCached() from its own destructor (the base's cannot reach systemFree).
class CachingAllocator : public Allocator {
public:
    void* allocate(std::size_t bytes) final;
    void deallocate(void* ptr, std::size_t bytes) final;
    AllocatorStats stats() const final;
    void resetPeak() final;
    void releaseCached() final;

protected:
    virtual std::size_t roundUp(std::size_t bytes) const = 0;
    // Fresh memory, or nullptr when the system has none (other failures throw).
    virtual void* systemAllocate(std::size_t bytes) = 0;
    virtual void systemFree(void* ptr) = 0;
    // The retry failed too: throws, saying what was asked and what is held.
    [[noreturn]] virtual void outOfMemory(std::size_t bytes, const AllocatorStats& held) = 0;

private:
    std::size_t releaseCachedLocked();

    mutable std::mutex mutex_;
    std::multimap<std::size_t, void*> cache_;
    AllocatorStats stats_;
};

// Host memory, 64-byte aligned (AVX-512 loads).
class CpuAllocator final : public CachingAllocator {
public:
    ~CpuAllocator() override;
    Device device() const override { return {DeviceKind::CPU, 0}; }

    static CpuAllocator& instance();
    // Blocks are rounded up to this granularity so near sizes share cache entries.
    static std::size_t roundedSize(std::size_t bytes);

private:
    std::size_t roundUp(std::size_t bytes) const override { return roundedSize(bytes); }
    void* systemAllocate(std::size_t bytes) override;
    void systemFree(void* ptr) override;
    [[noreturn]] void outOfMemory(std::size_t bytes, const AllocatorStats& held) override;
};

}  // namespace ts
