// `trainstudio-cli plan`: a model's shapes, cost per node and planned memory, before
// anything runs.
#include <cstdio>

#include "backend/backend.h"
#include "commands.h"
#include "exec/memory_plan.h"
#include "format.h"
#include "graph/cost_model.h"
#include "graph/templates.h"

namespace ts::cli {

int planCommand(const std::vector<std::string>& args)
{
    const Options o = parseOptions(args, {"--model", "--batch"}, {"--inference"});
    const std::string model = o.get("--model", "mlp");
    const auto batch = o.integer("--batch", 128, 1);
    const bool training = !o.flags.count("--inference");
    const CheckedGraph graph = checkGraph(templateGraph(model), batch);
    const CostReport cost = estimateCost(graph);

    std::printf("model %s, batch %lld, %s\n\n", model.c_str(), batch, training ? "training" : "inference");
    std::printf("%-10s %-14s %-20s %12s %12s %12s\n", "node", "op", "output", "parameters", "MFLOPs", "activations");
    for (const NodeCost& n : cost.nodes)
        std::printf("%-10s %-14s %-20s %12s %12.1f %12s\n", n.name.c_str(), n.op.c_str(), n.outputShape.str().c_str(),
                    formatCount(n.parameters).c_str(), n.flops / 1e6, formatBytes(double(n.activationBytes)).c_str());
    std::printf("%-10s %-14s %-20s %12s %12.1f %12s\n\n", "total", "", "", formatCount(cost.parameters).c_str(),
                cost.flops / 1e6, formatBytes(double(cost.activationBytes)).c_str());

    const MemoryPlan plan = planMemory(graph, cpuBackend(), training);
    std::printf("planned memory (%s):\n", training ? "training" : "inference");
    std::printf("  parameters   %12s\n", formatBytes(double(plan.parameterBytes)).c_str());
    std::printf("  gradients    %12s\n", formatBytes(double(plan.gradientBytes)).c_str());
    std::printf("  activations  %12s  (%s without buffer reuse)\n", formatBytes(double(plan.activationBytes)).c_str(),
                formatBytes(double(plan.unsharedBytes)).c_str());
    std::printf("  workspace    %12s\n", formatBytes(double(plan.workspaceBytes)).c_str());
    std::printf("  total        %12s  (optimizer state comes on top: Adam keeps 2 more copies of the parameters)\n",
                formatBytes(double(plan.total())).c_str());
    return 0;
}

}  // namespace ts::cli
