// Device discovery through the CUDA runtime, with cuBLAS and cuDNN versions. Safe on
// machines without a driver: every call's error is turned into `reason`.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cudnn.h>

#include "backend/devices.h"

namespace ts {

namespace {
std::string versionString(int v, int majorDiv, int minorDiv)
{
    return std::to_string(v / majorDiv) + "." + std::to_string((v % majorDiv) / minorDiv) + "." + std::to_string(v % minorDiv);
}
}  // namespace

CudaRuntimeInfo queryCuda()
{
    CudaRuntimeInfo info;
    info.compiledIn = true;
    int runtime = 0;
    cudaRuntimeGetVersion(&runtime);
    info.runtimeVersion = std::to_string(runtime / 1000) + "." + std::to_string((runtime % 1000) / 10);
    const std::size_t cudnn = cudnnGetVersion();  // major*10000 + minor*100 + patch in cuDNN 9
    info.cudnnVersion = versionString(static_cast<int>(cudnn), 10000, 100);
    int major = 0, minor = 0, patch = 0;  // the library loaded, not the header compiled against
    cublasGetProperty(MAJOR_VERSION, &major);
    cublasGetProperty(MINOR_VERSION, &minor);
    cublasGetProperty(PATCH_LEVEL, &patch);
    info.cublasVersion = std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);

    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        // Without any NVIDIA driver the runtime reports an "insufficient" driver: say what it means.
        const bool noDriver = err == cudaErrorInsufficientDriver || err == cudaErrorNoDevice;
        info.reason = std::string("no CUDA device (") + (noDriver ? "no NVIDIA driver or GPU on this machine: " : "") +
                      cudaGetErrorString(err) + ")";
        cudaGetLastError();  // clear the sticky error
        return info;
    }
    if (count == 0) info.reason = "no CUDA device (the driver reports none)";
    for (int i = 0; i < count; ++i) {
        cudaDeviceProp prop{};
        if (cudaGetDeviceProperties(&prop, i) != cudaSuccess) continue;
        info.devices.push_back(CudaDeviceInfo{i, prop.name, prop.totalGlobalMem, prop.major, prop.minor,
                                              prop.multiProcessorCount});
    }
    return info;
}

CudaMemoryInfo cudaMemoryInfo(int index)
{
    // cudaMemGetInfo answers for the current device: switch to `index` and back.
    int previous = 0;
    if (cudaGetDevice(&previous) != cudaSuccess || cudaSetDevice(index) != cudaSuccess) {
        cudaGetLastError();
        return {};
    }
    CudaMemoryInfo info;
    if (cudaMemGetInfo(&info.freeBytes, &info.totalBytes) != cudaSuccess) {
        info = {};
        cudaGetLastError();
    }
    cudaSetDevice(previous);
    return info;
}

}  // namespace ts
