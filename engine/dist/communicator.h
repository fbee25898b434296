// Data-parallel training across processes (ARCHITECTURE.md, Beyond one GPU): the collective
// operations the trainer needs, over MPI (CPUs), NCCL (GPUs) or, for the ordinary
// single-process run, a communicator of size one, so that there is one trainer code path.
//
// Every rank must call every collective in the same order with the same counts (the usual MPI
// contract); a rank that skips one leaves the others waiting. Results are identical on every
// rank, bit for bit, and reproducible from run to run (see MpiCommunicator for how).
#pragma once
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>

#include "tensor/dtype.h"

namespace ts {

class Communicator {
public:
    virtual ~Communicator() = default;

    virtual int rank() const = 0;
    virtual int size() const = 0;
    virtual std::string name() const = 0;  // "single", "mpi", "nccl"
    // The device whose memory the buffer operations below take: CPU for MPI and the size-one
    // communicator, CUDA for NCCL.
    virtual DeviceKind bufferDevice() const = 0;

    // In place, over buffers in bufferDevice() memory (gradients, parameters).
    virtual void allReduceSum(float* data, std::size_t count) = 0;
    virtual void allReduceMean(float* data, std::size_t count) = 0;
    virtual void broadcast(float* data, std::size_t count, int root) = 0;

    // In place, over host memory whatever the device (metrics, flags, serialised values).
    virtual void allReduceSumHost(double* data, std::size_t count) = 0;
    virtual void broadcastHost(void* data, std::size_t bytes, int root) = 0;
    virtual void barrier() = 0;

    // True on every rank when `local` is true on any (a stop request, a non-finite loss).
    bool anyTrue(bool local);

    // How long one collective may wait for the other ranks (training.dist_timeout_s): past it
    // the collective throws CommunicatorTimeout naming the ranks that did not answer, so a
    // stopped or hung rank fails the run instead of leaving the others waiting forever. It
    // must exceed the longest time one rank works alone (rank 0 evaluates and writes
    // checkpoints while the others wait). <= 0: wait forever. No effect on a single process.
    virtual void setTimeout(double seconds) { (void)seconds; }
};

// A collective that did not complete within the communicator's timeout. The communicator is
// unusable afterwards: every later collective throws at once, and the process ends with
// MPI_Abort instead of MPI_Finalize (which would wait for the missing rank).
class CommunicatorTimeout : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The single-process run: every collective is the identity.
class SingleCommunicator final : public Communicator {
public:
    int rank() const override { return 0; }
    int size() const override { return 1; }
    std::string name() const override { return "single"; }
    DeviceKind bufferDevice() const override { return DeviceKind::CPU; }  // any: nothing moves
    void allReduceSum(float*, std::size_t) override {}
    void allReduceMean(float*, std::size_t) override {}
    void broadcast(float*, std::size_t, int) override {}
    void allReduceSumHost(double*, std::size_t) override {}
    void broadcastHost(void*, std::size_t, int) override {}
    void barrier() override {}
    static SingleCommunicator& instance();
};

// Where this process sits in a launch, read from the launcher's environment: Open MPI's
// mpirun (OMPI_COMM_WORLD_RANK/SIZE), a PMI launcher such as MPICH's or Slurm's with --mpi
// (PMI_RANK/SIZE, PMIX_RANK), or a Slurm job step (SLURM_PROCID / SLURM_NTASKS, only inside an
// srun step: a batch script's own shell sees SLURM_NTASKS too but is one process).
struct LaunchEnvironment {
    int rank = 0, size = 1;
    int localRank = 0;     // among the ranks on this machine (OMPI_COMM_WORLD_LOCAL_RANK, SLURM_LOCALID)
    int localSize = 1;     // ranks on this machine (OMPI_COMM_WORLD_LOCAL_SIZE, MPI_LOCALNRANKS,
                           // SLURM_TASKS_PER_NODE's first count): they share its cores
    std::string launcher;  // "mpirun", "pmi", "slurm"; empty: a plain process
};
LaunchEnvironment launchEnvironment();

// The device rank `launch` trains on when the run asks for `device`: with several ranks, "cuda"
// and "auto" become cuda:<local rank mod the GPUs this process sees> (under srun
// --gpus-per-task=1 each task sees one, its own, as cuda:0); anything else is kept.
std::string rankDevice(const std::string& device, const LaunchEnvironment& launch);

// Which communicators this build has.
bool builtWithMpi();
bool builtWithNccl();

// The communicator of this process for a run on `device`: size one for a plain process; for a
// launch of several, NCCL for CUDA (when built with it) and MPI otherwise, created on first use
// (MPI_Init) and finalised at exit. Throws std::runtime_error saying what to do when the launch
// asks for several ranks and this build cannot join them (no MPI, or CUDA without NCCL).
Communicator& processCommunicator(DeviceKind device);

}  // namespace ts
