// MultiHeadAttention: self-attention over the tokens of x [batch, tokens, C], as PyTorch's
// nn.MultiheadAttention(C, heads, batch_first=True) called as m(x, x, x): one packed projection
// qkv = x W_in^T + b_in [B, T, 3C] (q, k, v side by side, each with its heads side by side),
// o = softmax(q k^T / sqrt(C / heads)) v per head, y = o W_out^T + b_out. Its parameters carry
// PyTorch's names and layouts, so a checkpoint loads into that module with strict=True.
// The attention itself is the fused primitive (backend.h, attentionForward): it never holds a
// tokens x tokens matrix, so what a node keeps is linear in the tokens (qkv, o, a log-sum-exp
// per row and head). An optional primitive: a backend without it runs this op on the CPU.
#include <cmath>
#include <string>

#include "ops/common.h"
#include "ops/onnx_writer.h"
#include "ops/op_text.h"
#include "ops/registry.h"

namespace ts {

namespace {

using I = std::int64_t;

class MultiHeadAttention final : public Op {
public:
    std::string type() const override { return "MultiHeadAttention"; }
    OpCategory category() const override { return OpCategory::Layer; }
    std::string help() const override
    {
        return QT_TRANSLATE_NOOP("AttrHelp", "Self-attention over the tokens [batch, tokens, channels]: each token takes a "
                                             "weighted mix of all tokens, with weights from how well their keys match its "
                                             "query, in several heads at once. An optional second input, the padding mask "
                                             "[batch, tokens] (1 a real token, 0 padding), keeps padding from being attended to");
    }
    std::vector<AttrSpec> attrSpecs() const override
    {
        return {AttrSpec{"heads", AttrType::Int, AttrValue(I{1}), atLeast(1)}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "How many heads attend in parallel, each over channels / heads of the channels (which it "
                                "must divide). 4–8 are usual; each head can learn another kind of relation.")),
                AttrSpec{"embed_dim", AttrType::Int, AttrValue(I{0}), atLeast(0)}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "The input's channels (the model width). 0 takes them from the input; a number is checked against it.")),
                AttrSpec{"dropout", AttrType::Float, AttrValue(0.0), inRange(0.0, 1.0)}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "The share of attention weights dropped while training (0.1 is usual in Transformers; 0 for "
                                "none); evaluation uses them all.")),
                AttrSpec{"causal", AttrType::Bool, AttrValue(false)}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "Each token attends only to itself and the tokens before it: on for a language model that "
                                "predicts the next token, off for an encoder (a classifier, a ViT).")),
                AttrSpec{"bias", AttrType::Bool, AttrValue(true)}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "Adds learned biases to the query, key, value and output projections, as PyTorch does by default."))};
    }
    // Gradient checks in f32 with central differences (eps 1e-2): the softmax's curvature
    // over a step keeps the error near 1e-3 on values of order one, inside atol 2e-3 + 2e-2 relative.
    std::vector<OpCase> cases() const override
    {
        const auto attention = [](std::string label, Attrs attrs, Shape x, bool masked) {
            OpCase c{std::move(label), std::move(attrs), {{x, DType::F32, InputFill::normal(0.7)}}};
            if (masked) c.inputs.push_back({Shape{x[0], x[1]}, DType::F32, InputFill::mask()});
            return c;
        };
        OpCase evaluation = attention("evaluation, dropout 0.5 unused", {{"heads", I{2}}, {"dropout", 0.5}}, Shape{2, 5, 4}, true);
        evaluation.training = false;
        return {attention("1 head", {{"heads", I{1}}}, Shape{2, 3, 4}, false),
                attention("2 heads, 7 tokens", {{"heads", I{2}}, {"embed_dim", I{6}}}, Shape{2, 7, 6}, false),
                attention("4 heads, causal", {{"heads", I{4}}, {"causal", true}}, Shape{2, 5, 8}, false),
                attention("2 heads with a padding mask", {{"heads", I{2}}}, Shape{3, 5, 4}, true),
                attention("causal with a padding mask, no bias", {{"heads", I{2}}, {"causal", true}, {"bias", false}},
                          Shape{3, 6, 4}, true),
                attention("dropout 0.3 (a fixed seed)", {{"heads", I{2}}, {"dropout", 0.3}}, Shape{2, 5, 4}, false),
                evaluation};
    }
    std::string exportOnnx(OnnxNodeExport& e) const override;

    int maxInputs() const override { return 2; }
    bool inputDifferentiable(int i) const override { return i == 0; }
    std::string inputName(int i) const override { return i == 0 ? "input" : "mask"; }
    TensorSpec inferOutput(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        requireFloat(in[0], "input");
        requireRank(in[0], 3, "input [batch, tokens, channels]");
        const Shape& x = in[0].shape;
        const I channels = x[2], heads = a.getInt("heads"), declared = a.getInt("embed_dim");
        if (declared > 0 && declared != channels) throw OpError("input has " + std::to_string(channels) + " channels", {"embed_dim"});
        if (channels % heads != 0)
            throw OpError(std::to_string(heads) + " heads do not divide the " + std::to_string(channels) +
                              " channels: each head takes channels / heads of them",
                          {"heads"});
        if (in.size() > 1) {
            requireFloat(in[1], "mask (input 2)");
            if (in[1].shape != Shape{x[0], x[1]})
                throw OpError("mask (input 2) has shape " + in[1].shape.str() + ", expected [" + std::to_string(x[0]) +
                              ", " + std::to_string(x[1]) + "] for input " + x.str() + " (1 a real token, 0 padding)");
        }
        return in[0];
    }
    // PyTorch's: in_proj_weight xavier_uniform, out_proj.weight as its Linear (uniform
    // +-1/sqrt(C)), the biases zeros.
    std::vector<ParamSpec> params(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        const I c = in[0].shape[2];
        const bool bias = a.getBool("bias");
        std::vector<ParamSpec> p{{"in_proj_weight", Shape{3 * c, c}, {InitKind::XavierUniform, double(c), double(3 * c)}}};
        if (bias) p.push_back({"in_proj_bias", Shape{3 * c}, {InitKind::Zeros}});
        p.push_back({"out_proj.weight", Shape{c, c}, {InitKind::KaimingUniform, double(c), double(c), 1.0 / std::sqrt(3.0)}});
        if (bias) p.push_back({"out_proj.bias", Shape{c}, {InitKind::Zeros}});
        return p;
    }
    // qkv [B, T, 3C] and the attention's output o [B, T, C] (the projections' inputs), and
    // o's log-sum-exp per row and head [B, heads, T]: all linear in the tokens.
    std::vector<TensorSpec> saved(const Attrs& a, std::span<const TensorSpec> in, const TensorSpec&) const override
    {
        const Shape& x = in[0].shape;
        return {{Shape{x[0], x[1], 3 * x[2]}}, {x}, {Shape{x[0], a.getInt("heads"), x[1]}}};
    }
    // Backward's gradients of qkv and of o.
    std::size_t workspaceBytes(Backend&, const Attrs&, std::span<const TensorSpec> in, const TensorSpec&) const override
    {
        return std::size_t(in[0].shape.numel()) * 4 * sizeof(float);
    }
    // The projections (8 B T C^2) and q k^T and the weighted sum of v (4 B T^2 C), half of
    // that with the causal mask, plus the softmax (about 5 per weight).
    double flops(const Attrs& a, std::span<const TensorSpec> in, const TensorSpec&) const override
    {
        const Shape& x = in[0].shape;
        const double b = double(x[0]), t = double(x[1]), c = double(x[2]), h = double(a.getInt("heads"));
        return 8.0 * b * t * c * c + (a.getBool("causal") ? 0.5 : 1.0) * (4.0 * b * t * t * c + 5.0 * b * h * t * t);
    }
    void forward(OpContext& c) const override
    {
        const Dims d = dims(c);
        const Params p = paramsOf(c);
        float *qkv = f32(c.saved[0]), *o = f32(c.saved[1]);
        c.backend.gemm(false, true, d.rows, 3 * d.c, d.c, 1.0f, f32(c.inputs[0]), d.c, p.inW, d.c, 0.0f, qkv, 3 * d.c);
        if (p.inB) c.backend.addBias(p.inB, qkv, d.rows, 3 * d.c, 1);
        c.backend.attentionForward(geometry(c), qkv, qkv + d.c, qkv + 2 * d.c, mask(c), o, f32(c.saved[2]), c.seed);
        c.backend.gemm(false, true, d.rows, d.c, d.c, 1.0f, o, d.c, p.outW, d.c, 0.0f, f32(c.output), d.c);
        if (p.outB) c.backend.addBias(p.outB, f32(c.output), d.rows, d.c, 1);
    }
    void backward(OpContext& c) const override
    {
        const Dims d = dims(c);
        const Params p = paramsOf(c);
        const float *qkv = f32(c.saved[0]), *o = f32(c.saved[1]), *dy = f32(c.gradOutput);
        float* dqkv = static_cast<float*>(c.workspace);
        float* dO = dqkv + d.rows * 3 * d.c;
        if (p.dOutW) c.backend.gemm(true, false, d.c, d.c, d.rows, 1.0f, dy, d.c, o, d.c, 1.0f, p.dOutW, d.c);
        if (p.dOutB) c.backend.biasBackward(dy, p.dOutB, d.rows, d.c, 1);
        c.backend.gemm(false, false, d.rows, d.c, d.c, 1.0f, dy, d.c, p.outW, d.c, 0.0f, dO, d.c);
        c.backend.fill(dqkv, d.rows * 3 * d.c, 0.0f);  // the primitive adds
        c.backend.attentionBackward(geometry(c), qkv, qkv + d.c, qkv + 2 * d.c, mask(c), o, f32(c.saved[2]), dO, dqkv,
                                    dqkv + d.c, dqkv + 2 * d.c, c.seed);
        if (p.dInW)
            c.backend.gemm(true, false, 3 * d.c, d.c, d.rows, 1.0f, dqkv, 3 * d.c, f32(c.inputs[0]), d.c, 1.0f, p.dInW, d.c);
        if (p.dInB) c.backend.biasBackward(dqkv, p.dInB, d.rows, 3 * d.c, 1);
        if (c.gradInputs[0].defined())  // beta 0 overwrites
            c.backend.gemm(false, false, d.rows, d.c, 3 * d.c, 1.0f, dqkv, 3 * d.c, p.inW, d.c,
                           c.gradWrite(0) == GradWrite::Overwrite ? 0.0f : 1.0f, f32(c.gradInputs[0]), d.c);
    }
    bool overwritesFreshGradients() const override { return true; }

