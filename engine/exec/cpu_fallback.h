// Running on the CPU the passes a backend cannot (MemoryPlan::cpuPasses), so a primitive may
// land on the CPU first and an op still trains everywhere, only slower (ggml's pattern).
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "exec/memory_plan.h"
#include "types/message.h"

namespace ts {

class CpuFallback {
public:
    // `device`: the executor's backend; `workspaceBytes`: the plan's hostWorkspaceBytes.
    CpuFallback(Backend& device, std::size_t workspaceBytes);

    // Runs one pass of `op` on cpuBackend() for `ctx`, a context on the device: what the pass
    // reads goes to host copies (one per buffer, so a value used twice stays one), the op runs
    // there, and what it writes comes back: the output, saved buffers and the parameters
    // `stateParams` marks (running statistics) after forward; the gradients after backward,
    // whose current values went over first, so they accumulate as on the device. A cross-rank
    // sum goes through device memory, where the communicator works.
    void run(const Op& op, const OpContext& ctx, bool backward, const std::vector<bool>& stateParams);

private:
    Backend& device_;
    std::shared_ptr<Storage> workspace_;
};

// One line per op type and direction whose nodes run on the CPU, for the run's log:
// "LayerNorm backward runs on the CPU, as cuda does not support groupNormBackward (2 nodes)".
std::vector<Message> describeCpuPasses(const CheckedGraph& graph, const MemoryPlan& plan, const std::string& backend);

}  // namespace ts
