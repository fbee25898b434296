// Error checks for CUDA, cuBLAS and cuDNN calls: a failure throws std::runtime_error naming
// the call, the source line and the library's own message. An out-of-memory from any of the
// three throws DeviceOutOfMemory (tensor/allocator.h), which the trainer turns into the
// planned-memory breakdown and what would fit.
#pragma once
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cudnn.h>

#include <string>

namespace ts::cuda {

[[noreturn]] void throwCudaError(cudaError_t err, const char* call, const char* file, int line);
[[noreturn]] void throwCublasError(cublasStatus_t st, const char* call, const char* file, int line);
[[noreturn]] void throwCudnnError(cudnnStatus_t st, const char* call, const char* file, int line);

// Threads per block for the 1-D elementwise kernels, and the grid that covers n elements
// (grid-stride loops handle anything beyond the cap).
constexpr int kThreads = 256;
inline unsigned gridFor(long long n)
{
    const long long blocks = (n + kThreads - 1) / kThreads;
    return static_cast<unsigned>(blocks < 1 ? 1 : (blocks > 65535LL * 8 ? 65535LL * 8 : blocks));
}

}  // namespace ts::cuda

#define TS_CUDA(call)                                                                  \
    do {                                                                               \
        const cudaError_t ts_err_ = (call);                                            \
        if (ts_err_ != cudaSuccess) ::ts::cuda::throwCudaError(ts_err_, #call, __FILE__, __LINE__); \
    } while (0)
#define TS_CUBLAS(call)                                                                \
    do {                                                                               \
        const cublasStatus_t ts_st_ = (call);                                          \
        if (ts_st_ != CUBLAS_STATUS_SUCCESS) ::ts::cuda::throwCublasError(ts_st_, #call, __FILE__, __LINE__); \
    } while (0)
#define TS_CUDNN(call)                                                                 \
    do {                                                                               \
        const cudnnStatus_t ts_st_ = (call);                                           \
        if (ts_st_ != CUDNN_STATUS_SUCCESS) ::ts::cuda::throwCudnnError(ts_st_, #call, __FILE__, __LINE__); \
    } while (0)
// After a kernel launch: a bad launch configuration is reported at the launch, not later.
#define TS_CUDA_LAUNCHED() TS_CUDA(cudaGetLastError())
