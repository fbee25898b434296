#include "graph/templates.h"

#include <stdexcept>

namespace ts {

namespace {
// torch.nn's default initialisation, as the shipped experiments use (they match PyTorch's numbers).
Attrs linear(std::int64_t out) { return {{"out_features", out}, {"init", std::string("pytorch")}}; }
Graph fashionMnistInputs()
{
    Graph g;
    g.inputs = {{"image", Shape{1, 28, 28}}, {"label", Shape{}, DType::I64}};
    return g;
}
}  // namespace

Graph fashionMnistMlp()
{
    Graph g = fashionMnistInputs();
    g.add("flatten", "Flatten", {"image"});
    g.add("fc1", "Linear", {"flatten"}, linear(512));
    g.add("relu1", "ReLU", {"fc1"});
    g.add("fc2", "Linear", {"relu1"}, linear(256));
    g.add("relu2", "ReLU", {"fc2"});
    g.add("fc3", "Linear", {"relu2"}, linear(10));
    g.add("loss", "CrossEntropy", {"fc3", "label"});
    return g;
}

Graph fashionMnistCnn()
{
    Graph g = fashionMnistInputs();
    std::string prev = "image";
    std::int64_t channels = 32;
    for (int block = 1; block <= 2; ++block, channels *= 2) {
        const std::string b = std::to_string(block);
        g.add("conv" + b, "Conv2d", {prev}, {{"out_channels", channels}, {"kernel_size", std::int64_t(3)}, {"padding", std::int64_t(1)},
                                             {"init", std::string("pytorch")}});
        g.add("bn" + b, "BatchNorm2d", {"conv" + b});
        g.add("relu" + b, "ReLU", {"bn" + b});
        g.add("pool" + b, "MaxPool2d", {"relu" + b}, {{"kernel_size", std::int64_t(2)}});
        prev = "pool" + b;
    }
    g.add("flatten", "Flatten", {prev});
    g.add("fc1", "Linear", {"flatten"}, linear(128));
    g.add("relu3", "ReLU", {"fc1"});
    g.add("drop", "Dropout", {"relu3"}, {{"p", 0.25}});
    g.add("fc2", "Linear", {"drop"}, linear(10));
    g.add("loss", "CrossEntropy", {"fc2", "label"});
    return g;
}

std::vector<std::string> templateNames() { return {"mlp", "cnn"}; }

Graph templateGraph(const std::string& name)
{
    if (name == "mlp") return fashionMnistMlp();
    if (name == "cnn") return fashionMnistCnn();
    throw std::invalid_argument("unknown model '" + name + "' (built in: mlp, cnn)");
}

}  // namespace ts
