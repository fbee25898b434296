// `trainstudio-cli info`: what this build can run on.
#include <cstdio>
#include <thread>

#include "backend/backend.h"
#include "backend/cpu/parallel.h"
#include "backend/devices.h"
#include "commands.h"
#include "ops/registry.h"
#include "version.h"

namespace ts::cli {

int infoCommand(const std::vector<std::string>&)
{
    std::printf("TrainStudio %s\n", engineVersion().c_str());
    std::printf("backends compiled in: %s\n", compiledBackends().c_str());
    std::printf("CPU threads: %d (hardware: %u)\n", cpu::threadCount(), std::thread::hardware_concurrency());
    std::printf("BLAS: %s\n", blasDescription().c_str());
    const CudaRuntimeInfo cuda = queryCuda();
    if (cuda.compiledIn)
        std::printf("CUDA runtime %s, cuBLAS %s, cuDNN %s\n", cuda.runtimeVersion.c_str(), cuda.cublasVersion.c_str(),
                    cuda.cudnnVersion.c_str());
    if (cuda.devices.empty()) std::printf("CUDA devices: %s\n", cuda.reason.c_str());
    for (const auto& d : cuda.devices)
        std::printf("CUDA device %d: %s, %.1f GiB, compute %d.%d, %d SMs\n", d.index, d.name.c_str(),
                    double(d.totalMemory) / (1 << 30), d.computeMajor, d.computeMinor, d.multiprocessors);
    std::string ops;
    for (const auto& t : OpRegistry::builtin().types()) ops += (ops.empty() ? "" : ", ") + t;
    std::printf("ops: %s\n", ops.c_str());
    return 0;
}

}  // namespace ts::cli
