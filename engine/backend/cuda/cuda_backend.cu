// CudaBackend's lifetime (stream, library handles, scratch) and the process-wide registry
// behind cudaBackend(index). The primitives live in the other cuda_*.cu files.
#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_check.h"
#include "backend/devices.h"

namespace ts {

CudaBackend::CudaBackend(int index) : index_(index), allocator_(index)
{
    // A constructor that throws runs no destructor: undo what was created, then rethrow.
    auto cleanup = [this] {
        if (cudnn_) cudnnDestroy(cudnn_);
        if (cublas_) cublasDestroy(cublas_);
        if (stream_) cudaStreamDestroy(stream_);
        cudnn_ = nullptr;
        cublas_ = nullptr;
        stream_ = nullptr;
        cudaGetLastError();
    };
    try {
        TS_CUDA(cudaSetDevice(index_));
        cudaDeviceProp prop{};
        TS_CUDA(cudaGetDeviceProperties(&prop, index_));
        name_ = "cuda:" + std::to_string(index_) + " (" + prop.name + ")";
        // Non-blocking: our stream never waits on the legacy default stream other code may use.
        TS_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
        TS_CUBLAS(cublasCreate(&cublas_));
        TS_CUBLAS(cublasSetStream(cublas_, stream_));
        // Default math: no TF32 unless a GEMM asks for it through its compute type (cuda_blas.cu).
        TS_CUBLAS(cublasSetMathMode(cublas_, CUBLAS_DEFAULT_MATH));
        TS_CUDNN(cudnnCreate(&cudnn_));
        TS_CUDNN(cudnnSetStream(cudnn_, stream_));
    } catch (const DeviceOutOfMemory&) {
        cleanup();
        throw;
    } catch (const std::exception& e) {
        cleanup();
        throw std::runtime_error("cannot open cuda:" + std::to_string(index_) + ": " + e.what());
    }
}

CudaBackend::~CudaBackend()
{
    // Never throws; errors here (a driver already shutting down) are ignored.
    cudaSetDevice(index_);
    if (stream_) cudaStreamSynchronize(stream_);
    if (deviceScratch_) allocator_.deallocate(deviceScratch_, deviceScratchBytes_);
    if (hostScratch_) pinned_.deallocate(hostScratch_, hostScratchBytes_);
    if (cudnn_) cudnnDestroy(cudnn_);
    if (cublas_) cublasDestroy(cublas_);
    if (stream_) cudaStreamDestroy(stream_);
    cudaGetLastError();
}

void CudaBackend::makeCurrent() const { TS_CUDA(cudaSetDevice(index_)); }

void CudaBackend::synchronize()
{
    makeCurrent();
    TS_CUDA(cudaStreamSynchronize(stream_));
}

// Scratch is taken from the backend's own allocators (so it counts as reserved memory and
// shares the out-of-memory path). Growing waits for the stream first: queued work may still
// use the old block, and a pinned host block could be re-handed out and overwritten by the
// host while a copy into it is pending. A caller that needs several scratch areas asks once
// for their total: growing invalidates earlier pointers.
void* CudaBackend::deviceScratch(std::size_t bytes)
{
    if (bytes <= deviceScratchBytes_ && deviceScratch_) return deviceScratch_;
    makeCurrent();
    const std::size_t size = std::max<std::size_t>(bytes, std::size_t(64) << 10);
    if (deviceScratch_) {
        TS_CUDA(cudaStreamSynchronize(stream_));
        allocator_.deallocate(deviceScratch_, deviceScratchBytes_);
        deviceScratch_ = nullptr;
        deviceScratchBytes_ = 0;
    }
    deviceScratch_ = allocator_.allocate(size);
    deviceScratchBytes_ = size;
    return deviceScratch_;
}

void* CudaBackend::hostScratch(std::size_t bytes)
{
    if (bytes <= hostScratchBytes_ && hostScratch_) return hostScratch_;
    makeCurrent();
    const std::size_t size = std::max<std::size_t>(bytes, 4096);
    if (hostScratch_) {
        TS_CUDA(cudaStreamSynchronize(stream_));
        pinned_.deallocate(hostScratch_, hostScratchBytes_);
        hostScratch_ = nullptr;
        hostScratchBytes_ = 0;
    }
    hostScratch_ = pinned_.allocate(size);
    hostScratchBytes_ = size;
    return hostScratch_;
}

bool CudaBackend::implements(Primitive p, DType dtype)
{
    if (isMemoryPrimitive(p)) return true;
    if (dtype != DType::F32) return false;
    switch (p) {
    // The optional primitives (Backend's default throws) that no cuda_*.cu file implements yet.
    case Primitive::upsample2dForward:
    case Primitive::upsample2dBackward:
    case Primitive::recurrentCellForward:
    case Primitive::recurrentCellBackward:
    case Primitive::robustLossForward:
    case Primitive::robustLossBackward: return false;
    default: return true;
    }
}

bool cudaSupports(Primitive p, DType dtype) { return CudaBackend::implements(p, dtype); }

// One backend per device for the life of the process. Heap-allocated and never destroyed:
// executors and trainer threads may still hold references while static destructors run.
Backend& cudaBackend(int index)
{
    static std::mutex* mutex = new std::mutex;
    static auto* backends = new std::map<int, CudaBackend*>;
    std::lock_guard lock(*mutex);
    if (auto it = backends->find(index); it != backends->end()) return *it->second;
    const CudaRuntimeInfo info = queryCuda();
    if (info.devices.empty()) throw std::runtime_error(info.reason);
    const bool listed = std::any_of(info.devices.begin(), info.devices.end(),
                                    [&](const CudaDeviceInfo& d) { return d.index == index; });
    if (!listed)
        throw std::runtime_error("no CUDA device " + std::to_string(index) + " (this machine has " +
                                 std::to_string(info.devices.size()) + ")");
    auto* backend = new CudaBackend(index);
    backends->emplace(index, backend);
    return *backend;
}

}  // namespace ts