private:
    struct Dims {
        I batch, tokens, c, rows;
    };
    static Dims dims(const OpContext& c)
    {
        const Shape& x = c.inputs[0].shape();
        return {x[0], x[1], x[2], x[0] * x[1]};
    }
    // The parameters and their gradients (null: no bias, or not wanted), in params() order.
    struct Params {
        const float *inW, *inB, *outW, *outB;
        float *dInW, *dInB, *dOutW, *dOutB;
    };
    static Params paramsOf(const OpContext& c)
    {
        const bool bias = c.attrs.getBool("bias");
        const auto grad = [&](std::size_t i) { return i < c.gradParams.size() ? f32(c.gradParams[i]) : nullptr; };
        if (bias) return {f32(c.params[0]), f32(c.params[1]), f32(c.params[2]), f32(c.params[3]), grad(0), grad(1), grad(2), grad(3)};
        return {f32(c.params[0]), nullptr, f32(c.params[1]), nullptr, grad(0), nullptr, grad(1), nullptr};
    }
    static const float* mask(const OpContext& c) { return c.inputs.size() > 1 ? f32(c.inputs[1]) : nullptr; }
    // q, k and v are column blocks of qkv (row stride 3C); o has the heads side by side, as PyTorch's.
    static AttentionGeometry geometry(const OpContext& c)
    {
        const Dims d = dims(c);
        AttentionGeometry g;
        g.batch = d.batch, g.heads = c.attrs.getInt("heads"), g.queries = g.keys = d.tokens, g.headDim = d.c / g.heads;
        g.qRowStride = g.kRowStride = g.vRowStride = 3 * d.c;
        g.qBatchStride = g.kBatchStride = g.vBatchStride = 3 * d.c * d.tokens;
        g.oRowStride = d.c, g.oBatchStride = d.c * d.tokens;
        g.scale = static_cast<float>(1.0 / std::sqrt(double(g.headDim)));
        g.causal = c.attrs.getBool("causal");
        g.dropout = c.training ? static_cast<float>(c.attrs.getFloat("dropout")) : 0.0f;
        return g;
    }
};

