// Normalisation ops: BatchNorm1d, BatchNorm2d, LayerNorm, GroupNorm.
//
// Without affine parameters (affine / elementwise_affine = false) the op declares no weight
// or bias, so the model lists no parameters it never trains; the primitives still get
// gamma = 1 and beta = 0, written into the op's workspace at each call.
#include <algorithm>
#include <functional>
#include <memory>
#include <tuple>
#include <utility>

#include "ops/common.h"
#include "ops/onnx_writer.h"
#include "ops/op_text.h"
#include "ops/registry.h"

namespace ts {

namespace {

// The first two params when `affine`: weight (ones) and bias (zeros), one per channel.
std::vector<ParamSpec> affineParams(bool affine, std::int64_t channels)
{
    if (!affine) return {};
    return {{"weight", Shape{channels}, {InitKind::Ones}}, {"bias", Shape{channels}, {InitKind::Zeros}}};
}

std::size_t unitAffineBytes(bool affine, std::int64_t channels)
{
    return affine ? 0 : 2 * static_cast<std::size_t>(channels) * sizeof(float);
}

struct Affine {
    const float* gamma;
    const float* beta;
    float* dgamma;  // null where no gradient is wanted (and always without affine)
    float* dbeta;
};

// gamma/beta for the primitives: the parameters, or ones and zeros in the workspace.
Affine affineOf(OpContext& c, bool affine, std::int64_t channels)
{
    if (affine) {
        const bool grads = c.gradParams.size() >= 2;
        return {f32(c.params[0]), f32(c.params[1]), grads ? f32(c.gradParams[0]) : nullptr,
                grads ? f32(c.gradParams[1]) : nullptr};
    }
    float* unit = static_cast<float*>(c.workspace);
    c.backend.fill(unit, channels, 1.0f);
    c.backend.fill(unit + channels, channels, 0.0f);
    return {unit, unit + channels, nullptr, nullptr};
}

float* gradInput(const OpContext& c) { return c.gradInputs.empty() ? nullptr : f32(c.gradInputs[0]); }

std::string channelsText(std::int64_t c) { return "input has " + std::to_string(c) + " channels"; }

// Statistics and the affine normalise: about 4 flops per element.
constexpr double kFlopsPerElement = 4.0;

float onnxEps(const OnnxNodeExport& e) { return static_cast<float>(e.attrs.getFloat("eps")); }

// Gradient-check cases: every one checks the input gradient and every trainable parameter's,
// with the checker's default tolerances. A set of 2 or 3 values to normalise needs eps (1e-2)
// small against the gaps between the values (the output turns step-like as two values meet),
// and normal samples can land within 0.05 of each other, so such cases take distinct values
// 0.5 apart. (Run over 200 seeds, the only misses were such near-ties in the 2- and 3-value
// sets and one in a 5-value channel, and they vanish at eps = 3e-3.)
OpCase normCase(std::string label, Attrs attrs, Shape x, bool training = true)
{
    return {std::move(label), std::move(attrs), {{std::move(x)}}, training};
}
OpCase spread(OpCase c)
{
    c.inputs[0].fill = InputFill::distinct(0.5);
    return c;
}

std::vector<OpCase> batchNorm1dCases()
{
    return {normCase("[6,3]", {}, Shape{6, 3}),
            normCase("[4,3,5]", {{"num_features", std::int64_t{3}}}, Shape{4, 3, 5}),
            spread(normCase("[2,3] two per channel", {}, Shape{2, 3})),
            normCase("[5,4] no affine", {{"affine", false}}, Shape{5, 4}),
            normCase("eval [4,3]", {}, Shape{4, 3}, false),
            normCase("eval [3,2,5]", {}, Shape{3, 2, 5}, false)};
}
std::vector<OpCase> batchNorm2dCases()
{
    return {normCase("[2,3,4,5]", {}, Shape{2, 3, 4, 5}),
            normCase("[1,2,3,4] N=1", {}, Shape{1, 2, 3, 4}),
            normCase("[3,5,1,3] odd", {{"momentum", 0.5}}, Shape{3, 5, 1, 3}),
            normCase("[2,3,2,2] no affine", {{"affine", false}}, Shape{2, 3, 2, 2}),
            normCase("eval [2,3,3,3]", {{"eps", 0.1}}, Shape{2, 3, 3, 3}, false),
            normCase("eval no affine", {{"affine", false}}, Shape{2, 2, 2, 3}, false)};
}

// Batch norm: x [N, C, *], statistics per channel over the batch and the trailing dims.
class BatchNorm final : public Op {
public:
    BatchNorm(std::string type, std::vector<int> ranks, std::string layout, std::string help, std::vector<OpCase> cases)
        : type_(std::move(type)), ranks_(std::move(ranks)), layout_(std::move(layout)), help_(std::move(help)),
          cases_(std::move(cases))
    {
    }
    std::string type() const override { return type_; }
    OpCategory category() const override { return OpCategory::Normalization; }
    std::string help() const override { return help_; }
    std::vector<AttrSpec> attrSpecs() const override
    {
        return {inputChannelsAttr("num_features"), epsAttr(),
                AttrSpec{"momentum", AttrType::Float, AttrValue(0.1), inRange(0, 1, true)}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "How fast the running statistics used for evaluation follow the batches: running = (1 - momentum) · running + "
                                "momentum · batch. 0.1 is the default; with small batches try 0.01 for smoother statistics. Below "
                                "a batch of about 8, prefer GroupNorm or LayerNorm.")),
                affineAttr()};
    }
    std::vector<OpCase> cases() const override { return cases_; }
    // The inference form: normalised with the running statistics the checkpoint carries;
    // without affine parameters, ones and zeros stand for gamma and beta.
    std::string exportOnnx(OnnxNodeExport& e) const override
    {
        std::string gamma, beta;
        if (e.attrs.getBool("affine")) {
            gamma = e.floatParam("weight"), beta = e.floatParam("bias");
        } else {
            const std::int64_t channels = e.inSpecs[0].shape[1];
            gamma = e.b.floats(e.name + ".unit_weight", {channels}, std::vector<float>(std::size_t(channels), 1.0f));
            beta = e.b.floats(e.name + ".unit_bias", {channels}, std::vector<float>(std::size_t(channels), 0.0f));
        }
        e.b.node("BatchNormalization", {e.in[0], gamma, beta, e.floatParam("running_mean"), e.floatParam("running_var")},
                 {e.out}, e.name, {{"epsilon", onnxEps(e)}});
        return e.out;
    }
    TensorSpec inferOutput(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        requireFloat(in[0], "input");
        if (std::find(ranks_.begin(), ranks_.end(), in[0].shape.rank()) == ranks_.end())
            throw OpError("input must be " + layout_ + ", got shape " + in[0].shape.str());
        const std::int64_t channels = in[0].shape[1], declared = a.getInt("num_features");
        if (declared > 0 && declared != channels) throw OpError(channelsText(channels), {"num_features"});
        return in[0];
    }
    std::vector<ParamSpec> params(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        const std::int64_t channels = in[0].shape[1];
        std::vector<ParamSpec> p = affineParams(a.getBool("affine"), channels);
        p.push_back({"running_mean", Shape{channels}, {InitKind::Zeros}, false});
        p.push_back({"running_var", Shape{channels}, {InitKind::Ones}, false});
        return p;
    }
    std::vector<TensorSpec> saved(const Attrs&, std::span<const TensorSpec> in, const TensorSpec&) const override
    {
        const Shape perChannel{in[0].shape[1]};
        return {{perChannel}, {perChannel}};  // batch mean, 1 / sqrt(batch var + eps)
    }
    std::size_t workspaceBytes(Backend&, const Attrs& a, std::span<const TensorSpec> in,
                               const TensorSpec&) const override
    {
        return unitAffineBytes(a.getBool("affine"), in[0].shape[1]);
    }
    double flops(const Attrs&, std::span<const TensorSpec>, const TensorSpec& out) const override
    {
        return kFlopsPerElement * double(out.shape.numel());
    }
    void forward(OpContext& c) const override
    {
        const Dims d = dims(c);
        const Affine af = affineOf(c, d.affine, d.c);
        const float eps = static_cast<float>(c.attrs.getFloat("eps"));
        if (c.training)
            c.backend.batchNormForwardTraining(f32(c.inputs[0]), af.gamma, af.beta, f32(c.output), f32(c.saved[0]),
                                               f32(c.saved[1]), f32(c.params[d.running]), f32(c.params[d.running + 1]),
                                               d.n, d.c, d.inner, static_cast<float>(c.attrs.getFloat("momentum")), eps,
                                               c.acrossRanks);
        else
            c.backend.batchNormForwardInference(f32(c.inputs[0]), af.gamma, af.beta, f32(c.params[d.running]),
                                                f32(c.params[d.running + 1]), f32(c.output), d.n, d.c, d.inner, eps);
    }
    void backward(OpContext& c) const override
    {
        const Dims d = dims(c);
        const Affine af = affineOf(c, d.affine, d.c);
        float* dx = gradInput(c);
        if (!dx && !af.dgamma && !af.dbeta) return;
        if (c.training) {
            c.backend.batchNormBackward(f32(c.inputs[0]), af.gamma, f32(c.gradOutput), f32(c.saved[0]), f32(c.saved[1]),
                                        dx, af.dgamma, af.dbeta, d.n, d.c, d.inner, c.acrossRanks, c.gradWrite(0));
            return;
        }
        // Backward in inference mode (frozen statistics) is rare: its dx is zeroed, then accumulated.
        if (dx && c.gradWrite(0) == GradWrite::Overwrite) c.backend.zeroBytes(dx, c.gradInputs[0].bytes());
        c.backend.batchNormBackwardInference(f32(c.inputs[0]), af.gamma, f32(c.gradOutput), f32(c.params[d.running]),
                                             f32(c.params[d.running + 1]), dx, af.dgamma, af.dbeta, d.n, d.c, d.inner,
                                             static_cast<float>(c.attrs.getFloat("eps")));
    }
    bool overwritesFreshGradients() const override { return true; }

private:
    struct Dims {
        std::int64_t n, c, inner;
        bool affine;
        std::size_t running;  // index of running_mean in params
    };
    static Dims dims(const OpContext& c)
    {
        const Shape& s = c.inputs[0].shape();
        const bool affine = c.attrs.getBool("affine");
        return {s[0], s[1], s.product(2, s.rank()), affine, affine ? 2u : 0u};
    }

