// Embedding lookup: a gather forward that checks its indices on the device, and a
// scatter-add backward.
#include <stdexcept>
#include <string>

#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_check.h"

namespace ts {

namespace {

constexpr unsigned long long kNoBadPosition = ~0ull;

// y[i, d] = table[indices[i], d]. A row outside [0, rows) is left unwritten and its position
// recorded; atomicMin keeps the lowest, the one the CPU backend (which checks in order) names.
__global__ void embeddingForwardKernel(const long long* indices, const float* table, float* y, long long count,
                                       long long rows, long long dim, unsigned long long* badPosition)
{
    const long long total = count * dim;
    for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < total;
         idx += (long long)gridDim.x * blockDim.x) {
        const long long i = idx / dim, d = idx - i * dim;
        const long long row = indices[i];
        if (row < 0 || row >= rows) {
            if (d == 0) atomicMin(badPosition, static_cast<unsigned long long>(i));
            continue;
        }
        if (y) y[idx] = table[row * dim + d];  // null: indices checked only (dim == 0)
    }
}

// dtable[indices[i], d] += dy[i, d]. Repeated indices meet in atomicAdd, so the order in
// which their contributions are summed (and hence the last bits of dtable) varies from run
// to run: accepted, as in PyTorch's default embedding backward. Rows outside the table
// (which forward has already rejected) are skipped rather than written out of bounds.
__global__ void embeddingBackwardKernel(const long long* indices, const float* dy, float* dtable, long long count,
                                        long long dim)
{
    const long long total = count * dim;
    for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < total;
         idx += (long long)gridDim.x * blockDim.x) {
        const long long i = idx / dim, d = idx - i * dim;
        const long long row = indices[i];
        if (row < 0) continue;
        atomicAdd(dtable + row * dim + d, dy[idx]);
    }
}

}  // namespace

void CudaBackend::embeddingForward(const std::int64_t* indices, const float* table, float* y, std::int64_t count,
                                   std::int64_t rows, std::int64_t dim)
{
    if (count <= 0) return;
    makeCurrent();
    auto* bad = static_cast<unsigned long long*>(deviceScratch(sizeof(unsigned long long)));
    auto* host = static_cast<long long*>(hostScratch(2 * sizeof(long long)));
    TS_CUDA(cudaMemsetAsync(bad, 0xFF, sizeof(unsigned long long), stream_));  // kNoBadPosition
    // dim == 0 still has indices to check: run the kernel over one column then (nothing is written).
    const long long cols = dim > 0 ? dim : 1;
    static_assert(sizeof(long long) == sizeof(std::int64_t));
    embeddingForwardKernel<<<cuda::gridFor(count * cols), cuda::kThreads, 0, stream_>>>(
        reinterpret_cast<const long long*>(indices), table, dim > 0 ? y : nullptr, count, rows, cols, bad);
    TS_CUDA_LAUNCHED();
    TS_CUDA(cudaMemcpyAsync(host, bad, sizeof(long long), cudaMemcpyDeviceToHost, stream_));
    TS_CUDA(cudaStreamSynchronize(stream_));
    const auto position = static_cast<unsigned long long>(host[0]);
    if (position == kNoBadPosition) return;
    TS_CUDA(cudaMemcpyAsync(host + 1, indices + position, sizeof(long long), cudaMemcpyDeviceToHost, stream_));
    TS_CUDA(cudaStreamSynchronize(stream_));
    // The CPU backend's message, word for word.
    throw std::out_of_range("embedding index " + std::to_string(host[1]) + " at position " +
                            std::to_string(position) + " is outside [0, " + std::to_string(rows) + ")");
}

void CudaBackend::embeddingBackward(const std::int64_t* indices, const float* dy, float* dtable, std::int64_t count,
                                    std::int64_t dim)
{
    if (!dtable || count <= 0 || dim <= 0) return;
    makeCurrent();
    embeddingBackwardKernel<<<cuda::gridFor(count * dim), cuda::kThreads, 0, stream_>>>(
        reinterpret_cast<const long long*>(indices), dy, dtable, count, dim);
    TS_CUDA_LAUNCHED();
}

}  // namespace ts
