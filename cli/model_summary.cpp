#include "model_summary.h"

#include <cstdio>

#include "backend/backend.h"
#include "exec/memory_plan.h"
#include "format.h"
#include "graph/cost_model.h"

namespace ts::cli {

void printModelSummary(const CheckedGraph& graph, bool training, std::size_t optimizerStateBytes)
{
    const CostReport cost = estimateCost(graph);
    std::printf("%-10s %-14s %-20s %12s %12s %12s\n", "node", "op", "output", "parameters", "MFLOPs", "activations");
    for (const NodeCost& n : cost.nodes)
        std::printf("%-10s %-14s %-20s %12s %12.1f %12s\n", n.name.c_str(), n.op.c_str(), n.outputShape.str().c_str(),
                    formatCount(n.parameters).c_str(), n.flops / 1e6, formatBytes(double(n.activationBytes)).c_str());
    std::printf("%-10s %-14s %-20s %12s %12.1f %12s\n\n", "total", "", "", formatCount(cost.parameters).c_str(),
                cost.flops / 1e6, formatBytes(double(cost.activationBytes)).c_str());

    const MemoryPlan plan = planMemory(graph, cpuBackend(), training);
    std::printf("planned memory (%s, batch %lld):\n", training ? "training" : "inference", static_cast<long long>(graph.batch));
    std::printf("  parameters       %12s\n", formatBytes(double(plan.parameterBytes)).c_str());
    std::printf("  gradients        %12s\n", formatBytes(double(plan.gradientBytes)).c_str());
    if (optimizerStateBytes) std::printf("  optimizer state  %12s\n", formatBytes(double(optimizerStateBytes)).c_str());
    std::printf("  activations      %12s  (%s without buffer reuse)\n", formatBytes(double(plan.activationBytes)).c_str(),
                formatBytes(double(plan.unsharedBytes)).c_str());
    std::printf("  workspace        %12s\n", formatBytes(double(plan.workspaceBytes)).c_str());
    std::printf("  total            %12s\n", formatBytes(double(plan.total() + optimizerStateBytes)).c_str());
    if (training && !optimizerStateBytes)
        std::printf("  (optimizer state comes on top: SGD with momentum keeps one more copy of the parameters, Adam two)\n");
}

}  // namespace ts::cli
