// The size-one communicator, the launcher's environment and the process's communicator.
#include "dist/communicator.h"

#include "backend/devices.h"

#include <cstdlib>
#include <mutex>
#include <stdexcept>

#if TS_WITH_MPI
#include "dist/mpi_communicator.h"
#endif
#if TS_WITH_NCCL
#include "dist/nccl_communicator.h"
#endif

namespace ts {

bool Communicator::anyTrue(bool local)
{
    if (size() == 1) return local;
    double flag = local ? 1.0 : 0.0;
    allReduceSumHost(&flag, 1);
    return flag > 0;
}

SingleCommunicator& SingleCommunicator::instance()
{
    static SingleCommunicator single;
    return single;
}

namespace {

// An environment variable as a non-negative integer; -1 when unset or not a number. A `count`
// may be followed by more: Slurm writes tasks per node as "2(x3)" (2 on each of 3 nodes).
int envInt(const char* name, bool count = false)
{
    const char* v = std::getenv(name);
    if (!v || !*v) return -1;
    char* end = nullptr;
    const long n = std::strtol(v, &end, 10);
    const bool whole = *end == '\0' || (count && end != v && (*end == '(' || *end == ','));
    return (whole && n >= 0 && n < (1L << 30)) ? int(n) : -1;
}

}  // namespace

LaunchEnvironment launchEnvironment()
{
    LaunchEnvironment e;
    auto take = [&](const char* rankVar, const char* sizeVar, const char* launcher) {
        const int r = envInt(rankVar), s = envInt(sizeVar);
        if (r < 0 || s < 1 || r >= s) return false;
        e = LaunchEnvironment{r, s, 0, 1, launcher};
        return true;
    };
    auto local = [&](const char* rankName, const char* sizeName) {
        if (const int l = envInt(rankName); l >= 0) e.localRank = l;
        if (const int n = envInt(sizeName, /*count=*/true); n >= 1) e.localSize = n;
        return true;
    };
    if (take("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "mpirun") &&
        local("OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE"))
        return e;
    if (take("PMI_RANK", "PMI_SIZE", "pmi") && local("MPI_LOCALRANKID", "MPI_LOCALNRANKS") &&
        local("SLURM_LOCALID", "SLURM_TASKS_PER_NODE"))
        return e;
    // SLURM_STEP_ID is set in srun steps only; the batch script's shell is one process.
    if (std::getenv("SLURM_STEP_ID") && take("SLURM_PROCID", "SLURM_NTASKS", "slurm") &&
        local("SLURM_LOCALID", "SLURM_TASKS_PER_NODE"))
        return e;
    return e;
}

std::string rankDevice(const std::string& device, const LaunchEnvironment& launch)
{
    if (launch.size == 1 || (device != "cuda" && device != "auto")) return device;
    const std::size_t gpus = queryCuda().devices.size();
    if (gpus == 0) return device;  // "auto" falls back to the CPU; "cuda" says why it cannot
    return "cuda:" + std::to_string(std::size_t(launch.localRank) % gpus);
}

bool builtWithMpi() { return TS_WITH_MPI != 0; }
bool builtWithNccl() { return TS_WITH_NCCL != 0; }

Communicator& processCommunicator(DeviceKind device)
{
    const LaunchEnvironment launch = launchEnvironment();
    if (launch.size == 1) return SingleCommunicator::instance();
#if TS_WITH_MPI
    static std::mutex mutex;
    std::lock_guard lock(mutex);
    static std::unique_ptr<MpiCommunicator> mpi;
    if (!mpi) mpi = std::make_unique<MpiCommunicator>();
    if (mpi->size() != launch.size)
        throw std::runtime_error("the launcher (" + launch.launcher + ") started " + std::to_string(launch.size) +
                                 " processes but MPI joined " + std::to_string(mpi->size()) +
                                 "; under Slurm start them with srun --mpi=pmix (or mpirun inside the allocation)");
    if (device == DeviceKind::CPU) return *mpi;
#if TS_WITH_NCCL
    static std::unique_ptr<Communicator> nccl;
    if (!nccl) nccl = loadNcclCommunicator(*mpi);
    return *nccl;
#else
    throw std::runtime_error("this build has no NCCL, which training on CUDA devices across " + std::to_string(launch.size) +
                             " processes needs: rebuild with the CUDA toolkit's nccl.h, or train with --device cpu");
#endif
#else
    (void)device;
    throw std::runtime_error("started as rank " + std::to_string(launch.rank) + " of " + std::to_string(launch.size) +
                             " (" + launch.launcher + "), but this build has no MPI: install libopenmpi-dev and "
                             "rebuild, or run one process");
#endif
}

}  // namespace ts
