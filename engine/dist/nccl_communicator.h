// The communicator over NCCL (in the CUDA toolkit): gradients and parameters in GPU memory,
// one process per GPU. Built with the CUDA backend when nccl.h and MPI are found
// (TS_WITH_NCCL), into its own module, libtrainstudio-nccl.so, that the engine loads when a
// run on several GPUs starts (loadNcclCommunicator): NCCL and the CUDA runtime are then loaded
// only where they are used (backend/cuda_module_api.h). MPI starts the processes and carries
// NCCL's unique id from rank 0 to the others (ncclCommInitRank), and the host-side collectives
// (metrics, flags) go over MPI.
//
// Determinism: NCCL's ring and tree all-reduce add in an order fixed by the algorithm, the
// rank count and the topology, so repeated runs on the same machines give the same bits
// (NCCL_ALGO / NCCL_PROTO pin the choice across machines); every rank receives the same
// result. The device is the one CUDA has current on the calling thread (the backend's).
#pragma once
#include <memory>

#include "dist/communicator.h"

namespace ts {

class NcclCommunicator final : public Communicator {
public:
    // `host` (MPI's) carries the bootstrap and the host collectives; not owned, must outlive this.
    explicit NcclCommunicator(Communicator& host);
    ~NcclCommunicator() override;

    int rank() const override;
    int size() const override;
    std::string name() const override { return "nccl"; }
    DeviceKind bufferDevice() const override { return DeviceKind::CUDA; }
    // Enqueued on the default stream and waited for: the trainer's next kernels read the result.
    void allReduceSum(float* data, std::size_t count) override;
    void allReduceMean(float* data, std::size_t count) override;
    void broadcast(float* data, std::size_t count, int root) override;
    void allReduceSumHost(double* data, std::size_t count) override;
    void broadcastHost(void* data, std::size_t bytes, int root) override;
    void barrier() override;
    // The host collectives' (MPI's) deadline; the device all-reduces wait on NCCL itself.
    void setTimeout(double seconds) override;

    struct State;

private:
    Communicator& host_;
    std::unique_ptr<State> state_;
};

// The module's one exported symbol, kNcclModuleEntry, returns this table (both sides come from
// one build: `abi` and `version` check it).
struct NcclModuleApi {
    int abi;              // kNcclModuleAbi when it was built
    const char* version;  // TS_VERSION when it was built
    std::unique_ptr<Communicator> (*create)(Communicator& host);
};
inline constexpr int kNcclModuleAbi = 1;
inline constexpr const char* kNcclModuleFile = "libtrainstudio-nccl.so";
inline constexpr const char* kNcclModuleEntry = "trainstudio_nccl_module";

// A NcclCommunicator from the module (dist/nccl_module.cpp); throws std::runtime_error saying
// why when the module or NCCL cannot be loaded, or NCCL cannot start.
std::unique_ptr<Communicator> loadNcclCommunicator(Communicator& host);

}  // namespace ts
