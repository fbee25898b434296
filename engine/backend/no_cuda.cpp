#include <stdexcept>

#include "backend/devices.h"

namespace ts {

namespace {
const char* const kNoCuda = "this build has no CUDA backend (nvcc was not found when it was configured)";
}

CudaRuntimeInfo queryCuda()
{
    CudaRuntimeInfo info;
    info.reason = kNoCuda;
    return info;
}

CudaMemoryInfo cudaMemoryInfo(int) { return {}; }

Backend& cudaBackend(int) { throw std::runtime_error(kNoCuda); }

}  // namespace ts
