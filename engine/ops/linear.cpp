// Linear: y = x W^T + b over the last dimension; x [..., in], W [out, in], b [out].
#include "ops/common.h"
#include "ops/registry.h"

namespace ts {

namespace {

class Linear final : public Op {
public:
    std::string type() const override { return "Linear"; }
    OpCategory category() const override { return OpCategory::Layer; }
    std::vector<AttrSpec> attrSpecs() const override
    {
        return {{"in_features", AttrType::Int, AttrValue(std::int64_t{0}), atLeast(0)},  // 0: from the input
                {"out_features", AttrType::Int, std::nullopt, atLeast(1)},
                {"bias", AttrType::Bool, AttrValue(true)},
                weightInitAttr()};
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

void registerLinearOps(OpRegistry& r) { r.add(std::make_unique<Linear>()); }

}  // namespace ts