    std::string type_;
    std::vector<int> ranks_;
    std::string layout_, help_;
    std::vector<OpCase> cases_;
};

// Layer norm over the last dimension D: group norm with rows as samples, D channels, one group.
class LayerNorm final : public Op {
public:
    std::string type() const override { return "LayerNorm"; }
    OpCategory category() const override { return OpCategory::Normalization; }
    std::string help() const override
    {
        return QT_TRANSLATE_NOOP("AttrHelp", "Layer normalization: each sample standardised over its last dimension; independent of the batch size");
    }
    std::vector<AttrSpec> attrSpecs() const override
    {
        return {AttrSpec{"normalized_size", AttrType::Int, AttrValue(std::int64_t{0}), atLeast(0)}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "The size of the last dimension. 0 takes it from the input; a number is checked against it.")),
                epsAttr(),
                AttrSpec{"elementwise_affine", AttrType::Bool, AttrValue(true)}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "Learns a scale and a shift per feature after normalizing. Keep it on unless you know why not."))};
    }
    std::vector<OpCase> cases() const override
    {
        return {normCase("[5,7]", {}, Shape{5, 7}),
                normCase("[2,3,6]", {{"normalized_size", std::int64_t{6}}}, Shape{2, 3, 6}),
                normCase("[4,5] no affine", {{"elementwise_affine", false}}, Shape{4, 5})};
    }
    // Without affine parameters the scale is ones and the bias is left out.
    std::string exportOnnx(OnnxNodeExport& e) const override
    {
        const std::int64_t size = e.inSpecs[0].shape[-1];
        std::vector<std::string> ins{e.in[0]};
        if (e.attrs.getBool("elementwise_affine")) ins.push_back(e.floatParam("weight")), ins.push_back(e.floatParam("bias"));
        else ins.push_back(e.b.floats(e.name + ".unit_weight", {size}, std::vector<float>(std::size_t(size), 1.0f)));
        e.b.node("LayerNormalization", ins, {e.out}, e.name, {{"axis", std::int64_t{-1}}, {"epsilon", onnxEps(e)}});
        return e.out;
    }
    TensorSpec inferOutput(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        requireFloat(in[0], "input");
        if (in[0].shape.rank() < 2)
            throw OpError("input must have rank >= 2 ([batch, ..., features]), got shape " + in[0].shape.str());
        const std::int64_t size = in[0].shape[-1], declared = a.getInt("normalized_size");
        if (declared > 0 && declared != size)
            throw OpError("input's last dimension is " + std::to_string(size), {"normalized_size"});
        return in[0];
    }
    std::vector<ParamSpec> params(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        return affineParams(a.getBool("elementwise_affine"), in[0].shape[-1]);
    }
    std::vector<TensorSpec> saved(const Attrs&, std::span<const TensorSpec> in, const TensorSpec&) const override
    {
        const Shape perRow{in[0].shape.numel() / in[0].shape[-1]};
        return {{perRow}, {perRow}};  // mean, 1 / sqrt(var + eps)
    }
    std::size_t workspaceBytes(Backend&, const Attrs& a, std::span<const TensorSpec> in,
                               const TensorSpec&) const override
    {
        return unitAffineBytes(a.getBool("elementwise_affine"), in[0].shape[-1]);
    }
    double flops(const Attrs&, std::span<const TensorSpec>, const TensorSpec& out) const override
    {
        return kFlopsPerElement * double(out.shape.numel());
    }
    void forward(OpContext& c) const override
    {
        const auto [rows, size] = dims(c);
        const Affine af = affineOf(c, c.attrs.getBool("elementwise_affine"), size);
        c.backend.groupNormForward(f32(c.inputs[0]), af.gamma, af.beta, f32(c.output), f32(c.saved[0]),
                                   f32(c.saved[1]), rows, size, 1, 1, static_cast<float>(c.attrs.getFloat("eps")));
    }
    void backward(OpContext& c) const override
    {
        const auto [rows, size] = dims(c);
        const Affine af = affineOf(c, c.attrs.getBool("elementwise_affine"), size);
        float* dx = gradInput(c);
        if (!dx && !af.dgamma && !af.dbeta) return;
        c.backend.groupNormBackward(f32(c.inputs[0]), af.gamma, f32(c.gradOutput), f32(c.saved[0]), f32(c.saved[1]),
                                    dx, af.dgamma, af.dbeta, rows, size, 1, 1);
    }

