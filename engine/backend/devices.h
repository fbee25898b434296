// What accelerators this process can see. Works in every build: without the CUDA backend
// compiled in, or without a driver or GPU, the list is empty and `reason` says why.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace ts {

struct CudaDeviceInfo {
    int index = 0;
    std::string name;
    std::size_t totalMemory = 0;
    int computeMajor = 0, computeMinor = 0;
    int multiprocessors = 0;
};

struct CudaRuntimeInfo {
    bool compiledIn = false;
    std::string runtimeVersion;  // "13.0", empty when not compiled in
    std::string cudnnVersion;    // "9.x.y"
    std::string cublasVersion;
    std::vector<CudaDeviceInfo> devices;
    std::string reason;  // why `devices` is empty
};

CudaRuntimeInfo queryCuda();

// Free and total bytes on CUDA device `index` as the driver counts them (cudaMemGetInfo):
// memory this process's caching allocator holds counts as used. Both 0 without CUDA, or
// when the device does not answer.
struct CudaMemoryInfo {
    std::size_t freeBytes = 0, totalBytes = 0;
};
CudaMemoryInfo cudaMemoryInfo(int index);

class Backend;
// The CUDA backend on device `index`, created on first use and kept for the process (a
// backend owns a stream and library handles, and executors hold references to it). Throws
// std::runtime_error naming why when the build has no CUDA or the device cannot be opened.
Backend& cudaBackend(int index);

}  // namespace ts
