// Caching device and pinned-host allocators (see cuda_allocator.h). Every block in the cache
// is reused only through the backend's single stream, so stream order alone makes reuse safe:
// a block freed while a queued kernel still reads it is handed out to work queued after it.
#include <stdexcept>
#include <string>

#include "backend/cuda/cuda_allocator.h"
#include "backend/cuda/cuda_check.h"
#include "tensor/format_bytes.h"

namespace ts {

namespace {
constexpr std::size_t kSmall = 512;
constexpr std::size_t kLargeFrom = std::size_t(1) << 20;
constexpr std::size_t kLarge = std::size_t(2) << 20;
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
    try {
        releaseCached();
    } catch (...) {
    }
    cudaGetLastError();
}

void* CudaAllocator::systemAllocate(std::size_t bytes)
{
    TS_CUDA(cudaSetDevice(device_));
    void* ptr = nullptr;
    const cudaError_t err = cudaMalloc(&ptr, bytes);
    if (err == cudaErrorMemoryAllocation) {
        cudaGetLastError();  // not sticky: the caller releases its cache and retries
        return nullptr;
    }
    if (err != cudaSuccess) cuda::throwCudaError(err, "cudaMalloc", __FILE__, __LINE__);
    return ptr;
}

// cudaFree waits for the device, so no queued kernel can still be using a freed block.
void CudaAllocator::systemFree(void* ptr)
{
    if (cudaSetDevice(device_) == cudaSuccess) cudaFree(ptr);
}

void CudaAllocator::outOfMemory(std::size_t bytes, const AllocatorStats& held)
{
    std::size_t freeBytes = 0, totalBytes = 0;
    if (cudaMemGetInfo(&freeBytes, &totalBytes) != cudaSuccess) {
        freeBytes = totalBytes = 0;
        cudaGetLastError();
    }
    std::string what = "the GPU (cuda:" + std::to_string(device_) + ") is out of memory: asked for " +
                       formatBytes(double(bytes)) + " with " + formatBytes(double(held.allocated)) + " allocated and " +
                       formatBytes(double(held.reserved)) + " reserved by TrainStudio";
    if (totalBytes) what += ", " + formatBytes(double(freeBytes)) + " free of " + formatBytes(double(totalBytes)) + " on the device";
    throw DeviceOutOfMemory(what, bytes, held, freeBytes, totalBytes);
}

// ---- pinned host ----------------------------------------------------------------------------

PinnedHostAllocator::~PinnedHostAllocator()
{
    releaseCached();
    cudaGetLastError();
}

void* PinnedHostAllocator::systemAllocate(std::size_t bytes)
{
    // Portable: pinned for every device's context, whichever is current here.
    void* ptr = nullptr;
    const cudaError_t err = cudaHostAlloc(&ptr, bytes, cudaHostAllocPortable);
    if (err == cudaErrorMemoryAllocation) {
        cudaGetLastError();
        return nullptr;
    }
    if (err != cudaSuccess) cuda::throwCudaError(err, "cudaHostAlloc", __FILE__, __LINE__);
    return ptr;
}

void PinnedHostAllocator::systemFree(void* ptr) { cudaFreeHost(ptr); }

void PinnedHostAllocator::outOfMemory(std::size_t bytes, const AllocatorStats& held)
{
    throw std::runtime_error("out of page-locked host memory: asked for " + formatBytes(double(bytes)) + " with " +
                             formatBytes(double(held.reserved)) + " already pinned by TrainStudio");
}

}  // namespace ts
