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

// Batch norm: x [N, C, *], statistics per channel over the batch and the trailing dims.
class BatchNorm final : public Op {
public:
    BatchNorm(std::string type, std::vector<int> ranks, std::string layout)
        : type_(std::move(type)), ranks_(std::move(ranks)), layout_(std::move(layout))
    {
    }
    std::string type() const override { return type_; }
    OpCategory category() const override { return OpCategory::Normalization; }
    std::vector<AttrSpec> attrSpecs() const override
    {
        return {{"num_features", AttrType::Int, AttrValue(std::int64_t{0}), atLeast(0)},  // 0: from the input
                epsAttr(),
                {"momentum", AttrType::Float, AttrValue(0.1), inRange(0, 1, true)},
                {"affine", AttrType::Bool, AttrValue(true)}};
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
            c.backend.batchNormReluForwardTraining(f32(c.inputs[0]), af.gamma, af.beta, f32(c.output),
                                                   f32(c.reluOutput), f32(c.saved[0]), f32(c.saved[1]),
                                                   f32(c.params[d.running]), f32(c.params[d.running + 1]), d.n, d.c,
                                                   d.inner, static_cast<float>(c.attrs.getFloat("momentum")), eps,
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
        if (c.training && c.reluOutput.defined()) {
            c.backend.batchNormReluBackward(f32(c.inputs[0]), af.gamma, af.beta, f32(c.output), f32(c.reluOutput),
                                            f32(c.gradOutput), f32(c.outputGradScratch), f32(c.saved[0]),
                                            f32(c.saved[1]), dx, af.dgamma, af.dbeta, d.n, d.c, d.inner, c.acrossRanks,
                                            c.gradWrite(0));
            return;
        }
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
    bool runsFollowingRelu() const override { return true; }

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
    std::string layout_;
};

// Layer norm over the last dimension D: group norm with rows as samples, D channels, one group.
class LayerNorm final : public Op {
public:
    std::string type() const override { return "LayerNorm"; }
    OpCategory category() const override { return OpCategory::Normalization; }
    std::vector<AttrSpec> attrSpecs() const override
    {
        return {{"normalized_size", AttrType::Int, AttrValue(std::int64_t{0}), atLeast(0)},  // 0: the last dim
                epsAttr(),
                {"elementwise_affine", AttrType::Bool, AttrValue(true)}};
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
    std::vector<AttrSpec> attrSpecs() const override
    {
        return {{"num_groups", AttrType::Int, std::nullopt, atLeast(1)},
                {"num_channels", AttrType::Int, AttrValue(std::int64_t{0}), atLeast(0)},  // 0: from the input
                epsAttr(),
                {"affine", AttrType::Bool, AttrValue(true)}};
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
    r.add(std::make_unique<BatchNorm>("BatchNorm1d", std::vector<int>{2, 3}, "[N, C] or [N, C, L]"));
    r.add(std::make_unique<BatchNorm>("BatchNorm2d", std::vector<int>{4}, "[N, C, H, W]"));
    r.add(std::make_unique<LayerNorm>());
    r.add(std::make_unique<GroupNorm>());
}

}  // namespace ts
