// MPI collectives with a fixed order of additions (see mpi_communicator.h), each one waited for
// with a deadline (training.dist_timeout_s), so that a rank that stops answering fails the run.
#include "dist/mpi_communicator.h"

// The C API only: Open MPI's C++ bindings warn under -Wextra and are not used.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace ts {

namespace {

void check(int code, const char* what)
{
    if (code == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(code, text, &length);
    throw std::runtime_error(std::string("MPI ") + what + " failed: " + std::string(text, std::size_t(length)));
}

template <class T> MPI_Datatype mpiType();
template <> MPI_Datatype mpiType<float>() { return MPI_FLOAT; }
template <> MPI_Datatype mpiType<double>() { return MPI_DOUBLE; }

// Chunk r of a buffer of `count` elements split over `ranks`: [begin, begin + size).
std::size_t chunkBegin(std::size_t count, int ranks, int r) { return count * std::size_t(r) / std::size_t(ranks); }

// MPI counts are int: one call moves at most INT_MAX elements per peer, so large buffers go
// in pieces (a 25 MiB gradient bucket is far below).
constexpr std::size_t maxPiece = std::size_t(INT_MAX) / 2;

// Set once a collective timed out: the exit then aborts the job, since MPI_Finalize would wait
// for the rank that stopped answering and mpirun would keep the run "running".
std::atomic<bool> abortAtExit{false};

// The liveness probe after a timeout: a rank that timed out sends kPing to every other rank and
// waits a little for kPong; a rank waiting in any collective answers pings while it polls.
constexpr int kPing = 1, kPong = 2;

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string secondsText(double s)
{
    char text[32];
    std::snprintf(text, sizeof text, s < 10 ? "%.1f" : "%.0f", s);
    return text;
}

}  // namespace

struct MpiCommunicator::Scratch {
    std::vector<char> bytes;
    template <class T> T* get(std::size_t count)
    {
        if (bytes.size() < count * sizeof(T)) bytes.resize(count * sizeof(T));
        return reinterpret_cast<T*>(bytes.data());
    }
};

struct MpiCommunicator::Pending {
    MPI_Comm probes = MPI_COMM_NULL;  // a duplicate of the world: probes never match a collective's messages
    int ping = 0, pong = 0;           // send buffers; their contents do not matter
    std::vector<int> replies;         // receive buffers, one per rank
    std::vector<std::shared_ptr<void>> abandoned;  // what timed-out requests may still read
};

namespace {

// Owner-computes all-reduce: all-to-all of chunks, rank-order sums, all-gather (header).
template <class T>
void orderedAllReduce(T* data, std::size_t count, int rank, int size, MpiCommunicator& comm, MpiCommunicator::Scratch& scratch)
{
    if (size == 1 || count == 0) return;
    const std::size_t mine = chunkBegin(count, size, rank), mineEnd = chunkBegin(count, size, rank + 1);
    const std::size_t myCount = mineEnd - mine;
    // Nonblocking collectives read their count arrays until they complete: shared, so that a
    // timed-out request keeps them.
    struct Layout {
        std::vector<int> sendCounts, sendOffsets, recvCounts, recvOffsets;
    };
    auto l = std::make_shared<Layout>();
    l->sendCounts.resize(size), l->sendOffsets.resize(size), l->recvCounts.resize(size), l->recvOffsets.resize(size);
    for (int r = 0; r < size; ++r) {
        const std::size_t b = chunkBegin(count, size, r), e = chunkBegin(count, size, r + 1);
        l->sendCounts[r] = int(e - b);
        l->sendOffsets[r] = int(b);
        l->recvCounts[r] = int(myCount);
        l->recvOffsets[r] = int(myCount * std::size_t(r));
    }
    T* gathered = scratch.get<T>(myCount * std::size_t(size));
    MPI_Request request = MPI_REQUEST_NULL;
    check(MPI_Ialltoallv(data, l->sendCounts.data(), l->sendOffsets.data(), mpiType<T>(), gathered, l->recvCounts.data(),
                         l->recvOffsets.data(), mpiType<T>(), MPI_COMM_WORLD, &request),
          "all-to-all");
    comm.wait(&request, "all-reduce (all-to-all)", l);
    T* own = data + mine;
    for (std::size_t i = 0; i < myCount; ++i) {
        T sum = gathered[i];
        for (int r = 1; r < size; ++r) sum += gathered[std::size_t(r) * myCount + i];
        own[i] = sum;
    }
    check(MPI_Iallgatherv(MPI_IN_PLACE, 0, mpiType<T>(), data, l->sendCounts.data(), l->sendOffsets.data(), mpiType<T>(),
                          MPI_COMM_WORLD, &request),
          "all-gather");
    comm.wait(&request, "all-reduce (all-gather)", l);
}

template <class T>
void allReduceInPieces(T* data, std::size_t count, int rank, int size, MpiCommunicator& comm, MpiCommunicator::Scratch& scratch)
{
    // Each piece's offsets must fit an int: pieces of at most maxPiece elements.
    for (std::size_t done = 0; done < count; done += maxPiece)
        orderedAllReduce(data + done, std::min(maxPiece, count - done), rank, size, comm, scratch);
}

void finalizeAtExit()
{
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) return;
    if (abortAtExit) MPI_Abort(MPI_COMM_WORLD, 1);  // the run is recorded failed by now; end every rank
    MPI_Finalize();
}

}  // namespace

