// SequencePool: tokens [batch, tokens, channels] -> one vector per sample [batch, channels], for
// a classifier's head. mean, first (a CLS token) and last are weighted sums over the tokens,
// y[b] = sum_t w[b, t] x[b, t], with weights that depend on the mask only: they are worked out on
// the host and saved, and a GEMM per sample applies them both ways. max is max pooling with
// a window as long as the sequence.
#include <string>

#include "ops/common.h"
#include "ops/onnx_writer.h"
#include "ops/op_text.h"
#include "ops/registry.h"

namespace ts {

namespace {

using I = std::int64_t;

// The weights of mean, first and last for [batch, tokens], from the key-padding mask (1 a real
// token, 0 padding; null: every token real). A sample without a real token gets all zeros.
std::vector<float> poolWeights(const std::string& mode, const float* mask, I batch, I tokens)
{
    std::vector<float> w(std::size_t(batch * tokens), 0.0f);
    for (I b = 0; b < batch; ++b) {
        float* wb = w.data() + b * tokens;
        const auto real = [&](I t) { return !mask || mask[b * tokens + t] != 0.0f; };
        I count = 0, first = -1, last = -1;
        for (I t = 0; t < tokens; ++t)
            if (real(t)) ++count, last = t, first = first < 0 ? t : first;
        if (count == 0) continue;
        if (mode == "mean") {
            for (I t = 0; t < tokens; ++t) wb[t] = real(t) ? 1.0f / float(count) : 0.0f;
        } else {
            wb[mode == "first" ? first : last] = 1.0f;
        }
    }
    return w;
}

PoolGeometry maxGeometry(const Shape& x)
{
    PoolGeometry g;  // [B, 1, T, C] pooled by a T x 1 window
    g.n = x[0], g.c = 1, g.h = x[1], g.w = x[2], g.kh = x[1], g.kw = 1;
    return g;
}

class SequencePool final : public Op {
public:
    std::string type() const override { return "SequencePool"; }
    OpCategory category() const override { return OpCategory::Pooling; }
    std::string help() const override
    {
        return QT_TRANSLATE_NOOP("AttrHelp", "Turns the tokens of each sample [batch, tokens, channels] into one vector [batch, "
                                             "channels] for a classifier. An optional second input, the padding mask [batch, "
                                             "tokens] (1 a real token, 0 padding), keeps padding out of mean, first and last");
    }
    std::vector<AttrSpec> attrSpecs() const override
    {
        return {AttrSpec{"mode", AttrType::String, AttrValue(std::string("mean")), {}, 0, {"mean", "first", "last", "max"}}
                    .withHelp(QT_TRANSLATE_NOOP("AttrHelp", "mean: the average of the real tokens; first: the first real token "
                                                            "(a CLS token put in front); last: the last real token; max: the "
                                                            "largest value of each channel (takes no mask)."))};
    }
    std::vector<OpCase> cases() const override
    {
        const auto pool = [](std::string mode, bool masked) {
            OpCase c{mode + (masked ? " with a mask" : ""), {{"mode", mode}}, {{Shape{3, 5, 4}}}};
            if (masked) c.inputs.push_back({Shape{3, 5}, DType::F32, InputFill::mask()});
            if (mode == "max") c.inputs[0].fill = InputFill::distinct(0.05);  // no ties
            return c;
        };
        return {pool("mean", false), pool("mean", true), pool("first", false), pool("first", true),
                pool("last", false), pool("last", true), pool("max", false)};
    }
    std::string exportOnnx(OnnxNodeExport& e) const override
    {
        const std::string& mode = e.attrs.getString("mode");
        if (mode == "max" || (mode == "mean" && e.in.size() == 1)) {
            e.b.node(mode == "max" ? "ReduceMax" : "ReduceMean", {e.in[0]}, {e.out}, e.name,
                     {{"axes", std::vector<I>{1}}, {"keepdims", I{0}}});
            return e.out;
        }
        if (e.in.size() == 1) {  // first or last token: Gather drops the axis
            const std::string index = e.b.int64s(e.name + ".index", {}, {mode == "first" ? 0 : -1});
            e.b.node("Gather", {e.in[0], index}, {e.out}, e.name, {{"axis", I{1}}});
            return e.out;
        }
        // The weights from the mask, as poolWeights, then y = sum_t w[t] x[t] by MatMul.
        const auto axis = e.b.int64s(e.name + ".axis", {1}, {1});
        const std::string isPad = e.step("is_padding"), isReal = e.step("is_real"), real = e.step("real");
        e.b.node("Equal", {e.in[1], e.b.scalar(e.name + ".zero", 0.0f)}, {isPad}, e.name + "/is_padding");
        e.b.node("Not", {isPad}, {isReal}, e.name + "/is_real");
        e.b.node("Cast", {isReal}, {real}, e.name + "/real", {{"to", I{1}}});  // FLOAT
        const std::string weights = e.step("weights");
        if (mode == "mean") {
            const std::string count = e.step("count"), divisor = e.step("divisor");
            e.b.node("ReduceSum", {real, axis}, {count}, e.name + "/count", {{"keepdims", I{1}}});
            e.b.node("Max", {count, e.b.scalar(e.name + ".one", 1.0f)}, {divisor}, e.name + "/divisor");
            e.b.node("Div", {real, divisor}, {weights}, e.name + "/weights");
        } else {  // the real token whose running count of real tokens (from its end) is 1
            const std::string counted = e.step("counted"), isOne = e.step("is_one"), one = e.step("one");
            e.b.node("CumSum", {real, e.b.int64s(e.name + ".cumsum_axis", {}, {1})}, {counted}, e.name + "/cumsum",
                     {{"reverse", I{mode == "last" ? 1 : 0}}});
            e.b.node("Equal", {counted, e.b.scalar(e.name + ".one", 1.0f)}, {isOne}, e.name + "/is_one");
            e.b.node("Cast", {isOne}, {one}, e.name + "/cast_one", {{"to", I{1}}});
            e.b.node("Mul", {real, one}, {weights}, e.name + "/weights");
        }
        const std::string row = e.step("weights_row"), pooled = e.step("pooled");
        e.b.node("Unsqueeze", {weights, axis}, {row}, e.name + "/row");
        e.b.node("MatMul", {row, e.in[0]}, {pooled}, e.name + "/matmul");
        e.b.node("Squeeze", {pooled, axis}, {e.out}, e.name);
        return e.out;
    }
    int maxInputs() const override { return 2; }
    bool inputDifferentiable(int i) const override { return i == 0; }
    std::string inputName(int i) const override { return i == 0 ? "input" : "mask"; }
    TensorSpec inferOutput(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        requireFloat(in[0], "input");
        requireRank(in[0], 3, "input [batch, tokens, channels]");
        const Shape& x = in[0].shape;
        if (in.size() > 1) {
            requireFloat(in[1], "mask (input 2)");
            if (in[1].shape != Shape{x[0], x[1]})
                throw OpError("mask (input 2) has shape " + in[1].shape.str() + ", expected [" + std::to_string(x[0]) +
                              ", " + std::to_string(x[1]) + "] for input " + x.str() + " (1 a real token, 0 padding)");
            if (a.getString("mode") == "max")
                throw OpError("mode max takes no mask: padding would be pooled with the real tokens; use mean, first "
                              "or last",
                              {"mode"});
        }
        return {Shape{x[0], x[2]}, DType::F32};
    }
    std::vector<TensorSpec> saved(const Attrs& a, std::span<const TensorSpec> in, const TensorSpec& out) const override
    {
        if (a.getString("mode") == "max") return {{out.shape, DType::I32}};  // argmax per output
        return {{Shape{in[0].shape[0], in[0].shape[1]}, DType::F32}};         // the weights
    }
    double flops(const Attrs&, std::span<const TensorSpec> in, const TensorSpec&) const override
    {
        return 2.0 * double(in[0].shape.numel());
    }
    void forward(OpContext& c) const override
    {
        const Shape& x = c.inputs[0].shape();
        const std::string& mode = c.attrs.getString("mode");
        if (mode == "max") {
            c.backend.pool2dForward(PoolKind::Max, maxGeometry(x), f32(c.inputs[0]), f32(c.output),
                                    c.saved[0].data<std::int32_t>());
            return;
        }
        const I batch = x[0], tokens = x[1], channels = x[2];
        std::vector<float> mask;
        if (c.inputs.size() > 1) {  // a device mask comes to the host (a wait on a GPU)
            mask.assign(std::size_t(batch * tokens), 0.0f);
            c.backend.copyToHost(mask.data(), c.inputs[1].raw(), c.inputs[1].bytes());
        }
        const std::vector<float> w = poolWeights(mode, mask.empty() ? nullptr : mask.data(), batch, tokens);
        c.backend.copyFromHost(c.saved[0].raw(), w.data(), c.saved[0].bytes());
        for (I b = 0; b < batch; ++b)  // [1, T] x [T, C]
            c.backend.gemm(false, false, 1, channels, tokens, 1.0f, f32(c.saved[0]) + b * tokens, tokens,
                           f32(c.inputs[0]) + b * tokens * channels, channels, 0.0f, f32(c.output) + b * channels,
                           channels);
    }
    // dx[b] = w[b]^T dy[b]: [T, 1] x [1, C].
    void backward(OpContext& c) const override
    {
        if (!c.gradInputs[0].defined()) return;
        const Shape& x = c.inputs[0].shape();
        if (c.attrs.getString("mode") == "max") {
            c.backend.pool2dBackward(PoolKind::Max, maxGeometry(x), f32(c.gradOutput), c.saved[0].data<std::int32_t>(),
                                     f32(c.gradInputs[0]), c.gradWrite(0));
            return;
        }
        const I batch = x[0], tokens = x[1], channels = x[2];
        const float beta = c.gradWrite(0) == GradWrite::Overwrite ? 0.0f : 1.0f;
        for (I b = 0; b < batch; ++b)
            c.backend.gemm(false, false, tokens, channels, 1, 1.0f, f32(c.saved[0]) + b * tokens, 1,
                           f32(c.gradOutput) + b * channels, channels, beta, f32(c.gradInputs[0]) + b * tokens * channels,
                           channels);
    }
    bool overwritesFreshGradients() const override { return true; }
};

}  // namespace

TS_REGISTER_OPS(sequence_pool) { r.add(std::make_unique<SequencePool>()); }

}  // namespace ts
