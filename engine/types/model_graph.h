// The Graph: the one description of a model (rule 2). The model builder edits it, YAML
// stores it, the executor compiles it (graph/graph.h checks it). Plain data that every layer
// may include.
#pragma once
#include <string>
#include <vector>

#include "tensor/dtype.h"
#include "tensor/shape.h"
#include "types/attrs.h"

namespace ts {

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

    Node& add(std::string name, std::string op, std::vector<std::string> in, Attrs attrs = {})
    {
        nodes.push_back(Node{std::move(name), std::move(op), std::move(attrs), std::move(in)});
        return nodes.back();
    }
    bool operator==(const Graph&) const = default;
};

}  // namespace ts
