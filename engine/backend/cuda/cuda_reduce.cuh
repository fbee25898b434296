// Deterministic reductions inside a warp or a block, shared by the elementwise, loss and
// norm kernels. Every lane of the group gets the same bits: the xor butterfly adds each pair
// in both lanes (a + b == b + a exactly), and the block step has every thread sum the warp
// partials in warp order. The summation order depends only on the group width, never on
// timing, so results repeat run to run.
#pragma once
#include <cuda_runtime.h>

namespace ts::cuda {

struct SumOp {
    template <class T> __device__ T operator()(T a, T b) const { return a + b; }
};
// fmaxf ignores a NaN operand; the callers that care (softmax) let NaN through elsewhere.
struct MaxOp {
    __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};

// Reduces v over a group of W consecutive threads: W = 32 (one warp, no barrier) or
// W = blockDim.x (the whole block; every thread of the block must call it).
template <int W, class T, class Op> __device__ T groupReduce(T v, Op op)
{
    static_assert(W == 32 || (W % 32 == 0 && W <= 1024), "a warp or a whole block of whole warps");
    for (int offset = 16; offset > 0; offset >>= 1) v = op(v, __shfl_xor_sync(0xffffffffu, v, offset));
    if constexpr (W > 32) {
        __shared__ T partial[W / 32];
        __syncthreads();  // a previous reduction's readers are done with `partial`
        if ((threadIdx.x & 31) == 0) partial[threadIdx.x >> 5] = v;
        __syncthreads();
        v = partial[0];
        for (int i = 1; i < W / 32; ++i) v = op(v, partial[i]);
    }
    return v;
}

// Blocks for a two-pass deterministic sum over n items: fixed by n alone.
inline unsigned partialBlocks(long long n)
{
    const long long b = (n + 255) / 256;
    return static_cast<unsigned>(b < 1 ? 1 : (b > 1024 ? 1024 : b));
}

}  // namespace ts::cuda
