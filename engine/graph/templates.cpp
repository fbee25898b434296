#include "graph/templates.h"

#include <map>
#include <stdexcept>

namespace ts {

namespace {

using I = std::int64_t;
const std::string kPytorch = "pytorch";

// The smallest image side each convolutional template takes: cnn's two halvings leave 1
// pixel, LeNet's two 5x5 convolutions and two halvings need 16 pixels after its padding of 2.
// The resnet would check on any size; below 4x4 its stride-2 block would see a pixel or two.
const std::map<std::string, I> kMinimumSide = {{"cnn", 4}, {"resnet", 4}, {"lenet5", 12}};

std::string joinedNames()
{
    std::string out;
    for (const std::string& n : templateNames()) out += (out.empty() ? "" : ", ") + n;
    return out;
}

// Inputs as the experiment reader names them for a dataset (io/model_yaml.h defaultInputs):
// 'image' [C, H, W] or 'features' [F], then the labels.
Graph withInputs(const TemplateInput& in)
{
    Graph g;
    g.inputs = {{in.shape.size() == 1 ? "features" : "image", Shape(in.shape)}, {"label", Shape{}, DType::I64}};
    return g;
}

Attrs conv(I out, I kernel, I padding) { return {{"out_channels", out}, {"kernel_size", kernel}, {"padding", padding}}; }

Graph mlp(const TemplateInput& in)
{
    Graph g = withInputs(in);
    std::string prev = g.inputs[0].name;
    if (in.shape.size() == 3) prev = g.add("flatten1", "Flatten", {prev}).name;
    const I widths[] = {512, 256, in.classes};
    for (int i = 0; i < 3; ++i) {
        const std::string k = std::to_string(i + 1);
        prev = g.add("linear" + k, "Linear", {prev}, {{"out_features", widths[i]}, {"init", kPytorch}}).name;
        if (i < 2) prev = g.add("relu" + k, "ReLU", {prev}).name;
    }
    g.add("crossentropy1", "CrossEntropy", {prev, "label"});
    return g;
}

Graph cnn(const TemplateInput& in)
{
    Graph g = withInputs(in);
    std::string prev = "image";
    I channels = 32;
    for (int block = 1; block <= 2; ++block, channels *= 2) {
        const std::string b = std::to_string(block);
        Attrs c = conv(channels, 3, 1);
        c.set("init", kPytorch);
        g.add("conv" + b, "Conv2d", {prev}, c);
        g.add("batchnorm" + b, "BatchNorm2d", {"conv" + b});
        g.add("relu" + b, "ReLU", {"batchnorm" + b});
        prev = g.add("maxpool" + b, "MaxPool2d", {"relu" + b}, {{"kernel_size", I(2)}}).name;
    }
    g.add("flatten1", "Flatten", {prev});
    g.add("linear1", "Linear", {"flatten1"}, {{"out_features", I(128)}, {"init", kPytorch}});
    g.add("relu3", "ReLU", {"linear1"});
    g.add("dropout1", "Dropout", {"relu3"}, {{"p", 0.25}});
    g.add("classifier", "Linear", {"dropout1"}, {{"out_features", I(in.classes)}, {"init", kPytorch}});
    g.add("crossentropy1", "CrossEntropy", {"classifier", "label"});
    return g;
}

Graph resnet(const TemplateInput& in)
{
    Graph g = withInputs(in);
    auto convNoBias = [&](const std::string& name, const std::string& from, I out, I kernel, I stride) {
        Attrs a{{"out_channels", out}, {"kernel_size", kernel}, {"bias", false}};
        if (kernel > 1) a.set("padding", kernel / 2);  // "same" for 3x3; the 1x1 projection has none
        if (stride != 1) a.set("stride", stride);
        g.add(name, "Conv2d", {from}, a);
    };
    convNoBias("stem", "image", 16, 3, 1);
    g.add("stem_bn", "BatchNorm2d", {"stem"});
    g.add("stem_relu", "ReLU", {"stem_bn"});
    // A block: two 3x3 convolutions added to its input (projected by a 1x1 one when it changes shape).
    auto block = [&](const std::string& b, const std::string& from, I channels, I stride) {
        convNoBias(b + "_conv1", from, channels, 3, stride);
        g.add(b + "_bn1", "BatchNorm2d", {b + "_conv1"});
        g.add(b + "_relu1", "ReLU", {b + "_bn1"});
        convNoBias(b + "_conv2", b + "_relu1", channels, 3, 1);
        g.add(b + "_bn2", "BatchNorm2d", {b + "_conv2"});
        std::string skip = from;
        if (stride != 1) convNoBias(skip = b + "_skip", from, channels, 1, stride);
        g.add(b + "_add", "Add", {b + "_bn2", skip});
        g.add(b + "_out", "ReLU", {b + "_add"});
    };
    block("b1", "stem_relu", 16, 1);
    block("b2", "b1_out", 32, 2);
    g.add("pool", "GlobalAvgPool", {"b2_out"});
    g.add("fc", "Linear", {"pool"}, {{"out_features", I(in.classes)}});
    g.add("loss", "CrossEntropy", {"fc", "label"});
    return g;
}

Graph lenet5(const TemplateInput& in)
{
    Graph g = withInputs(in);
    const bool small = in.shape[1] < 32 || in.shape[2] < 32;
    g.add("conv1", "Conv2d", {"image"}, conv(6, 5, small ? 2 : 0));
    g.add("relu1", "ReLU", {"conv1"});
    g.add("avgpool1", "AvgPool2d", {"relu1"}, {{"kernel_size", I(2)}});
    g.add("conv2", "Conv2d", {"avgpool1"}, conv(16, 5, 0));
    g.add("relu2", "ReLU", {"conv2"});
    g.add("avgpool2", "AvgPool2d", {"relu2"}, {{"kernel_size", I(2)}});
    g.add("flatten1", "Flatten", {"avgpool2"});
    g.add("linear1", "Linear", {"flatten1"}, {{"out_features", I(120)}});
    g.add("relu3", "ReLU", {"linear1"});
    g.add("linear2", "Linear", {"relu3"}, {{"out_features", I(84)}});
    g.add("relu4", "ReLU", {"linear2"});
    g.add("linear3", "Linear", {"relu4"}, {{"out_features", I(in.classes)}});
    g.add("crossentropy1", "CrossEntropy", {"linear3", "label"});
    return g;
}

std::string shapeText(const std::vector<I>& shape)
{
    std::string out = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
    return out + "]";
}

// Renames nodes and every reference to them.
Graph renamed(Graph g, const std::map<std::string, std::string>& names)
{
    auto rename = [&](std::string& s) {
        if (auto it = names.find(s); it != names.end()) s = it->second;
    };
    for (Node& n : g.nodes) {
        rename(n.name);
        for (std::string& in : n.inputs) rename(in);
    }
    rename(g.output);
    rename(g.loss);
    return g;
}

}  // namespace

std::vector<std::string> templateNames() { return {"mlp", "cnn", "resnet", "lenet5"}; }

std::string templateRejection(const std::string& name, const TemplateInput& in)
{
    const bool known = name == "mlp" || kMinimumSide.count(name);
    if (!known) return "unknown model template '" + name + "' (built in: " + joinedNames() + ")";
    if (in.classes < 2) return "template " + name + " needs at least 2 classes, got " + std::to_string(in.classes);
    for (I d : in.shape)
        if (d < 1) return "template " + name + ": every dimension of the input must be positive, got " + shapeText(in.shape);
    if (name == "mlp") {
        if (in.shape.size() != 1 && in.shape.size() != 3)
            return "template mlp takes features [F] or images [C, H, W], got " + shapeText(in.shape);
        return {};
    }
    if (in.shape.size() != 3) return "template " + name + " needs images [C, H, W], got " + shapeText(in.shape);
    const I side = kMinimumSide.at(name);
    if (in.shape[1] < side || in.shape[2] < side)
        return "template " + name + " needs images of at least " + std::to_string(side) + "x" + std::to_string(side) +
               ", got " + std::to_string(in.shape[1]) + "x" + std::to_string(in.shape[2]);
    return {};
}

bool templateAccepts(const std::string& name, const TemplateInput& input) { return templateRejection(name, input).empty(); }

Graph templateGraph(const std::string& name, const TemplateInput& input)
{
    if (const std::string why = templateRejection(name, input); !why.empty()) throw std::invalid_argument(why);
    if (name == "mlp") return mlp(input);
    if (name == "cnn") return cnn(input);
    if (name == "resnet") return resnet(input);
    return lenet5(input);
}

Graph templateGraph(const std::string& name) { return templateGraph(name, TemplateInput{{1, 28, 28}, 10}); }

Graph fashionMnistMlp()
{
    return renamed(templateGraph("mlp"), {{"flatten1", "flatten"}, {"linear1", "fc1"}, {"linear2", "fc2"}, {"linear3", "fc3"},
                                          {"crossentropy1", "loss"}});
}

Graph fashionMnistCnn()
{
    return renamed(templateGraph("cnn"), {{"batchnorm1", "bn1"}, {"batchnorm2", "bn2"}, {"maxpool1", "pool1"},
                                          {"maxpool2", "pool2"}, {"flatten1", "flatten"}, {"linear1", "fc1"},
                                          {"dropout1", "drop"}, {"classifier", "fc2"}, {"crossentropy1", "loss"}});
}

}  // namespace ts
