// Internal to engine/graph: the steps of checkGraph, shared with diagnoseGraph (which runs
// them node by node and keeps going after a problem).
#pragma once
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "graph/graph.h"

namespace ts {

// Nodes in execution order; throws GraphError on a cycle, naming a node on it and the cycle.
std::vector<int> topologicalOrder(const Graph& g, const std::map<std::string, int>& nodeIndex);
// What can be checked of one node without shapes: its op exists (set through `op`), its
// inputs exist and are as many as the op takes, its attributes fit (normalised into `attrs`).
std::optional<GraphError> checkNodeAlone(const Node& node, const std::map<std::string, int>& nodeIndex,
                                         const std::set<std::string>& inputNames, const OpRegistry& registry,
                                         const Op*& op, Attrs& attrs);
// The node's output spec (through `out`), parameters, saved buffers and FLOPs from its
// inputs' specs (`inputs` index `values`); throws GraphError (ShapeMismatch) naming the node.
CheckedNode inferNode(const Node& node, const Op* op, const Attrs& attrs, const std::vector<int>& inputs,
                      const std::vector<ValueInfo>& values, TensorSpec& out);

}  // namespace ts