private:
    static std::pair<std::int64_t, std::int64_t> dims(const OpContext& c)
    {
        const std::int64_t size = c.inputs[0].shape()[-1];
        return {c.inputs[0].numel() / size, size};
    }
};

// Group norm: x [N, C, *], statistics per (sample, group of C / num_groups channels).
class GroupNorm final : public Op {
public:
    std::string type() const override { return "GroupNorm"; }
    OpCategory category() const override { return OpCategory::Normalization; }
    std::string help() const override
    {
        return QT_TRANSLATE_NOOP("AttrHelp", "Group normalization: channels standardised in groups per sample; works with small batches");
    }
    std::vector<AttrSpec> attrSpecs() const override
    {
        return {AttrSpec{"num_groups", AttrType::Int, std::nullopt, atLeast(1)}.withHelp(
                    QT_TRANSLATE_NOOP("AttrHelp", "How many groups the channels are split into; the channels must divide by it. 32 (or fewer for "
                                                  "narrow layers) is common; 1 is a layer norm over C, H, W.")),
                inputChannelsAttr("num_channels"), epsAttr(), affineAttr()};
    }
    std::vector<OpCase> cases() const override
    {
        using I = std::int64_t;
        return {normCase("G=1 [2,6,3]", {{"num_groups", I{1}}}, Shape{2, 6, 3}),
                spread(normCase("G=C [2,6,3]", {{"num_groups", I{6}}}, Shape{2, 6, 3})),
                normCase("G=3 [3,6,2,2]", {{"num_groups", I{3}}}, Shape{3, 6, 2, 2}),
                normCase("G=5 [2,15,3] odd", {{"num_groups", I{5}}, {"num_channels", I{15}}}, Shape{2, 15, 3}),
                spread(normCase("G=2 [3,4] rank 2", {{"num_groups", I{2}}}, Shape{3, 4})),
                normCase("no affine", {{"num_groups", I{2}}, {"affine", false}}, Shape{2, 4, 5})};
    }
    // No ONNX op at opset 17 (GroupNormalization came in 18): [N, C, *] is reshaped to
    // [N, G, C/G * *], instance-normalised (statistics per sample and group, no affine),
    // reshaped back to the input's own shape, then scaled and shifted per channel.
    std::string exportOnnx(OnnxNodeExport& e) const override
    {
        const Shape& x = e.inSpecs[0].shape;
        const std::int64_t groups = e.attrs.getInt("num_groups"), channels = x[1];
        const std::string& name = e.name;
        const std::string grouped = e.step("grouped"), normalized = e.step("normalized"), shape = e.step("shape");
        e.b.node("Reshape", {e.in[0], e.b.int64s(name + "/grouped_shape", {3}, {0, groups, -1})}, {grouped}, name + "/group");
        e.b.node("InstanceNormalization",
                 {grouped, e.b.floats(name + "/unit_scale", {groups}, std::vector<float>(std::size_t(groups), 1.0f)),
                  e.b.floats(name + "/zero_bias", {groups}, std::vector<float>(std::size_t(groups), 0.0f))},
                 {normalized}, name, {{"epsilon", onnxEps(e)}});
        e.b.node("Shape", {e.in[0]}, {shape}, name + "/input_shape");
        if (!e.attrs.getBool("affine")) {
            e.b.node("Reshape", {normalized, shape}, {e.out}, name + "/ungroup");
            return e.out;
        }
        const std::string restored = e.step("restored"), scaled = e.step("scaled");
        e.b.node("Reshape", {normalized, shape}, {restored}, name + "/ungroup");
        std::vector<std::int64_t> perChannel{channels};
        for (int d = 2; d < x.rank(); ++d) perChannel.push_back(1);  // broadcast over the trailing dims
        const std::string gamma = e.b.floats(name + ".weight", perChannel, e.param("weight").data<float>());
        const std::string beta = e.b.floats(name + ".bias", perChannel, e.param("bias").data<float>());
        e.b.node("Mul", {restored, gamma}, {scaled}, name + "/scale");
        e.b.node("Add", {scaled, beta}, {e.out}, name + "/shift");
        return e.out;
    }
    TensorSpec inferOutput(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        requireFloat(in[0], "input");
        if (in[0].shape.rank() < 2)
            throw OpError("input must have rank >= 2 ([N, C, *]), got shape " + in[0].shape.str());
        const std::int64_t channels = in[0].shape[1], declared = a.getInt("num_channels");
        if (declared > 0 && declared != channels) throw OpError(channelsText(channels), {"num_channels"});
        const std::int64_t groups = a.getInt("num_groups");
        if (channels % groups != 0)
            throw OpError(std::to_string(channels) + " channels do not split into " + std::to_string(groups) +
                              " equal groups",
                          {"num_groups"});
        return in[0];
    }
    std::vector<ParamSpec> params(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        return affineParams(a.getBool("affine"), in[0].shape[1]);
    }
    std::vector<TensorSpec> saved(const Attrs& a, std::span<const TensorSpec> in, const TensorSpec&) const override
    {
        const Shape perGroup{in[0].shape[0] * a.getInt("num_groups")};
        return {{perGroup}, {perGroup}};  // mean, 1 / sqrt(var + eps)
    }
    std::size_t workspaceBytes(Backend&, const Attrs& a, std::span<const TensorSpec> in,
                               const TensorSpec&) const override
    {
        return unitAffineBytes(a.getBool("affine"), in[0].shape[1]);
    }
    double flops(const Attrs&, std::span<const TensorSpec>, const TensorSpec& out) const override
    {
        return kFlopsPerElement * double(out.shape.numel());
    }
    void forward(OpContext& c) const override
    {
        const auto [n, channels, inner] = dims(c);
        const Affine af = affineOf(c, c.attrs.getBool("affine"), channels);
        c.backend.groupNormForward(f32(c.inputs[0]), af.gamma, af.beta, f32(c.output), f32(c.saved[0]),
                                   f32(c.saved[1]), n, channels, inner, c.attrs.getInt("num_groups"),
                                   static_cast<float>(c.attrs.getFloat("eps")));
    }
    void backward(OpContext& c) const override
    {
        const auto [n, channels, inner] = dims(c);
        const Affine af = affineOf(c, c.attrs.getBool("affine"), channels);
        float* dx = gradInput(c);
        if (!dx && !af.dgamma && !af.dbeta) return;
        c.backend.groupNormBackward(f32(c.inputs[0]), af.gamma, f32(c.gradOutput), f32(c.saved[0]), f32(c.saved[1]),
                                    dx, af.dgamma, af.dbeta, n, channels, inner, c.attrs.getInt("num_groups"));
    }

private:
    static std::tuple<std::int64_t, std::int64_t, std::int64_t> dims(const OpContext& c)
    {
        const Shape& s = c.inputs[0].shape();
        return {s[0], s[1], s.product(2, s.rank())};
    }
};

}  // namespace

TS_REGISTER_OPS(norm)
{
    r.add(std::make_unique<BatchNorm>(
        "BatchNorm1d", std::vector<int>{2, 3}, "[N, C] or [N, C, L]",
        QT_TRANSLATE_NOOP("AttrHelp", "Batch normalization of [N, C] or [N, C, L]: each channel standardised over the batch"),
        batchNorm1dCases()));
    r.add(std::make_unique<BatchNorm>(
        "BatchNorm2d", std::vector<int>{4}, "[N, C, H, W]",
        QT_TRANSLATE_NOOP("AttrHelp", "Batch normalization of [N, C, H, W] images: each channel standardised over the batch and the plane"),
        batchNorm2dCases()));
    r.add(std::make_unique<LayerNorm>());
    r.add(std::make_unique<GroupNorm>());
}

}  // namespace ts
