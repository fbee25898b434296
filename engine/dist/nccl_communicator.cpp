// NCCL collectives, bootstrapped over MPI (see nccl_communicator.h); the NCCL module's code.
#include "dist/nccl_communicator.h"

#include <cuda_runtime.h>
#include <nccl.h>

#include <stdexcept>
#include <string>

namespace ts {

namespace {

void check(ncclResult_t result, const char* what)
{
    if (result != ncclSuccess)
        throw std::runtime_error(std::string("NCCL ") + what + " failed: " + ncclGetErrorString(result) +
                                 " (NCCL_DEBUG=INFO says more)");
}

void check(cudaError_t result, const char* what)
{
    if (result != cudaSuccess) throw std::runtime_error(std::string("CUDA ") + what + " failed: " + cudaGetErrorString(result));
}

}  // namespace

struct NcclCommunicator::State {
    ncclComm_t comm = nullptr;
    cudaStream_t stream = nullptr;  // the default stream: ordered after the backend's work on it
};

NcclCommunicator::NcclCommunicator(Communicator& host) : host_(host), state_(std::make_unique<State>())
{
    ncclUniqueId id{};
    if (host_.rank() == 0) check(ncclGetUniqueId(&id), "unique id");
    host_.broadcastHost(&id, sizeof id, 0);
    check(ncclCommInitRank(&state_->comm, host_.size(), id, host_.rank()), "initialisation");
}

NcclCommunicator::~NcclCommunicator()
{
    if (state_->comm) ncclCommDestroy(state_->comm);
}

int NcclCommunicator::rank() const { return host_.rank(); }
int NcclCommunicator::size() const { return host_.size(); }

void NcclCommunicator::allReduceSum(float* data, std::size_t count)
{
    check(ncclAllReduce(data, data, count, ncclFloat32, ncclSum, state_->comm, state_->stream), "all-reduce");
    check(cudaStreamSynchronize(state_->stream), "synchronisation after an all-reduce");
}

void NcclCommunicator::allReduceMean(float* data, std::size_t count)
{
    check(ncclAllReduce(data, data, count, ncclFloat32, ncclAvg, state_->comm, state_->stream), "all-reduce");
    check(cudaStreamSynchronize(state_->stream), "synchronisation after an all-reduce");
}

void NcclCommunicator::broadcast(float* data, std::size_t count, int root)
{
    check(ncclBroadcast(data, data, count, ncclFloat32, root, state_->comm, state_->stream), "broadcast");
    check(cudaStreamSynchronize(state_->stream), "synchronisation after a broadcast");
}

void NcclCommunicator::allReduceSumHost(double* data, std::size_t count) { host_.allReduceSumHost(data, count); }
void NcclCommunicator::broadcastHost(void* data, std::size_t bytes, int root) { host_.broadcastHost(data, bytes, root); }
void NcclCommunicator::barrier() { host_.barrier(); }

void NcclCommunicator::setTimeout(double seconds) { host_.setTimeout(seconds); }

namespace {

std::unique_ptr<Communicator> create(Communicator& host) { return std::make_unique<NcclCommunicator>(host); }

const NcclModuleApi kApi{kNcclModuleAbi, TS_VERSION, &create};

}  // namespace

}  // namespace ts

extern "C" __attribute__((visibility("default"))) const ts::NcclModuleApi* trainstudio_nccl_module() { return &ts::kApi; }
