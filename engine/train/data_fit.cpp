#include "train/data_fit.h"

#include <algorithm>

#include "graph/graph.h"
#include "graph/training_check.h"
#include "train/evaluation.h"

namespace ts {

namespace {

// "data.csv:10" or, when the reader cannot say, "sample 9 of Fashion-MNIST test".
std::string sourceOf(const Dataset& data, std::int64_t index)
{
    const std::string s = data.sampleSource(index);
    return s.empty() ? "sample " + std::to_string(index) + " of " + data.description() : s;
}

std::string className(const Dataset& data, std::int64_t label)
{
    const std::vector<std::string> names = data.classNames();
    return label >= 0 && label < std::int64_t(names.size()) ? names[std::size_t(label)] : std::to_string(label);
}

bool regressionLoss(const std::string& op) { return op == "MSE" || op == "L1" || op == "Huber"; }

std::string joinedNames(const std::vector<std::string>& names)
{
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

// Classification with MSE, regression with CrossEntropy: refused before the graph is checked
// (whose shape rules would name dtypes, not the mix-up), with the fix for either intent.
void checkLossFitsTask(const Dataset& train, const Graph& model)
{
    const bool values = hasValueTargets(train);
    for (const Node& n : model.nodes) {
        if (std::find(n.inputs.begin(), n.inputs.end(), kLabelInput) == n.inputs.end()) continue;
        if (values && (n.op == "CrossEntropy" || n.op == "BCEWithLogits")) {
            const std::vector<std::string> targets = train.targetNames();
            throw DataError("", -1, "the model's loss '" + n.name + "' is " + n.op + ", a classification loss, but the dataset's targets are numbers" +
                                        (targets.empty() ? std::string() : " (" + joinedNames(targets) + ")") +
                                        ": regression needs a regression loss (MSE, L1 or Huber) on an output of " +
                                        train.targetShape().str() + " per sample; to classify instead, give label_column");
        }
        if (!values && regressionLoss(n.op))
            throw DataError("", -1, "the model's loss '" + n.name + "' is " + n.op + ", a regression loss, but the dataset's targets are " +
                                        std::to_string(train.numClasses()) + " classes: classification needs CrossEntropy on " +
                                        std::to_string(train.numClasses()) + " class scores; to predict numbers instead, give " +
                                        "the numeric columns as dataset.target_columns");
    }
    if (!values) return;
    for (const GraphInput& in : model.inputs)
        if (in.name == kLabelInput && (in.dtype != DType::F32 || in.shape != train.targetShape()))
            throw DataError("", -1, "the model's input 'label' is " + in.shape.str() + " " + std::string(dtypeName(in.dtype)) +
                                        ", but the dataset's targets are numbers of shape " + train.targetShape().str() +
                                        ": set it to {shape: " + train.targetShape().str() + ", dtype: f32} (model.inputs)");
}

struct NamedSplit {
    const char* name;
    const Dataset* data;
};

}  // namespace

void checkDataFitsModel(const DatasetSplits& splits, const Graph& model)
{
    if (!splits.train) return;
    const Dataset& train = *splits.train;
    const std::vector<NamedSplit> all = {{"training", splits.train.get()}, {"validation", splits.validation.get()},
                                         {"test", splits.test.get()}};
    for (const NamedSplit& s : all) {
        if (!s.data || s.data->sampleShape() == train.sampleShape()) continue;
        const std::string where = sourceOf(*s.data, 0);
        throw DataError(where, -1, where + ": the " + s.name + " split's samples are " + s.data->sampleShape().str() +
                                       ", the training split's " + train.sampleShape().str() +
                                       ": every split must hold samples of one shape; check that file");
    }

    checkLossFitsTask(train, model);
    const CheckedGraph graph = checkGraph(model, 1);
    const GraphBinding binding = GraphBinding::of(graph);
    const int input = graph.findValue(binding.input);
    if (input >= 0) {
        const std::vector<std::int64_t> dims = graph.values[std::size_t(input)].spec.shape.dims();  // [1, ...]
        const Shape takes(std::vector<std::int64_t>(dims.begin() + (dims.empty() ? 0 : 1), dims.end()));
        if (takes.numel() != train.sampleShape().numel())
            throw DataError(sourceOf(train, 0), -1,
                            "the model's input '" + binding.input + "' takes " + takes.str() + " (" +
                                std::to_string(takes.numel()) + " values a sample), but the dataset's samples are " +
                                train.sampleShape().str() + " (" + std::to_string(train.sampleShape().numel()) +
                                " values): set the input's shape to the data's (model.inputs), or choose the dataset the model was made for");
    }

    if (hasValueTargets(train)) return;  // no classes to check: the targets are numbers
    const std::int64_t classes = train.numClasses();
    // A language model's token ids in (its classes are the tokenizer's ids): every Embedding
    // reading them must have a row for each id.
    const bool languageModel = !splits.tokenizer.empty() && train.targetShape().rank() > 0;
    if (input >= 0 && languageModel)
        for (const CheckedNode& n : graph.nodes)
            if (n.op->type() == "Embedding" && !n.inputs.empty() && n.inputs[0] == input && n.attrs.getInt("num_embeddings") < classes)
                throw DataError("", -1, "the model's Embedding '" + n.name + "' has num_embeddings " +
                                            std::to_string(n.attrs.getInt("num_embeddings")) + ", but the data's tokenizer gives " +
                                            std::to_string(classes) + " token ids: set num_embeddings to " + std::to_string(classes) +
                                            " (and the output layer's out_features)");
    for (const NamedSplit& s : all) {
        if (!s.data) continue;
        const auto& labels = s.data->labels();
        const auto bad = std::find_if(labels.begin(), labels.end(), [&](std::int64_t l) { return l < 0 || l >= classes; });
        if (bad == labels.end()) continue;
        const std::int64_t at = bad - labels.begin();
        throw DataError(sourceOf(*s.data, at), -1,
                        sourceOf(*s.data, at) + ": label " + std::to_string(*bad) + " is not one of the dataset's " +
                            std::to_string(classes) + " classes (0 to " + std::to_string(classes - 1) +
                            "): correct the label, or exclude the sample (trainstudio-cli data mark)");
    }

    if (graph.lossValue < 0) return;
    const CheckedNode& loss = graph.nodes[std::size_t(graph.values[std::size_t(graph.lossValue)].producer)];
    if (loss.op->type() != "CrossEntropy" || loss.inputs.empty()) return;
    const ValueInfo& logits = graph.values[std::size_t(loss.inputs[0])];
    const Shape& shape = logits.spec.shape;
    // [batch, classes], or a language model's [batch, positions, vocabulary] for token data;
    // the op's own shape rule speaks for other layouts.
    const bool nextTokens = shape.rank() == 3 && languageModel;
    if (shape.rank() != 2 && !nextTokens) return;
    const std::int64_t width = shape[shape.rank() - 1];
    const std::string producer = logits.producer >= 0 ? graph.nodes[std::size_t(logits.producer)].name : logits.name;
    if (classes > width) {
        // The first sample whose class the output cannot score, in any split.
        for (const NamedSplit& s : all) {
            if (!s.data) continue;
            const auto& labels = s.data->labels();
            const auto over = std::find_if(labels.begin(), labels.end(), [&](std::int64_t l) { return l >= width; });
            if (over == labels.end()) continue;
            const std::int64_t at = over - labels.begin();
            throw DataError(sourceOf(*s.data, at), -1,
                            sourceOf(*s.data, at) + ": the label '" + className(*s.data, *over) + "' is class " +
                                std::to_string(*over + 1) + " of the dataset's " + std::to_string(classes) +
                                ", but the model's output '" + producer + "' scores " + std::to_string(width) +
                                " classes: set its out_features to " + std::to_string(classes) +
                                ", or correct the labels");
        }
    }
    if (classes != width && !(nextTokens && width > classes))  // a wider language model's head only wastes rows
        throw DataError("", -1,
                        "the dataset has " + std::to_string(classes) + " classes but the model's output '" + producer +
                            "' scores " + std::to_string(width) + ": set its out_features to " + std::to_string(classes));
}

}  // namespace ts
