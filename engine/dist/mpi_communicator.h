// The communicator over MPI (Open MPI on Debian): CPU buffers, any number of ranks on one
// machine or many. Built when CMake finds MPI (TS_WITH_MPI).
//
// Deterministic reduction: MPI_Allreduce leaves the order of the additions to the library
// (it changes with the message size and the rank count, and the standard only recommends that
// every rank get the same bits). Here each rank owns a contiguous chunk of the buffer: an
// all-to-all hands every chunk to its owner, the owner adds the W contributions in rank order
// 0, 1, ..., W-1, and an all-gather returns the sums. The same inputs therefore give the same
// bits on every rank and in every run, for any W, and the traffic is that of a ring
// all-reduce, 2 (W-1)/W of the buffer per rank.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "dist/communicator.h"

namespace ts {

class MpiCommunicator final : public Communicator {
public:
    // MPI_COMM_WORLD; initialises MPI when nobody has (thread level "serialized": only the
    // trainer's thread calls it) and finalises it at process exit.
    MpiCommunicator();
    ~MpiCommunicator() override;

    int rank() const override { return rank_; }
    int size() const override { return size_; }
    std::string name() const override { return "mpi"; }
    DeviceKind bufferDevice() const override { return DeviceKind::CPU; }
    void allReduceSum(float* data, std::size_t count) override;
    void allReduceMean(float* data, std::size_t count) override;
    void broadcast(float* data, std::size_t count, int root) override;
    void allReduceSumHost(double* data, std::size_t count) override;
    void broadcastHost(void* data, std::size_t bytes, int root) override;
    void barrier() override;
    void setTimeout(double seconds) override { timeoutSeconds_ = seconds; }
    // Each rank's machine (MPI_Get_processor_name), gathered when MPI starts: the timeout names it.
    const std::string& host(int rank) const { return hosts_.at(std::size_t(rank)); }

    struct Scratch;
    struct Pending;
    // Waits for a nonblocking collective: spins briefly (a collective that is about to complete
    // pays no latency), then yields, then sleeps between tests (a rank waiting for a stopped
    // peer takes no CPU). Past the timeout it asks every rank whether it is alive and throws
    // CommunicatorTimeout naming those that did not answer. `keep` holds what the request
    // reads (counts, offsets): kept alive past a timeout, since MPI may still read them.
    void wait(void* request, const char* what, std::shared_ptr<void> keep = {});

private:
    void answerProbes();
    [[noreturn]] void timedOut(const char* what, double waited);

    int rank_ = 0, size_ = 1;
    std::unique_ptr<Scratch> scratch_;
    double timeoutSeconds_ = 300;
    std::vector<std::string> hosts_;
    std::unique_ptr<Pending> pending_;  // the liveness probe's communicator and buffers
    bool broken_ = false;               // a collective timed out: no more are started
};

}  // namespace ts
