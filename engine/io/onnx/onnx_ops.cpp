// The op mappings of the ONNX export: each engine op's inference form in standard ONNX
// (opset 17). Kept beside the export rather than in each op's file: an op defines its maths
// once in backend primitives (rule 3), and this file is the one place that knows ONNX, so ops
// stay free of protobuf and a build without it loses only the export.
#include "io/onnx/onnx_ops.h"
#if TS_WITH_ONNX
#include <algorithm>
#include <cmath>
#include <map>

namespace ts::onnx_io {

namespace {

using Ints = std::vector<std::int64_t>;

std::vector<std::int64_t> dimsOf(const Tensor& t) { return t.shape().dims(); }

std::string paramName(const NodeExport& e, const std::string& local) { return e.node.name + "." + local; }

// A Linear or Conv2d weight ([out, ...]), as floats or, quantised, as int8 with one symmetric
// scale per output channel (dimension 0) and a DequantizeLinear node giving the floats back.
// Symmetric (zero point 0, range ±127) keeps every channel's zero exact.
std::string weightInput(NodeExport& e, const std::string& local)
{
    if (!e.quantize) return e.floatParam(local);
    const Tensor& w = e.param(local);
    const std::int64_t rows = w.shape()[0], cols = w.numel() / rows;
    const float* data = w.data<float>();
    std::vector<float> scales(static_cast<std::size_t>(rows));
    std::vector<std::int8_t> q(static_cast<std::size_t>(w.numel()));
    for (std::int64_t r = 0; r < rows; ++r) {
        float top = 0;
        for (std::int64_t c = 0; c < cols; ++c) top = std::max(top, std::fabs(data[r * cols + c]));
        const float scale = top > 0 && std::isfinite(top) ? top / 127.0f : 1.0f;
        scales[std::size_t(r)] = scale;
        for (std::int64_t c = 0; c < cols; ++c) {
            const float v = std::nearbyint(data[r * cols + c] / scale);
            q[std::size_t(r * cols + c)] = static_cast<std::int8_t>(std::clamp(v, -127.0f, 127.0f));
        }
    }
    const std::string name = paramName(e, local);
    const std::string qName = e.b.int8s(name + "_quantized", dimsOf(w), q);
    const std::string scaleName = e.b.floats(name + "_scale", {rows}, scales);
    const std::string zeroName = e.b.int8s(name + "_zero_point", {rows}, std::vector<std::int8_t>(std::size_t(rows), 0));
    const std::string out = e.b.fresh(name);
    OnnxBuilder::attr(e.b.node("DequantizeLinear", {qName, scaleName, zeroName}, {out}, e.node.name + "/dequantize_" + local),
                      "axis", std::int64_t{0});
    ++e.quantized;
    return out;
}

// Gemm for [batch, features]; MatMul with the transposed weight and Add above rank 2.
std::string linear(NodeExport& e)
{
    const std::string w = weightInput(e, "weight");
    const bool bias = e.node.attrs.getBool("bias");
    if (e.inSpecs[0].shape.rank() == 2) {
        std::vector<std::string> ins{e.in[0], w};
        if (bias) ins.push_back(e.floatParam("bias"));
        OnnxBuilder::attr(e.b.node("Gemm", ins, {e.out}, e.node.name), "transB", std::int64_t{1});
        return e.out;
    }
    const std::string wt = e.step("weight_t");
    OnnxBuilder::attr(e.b.node("Transpose", {w}, {wt}, e.node.name + "/transpose"), "perm", Ints{1, 0});
    const std::string product = bias ? e.step("matmul") : e.out;
    e.b.node("MatMul", {e.in[0], wt}, {product}, e.node.name + "/matmul");
    if (bias) e.b.node("Add", {product, e.floatParam("bias")}, {e.out}, e.node.name + "/bias");
    return e.out;
}

Ints pairPads(const Ints& p) { return {p[0], p[1], p[0], p[1]}; }  // ONNX: begins, then ends

std::string conv(NodeExport& e)
{
    std::vector<std::string> ins{e.in[0], weightInput(e, "weight")};
    if (e.node.attrs.getBool("bias")) ins.push_back(e.floatParam("bias"));
    auto& n = e.b.node("Conv", ins, {e.out}, e.node.name);
    OnnxBuilder::attr(n, "kernel_shape", e.node.attrs.getInts("kernel_size"));
    OnnxBuilder::attr(n, "strides", e.node.attrs.getInts("stride"));
    OnnxBuilder::attr(n, "pads", pairPads(e.node.attrs.getInts("padding")));
    OnnxBuilder::attr(n, "dilations", e.node.attrs.getInts("dilation"));
    OnnxBuilder::attr(n, "group", e.node.attrs.getInt("groups"));
    return e.out;
}

OpMapping pool(const std::string& onnxType)
{
    return [onnxType](NodeExport& e) {
        const Ints& kernel = e.node.attrs.getInts("kernel_size");
        Ints stride = e.node.attrs.getInts("stride");
        for (std::size_t i = 0; i < 2; ++i)
            if (stride[i] == 0) stride[i] = kernel[i];  // the engine's 0: the kernel size
        auto& n = e.b.node(onnxType, {e.in[0]}, {e.out}, e.node.name);
        OnnxBuilder::attr(n, "kernel_shape", kernel);
        OnnxBuilder::attr(n, "strides", stride);
        OnnxBuilder::attr(n, "pads", pairPads(e.node.attrs.getInts("padding")));
        if (onnxType == "AveragePool")
            OnnxBuilder::attr(n, "count_include_pad", std::int64_t{e.node.attrs.getBool("count_include_pad") ? 1 : 0});
        return e.out;
    };
}

// [N, C, H, W] -> GlobalAveragePool [N, C, 1, 1] -> Flatten(axis 1) [N, C].
std::string globalAvgPool(NodeExport& e)
{
    const std::string pooled = e.step("pooled");
    e.b.node("GlobalAveragePool", {e.in[0]}, {pooled}, e.node.name);
    OnnxBuilder::attr(e.b.node("Flatten", {pooled}, {e.out}, e.node.name + "/flatten"), "axis", std::int64_t{1});
    return e.out;
}

// gamma and beta: the parameters, or ones and zeros for a norm without affine parameters.
std::pair<std::string, std::string> affine(NodeExport& e, bool hasAffine, std::int64_t channels)
{
    if (hasAffine) return {e.floatParam("weight"), e.floatParam("bias")};
    const std::vector<float> ones(std::size_t(channels), 1.0f), zeros(std::size_t(channels), 0.0f);
    return {e.b.floats(e.node.name + ".unit_weight", {channels}, ones),
            e.b.floats(e.node.name + ".unit_bias", {channels}, zeros)};
}

float eps(const NodeExport& e) { return static_cast<float>(e.node.attrs.getFloat("eps")); }

// The inference form: normalised with the running statistics the checkpoint carries.
std::string batchNorm(NodeExport& e)
{
    const auto [gamma, beta] = affine(e, e.node.attrs.getBool("affine"), e.inSpecs[0].shape[1]);
    auto& n = e.b.node("BatchNormalization",
                       {e.in[0], gamma, beta, e.floatParam("running_mean"), e.floatParam("running_var")}, {e.out},
                       e.node.name);
    OnnxBuilder::attr(n, "epsilon", eps(e));
    return e.out;
}

std::string layerNorm(NodeExport& e)
{
    const std::int64_t size = e.inSpecs[0].shape[-1];
    const bool hasAffine = e.node.attrs.getBool("elementwise_affine");
    std::vector<std::string> ins{e.in[0]};
    if (hasAffine) ins.push_back(e.floatParam("weight")), ins.push_back(e.floatParam("bias"));
    else ins.push_back(e.b.floats(e.node.name + ".unit_weight", {size}, std::vector<float>(std::size_t(size), 1.0f)));
    auto& n = e.b.node("LayerNormalization", ins, {e.out}, e.node.name);
    OnnxBuilder::attr(n, "axis", std::int64_t{-1});
    OnnxBuilder::attr(n, "epsilon", eps(e));
    return e.out;
}

// Group norm has no ONNX op at opset 17 (GroupNormalization came in 18): [N, C, *] is
// reshaped to [N, G, C/G * *], instance-normalised (statistics per sample and group, no
// affine), reshaped back to the input's own shape, then scaled and shifted per channel.
std::string groupNorm(NodeExport& e)
{
    const Shape& x = e.inSpecs[0].shape;
    const std::int64_t groups = e.node.attrs.getInt("num_groups"), channels = x[1];
    const std::string& name = e.node.name;
    const std::string grouped = e.step("grouped"), normalized = e.step("normalized"), shape = e.step("shape");
    e.b.node("Reshape", {e.in[0], e.b.int64s(name + "/grouped_shape", {3}, {0, groups, -1})}, {grouped}, name + "/group");
    auto& n = e.b.node("InstanceNormalization",
                       {grouped, e.b.floats(name + "/unit_scale", {groups}, std::vector<float>(std::size_t(groups), 1.0f)),
                        e.b.floats(name + "/zero_bias", {groups}, std::vector<float>(std::size_t(groups), 0.0f))},
                       {normalized}, name);
    OnnxBuilder::attr(n, "epsilon", eps(e));
    e.b.node("Shape", {e.in[0]}, {shape}, name + "/input_shape");
    if (!e.node.attrs.getBool("affine")) {
        e.b.node("Reshape", {normalized, shape}, {e.out}, name + "/ungroup");
        return e.out;
    }
    const std::string restored = e.step("restored"), scaled = e.step("scaled");
    e.b.node("Reshape", {normalized, shape}, {restored}, name + "/ungroup");
    Ints perChannel{channels};
    for (int d = 2; d < x.rank(); ++d) perChannel.push_back(1);  // broadcast over the trailing dims
    const std::string gamma = e.b.floats(name + ".weight", perChannel, e.param("weight").data<float>());
    const std::string beta = e.b.floats(name + ".bias", perChannel, e.param("bias").data<float>());
    e.b.node("Mul", {restored, gamma}, {scaled}, name + "/scale");
    e.b.node("Add", {scaled, beta}, {e.out}, name + "/shift");
    return e.out;
}

OpMapping unary(const std::string& onnxType)
{
    return [onnxType](NodeExport& e) {
        e.b.node(onnxType, {e.in[0]}, {e.out}, e.node.name);
        return e.out;
    };
}

std::string leakyRelu(NodeExport& e)
{
    auto& n = e.b.node("LeakyRelu", {e.in[0]}, {e.out}, e.node.name);
    OnnxBuilder::attr(n, "alpha", static_cast<float>(e.node.attrs.getFloat("negative_slope")));
    return e.out;
}

// x * sigmoid(x)
std::string silu(NodeExport& e)
{
    const std::string s = e.step("sigmoid");
    e.b.node("Sigmoid", {e.in[0]}, {s}, e.node.name + "/sigmoid");
    e.b.node("Mul", {e.in[0], s}, {e.out}, e.node.name);
    return e.out;
}

// The exact GELU the engine computes, x * Phi(x) = 0.5 * x * (1 + erf(x / sqrt 2)).
std::string gelu(NodeExport& e)
{
    const std::string& name = e.node.name;
    const std::string scaled = e.step("scaled"), erf = e.step("erf"), shifted = e.step("plus_one"), product = e.step("times_x");
    e.b.node("Mul", {e.in[0], e.b.scalar(name + "/inv_sqrt2", static_cast<float>(1.0 / std::sqrt(2.0)))}, {scaled},
             name + "/scale");
    e.b.node("Erf", {scaled}, {erf}, name + "/erf");
    e.b.node("Add", {erf, e.b.scalar(name + "/one", 1.0f)}, {shifted}, name + "/plus_one");
    e.b.node("Mul", {e.in[0], shifted}, {product}, name + "/times_x");
    e.b.node("Mul", {product, e.b.scalar(name + "/half", 0.5f)}, {e.out}, name);
    return e.out;
}

// The engine's softmax runs over the last dimension; the axis is written out because
// Softmax-13 changed what the default means.
std::string softmax(NodeExport& e)
{
    OnnxBuilder::attr(e.b.node("Softmax", {e.in[0]}, {e.out}, e.node.name), "axis",
                      std::int64_t{e.inSpecs[0].shape.rank() - 1});
    return e.out;
}

std::string dropout(NodeExport& e) { return e.in[0]; }  // inverted dropout is the identity at inference

// start_dim 1 is ONNX Flatten(axis 1); a later start keeps the leading dims by Reshape, with
// 0 (copy the input's dim) for the batch, so no constant fixes it.
std::string flatten(NodeExport& e)
{
    const std::int64_t start = e.node.attrs.getInt("start_dim");
    if (start == 1) {
        OnnxBuilder::attr(e.b.node("Flatten", {e.in[0]}, {e.out}, e.node.name), "axis", std::int64_t{1});
        return e.out;
    }
    Ints shape{0};
    for (std::int64_t d = 1; d < start; ++d) shape.push_back(e.inSpecs[0].shape[int(d)]);
    shape.push_back(-1);
    e.b.node("Reshape", {e.in[0], e.b.int64s(e.node.name + "/shape", {std::int64_t(shape.size())}, shape)}, {e.out},
             e.node.name);
    return e.out;
}

// The engine's shape is per sample; 0 in front copies the batch.
std::string reshape(NodeExport& e)
{
    Ints shape{0};
    for (std::int64_t d : e.node.attrs.getInts("shape")) shape.push_back(d);
    e.b.node("Reshape", {e.in[0], e.b.int64s(e.node.name + "/shape", {std::int64_t(shape.size())}, shape)}, {e.out},
             e.node.name);
    return e.out;
}

std::string add(NodeExport& e)
{
    e.b.node(e.in.size() == 2 ? "Add" : "Sum", e.in, {e.out}, e.node.name);
    return e.out;
}

std::string concat(NodeExport& e)
{
    std::int64_t axis = e.node.attrs.getInt("axis");
    if (axis < 0) axis += e.inSpecs[0].shape.rank();
    OnnxBuilder::attr(e.b.node("Concat", e.in, {e.out}, e.node.name), "axis", axis);
    return e.out;
}

// Rows of the [num_embeddings, dim] table picked by int64 indices.
std::string embedding(NodeExport& e)
{
    OnnxBuilder::attr(e.b.node("Gather", {e.floatParam("weight"), e.in[0]}, {e.out}, e.node.name), "axis",
                      std::int64_t{0});
    return e.out;
}

const std::map<std::string, OpMapping>& mappings()
{
    static const std::map<std::string, OpMapping> table{
        {"Linear", linear},
        {"Conv2d", conv},
        {"MaxPool2d", pool("MaxPool")},
        {"AvgPool2d", pool("AveragePool")},
        {"GlobalAvgPool", globalAvgPool},
        {"BatchNorm1d", batchNorm},
        {"BatchNorm2d", batchNorm},
        {"LayerNorm", layerNorm},
        {"GroupNorm", groupNorm},
        {"ReLU", unary("Relu")},
        {"LeakyReLU", leakyRelu},
        {"GELU", gelu},
        {"SiLU", silu},
        {"Sigmoid", unary("Sigmoid")},
        {"Tanh", unary("Tanh")},
        {"Softmax", softmax},
        {"Dropout", dropout},
        {"Flatten", flatten},
        {"Reshape", reshape},
        {"Add", add},
        {"Concat", concat},
        {"Embedding", embedding},
    };
    return table;
}

}  // namespace

std::string NodeExport::floatParam(const std::string& local)
{
    const Tensor& t = param(local);
    return b.floats(paramName(*this, local), dimsOf(t), t.data<float>());
}

const OpMapping* findOpMapping(const std::string& opType)
{
    const auto& table = mappings();
    const auto it = table.find(opType);
    return it == table.end() ? nullptr : &it->second;
}

}  // namespace ts::onnx_io
#endif
