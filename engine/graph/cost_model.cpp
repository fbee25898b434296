#include "graph/cost_model.h"

#include "tensor/checked_size.h"

namespace ts {

namespace {
// Each tensor's bytes fit (checkGraph refuses one that does not); their sums are checked here.
std::size_t specBytes(const TensorSpec& s) { return static_cast<std::size_t>(s.shape.numel()) * dtypeSize(s.dtype); }
std::int64_t addCount(std::int64_t a, std::int64_t b, const std::string& what)
{
    std::int64_t out = 0;
    if (__builtin_add_overflow(a, b, &out)) throw SizeOverflow(what + ": more than 64-bit arithmetic counts (9.2e18)");
    return out;
}
}  // namespace

NodeCost nodeCost(const CheckedNode& node, const TensorSpec& output)
{
    NodeCost c;
    c.name = node.name;
    c.op = node.op->type();
    c.outputShape = output.shape;
    for (const auto& p : node.params)
        if (p.trainable && !p.tied()) c.parameters = addCount(c.parameters, p.shape.numel(), "the parameters of node '" + node.name + "'");
    c.flops = node.flops;
    c.activationBytes = specBytes(output);
    for (const auto& s : node.saved) c.activationBytes = checkedAdd(c.activationBytes, specBytes(s), "a node's activations");
    return c;
}

CostReport estimateCost(const CheckedGraph& graph)
{
    CostReport report;
    for (const auto& node : graph.nodes) {
        NodeCost c = nodeCost(node, graph.values[node.output].spec);
        report.parameters = addCount(report.parameters, c.parameters, "the model's parameters");
        report.flops += c.flops;
        report.activationBytes = checkedAdd(report.activationBytes, c.activationBytes, "the model's activations");
        report.nodes.push_back(std::move(c));
    }
    return report;
}

}  // namespace ts