// The same maths in plain ONNX (opset 17), the batch and the tokens left dynamic: qkv by
// MatMul, reshaped to [B, T, 3, H, d] and transposed to [B, 3, H, T, d]; the scores q k^T
// scaled; a mask where some keys are hidden (the padding mask's real tokens, times a lower
// triangle of ones the size of the scores when causal) enters twice: -1e9 added to hidden scores before the
// Softmax, and the weights multiplied by it after, so a row with no key allowed gives 0 as the
// primitive does (not NaN from a softmax of -inf); the heads back side by side, then out_proj.
std::string MultiHeadAttention::exportOnnx(OnnxNodeExport& e) const
{
    const I c = e.inSpecs[0].shape[2], heads = e.attrs.getInt("heads"), d = c / heads;
    const bool bias = e.attrs.getBool("bias"), causal = e.attrs.getBool("causal"), masked = e.in.size() > 1;
    // x W^T (+ b) with the weight transposed by a node, as Linear's export.
    const auto project = [&](const std::string& input, const std::string& weight, const std::string& biasName,
                             const std::string& what, const std::string& out) {
        const std::string wt = e.step(what + "_weight_t"), product = bias ? e.step(what + "_matmul") : out;
        e.b.node("Transpose", {e.floatParam(weight)}, {wt}, e.name + "/" + what + "_transpose", {{"perm", std::vector<I>{1, 0}}});
        e.b.node("MatMul", {input, wt}, {product}, e.name + "/" + what + "_matmul");
        if (bias) e.b.node("Add", {product, e.floatParam(biasName)}, {out}, e.name + "/" + what + "_bias");
    };
    const std::string qkv = e.step("qkv"), split = e.step("qkv_split"), heads5 = e.step("qkv_heads");
    project(e.in[0], "in_proj_weight", "in_proj_bias", "in_proj", qkv);
    e.b.node("Reshape", {qkv, e.b.int64s(e.name + ".qkv_shape", {5}, {0, 0, 3, heads, d})}, {split}, e.name + "/qkv_reshape");
    e.b.node("Transpose", {split}, {heads5}, e.name + "/qkv_transpose", {{"perm", std::vector<I>{0, 2, 3, 1, 4}}});
    std::string qkvPart[3];
    const char* names[3] = {"q", "k", "v"};
    for (int i = 0; i < 3; ++i) {
        qkvPart[i] = e.step(names[i]);
        e.b.node("Gather", {heads5, e.b.int64s(e.name + "." + names[i] + "_index", {}, {i})}, {qkvPart[i]},
                 e.name + "/" + names[i], {{"axis", I{1}}});
    }
    const std::string kt = e.step("k_t"), product = e.step("scores_unscaled"), scores = e.step("scores");
    e.b.node("Transpose", {qkvPart[1]}, {kt}, e.name + "/k_transpose", {{"perm", std::vector<I>{0, 1, 3, 2}}});
    e.b.node("MatMul", {qkvPart[0], kt}, {product}, e.name + "/scores_matmul");
    e.b.node("Mul", {product, e.b.scalar(e.name + ".scale", static_cast<float>(1.0 / std::sqrt(double(d))))}, {scores},
             e.name + "/scale");

    std::string allowed;  // 1 where a query may see a key, broadcast to [B, H, T, T]
    if (masked) {
        const std::string isPad = e.step("is_padding"), isReal = e.step("is_real"), real = e.step("real");
        e.b.node("Equal", {e.in[1], e.b.scalar(e.name + ".zero", 0.0f)}, {isPad}, e.name + "/is_padding");
        e.b.node("Not", {isPad}, {isReal}, e.name + "/is_real");
        e.b.node("Cast", {isReal}, {real}, e.name + "/real", {{"to", I{1}}});  // FLOAT
        allowed = e.step("real_keys");  // [B, 1, 1, T]
        e.b.node("Unsqueeze", {real, e.b.int64s(e.name + ".key_axes", {2}, {1, 2})}, {allowed}, e.name + "/real_keys");
    }
    if (causal) {  // from the scores, so the batch stays symbolic: Equal(s, s) is 1 but where s is NaN
        const std::string all = e.step("all"), ones = e.step("ones"), lower = e.step("lower");
        e.b.node("Equal", {scores, scores}, {all}, e.name + "/all");
        e.b.node("Cast", {all}, {ones}, e.name + "/ones", {{"to", I{1}}});
        e.b.node("Trilu", {ones}, {lower}, e.name + "/lower", {{"upper", I{0}}});  // key j <= query i
        if (masked) {
            const std::string both = e.step("allowed");
            e.b.node("Mul", {allowed, lower}, {both}, e.name + "/allowed");
            allowed = both;
        } else {
            allowed = lower;
        }
    }
    std::string weights = e.step("weights");
    if (allowed.empty()) {
        e.b.node("Softmax", {scores}, {weights}, e.name + "/softmax", {{"axis", I{-1}}});
    } else {
        const std::string hidden = e.step("hidden"), penalty = e.step("penalty"), shifted = e.step("masked_scores"),
                          soft = e.step("softmax");
        e.b.node("Sub", {e.b.scalar(e.name + ".unit", 1.0f), allowed}, {hidden}, e.name + "/hidden");
        e.b.node("Mul", {hidden, e.b.scalar(e.name + ".large_negative", -1e9f)}, {penalty}, e.name + "/penalty");
        e.b.node("Add", {scores, penalty}, {shifted}, e.name + "/mask");
        e.b.node("Softmax", {shifted}, {soft}, e.name + "/softmax", {{"axis", I{-1}}});
        e.b.node("Mul", {soft, allowed}, {weights}, e.name + "/weights");
    }
    const std::string heads4 = e.step("heads_out"), tokensFirst = e.step("tokens_first"), merged = e.step("merged");
    e.b.node("MatMul", {weights, qkvPart[2]}, {heads4}, e.name + "/weighted_values");
    e.b.node("Transpose", {heads4}, {tokensFirst}, e.name + "/heads_transpose", {{"perm", std::vector<I>{0, 2, 1, 3}}});
    e.b.node("Reshape", {tokensFirst, e.b.int64s(e.name + ".merged_shape", {3}, {0, 0, c})}, {merged}, e.name + "/merge_heads");
    project(merged, "out_proj.weight", "out_proj.bias", "out_proj", e.out);
    return e.out;
}

}  // namespace

TS_REGISTER_OPS(attention) { r.add(std::make_unique<MultiHeadAttention>()); }

}  // namespace ts
