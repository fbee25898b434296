#include "backend/select_backend.h"

#include <stdexcept>

#include "backend/backend.h"
#include "backend/devices.h"

namespace ts {

Backend& selectBackend(const std::string& device, std::string* notice)
{
    if (device == "cpu") return cpuBackend();
    const bool wantsCuda = device == "cuda" || device.rfind("cuda:", 0) == 0;
    if (device != "auto" && !wantsCuda)
        throw std::invalid_argument("unknown device '" + device + "' (expected auto, cpu, cuda or cuda:N)");

    // The CUDA backend's primitives come with the CUDA issue; until then no GPU can train.
    const CudaRuntimeInfo cuda = queryCuda();
    std::string why = cuda.devices.empty() ? cuda.reason
                                           : "the CUDA backend is not complete in this build (GPU found: " +
                                                 cuda.devices.front().name + ")";
    if (wantsCuda) throw std::runtime_error("--device " + device + ": " + why + "; use --device cpu");
    if (notice) *notice = "device auto: " + why + "; training on the CPU";
    return cpuBackend();
}

}  // namespace ts
