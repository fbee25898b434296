// Whether a model that checks can also train, and the loss it lacks: the one rule that the
// trainer (GraphBinding::of, train/evaluation.h) and the Model page (diagnoseGraph) share, so
// the page never calls a model fine that training then refuses.
#pragma once
#include <optional>

#include "graph/graph.h"

namespace ts {

// The graph input training feeds the labels into.
inline constexpr const char* kLabelInput = "label";

// Why `graph` cannot train (nullopt: it can): it has no data input, no "label" input, no loss
// node or no output. A GraphError of kind NotTrainable, pinned to no node.
std::optional<GraphError> trainingProblem(const CheckedGraph& graph);

// The loss that fits a graph without one: CrossEntropy(output, label) for class scores
// [N, C] against integer class indices [N]; MSE(output, label) for a float target shaped as
// the output (regression). Named freshly (loss1, loss2, ...), its inputs set. nullopt when the
// graph has a loss already, or no output or label input, or when neither fits their shapes.
std::optional<Node> fittingLoss(const Graph& graph, const CheckedGraph& checked);

}  // namespace ts
