// Compiling a graph fixes when every buffer lives and where it sits in one arena, so the
// memory a run needs is known before anything runs.
//
// Time runs over slots: node i's forward is at slot i; backward then visits the nodes in
// reverse, one slot each (2N slots for N nodes, node i's backward at 2N-1-i). A buffer
// occupies its arena bytes for [start, end]; buffers whose lifetimes do not overlap may
// share bytes.
//
// Activation checkpointing: a maximal run of consecutive nodes marked `checkpoint` (in
// execution order) is a segment, split at the residual stream: after a node whose output is
// the one value made in the run that the rest of the run still reads, and is read there two
// or more times (a Transformer or ResNet block's output feeding the next block's branch and
// its skip). So checkpointing four Transformer blocks recomputes them a half-block at a time,
// as PyTorch's per-block torch.utils.checkpoint does, instead of all four at once, which
// would bring every activation back together (a chain has no such point: one segment). Values made inside it and used only inside it, and the
// saved buffers of its nodes, live only during the forward pass; just before the backward
// of the segment's last node, the segment's forward runs again in slots of its own, into
// second buffers that then live until their backward. The timeline grows by one slot per
// recomputed node, so every buffer keeps one interval and the plan stays static.
//
// The plan also knows which primitives every node calls (a trace of each pass, ops/op_trace.h)
// and so which passes the backend cannot run: the executor runs those on the CPU.
#pragma once
#include <cstddef>
#include <vector>

#include "graph/graph.h"
#include "ops/op_trace.h"

namespace ts {

class Backend;

struct BufferPlan {
    std::size_t offset = 0;
    std::size_t bytes = 0;  // 0: no buffer
    int start = 0, end = 0;
};

// A checkpointed segment that backward recomputes: nodes [first, last]. Its nodes'
// non-trainable parameters (batch norm running statistics) are copied to `stateBackup`
// before the recomputation and back after it, so a forward that updates them counts once.
struct CheckpointSegment {
    int first = 0, last = 0;
    BufferPlan stateBackup;  // bytes 0: the segment has no such parameters
};

// A pass of a node that the backend lacks a primitive for (`missing`, in call order): the
// executor runs it on the CPU, copying what it reads to the host and what it writes back.
struct CpuPass {
    int node = 0;
    OpPass pass = OpPass::TrainingForward;
    std::vector<Primitive> missing;
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

    int slotCount = 0;                             // length of the timeline
    std::vector<int> backwardSlot;                 // per node
    std::vector<int> recomputeSlot;                // per node: -1 unless a segment recomputes it
    std::vector<CheckpointSegment> segments;       // in execution order
    std::vector<BufferPlan> recomputedValues;      // per value: bytes 0 unless dropped after forward
    std::vector<std::vector<BufferPlan>> recomputedSaved;  // per node: empty unless recomputed

    // Per node: the primitives each pass the plan runs calls (the others stay empty): inference
    // forward always; training forward, and both backwards where the node runs backward, in training.
    std::vector<OpTrace> traces;
    std::vector<CpuPass> cpuPasses;  // in node order
    std::size_t hostWorkspaceBytes = 0;  // the CPU's scratch for them: host memory, not in total()
    int cpuNodes() const;  // nodes with a pass on the CPU
};

// Alignment of every buffer in the arena (cuDNN/cuBLAS like 256-byte alignment).
inline constexpr std::size_t kBufferAlignment = 256;

MemoryPlan planMemory(const CheckedGraph& graph, Backend& backend, bool training);

}  // namespace ts
