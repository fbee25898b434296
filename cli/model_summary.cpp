#include "model_summary.h"

#include <cmath>
#include <cstdio>
#include <string>

#include "backend/backend.h"
#include "exec/memory_plan.h"
#include "format.h"
#include "graph/cost_model.h"
#include "runs_output.h"

namespace ts::cli {

void printModelSummary(const CheckedGraph& graph, bool training, std::size_t optimizerStateBytes)
{
    const CostReport cost = estimateCost(graph);
    auto mflops = [](double flops) {
        char text[32];
        std::snprintf(text, sizeof text, "%.1f", flops / 1e6);
        return std::string(text);
    };
    // Columns as wide as their longest entry: generated names ("crossentropy1") stay aligned.
    Table table({"node", "op", "output", "parameters", "MFLOPs", "activations"}, "lllrrr");
    for (const NodeCost& n : cost.nodes)
        table.add({n.name, n.op, n.outputShape.str(), formatCount(n.parameters), mflops(n.flops),
                   formatBytes(double(n.activationBytes))});
    table.add({"total", "", "", formatCount(cost.parameters), mflops(cost.flops), formatBytes(double(cost.activationBytes))});
    table.print();
    std::printf("\n");

    const MemoryPlan plan = planMemory(graph, cpuBackend(), training);
    std::printf("planned memory (%s, batch %lld):\n", training ? "training" : "inference", static_cast<long long>(graph.batch));
    std::printf("  parameters       %12s\n", formatBytes(double(plan.parameterBytes)).c_str());
    std::printf("  gradients        %12s\n", formatBytes(double(plan.gradientBytes)).c_str());
    if (optimizerStateBytes) std::printf("  optimizer state  %12s\n", formatBytes(double(optimizerStateBytes)).c_str());
    std::printf("  activations      %12s  (%s without buffer reuse)\n", formatBytes(double(plan.activationBytes)).c_str(),
                formatBytes(double(plan.unsharedBytes)).c_str());
    if (!plan.segments.empty()) {
        // What checkpointing buys (memory) and costs (one more forward of the marked nodes).
        CheckedGraph plain = graph;
        for (CheckedNode& n : plain.nodes) n.checkpoint = false;
        std::size_t nodes = 0;
        double flops = 0;
        for (const CheckpointSegment& s : plan.segments)
            for (int i = s.first; i <= s.last; ++i) ++nodes, flops += graph.nodes[static_cast<std::size_t>(i)].flops;
        const std::size_t without = planMemory(plain, cpuBackend(), training).activationBytes;
        const double change = double(plan.activationBytes) - double(without);  // a bad marking can cost memory
        std::string delta = change < 0 ? "-" : "+";
        delta += formatBytes(std::abs(change));
        std::printf("  checkpointing    %12s  (activations without: %s; %zu segment(s), %zu node(s) recomputed, +%.1f MFLOPs a step)\n",
                    delta.c_str(), formatBytes(double(without)).c_str(),
                    plan.segments.size(), nodes, flops / 1e6);
    }
    std::printf("  workspace        %12s\n", formatBytes(double(plan.workspaceBytes)).c_str());
    std::printf("  total            %12s\n", formatBytes(double(plan.total() + optimizerStateBytes)).c_str());
    if (training && !optimizerStateBytes)
        std::printf("  (optimizer state comes on top: SGD with momentum keeps one more copy of the parameters, Adam two)\n");
}

}  // namespace ts::cli
