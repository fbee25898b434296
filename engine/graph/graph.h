// The Graph: the one description of a model (rule 2). The model builder edits it, YAML
// stores it, the executor compiles it. check() infers every shape and validates it all,
// throwing a GraphError that names the node at fault.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "graph/attrs.h"
#include "ops/op.h"

namespace ts {

class OpRegistry;

// A graph input such as the image batch or the labels. `shape` excludes the batch
// dimension, which check() prepends.
struct GraphInput {
    std::string name;
    Shape shape;
    DType dtype = DType::F32;
    bool operator==(const GraphInput&) const = default;
};

struct Node {
    std::string name;
    std::string op;
    Attrs attrs;
    std::vector<std::string> inputs;  // names of graph inputs or other nodes
    // Activation checkpointing: a run of consecutive marked nodes drops its activations after
    // the forward pass and recomputes them in backward (memory for time; see exec/memory_plan.h).
    bool checkpoint = false;
    bool operator==(const Node&) const = default;
};

struct Graph {
    std::vector<GraphInput> inputs;
    std::vector<Node> nodes;
    std::string output;  // the model's prediction (defaults to the last non-loss node)
    std::string loss;    // the node backward starts from (defaults to the last loss node, if any)

    Node& add(std::string name, std::string op, std::vector<std::string> inputs, Attrs attrs = {});
    bool operator==(const Graph&) const = default;
};

class GraphError : public std::runtime_error {
public:
    enum class Kind { Empty, DuplicateName, UnknownOp, MissingInput, InputCount, BadAttribute, Cycle, ShapeMismatch };
    GraphError(Kind kind, std::string node, const std::string& message)
        : std::runtime_error(message), kind_(kind), node_(std::move(node))
    {
    }
    Kind kind() const { return kind_; }
    const std::string& node() const { return node_; }  // empty when no single node is at fault

private:
    Kind kind_;
    std::string node_;
};

// One value in the checked graph: a graph input (producer -1) or a node's output.
struct ValueInfo {
    std::string name;
    TensorSpec spec;
    int producer = -1;             // index into CheckedGraph::nodes
    std::vector<int> consumers;    // node indices
};

struct CheckedNode {
    std::string name;
    const Op* op = nullptr;
    Attrs attrs;                 // normalised: defaults filled, types coerced
    std::vector<int> inputs;     // value indices
    int output = -1;             // value index
    std::vector<ParamSpec> params;  // names already prefixed "node."
    std::vector<TensorSpec> saved;
    double flops = 0;
    bool checkpoint = false;     // Node::checkpoint
};

// A validated graph for one batch size, nodes in execution (topological) order.
struct CheckedGraph {
    std::int64_t batch = 0;
    std::vector<ValueInfo> values;  // graph inputs first, then one per node
    std::vector<CheckedNode> nodes;
    int outputValue = -1;
    int lossValue = -1;             // -1: no loss node (inference only)
    int findValue(const std::string& name) const;
};

CheckedGraph checkGraph(const Graph& graph, std::int64_t batch, const OpRegistry& registry);
CheckedGraph checkGraph(const Graph& graph, std::int64_t batch = 1);

}  // namespace ts
