// What the model builder shows while a graph is drawn: every node's shape and cost where it
// can be known and every problem, each pinned to its node. checkGraph stops at the first
// problem; this keeps going, so a newcomer sees the shapes above a mistake and every other
// mistake at once. Nodes fed by a broken node have no shape ("blocked"), not an error of
// their own. A graph that checks but cannot train (no loss: graph/training_check.h) has that
// as its one problem, graph-wide, with `checked` still set.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "graph/cost_model.h"
#include "graph/graph.h"
#include "ops/registry.h"

namespace ts {

struct NodeDiagnosis {
    std::string name;
    bool known = false;     // its output spec and cost were inferred
    TensorSpec output;
    NodeCost cost;
    std::string problem;    // empty: none of its own
    GraphError::Kind kind = GraphError::Kind::Empty;
    bool blocked = false;   // an input is broken or unknown, so its shape cannot be inferred
};

struct GraphDiagnosis {
    std::vector<NodeDiagnosis> nodes;    // in the graph's node order
    std::vector<GraphError> problems;    // every problem, in node order, graph-wide ones last
    std::optional<CheckedGraph> checked; // set when there is no problem
    std::int64_t parameters = 0;         // over the known nodes
    double flops = 0;                    // forward, per batch, over the known nodes
    std::int64_t batch = 1;              // the batch the shapes and costs are for (divide by it for per sample)
    bool ok() const { return problems.empty(); }
    const NodeDiagnosis* find(const std::string& node) const;
};

GraphDiagnosis diagnoseGraph(const Graph& graph, std::int64_t batch, const OpRegistry& registry = OpRegistry::builtin());

}  // namespace ts