MpiCommunicator::MpiCommunicator() : scratch_(std::make_unique<Scratch>()), pending_(std::make_unique<Pending>())
{
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized) {
        int provided = 0;
        check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided), "initialisation");
        std::atexit(finalizeAtExit);
    }
    // Errors come back as codes (turned into exceptions naming the call), not as an abort.
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    check(MPI_Comm_dup(MPI_COMM_WORLD, &pending_->probes), "communicator duplication");
    MPI_Comm_set_errhandler(pending_->probes, MPI_ERRORS_RETURN);
    pending_->replies.assign(std::size_t(size_), 0);
    // Every rank's host, for the message that names a rank that stopped answering.
    std::vector<char> names(std::size_t(size_) * MPI_MAX_PROCESSOR_NAME, '\0');
    int length = 0;
    MPI_Get_processor_name(names.data() + std::size_t(rank_) * MPI_MAX_PROCESSOR_NAME, &length);
    check(MPI_Allgather(MPI_IN_PLACE, 0, MPI_CHAR, names.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, MPI_COMM_WORLD),
          "host name exchange");
    for (int r = 0; r < size_; ++r) {
        const char* name = names.data() + std::size_t(r) * MPI_MAX_PROCESSOR_NAME;
        hosts_.emplace_back(name, strnlen(name, MPI_MAX_PROCESSOR_NAME));
    }
}

MpiCommunicator::~MpiCommunicator() = default;

void MpiCommunicator::answerProbes()
{
    for (;;) {
        int arrived = 0;
        MPI_Status status;
        if (MPI_Iprobe(MPI_ANY_SOURCE, kPing, pending_->probes, &arrived, &status) != MPI_SUCCESS || !arrived) return;
        int ping = 0;
        MPI_Recv(&ping, 1, MPI_INT, status.MPI_SOURCE, kPing, pending_->probes, MPI_STATUS_IGNORE);
        MPI_Request reply = MPI_REQUEST_NULL;  // never waited for: the asker may be gone by then
        if (MPI_Isend(&pending_->pong, 1, MPI_INT, status.MPI_SOURCE, kPong, pending_->probes, &reply) == MPI_SUCCESS)
            MPI_Request_free(&reply);
    }
}

void MpiCommunicator::wait(void* requestPointer, const char* what, std::shared_ptr<void> keep)
{
    MPI_Request& request = *static_cast<MPI_Request*>(requestPointer);
    const Clock::time_point start = Clock::now();
    for (;;) {
        int done = 0;
        check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), what);
        if (done) return;
        const double waited = secondsSince(start);
        if (waited < 1e-3) continue;  // about to complete: no latency added
        if (waited < 0.1) {           // a peer a little behind: let it have the core (2 ranks on 2 cores)
            std::this_thread::yield();
            continue;
        }
        // Long waits sleep between tests, so a rank waiting for a stopped one takes no CPU
        // (the blocking MPI calls spun at 85% of a core forever).
        answerProbes();
        if (timeoutSeconds_ > 0 && waited > timeoutSeconds_) {
            pending_->abandoned.push_back(std::move(keep));
            timedOut(what, waited);
        }
        std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
}

