// Checking the Graph (types/model_graph.h, the one description of a model: rule 2):
// checkGraph() infers every shape and validates it all, throwing a GraphError that names the
// node at fault.
#pragma once
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "ops/op.h"
#include "types/model_graph.h"

namespace ts {

class OpRegistry;

class GraphError : public std::runtime_error {
public:
    // TooLarge: a size beyond 64-bit arithmetic (a batch of 2^63-1) or a size attribute
    // beyond kMaxDimension (tensor/checked_size.h). NotTrainable: the graph checks but cannot
    // train (no loss, no label input: graph/training_check.h).
    enum class Kind { Empty, DuplicateName, UnknownOp, MissingInput, InputCount, BadAttribute, Cycle, ShapeMismatch, TooLarge, NotTrainable };
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
    // What it was checked from, so the same model can be checked at other input sizes
    // (withInputShape): a batch of texts cut to its longest, say.
    std::shared_ptr<const Graph> source;
    const OpRegistry* registry = nullptr;
    int findValue(const std::string& name) const;
};

CheckedGraph checkGraph(const Graph& graph, std::int64_t batch, const OpRegistry& registry);
CheckedGraph checkGraph(const Graph& graph, std::int64_t batch = 1);
// The same model with graph input `name` of `shape` (the batch dimension included, and g's):
// checkGraph of g's source with that input's shape changed. Throws GraphError as checkGraph
// does (a model that flattens its tokens into features takes no other length), and
// std::invalid_argument for a name that is no graph input or another batch size.
CheckedGraph withInputShape(const CheckedGraph& g, const std::string& name, const Shape& shape);

// Whether `e` (from checkGraph at some batch) is a size overflow that batch 1 does not have:
// then the batch, not the model, is too large, which is the machine's question rather than
// the file's (validate and train compare it with the memory and name the batch that fits).
bool onlyTheBatchTooLarge(const GraphError& e, const Graph& graph);

}  // namespace ts
