// TokenMask: token ids [batch, tokens] (i64) -> the key-padding mask [batch, tokens] (f32, 1 a
// real token, 0 padding) that MultiHeadAttention and SequencePool take as their second input,
// so a model of padded texts says once which id pads. A function of integers: no gradient.
// The ids are few (one per token), so they come to the host and the mask goes back, as
// SequencePool's weights do, rather than a primitive of their own.
#include <string>
#include <vector>

#include "ops/common.h"
#include "ops/onnx_writer.h"
#include "ops/op_text.h"
#include "ops/registry.h"

namespace ts {

namespace {

using I = std::int64_t;

class TokenMask final : public Op {
public:
    std::string type() const override { return "TokenMask"; }
    OpCategory category() const override { return OpCategory::Structure; }
    std::string help() const override
    {
        return QT_TRANSLATE_NOOP("AttrHelp", "Turns token ids [batch, tokens] into the padding mask [batch, tokens]: 1 where a "
                                             "token is real, 0 where it is padding. Connect it to the second input of "
                                             "MultiHeadAttention and SequencePool so that padding is neither attended to nor pooled");
    }
    std::vector<AttrSpec> attrSpecs() const override
    {
        return {AttrSpec{"pad_id", AttrType::Int, AttrValue(I{0})}.withHelp(QT_TRANSLATE_NOOP(
            "AttrHelp", "The token id that pads a text to the context length. Text classification data pads with 0."))};
    }
    std::vector<OpCase> cases() const override
    {
        return {{"pad 0", {}, {{Shape{3, 6}, DType::I64, InputFill::integers(0, 3)}}},
                {"pad 2", {{"pad_id", I{2}}}, {{Shape{2, 5}, DType::I64, InputFill::integers(0, 4)}}}};
    }
    // Not(Equal(tokens, pad_id)) as floats.
    std::string exportOnnx(OnnxNodeExport& e) const override
    {
        const std::string pad = e.b.int64s(e.name + ".pad_id", {}, {e.attrs.getInt("pad_id")});
        const std::string isPad = e.step("is_padding"), isReal = e.step("is_real");
        e.b.node("Equal", {e.in[0], pad}, {isPad}, e.name + "/is_padding");
        e.b.node("Not", {isPad}, {isReal}, e.name + "/is_real");
        e.b.node("Cast", {isReal}, {e.out}, e.name, {{"to", I{1}}});  // FLOAT
        return e.out;
    }
    bool inputDifferentiable(int) const override { return false; }
    std::string inputName(int) const override { return "tokens"; }
    TensorSpec inferOutput(const Attrs&, std::span<const TensorSpec> in) const override
    {
        if (in[0].dtype != DType::I64)
            throw OpError("tokens must be i64 token ids [batch, tokens], got " + std::string(dtypeName(in[0].dtype)));
        requireRank(in[0], 2, "tokens [batch, tokens]");
        return {in[0].shape, DType::F32};
    }
    double flops(const Attrs&, std::span<const TensorSpec>, const TensorSpec&) const override { return 0; }
    void forward(OpContext& c) const override
    {
        const std::size_t n = std::size_t(c.inputs[0].numel());
        std::vector<I> ids(n);
        c.backend.copyToHost(ids.data(), c.inputs[0].raw(), c.inputs[0].bytes());
        std::vector<float> mask(n);
        const I pad = c.attrs.getInt("pad_id");
        for (std::size_t i = 0; i < n; ++i) mask[i] = ids[i] != pad ? 1.0f : 0.0f;
        c.backend.copyFromHost(c.output.raw(), mask.data(), c.output.bytes());
    }
    void backward(OpContext&) const override {}  // integer input, no parameters
};

}  // namespace

TS_REGISTER_OPS(token_mask) { r.add(std::make_unique<TokenMask>()); }

}  // namespace ts
