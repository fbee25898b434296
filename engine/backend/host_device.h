// Marks the few helpers shared verbatim by host code and CUDA kernels (hashUniform, the
// activation functors of activation_math.h): nvcc compiles them for both sides, a plain C++
// compiler sees ordinary inline functions.
#pragma once

#ifdef __CUDACC__
#define TS_HOST_DEVICE __host__ __device__
#else
#define TS_HOST_DEVICE
#endif
