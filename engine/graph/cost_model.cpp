#include "graph/cost_model.h"

namespace ts {

namespace {
std::size_t specBytes(const TensorSpec& s) { return static_cast<std::size_t>(s.shape.numel()) * dtypeSize(s.dtype); }
}  // namespace

NodeCost nodeCost(const CheckedNode& node, const TensorSpec& output)
{
    NodeCost c;
    c.name = node.name;
    c.op = node.op->type();
    c.outputShape = output.shape;
    for (const auto& p : node.params)
        if (p.trainable) c.parameters += p.shape.numel();
    c.flops = node.flops;
    c.activationBytes = specBytes(output);
    for (const auto& s : node.saved) c.activationBytes += specBytes(s);
    return c;
}

CostReport estimateCost(const CheckedGraph& graph)
{
    CostReport report;
    for (const auto& node : graph.nodes) {
        NodeCost c = nodeCost(node, graph.values[node.output].spec);
        report.parameters += c.parameters;
        report.flops += c.flops;
        report.activationBytes += c.activationBytes;
        report.nodes.push_back(std::move(c));
    }
    return report;
}

}  // namespace ts
