// What accelerators this process can see. Works in every build: without the CUDA backend
// compiled in, or without a driver or GPU, the list is empty and `reason` says why.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "backend/primitive.h"
#include "tensor/dtype.h"

namespace ts {

struct CudaDeviceInfo {
    int index = 0;
    std::string name;
    std::size_t totalMemory = 0;
    int computeMajor = 0, computeMinor = 0;
    int multiprocessors = 0;
};

struct CudaRuntimeInfo {
    bool compiledIn = false;     // the build has the CUDA backend (a module, loaded when used)
    std::string runtimeVersion;  // "13.0", empty when the backend was not loaded
    std::string cudnnVersion;    // "9.x.y"
    std::string cublasVersion;
    std::vector<CudaDeviceInfo> devices;
    std::string reason;  // why `devices` is empty
};

// Without NVIDIA's driver this answers at once, without loading the CUDA backend module
// (backend/cuda_module_api.h): the versions stay empty and `reason` says there is no driver.
CudaRuntimeInfo queryCuda();
// queryCuda(), but the CUDA backend and NVIDIA's libraries are loaded also without a driver,
// to report their versions or why they do not load (trainstudio-cli info).
CudaRuntimeInfo queryCudaLibraries();

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

// What the CUDA backend's supports() answers, without a device: `trainstudio-cli ops` tells on
// any machine which ops run on a GPU. False for everything in a build without CUDA
// (queryCuda().compiledIn).
bool cudaSupports(Primitive p, DType dtype = DType::F32);

}  // namespace ts
