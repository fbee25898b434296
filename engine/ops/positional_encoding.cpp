// PositionalEncoding: y[b, t, :] = x[b, t, :] + table[t, :] for tokens [batch, tokens, channels],
// so that attention, which sees a set, knows where each token stands. The table is a parameter
// either way, so it lives on the device: the fixed sinusoids of "Attention is all you need"
// (a non-trainable `pe`) or a learned `weight`.
#include <cmath>
#include <string>

#include "ops/common.h"
#include "ops/onnx_writer.h"
#include "ops/op_text.h"
#include "ops/registry.h"

namespace ts {

namespace {

using I = std::int64_t;

// pe[t, 2i] = sin(t / 10000^(2i / C)), pe[t, 2i + 1] = cos(t / 10000^(2i / C)), as PyTorch's
// tutorials compute it (div_term = exp(2i * -ln(10000) / C)); an odd C ends with a sine.
std::vector<float> sinusoidTable(I length, I channels)
{
    std::vector<float> pe(std::size_t(length * channels));
    for (I t = 0; t < length; ++t)
        for (I c = 0; c < channels; c += 2) {
            const double angle = double(t) * std::exp(double(c) * -std::log(10000.0) / double(channels));
            pe[std::size_t(t * channels + c)] = static_cast<float>(std::sin(angle));
            if (c + 1 < channels) pe[std::size_t(t * channels + c + 1)] = static_cast<float>(std::cos(angle));
        }
    return pe;
}

class PositionalEncoding final : public Op {
public:
    std::string type() const override { return "PositionalEncoding"; }
    OpCategory category() const override { return OpCategory::Layer; }
    std::string help() const override
    {
        return QT_TRANSLATE_NOOP("AttrHelp", "Adds to each token [batch, tokens, channels] a vector saying its position, which "
                                             "attention cannot see otherwise. Sinusoidal first; learned with more data");
    }
    std::vector<AttrSpec> attrSpecs() const override
    {
        return {AttrSpec{"kind", AttrType::String, AttrValue(std::string("sinusoidal")), {}, 0, {"sinusoidal", "learned"}}
                    .withHelp(QT_TRANSLATE_NOOP("AttrHelp", "sinusoidal: fixed sines and cosines of every wavelength (nothing to "
                                                            "learn, works for any data size); learned: one trained vector per "
                                                            "position (needs more data).")),
                AttrSpec{"max_length", AttrType::Int, AttrValue(std::int64_t{512}), atLeast(1)}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "The longest sequence the table covers; a longer input is refused. The learned table has "
                                "this many vectors."))};
    }
    std::vector<OpCase> cases() const override
    {
        return {{"sinusoidal [2,5,6]", {{"max_length", I{8}}}, {{Shape{2, 5, 6}}}},
                {"sinusoidal, odd channels [2,3,5]", {{"max_length", I{3}}}, {{Shape{2, 3, 5}}}},
                {"learned [3,4,3]", {{"kind", std::string("learned")}, {"max_length", I{6}}}, {{Shape{3, 4, 3}}}}};
    }
    // x + the table's first T rows, T read from the input's shape (the sequence may vary).
    std::string exportOnnx(OnnxNodeExport& e) const override
    {
        // The table's rows 0..T-1 by Gather over Range(0, T): shape inference keeps [T?, C] (a
        // Slice with computed ends would lose every dimension, and the batch symbol after it).
        const std::string table = e.floatParam(tableName(e.attrs)), length = e.step("length"), count = e.step("count"),
                          positions = e.step("positions"), rows = e.step("rows");
        e.b.node("Shape", {e.in[0]}, {length}, e.name + "/shape", {{"start", I{1}}, {"end", I{2}}});
        e.b.node("Squeeze", {length, e.b.int64s(e.name + ".axis", {1}, {0})}, {count}, e.name + "/count");
        e.b.node("Range", {e.b.int64s(e.name + ".zero", {}, {0}), count, e.b.int64s(e.name + ".one", {}, {1})}, {positions},
                 e.name + "/positions");
        e.b.node("Gather", {table, positions}, {rows}, e.name + "/rows", {{"axis", I{0}}});
        e.b.node("Add", {e.in[0], rows}, {e.out}, e.name);
        return e.out;
    }
    TensorSpec inferOutput(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        requireFloat(in[0], "input");
        requireRank(in[0], 3, "input [batch, tokens, channels]");
        const I tokens = in[0].shape[1], maxLength = a.getInt("max_length");
        if (tokens > maxLength)
            throw OpError("input has " + std::to_string(tokens) + " tokens, more than max_length " +
                              std::to_string(maxLength),
                          {"max_length"});
        return in[0];
    }
    std::vector<ParamSpec> params(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        const I length = a.getInt("max_length"), channels = in[0].shape[2];
        if (a.getString("kind") == "learned")  // normal(0, 0.02), as GPT-2's position embeddings
            return {{"weight", Shape{length, channels}, {InitKind::Normal, 1.0, 1.0, 0.02, {}}, true, /*decay=*/false}};
        return {{"pe", Shape{length, channels}, {InitKind::Values, 1.0, 1.0, 1.0, sinusoidTable(length, channels)}, false}};
    }
    void forward(OpContext& c) const override
    {
        const auto [batch, positions] = dims(c);
        c.backend.copyBytes(c.output.raw(), c.inputs[0].raw(), c.output.bytes());
        c.backend.addBias(f32(c.params[0]), f32(c.output), batch, positions, 1);
    }
    // dx = dy; the learned table's rows 0..T-1 get dy summed over the batch.
    void backward(OpContext& c) const override
    {
        const auto [batch, positions] = dims(c);
        if (c.gradInputs[0].defined()) {
            if (c.gradWrite(0) == GradWrite::Overwrite)
                c.backend.copyBytes(c.gradInputs[0].raw(), c.gradOutput.raw(), c.output.bytes());
            else
                c.backend.axpy(c.output.numel(), 1.0f, f32(c.gradOutput), f32(c.gradInputs[0]));
        }
        if (!c.gradParams.empty() && c.gradParams[0].defined())
            c.backend.biasBackward(f32(c.gradOutput), f32(c.gradParams[0]), batch, positions, 1);
    }
    bool overwritesFreshGradients() const override { return true; }

private:
    static std::string tableName(const Attrs& a) { return a.getString("kind") == "learned" ? "weight" : "pe"; }
    // [batch, tokens * channels]: the table's first T rows are one bias over the batch.
    static std::pair<I, I> dims(const OpContext& c)
    {
        const Shape& x = c.inputs[0].shape();
        return {x[0], x[1] * x[2]};
    }
};

}  // namespace

TS_REGISTER_OPS(positional_encoding) { r.add(std::make_unique<PositionalEncoding>()); }

}  // namespace ts
