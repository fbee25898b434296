// 3x3, stride-1 convolution on the CPU by Winograd's minimal filtering F(2x2, 3x3) (Lavin and
// Gray, "Fast Algorithms for Convolutional Neural Networks", 2015): 16 multiplications per
// 2x2 output tile instead of 36, so the three products of a training step take 2.25x fewer
// flops than im2col + GEMM. The backward passes are the forward's exact adjoints (same three
// transforms, transposed), not separate algorithms.
#pragma once
#include <cstddef>

#include "backend/backend.h"

namespace ts {

class CpuBackend;

namespace winograd {

// Whether a geometry takes this path: 3x3 kernel, stride 1, no dilation, one group, and
// enough channels on both sides that the 16 small GEMMs run at OpenBLAS's full speed.
bool applies(const ConvGeometry& g);
std::size_t workspaceBytes(const ConvGeometry& g);

void forward(CpuBackend& backend, const ConvGeometry& g, const float* x, const float* w, float* y, void* workspace);
// dx (written as `write` says) and dw += their gradients; either may be null. Both at once
// share the output gradient's transform.
void backward(CpuBackend& backend, const ConvGeometry& g, const float* x, const float* w, const float* dy, float* dx,
              float* dw, void* workspace, GradWrite write);

}  // namespace winograd
}  // namespace ts
