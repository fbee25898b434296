// The error paths of TS_CUDA / TS_CUBLAS / TS_CUDNN. Out-of-memory from any of the three
// libraries becomes DeviceOutOfMemory so the trainer can explain it; everything else is a
// std::runtime_error "CUDA error in <call> at <file>:<line>: <library message>".
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

#include "backend/cuda/cuda_check.h"
#include "tensor/allocator.h"

namespace ts::cuda {

namespace {

std::string where(const char* call, const char* file, int line)
{
    const char* slash = std::strrchr(file, '/');
    return std::string("CUDA error in ") + call + " at " + (slash ? slash + 1 : file) + ":" + std::to_string(line) +
           ": ";
}

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

// The allocator's own counts are unknown here (a library allocated internally): requested 0,
// stats empty, and the driver's free/total when it still answers.
[[noreturn]] void throwOutOfMemory(const std::string& what)
{
    cudaGetLastError();  // an allocation failure is not sticky; clear it so the query can run
    std::size_t freeBytes = 0, totalBytes = 0;
    std::string msg = what;
    if (cudaMemGetInfo(&freeBytes, &totalBytes) == cudaSuccess)
        msg += " (" + gib(freeBytes) + " free of " + gib(totalBytes) + " on the device)";
    else {
        freeBytes = totalBytes = 0;
        cudaGetLastError();
    }
    throw DeviceOutOfMemory(msg, 0, AllocatorStats{}, freeBytes, totalBytes);
}

}  // namespace

void throwCudaError(cudaError_t err, const char* call, const char* file, int line)
{
    const std::string what = where(call, file, line) + cudaGetErrorString(err);
    if (err == cudaErrorMemoryAllocation) throwOutOfMemory(what);
    throw std::runtime_error(what);
}

void throwCublasError(cublasStatus_t st, const char* call, const char* file, int line)
{
    const std::string what = where(call, file, line) + cublasGetStatusString(st);
    if (st == CUBLAS_STATUS_ALLOC_FAILED) throwOutOfMemory(what);
    throw std::runtime_error(what);
}

void throwCudnnError(cudnnStatus_t st, const char* call, const char* file, int line)
{
    std::string what = where(call, file, line) + cudnnGetErrorString(st);
    // cuDNN 9 keeps a more specific explanation of the last failure; add it when there is one.
    char detail[512] = {};
    cudnnGetLastErrorString(detail, sizeof detail);
    if (detail[0]) what += std::string(" (") + detail + ")";
    // cuDNN 9 split the old CUDNN_STATUS_ALLOC_FAILED (now an alias of the host one) in two.
    if (st == CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED ||
        st == CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED)
        throwOutOfMemory(what);
    throw std::runtime_error(what);
}

}  // namespace ts::cuda
