// Compiling a graph fixes when every buffer lives and where it sits in one arena, so the
// memory a run needs is known before anything runs.
//
// Time runs over 2N slots for N nodes: node i's forward is at slot i, its backward at
// slot 2N-1-i. A buffer occupies its arena bytes for [start, end]; buffers whose lifetimes
// do not overlap may share bytes.
#pragma once
#include <cstddef>
#include <vector>

#include "graph/graph.h"

namespace ts {

class Backend;

struct BufferPlan {
    std::size_t offset = 0;
    std::size_t bytes = 0;  // 0: no buffer
    int start = 0, end = 0;
};

struct MemoryPlan {
    bool training = true;
    std::size_t parameterBytes = 0;  // trainable and not (running statistics)
    std::size_t gradientBytes = 0;
    std::size_t activationBytes = 0;  // the arena: values, their gradients, saved buffers
    std::size_t workspaceBytes = 0;   // the largest scratch any node asks for
    std::size_t unsharedBytes = 0;    // what the arena would need without reuse
    std::size_t total() const { return parameterBytes + gradientBytes + activationBytes + workspaceBytes; }

    std::vector<BufferPlan> values;              // per value
    std::vector<BufferPlan> grads;               // per value (bytes 0: no gradient needed)
    std::vector<std::vector<BufferPlan>> saved;  // per node
    std::vector<bool> runsBackward;              // per node: its output leads to the loss
};

// Alignment of every buffer in the arena (cuDNN/cuBLAS like 256-byte alignment).
inline constexpr std::size_t kBufferAlignment = 256;

MemoryPlan planMemory(const CheckedGraph& graph, Backend& backend, bool training);

}  // namespace ts
