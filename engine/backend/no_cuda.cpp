#include "backend/devices.h"

namespace ts {

CudaRuntimeInfo queryCuda()
{
    CudaRuntimeInfo info;
    info.reason = "this build has no CUDA backend (nvcc was not found when it was configured)";
    return info;
}

}  // namespace ts
