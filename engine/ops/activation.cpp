// Activations (ReLU, LeakyReLU, GELU, SiLU, Sigmoid, Tanh), Softmax over the last
// dimension, and inverted Dropout. All keep the input's shape.
#include "ops/common.h"
#include "ops/registry.h"

namespace ts {

namespace {

TensorSpec sameAsFloatInput(std::span<const TensorSpec> in)
{
    requireFloat(in[0], "input");
    return {in[0].shape, DType::F32};
}

// One class for the six pointwise activations; they differ only in the backend's enum
// (and LeakyReLU's slope attribute).
class PointwiseActivation final : public Op {
public:
    PointwiseActivation(std::string type, Activation act, double flopsPerElement)
        : type_(std::move(type)), act_(act), flopsPerElement_(flopsPerElement)
    {
    }
    std::string type() const override { return type_; }
    OpCategory category() const override { return OpCategory::Activation; }
    std::vector<AttrSpec> attrSpecs() const override
    {
        if (act_ == Activation::LeakyReLU) return {{"negative_slope", AttrType::Float, AttrValue(0.01)}};
        return {};
    }
    TensorSpec inferOutput(const Attrs&, std::span<const TensorSpec> in) const override
    {
        return sameAsFloatInput(in);
    }
    double flops(const Attrs&, std::span<const TensorSpec>, const TensorSpec& out) const override
    {
        return flopsPerElement_ * double(out.shape.numel());
    }
    void forward(OpContext& c) const override
    {
        c.backend.activationForward(act_, slope(c), f32(c.inputs[0]), f32(c.output), c.output.numel());
    }
    void backward(OpContext& c) const override
    {
        if (!c.gradInputs[0].defined()) return;
        c.backend.activationBackward(act_, slope(c), f32(c.inputs[0]), f32(c.output), f32(c.gradOutput),
                                     f32(c.gradInputs[0]), c.output.numel(), c.gradWrite(0));
    }
    bool overwritesFreshGradients() const override { return true; }

private:
    float slope(const OpContext& c) const
    {
        return act_ == Activation::LeakyReLU ? static_cast<float>(c.attrs.getFloat("negative_slope")) : 0.0f;
    }
    std::string type_;
    Activation act_;
    double flopsPerElement_;
};

class Softmax final : public Op {
public:
    std::string type() const override { return "Softmax"; }
    OpCategory category() const override { return OpCategory::Activation; }
    std::vector<AttrSpec> attrSpecs() const override
    {
        return {{"dim", AttrType::Int, AttrValue(std::int64_t{-1})}};
    }
    TensorSpec inferOutput(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        const TensorSpec out = sameAsFloatInput(in);
        const int rank = in[0].shape.rank();
        if (rank < 1) throw OpError("input must have rank >= 1, got shape " + in[0].shape.str());
        const std::int64_t dim = a.getInt("dim");
        if (dim != -1 && dim != rank - 1)
            throw OpError("softmax runs over the last dimension only: dim must be -1 or " + std::to_string(rank - 1) +
                              " for input shape " + in[0].shape.str() + ", got dim=" + std::to_string(dim),
                          {"dim"});
        return out;
    }
    double flops(const Attrs&, std::span<const TensorSpec>, const TensorSpec& out) const override
    {
        return 5.0 * double(out.shape.numel());  // max, subtract, exp, sum, scale
    }
    void forward(OpContext& c) const override
    {
        const auto [rows, cols] = dims(c);
        c.backend.softmaxForward(f32(c.inputs[0]), f32(c.output), rows, cols);
    }
    void backward(OpContext& c) const override
    {
        if (!c.gradInputs[0].defined()) return;
        const auto [rows, cols] = dims(c);
        c.backend.softmaxBackward(f32(c.output), f32(c.gradOutput), f32(c.gradInputs[0]), rows, cols);
    }

private:
    static std::pair<std::int64_t, std::int64_t> dims(const OpContext& c)
    {
        const std::int64_t cols = c.output.shape()[-1];
        return {cols > 0 ? c.output.numel() / cols : 0, cols};
    }
};

// Inverted dropout: training scales the kept values by 1/(1-p) so evaluation is the identity.
class Dropout final : public Op {
public:
    std::string type() const override { return "Dropout"; }
    OpCategory category() const override { return OpCategory::Layer; }
    std::vector<AttrSpec> attrSpecs() const override
    {
        return {{"p", AttrType::Float, AttrValue(0.5), inRange(0.0, 1.0)}};
    }
    TensorSpec inferOutput(const Attrs&, std::span<const TensorSpec> in) const override
    {
        return sameAsFloatInput(in);
    }
    std::vector<TensorSpec> saved(const Attrs&, std::span<const TensorSpec> in, const TensorSpec&) const override
    {
        return {{in[0].shape, DType::U8}};  // the keep mask, 1 byte per element
    }
    void forward(OpContext& c) const override
    {
        if (!c.training) {
            c.backend.copyBytes(c.output.raw(), c.inputs[0].raw(), c.inputs[0].bytes());
            return;
        }
        c.backend.dropoutForward(f32(c.inputs[0]), f32(c.output), c.saved[0].data<std::uint8_t>(), c.output.numel(),
                                 p(c), c.seed);
    }
    void backward(OpContext& c) const override
    {
        if (!c.gradInputs[0].defined()) return;
        if (!c.training) {
            c.backend.axpy(c.output.numel(), 1.0f, f32(c.gradOutput), f32(c.gradInputs[0]));
            return;
        }
        c.backend.dropoutBackward(f32(c.gradOutput), c.saved[0].data<std::uint8_t>(), f32(c.gradInputs[0]),
                                  c.output.numel(), p(c));
    }

private:
    static float p(const OpContext& c) { return static_cast<float>(c.attrs.getFloat("p")); }
};

}  // namespace

TS_REGISTER_OPS(activation)
{
    // flops per element: rough operation counts for the cost model.
    r.add(std::make_unique<PointwiseActivation>("ReLU", Activation::ReLU, 1.0));
    r.add(std::make_unique<PointwiseActivation>("LeakyReLU", Activation::LeakyReLU, 2.0));
    r.add(std::make_unique<PointwiseActivation>("GELU", Activation::GELU, 8.0));
    r.add(std::make_unique<PointwiseActivation>("SiLU", Activation::SiLU, 5.0));
    r.add(std::make_unique<PointwiseActivation>("Sigmoid", Activation::Sigmoid, 4.0));
    r.add(std::make_unique<PointwiseActivation>("Tanh", Activation::Tanh, 4.0));
    r.add(std::make_unique<Softmax>());
    r.add(std::make_unique<Dropout>());
}

}  // namespace ts
