// MPI collectives with a fixed order of additions (see mpi_communicator.h).
#include "dist/mpi_communicator.h"

// The C API only: Open MPI's C++ bindings warn under -Wextra and are not used.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <stdexcept>
#include <string>
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

}  // namespace

struct MpiCommunicator::Scratch {
    std::vector<char> bytes;
    template <class T> T* get(std::size_t count)
    {
        if (bytes.size() < count * sizeof(T)) bytes.resize(count * sizeof(T));
        return reinterpret_cast<T*>(bytes.data());
    }
};

namespace {

// Owner-computes all-reduce: all-to-all of chunks, rank-order sums, all-gather (header).
template <class T>
void orderedAllReduce(T* data, std::size_t count, int rank, int size, MpiCommunicator::Scratch& scratch)
{
    if (size == 1 || count == 0) return;
    const std::size_t mine = chunkBegin(count, size, rank), mineEnd = chunkBegin(count, size, rank + 1);
    const std::size_t myCount = mineEnd - mine;
    std::vector<int> sendCounts(size), sendOffsets(size), recvCounts(size), recvOffsets(size);
    for (int r = 0; r < size; ++r) {
        const std::size_t b = chunkBegin(count, size, r), e = chunkBegin(count, size, r + 1);
        sendCounts[r] = int(e - b);
        sendOffsets[r] = int(b);
        recvCounts[r] = int(myCount);
        recvOffsets[r] = int(myCount * std::size_t(r));
    }
    T* gathered = scratch.get<T>(myCount * std::size_t(size));
    check(MPI_Alltoallv(data, sendCounts.data(), sendOffsets.data(), mpiType<T>(), gathered, recvCounts.data(),
                        recvOffsets.data(), mpiType<T>(), MPI_COMM_WORLD),
          "all-to-all");
    T* own = data + mine;
    for (std::size_t i = 0; i < myCount; ++i) {
        T sum = gathered[i];
        for (int r = 1; r < size; ++r) sum += gathered[std::size_t(r) * myCount + i];
        own[i] = sum;
    }
    check(MPI_Allgatherv(MPI_IN_PLACE, 0, mpiType<T>(), data, sendCounts.data(), sendOffsets.data(), mpiType<T>(),
                         MPI_COMM_WORLD),
          "all-gather");
}

template <class T>
void allReduceInPieces(T* data, std::size_t count, int rank, int size, MpiCommunicator::Scratch& scratch)
{
    // Each piece's offsets must fit an int: pieces of at most maxPiece elements.
    for (std::size_t done = 0; done < count; done += maxPiece)
        orderedAllReduce(data + done, std::min(maxPiece, count - done), rank, size, scratch);
}

void finalizeAtExit()
{
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Finalize();
}

}  // namespace

MpiCommunicator::MpiCommunicator() : scratch_(std::make_unique<Scratch>())
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
}

MpiCommunicator::~MpiCommunicator() = default;

void MpiCommunicator::allReduceSum(float* data, std::size_t count)
{
    allReduceInPieces(data, count, rank_, size_, *scratch_);
}

void MpiCommunicator::allReduceMean(float* data, std::size_t count)
{
    allReduceSum(data, count);
    const float n = static_cast<float>(size_);
    for (std::size_t i = 0; i < count; ++i) data[i] /= n;  // correctly rounded: the same bits on every rank
}

void MpiCommunicator::allReduceSumHost(double* data, std::size_t count)
{
    allReduceInPieces(data, count, rank_, size_, *scratch_);
}

void MpiCommunicator::broadcast(float* data, std::size_t count, int root)
{
    broadcastHost(data, count * sizeof(float), root);
}

void MpiCommunicator::broadcastHost(void* data, std::size_t bytes, int root)
{
    char* p = static_cast<char*>(data);
    for (std::size_t done = 0; done < bytes; done += maxPiece)
        check(MPI_Bcast(p + done, int(std::min(maxPiece, bytes - done)), MPI_BYTE, root, MPI_COMM_WORLD), "broadcast");
}

void MpiCommunicator::barrier() { check(MPI_Barrier(MPI_COMM_WORLD), "barrier"); }

}  // namespace ts
