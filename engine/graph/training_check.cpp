#include "graph/training_check.h"

#include "graph/node_names.h"

namespace ts {

std::optional<GraphError> trainingProblem(const CheckedGraph& graph)
{
    auto problem = [](const std::string& text) { return GraphError(GraphError::Kind::NotTrainable, {}, text); };
    bool data = false;
    for (const ValueInfo& v : graph.values) data = data || (v.producer < 0 && v.name != kLabelInput);
    if (!data) return problem("the model has no data input (an input other than \"label\")");
    if (graph.findValue(kLabelInput) < 0) return problem("the model has no \"label\" input: training compares the output with it");
    if (graph.lossValue < 0)
        return problem("the model has no loss node to train: add one after the output (CrossEntropy for class scores "
                       "against class indices, MSE for regression)");
    if (graph.outputValue < 0) return problem("the model has no output");
    return std::nullopt;
}

std::optional<Node> fittingLoss(const Graph& graph, const CheckedGraph& checked)
{
    const int label = checked.findValue(kLabelInput);
    if (checked.lossValue >= 0 || checked.outputValue < 0 || label < 0) return std::nullopt;
    const ValueInfo& output = checked.values[static_cast<std::size_t>(checked.outputValue)];
    const TensorSpec& out = output.spec;
    const TensorSpec& target = checked.values[static_cast<std::size_t>(label)].spec;
    std::string op;
    if (out.shape.rank() == 2 && target.shape.rank() == 1 && target.shape[0] == out.shape[0] &&
        target.dtype == DType::I64)
        op = "CrossEntropy";
    else if (out.shape == target.shape && out.dtype == target.dtype)
        op = "MSE";
    else
        return std::nullopt;
    return Node{freshNodeName(graph, "loss"), op, {}, {output.name, kLabelInput}};
}

}  // namespace ts
