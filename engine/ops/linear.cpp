// Linear: y = x W^T + b over the last dimension; x [..., in], W [out, in], b [out].
#include "ops/common.h"
#include "ops/onnx_writer.h"
#include "ops/op_text.h"
#include "ops/registry.h"

namespace ts {

namespace {

class Linear final : public Op {
public:
    std::string type() const override { return "Linear"; }
    OpCategory category() const override { return OpCategory::Layer; }
    std::string help() const override { return QT_TRANSLATE_NOOP("AttrHelp", "Fully connected layer: y = xWᵀ + b"); }
    std::vector<AttrSpec> attrSpecs() const override
    {
        return {AttrSpec{"in_features", AttrType::Int, AttrValue(std::int64_t{0}), atLeast(0)}.withHelp(
                    QT_TRANSLATE_NOOP("AttrHelp", "The input's features. 0 takes them from the input; a number is checked against it.")),
                AttrSpec{"out_features", AttrType::Int, std::nullopt, atLeast(1)}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "The output's features: the layer's width, or the number of classes for the last layer.")),
                biasAttr(), weightInitAttr(),
                AttrSpec{"tie_weight", AttrType::String, AttrValue(std::string()), {}, 0, {}}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "Weight tying: the name of an Embedding node whose table this layer uses as its weight "
                                "(a language model's output layer, as in GPT-2): out_features must be its num_embeddings and "
                                "the input's features its embedding_dim. Empty: a weight of its own."))};
    }
    std::vector<OpCase> cases() const override
    {
        return {{"2x3 to 4", {{"out_features", std::int64_t{4}}}, {{Shape{2, 3}}}},
                {"5x7 to 1 without bias", {{"out_features", std::int64_t{1}}, {"bias", false}}, {{Shape{5, 7}}}},
                {"1x16 to 9", {{"out_features", std::int64_t{9}}}, {{Shape{1, 16}}}},
                {"rank 3: the last dimension", {{"out_features", std::int64_t{3}}}, {{Shape{2, 3, 5}}}}};
    }
    // Gemm for [batch, features]; MatMul with the transposed weight (and Add) above rank 2.
    std::string exportOnnx(OnnxNodeExport& e) const override
    {
        const std::string w = e.weightInput("weight");
        const bool bias = e.attrs.getBool("bias");
        if (e.inSpecs[0].shape.rank() == 2) {
            std::vector<std::string> ins{e.in[0], w};
            if (bias) ins.push_back(e.floatParam("bias"));
            e.b.node("Gemm", ins, {e.out}, e.name, {{"transB", std::int64_t{1}}});
            return e.out;
        }
        const std::string wt = e.step("weight_t");
        e.b.node("Transpose", {w}, {wt}, e.name + "/transpose", {{"perm", std::vector<std::int64_t>{1, 0}}});
        const std::string product = bias ? e.step("matmul") : e.out;
        e.b.node("MatMul", {e.in[0], wt}, {product}, e.name + "/matmul");
        if (bias) e.b.node("Add", {product, e.floatParam("bias")}, {e.out}, e.name + "/bias");
        return e.out;
    }
    TensorSpec inferOutput(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        requireFloat(in[0], "input");
        if (in[0].shape.rank() < 2) throw OpError("input must have rank >= 2 ([batch, features]), got shape " + in[0].shape.str());
        const std::int64_t features = in[0].shape[-1], declared = a.getInt("in_features");
        if (declared > 0 && declared != features)
            throw OpError("input has " + std::to_string(features) + " features", {"in_features"});
        Shape out = in[0].shape;
        out[-1] = a.getInt("out_features");
        return {out, DType::F32};
    }
    std::vector<ParamSpec> params(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        const std::int64_t inF = in[0].shape[-1], outF = a.getInt("out_features");
        std::vector<ParamSpec> p{{"weight", Shape{outF, inF}, weightInit(a, double(inF), double(outF))}};
        if (const std::string& owner = a.getString("tie_weight"); !owner.empty()) p[0].tiedTo = owner + ".weight";
        if (a.getBool("bias")) p.push_back({"bias", Shape{outF}, {biasInit(a, double(inF))}});
        return p;
    }
    double flops(const Attrs&, std::span<const TensorSpec> in, const TensorSpec& out) const override
    {
        return 2.0 * double(out.shape.numel()) * double(in[0].shape[-1]);
    }
    void forward(OpContext& c) const override
    {
        const auto [rows, inF, outF] = dims(c);
        c.backend.gemm(false, true, rows, outF, inF, 1.0f, f32(c.inputs[0]), inF, f32(c.params[0]), inF, 0.0f,
                       f32(c.output), outF);
        if (c.params.size() > 1) c.backend.addBias(f32(c.params[1]), f32(c.output), rows, outF, 1);
    }
    void backward(OpContext& c) const override
    {
        const auto [rows, inF, outF] = dims(c);
        if (c.gradInputs[0].defined())  // beta 0 overwrites
            c.backend.gemm(false, false, rows, inF, outF, 1.0f, f32(c.gradOutput), outF, f32(c.params[0]), inF,
                           c.gradWrite(0) == GradWrite::Overwrite ? 0.0f : 1.0f, f32(c.gradInputs[0]), inF);
        if (c.gradParams[0].defined())
            c.backend.gemm(true, false, outF, inF, rows, 1.0f, f32(c.gradOutput), outF, f32(c.inputs[0]), inF, 1.0f,
                           f32(c.gradParams[0]), inF);
        if (c.gradParams.size() > 1 && c.gradParams[1].defined())
            c.backend.biasBackward(f32(c.gradOutput), f32(c.gradParams[1]), rows, outF, 1);
    }
    bool overwritesFreshGradients() const override { return true; }

private:
    static std::tuple<std::int64_t, std::int64_t, std::int64_t> dims(const OpContext& c)
    {
        const std::int64_t inF = c.inputs[0].shape()[-1], outF = c.output.shape()[-1];
        return {c.inputs[0].numel() / inF, inF, outF};
    }
};

}  // namespace

TS_REGISTER_OPS(linear) { r.add(std::make_unique<Linear>()); }

}  // namespace ts
