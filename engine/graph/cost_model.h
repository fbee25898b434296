// Per-node and total cost of a checked graph: parameters, forward FLOPs, activation bytes.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "graph/graph.h"

namespace ts {

struct NodeCost {
    std::string name;
    std::string op;
    Shape outputShape;
    std::int64_t parameters = 0;  // trainable elements
    double flops = 0;             // forward
    std::size_t activationBytes = 0;  // output + buffers saved for backward
};

struct CostReport {
    std::vector<NodeCost> nodes;
    std::int64_t parameters = 0;
    double flops = 0;
    std::size_t activationBytes = 0;
};

CostReport estimateCost(const CheckedGraph& graph);
// One node's cost, given its inferred output.
NodeCost nodeCost(const CheckedNode& node, const TensorSpec& output);

}  // namespace ts
