// The CUDA backend module's entry point, shared by the module (backend/cuda/cuda_module_api.cu)
// and the engine that loads it (backend/cuda_module.cpp). The module is a shared library
// loaded with dlopen on first use, so that programs start, and run on the CPU, on machines
// without NVIDIA's libraries, and pay cuBLAS's and cuDNN's start-up (~0.4 s, ~245 MB, spent
// in their static constructors) only when they use a GPU.
//
// The module exports this one C symbol; everything else in it is hidden (its own copy of the
// few engine files it builds on, see engine/CMakeLists.txt). The table passes C++ types: both
// sides come from the same build, which `abi` and `version` check.
#pragma once
#include "backend/devices.h"

namespace ts {

struct CudaModuleApi {
    int abi;              // kCudaModuleAbi when it was built
    const char* version;  // TS_VERSION when it was built
    CudaRuntimeInfo (*queryCuda)();
    CudaMemoryInfo (*memoryInfo)(int index);
    Backend& (*backend)(int index);  // throws std::runtime_error naming why
    bool (*supports)(Primitive p, DType dtype);
};

// Raised whenever CudaModuleApi or a type it passes changes layout.
inline constexpr int kCudaModuleAbi = 1;

inline constexpr const char* kCudaModuleFile = "libtrainstudio-cuda.so";
inline constexpr const char* kCudaModuleEntry = "trainstudio_cuda_module";
using CudaModuleEntry = const CudaModuleApi* (*)();

}  // namespace ts