void MpiCommunicator::timedOut(const char* what, double waited)
{
    broken_ = true;
    abortAtExit = true;
    // Who is alive: every rank that waits in a collective answers within milliseconds.
    Pending& p = *pending_;
    std::vector<MPI_Request> replies(std::size_t(size_), MPI_REQUEST_NULL);
    for (int r = 0; r < size_; ++r) {
        if (r == rank_) continue;
        MPI_Request ping = MPI_REQUEST_NULL;
        if (MPI_Isend(&p.ping, 1, MPI_INT, r, kPing, p.probes, &ping) == MPI_SUCCESS) MPI_Request_free(&ping);
        MPI_Irecv(&p.replies[std::size_t(r)], 1, MPI_INT, r, kPong, p.probes, &replies[std::size_t(r)]);
    }
    const double grace = std::clamp(timeoutSeconds_ / 4, 1.0, 10.0);
    const Clock::time_point asked = Clock::now();
    std::vector<int> silent;
    for (;;) {
        answerProbes();
        silent.clear();
        for (int r = 0; r < size_; ++r) {
            if (r == rank_ || replies[std::size_t(r)] == MPI_REQUEST_NULL) continue;
            int done = 0;
            MPI_Test(&replies[std::size_t(r)], &done, MPI_STATUS_IGNORE);
            if (!done) silent.push_back(r);
        }
        if (silent.empty() || secondsSince(asked) > grace) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    for (MPI_Request& r : replies)  // never completed; the buffers stay (p.replies) until the abort
        if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);

    const std::string limit = secondsText(timeoutSeconds_) + " s (training.dist_timeout_s)";
    std::string text = "rank " + std::to_string(rank_) + " of " + std::to_string(size_) + ": the " + what +
                       " did not complete within " + limit + ": ";
    if (silent.empty()) {
        text += "every other rank answers, so the ranks are out of step (they issued different collectives)";
    } else {
        for (std::size_t i = 0; i < silent.size(); ++i)
            text += (i ? ", rank " : "rank ") + std::to_string(silent[i]) + " (host " + host(silent[i]) + ")";
        text += silent.size() == 1 ? " does" : " do";
        text += " not answer (stopped, hung or unreachable)";
    }
    text += ". The run stops here, after " + secondsText(waited) +
            " s; resume it from its last checkpoint with train --resume. If a rank legitimately works alone longer "
            "(rank 0 evaluates and saves checkpoints while the others wait), raise training.dist_timeout_s.";
    throw CommunicatorTimeout(text);
}

void MpiCommunicator::allReduceSum(float* data, std::size_t count)
{
    if (broken_) throw CommunicatorTimeout("the MPI communicator stopped after a collective timed out");
    allReduceInPieces(data, count, rank_, size_, *this, *scratch_);
}

void MpiCommunicator::allReduceMean(float* data, std::size_t count)
{
    allReduceSum(data, count);
    const float n = static_cast<float>(size_);
    for (std::size_t i = 0; i < count; ++i) data[i] /= n;  // correctly rounded: the same bits on every rank
}

void MpiCommunicator::allReduceSumHost(double* data, std::size_t count)
{
    if (broken_) throw CommunicatorTimeout("the MPI communicator stopped after a collective timed out");
    allReduceInPieces(data, count, rank_, size_, *this, *scratch_);
}

void MpiCommunicator::broadcast(float* data, std::size_t count, int root)
{
    broadcastHost(data, count * sizeof(float), root);
}

void MpiCommunicator::broadcastHost(void* data, std::size_t bytes, int root)
{
    if (broken_) throw CommunicatorTimeout("the MPI communicator stopped after a collective timed out");
    char* p = static_cast<char*>(data);
    for (std::size_t done = 0; done < bytes; done += maxPiece) {
        MPI_Request request = MPI_REQUEST_NULL;
        check(MPI_Ibcast(p + done, int(std::min(maxPiece, bytes - done)), MPI_BYTE, root, MPI_COMM_WORLD, &request), "broadcast");
        wait(&request, "broadcast");
    }
}

void MpiCommunicator::barrier()
{
    if (broken_) throw CommunicatorTimeout("the MPI communicator stopped after a collective timed out");
    MPI_Request request = MPI_REQUEST_NULL;
    check(MPI_Ibarrier(MPI_COMM_WORLD, &request), "barrier");
    wait(&request, "barrier");
}

}  // namespace ts
