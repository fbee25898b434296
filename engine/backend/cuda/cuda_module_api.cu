// The CUDA backend module's one exported symbol (backend/cuda_module_api.h): devices.h as the
// module implements it (cuda_devices.cu, cuda_backend.cu).
#include "backend/cuda_module_api.h"

namespace {

const ts::CudaModuleApi kApi{ts::kCudaModuleAbi, TS_VERSION, &ts::queryCuda, &ts::cudaMemoryInfo, &ts::cudaBackend,
                             &ts::cudaSupports};

}  // namespace

extern "C" __attribute__((visibility("default"))) const ts::CudaModuleApi* trainstudio_cuda_module() { return &kApi; }
