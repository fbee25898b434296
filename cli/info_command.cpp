// `trainstudio-cli info`: what this build can run on.
#include <cstdio>
#include <string>
#include <thread>

#include "backend/backend.h"
#include "backend/cpu/parallel.h"
#include "backend/devices.h"
#include "backend/nvml/nvml.h"
#include "commands.h"
#include "format.h"
#include "dist/communicator.h"
#include "ops/registry.h"
#include "version.h"

namespace ts::cli {

int infoCommand(const std::vector<std::string>& args)
{
    parseOptions(args, {}, {});  // takes nothing: refuses what it would ignore
    std::printf("TrainStudio %s\n", engineVersion().c_str());
    std::printf("backends compiled in: %s\n", compiledBackends().c_str());
    std::printf("CPU threads: %d (hardware: %u)\n", cpu::threadCount(), std::thread::hardware_concurrency());
    std::printf("BLAS: %s\n", blasDescription().c_str());
    const CudaRuntimeInfo cuda = queryCudaLibraries();  // also without a driver: do NVIDIA's libraries load?
    if (!cuda.runtimeVersion.empty())
        std::printf("CUDA runtime %s, cuBLAS %s, cuDNN %s\n", cuda.runtimeVersion.c_str(), cuda.cublasVersion.c_str(),
                    cuda.cudnnVersion.c_str());
    if (cuda.devices.empty()) std::printf("CUDA devices: %s\n", cuda.reason.c_str());
    for (const auto& d : cuda.devices)
        std::printf("CUDA device %d: %s, %.1f GiB, compute %d.%d, %d SMs\n", d.index, d.name.c_str(),
                    double(d.totalMemory) / (1 << 30), d.computeMajor, d.computeMinor, d.multiprocessors);
    // NVML, independent of the CUDA build: the driver's view, what the training monitor records.
    // Every GPU the driver sees (NVML ignores CUDA_VISIBLE_DEVICES), even in a CPU-only build.
    for (int i = 0; i < 64; ++i) {
        std::string why;
        const auto g = readGpu(i, &why);
        if (!g) {
            if (i == 0) std::printf("GPU monitor: %s\n", why.c_str());
            break;
        }
        auto known = [](double v, const char* unit, double scale = 1) {  // "?" for a counter not supported
            char buf[32] = "?";
            if (v >= 0) std::snprintf(buf, sizeof buf, "%.0f", v * scale);
            return buf + std::string(unit);
        };
        std::printf("GPU monitor %d: %s, load %s, memory %s / %s, %s, %s, SM clock %s, memory clock %s\n", i,
                    g->name.empty() ? "?" : g->name.c_str(), known(g->utilizationPercent, "%").c_str(),
                    known(g->memoryUsedBytes, " MiB", 1.0 / (1 << 20)).c_str(),
                    known(g->memoryTotalBytes, " MiB", 1.0 / (1 << 20)).c_str(), known(g->temperatureC, " C").c_str(),
                    known(g->powerWatts, " W").c_str(), known(g->smClockMHz, " MHz").c_str(),
                    known(g->memoryClockMHz, " MHz").c_str());
    }
    // Data parallelism (engine/dist): which communicators exist, and where this process sits.
    const LaunchEnvironment launch = launchEnvironment();
    std::printf("data parallel: MPI %s, NCCL %s; this process: ", builtWithMpi() ? "yes" : "no (built without)",
                builtWithNccl() ? "yes" : "no (built without)");
    if (launch.size == 1) std::printf("one process (start several with mpirun -np N or srun)\n");
    else std::printf("rank %d of %d (%s), local rank %d\n", launch.rank, launch.size, launch.launcher.c_str(), launch.localRank);
    std::string ops;
    for (const auto& t : OpRegistry::builtin().types()) ops += (ops.empty() ? "" : ", ") + t;
    std::printf("ops: %s\n", ops.c_str());
    return 0;
}

}  // namespace ts::cli
