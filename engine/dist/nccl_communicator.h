// The communicator over NCCL (in the CUDA toolkit): gradients and parameters in GPU memory,
// one process per GPU. Built with the CUDA backend when nccl.h and MPI are found
// (TS_WITH_NCCL): MPI starts the processes and carries NCCL's unique id from rank 0 to the
// others (ncclCommInitRank), and the host-side collectives (metrics, flags) go over MPI.
//
// Determinism: NCCL's ring and tree all-reduce add in an order fixed by the algorithm, the
// rank count and the topology, so repeated runs on the same machines give the same bits
// (NCCL_ALGO / NCCL_PROTO pin the choice across machines); every rank receives the same
// result. The device is the one CUDA has current on the calling thread (the backend's).
#pragma once
#include <memory>

#include "dist/communicator.h"

namespace ts {

class MpiCommunicator;

class NcclCommunicator final : public Communicator {
public:
    // `host` carries the bootstrap and the host collectives; not owned, must outlive this.
    explicit NcclCommunicator(MpiCommunicator& host);
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
    MpiCommunicator& host_;
    std::unique_ptr<State> state_;
};

}  // namespace ts
