// Memory primitives: fills, copies within the device, and transfers to and from the host.
#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_check.h"

namespace ts {

namespace {

__global__ void fillKernel(float* x, long long n, float value)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        x[i] = value;
}

__global__ void copy2dKernel(const float* src, long long srcStride, float* dst, long long dstStride, long long rows,
                             long long cols, bool accumulate)
{
    const long long total = rows * cols;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < total;
         i += (long long)gridDim.x * blockDim.x) {
        const long long r = i / cols, j = i - r * cols;
        const float v = src[r * srcStride + j];
        float& d = dst[r * dstStride + j];
        d = accumulate ? d + v : v;
    }
}

}  // namespace

void CudaBackend::fill(float* x, std::int64_t n, float value)
{
    if (n <= 0) return;
    makeCurrent();
    fillKernel<<<cuda::gridFor(n), cuda::kThreads, 0, stream_>>>(x, n, value);
    TS_CUDA_LAUNCHED();
}

void CudaBackend::zeroBytes(void* x, std::size_t bytes)
{
    if (bytes == 0) return;
    makeCurrent();
    TS_CUDA(cudaMemsetAsync(x, 0, bytes, stream_));
}

void CudaBackend::copyBytes(void* dst, const void* src, std::size_t bytes)
{
    if (bytes == 0 || dst == src) return;
    makeCurrent();
    const char* s = static_cast<const char*>(src);
    char* d = static_cast<char*>(dst);
    if (d < s + bytes && s < d + bytes) {
        // The CPU backend's memmove allows overlap; cudaMemcpy does not: go through a
        // temporary (stream order makes handing it back right away safe).
        void* tmp = allocator_.allocate(bytes);
        TS_CUDA(cudaMemcpyAsync(tmp, src, bytes, cudaMemcpyDeviceToDevice, stream_));
        TS_CUDA(cudaMemcpyAsync(dst, tmp, bytes, cudaMemcpyDeviceToDevice, stream_));
        allocator_.deallocate(tmp, bytes);
        return;
    }
    TS_CUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream_));
}

// The caller reads hostDst as soon as this returns, so it waits for the copy (and thereby
// for all work queued before it).
void CudaBackend::copyToHost(void* hostDst, const void* src, std::size_t bytes)
{
    if (bytes == 0) return;
    makeCurrent();
    TS_CUDA(cudaMemcpyAsync(hostDst, src, bytes, cudaMemcpyDeviceToHost, stream_));
    TS_CUDA(cudaStreamSynchronize(stream_));
}

// Returns when the bytes are on the device, so the caller may overwrite or recycle hostSrc at
// once (the loader recycles its pinned batch buffers as soon as the next batch is taken). From
// pageable memory the runtime waits for the stream before staging anyway; from pinned memory
// the copy is a DMA, and we wait for it. Overlapping the next batch's copy with this step's
// compute needs a second stream and double-buffered inputs: not done yet.
void CudaBackend::copyFromHost(void* dst, const void* hostSrc, std::size_t bytes)
{
    if (bytes == 0) return;
    makeCurrent();
    TS_CUDA(cudaMemcpyAsync(dst, hostSrc, bytes, cudaMemcpyHostToDevice, stream_));
    TS_CUDA(cudaStreamSynchronize(stream_));
}

void CudaBackend::copy2d(const float* src, std::int64_t srcStride, float* dst, std::int64_t dstStride,
                         std::int64_t rows, std::int64_t cols, bool accumulate)
{
    if (rows <= 0 || cols <= 0) return;
    makeCurrent();
    // cudaMemcpy2D needs pitches of at least the row width; a single row may have any stride.
    if (!accumulate && (rows == 1 || (srcStride >= cols && dstStride >= cols))) {
        const std::size_t f = sizeof(float);
        TS_CUDA(cudaMemcpy2DAsync(dst, static_cast<std::size_t>(rows == 1 ? cols : dstStride) * f, src,
                                  static_cast<std::size_t>(rows == 1 ? cols : srcStride) * f,
                                  static_cast<std::size_t>(cols) * f, static_cast<std::size_t>(rows),
                                  cudaMemcpyDeviceToDevice, stream_));
        return;
    }
    copy2dKernel<<<cuda::gridFor(rows * cols), cuda::kThreads, 0, stream_>>>(src, srcStride, dst, dstStride, rows,
                                                                           cols, accumulate);
    TS_CUDA_LAUNCHED();
}

}  // namespace ts
