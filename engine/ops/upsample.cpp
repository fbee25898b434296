// Upsample, as PyTorch's nn.Upsample with align_corners=False: x [N, C, H, W] -> [N, C, H·sh, W·sw],
// or [N, C, size] when size is given. Nearest takes source row floor(i · H / outH); bilinear
// samples at half-pixel centres (backend.h, UpsampleGeometry). An optional primitive: a backend
// without it (CUDA today) has the executor run this op on the CPU.
#include "ops/common.h"
#include "ops/onnx_writer.h"
#include "ops/op_text.h"
#include "ops/registry.h"

namespace ts {

namespace {

using Ints = std::vector<std::int64_t>;

class Upsample final : public Op {
public:
    std::string type() const override { return "Upsample"; }
    // Beside the pooling layers it undoes: it resamples the plane and learns nothing.
    OpCategory category() const override { return OpCategory::Pooling; }
    std::string help() const override
    {
        return QT_TRANSLATE_NOOP("AttrHelp", "Enlarges the image by a fixed rule, learning nothing: nearest repeats pixels, bilinear "
                                             "blends neighbours. Often followed by a 3x3 Conv2d in decoders");
    }
    std::vector<AttrSpec> attrSpecs() const override
    {
        return {AttrSpec{"mode", AttrType::String, AttrValue(std::string("nearest")), {}, 0, {"nearest", "bilinear"}}.withHelp(
                    QT_TRANSLATE_NOOP("AttrHelp", "nearest repeats each pixel (blocky, exact); bilinear interpolates between "
                                                  "the four nearest pixels (smooth), with PyTorch's align_corners=False.")),
                AttrSpec{"scale_factor", AttrType::Ints, AttrValue(std::int64_t{2}), atLeast(1), 2}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "How many times taller and wider the output is (one number for both, or \"2, 3\").")),
                AttrSpec{"size", AttrType::Ints, AttrValue(std::int64_t{0}), atLeast(0), 2}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "The output's height and width instead of a scale factor (any size, smaller too); 0 uses "
                                "scale_factor."))};
    }
    std::vector<OpCase> cases() const override
    {
        using I = std::int64_t;
        return {{"nearest x2", {}, {{Shape{2, 3, 3, 4}}}},
                {"nearest x3 by x2", {{"scale_factor", Ints{3, 2}}}, {{Shape{2, 2, 2, 3}}}},
                {"nearest to 5x7", {{"size", Ints{5, 7}}}, {{Shape{2, 2, 3, 4}}}},
                {"bilinear x2", {{"mode", std::string("bilinear")}}, {{Shape{2, 3, 3, 4}}}},
                {"bilinear x3", {{"mode", std::string("bilinear")}, {"scale_factor", I{3}}}, {{Shape{1, 2, 2, 3}}}},
                {"bilinear to 5x7", {{"mode", std::string("bilinear")}, {"size", Ints{5, 7}}}, {{Shape{2, 2, 3, 4}}}},
                {"bilinear down to 2x3", {{"mode", std::string("bilinear")}, {"size", Ints{2, 3}}}, {{Shape{2, 2, 3, 5}}}}};
    }
    // Resize (opset 17) with the same sampling rule: nearest is asymmetric with floor, bilinear
    // is linear with half_pixel. Scales for a scale factor; for a size, sizes made of the
    // input's [N, C] (the batch is symbolic) and the size.
    std::string exportOnnx(OnnxNodeExport& e) const override
    {
        const bool nearest = e.attrs.getString("mode") == "nearest";
        const OnnxAttrs attrs = nearest ? OnnxAttrs{{"mode", std::string("nearest")},
                                                    {"coordinate_transformation_mode", std::string("asymmetric")},
                                                    {"nearest_mode", std::string("floor")}}
                                        : OnnxAttrs{{"mode", std::string("linear")},
                                                    {"coordinate_transformation_mode", std::string("half_pixel")}};
        const Ints& size = e.attrs.getInts("size");
        if (size[0] == 0) {
            const Ints& s = e.attrs.getInts("scale_factor");
            const std::string scales = e.b.floats(e.name + ".scales", {4}, {1.0f, 1.0f, float(s[0]), float(s[1])});
            e.b.node("Resize", {e.in[0], "", scales}, {e.out}, e.name, attrs);
            return e.out;
        }
        const std::string batchAndChannels = e.step("batch_and_channels"), sizes = e.step("sizes");
        e.b.node("Shape", {e.in[0]}, {batchAndChannels}, e.name + "/shape", {{"start", std::int64_t{0}}, {"end", std::int64_t{2}}});
        e.b.node("Concat", {batchAndChannels, e.b.int64s(e.name + ".size", {2}, size)}, {sizes}, e.name + "/sizes",
                 {{"axis", std::int64_t{0}}});
        e.b.node("Resize", {e.in[0], "", "", sizes}, {e.out}, e.name, attrs);
        return e.out;
    }
    TensorSpec inferOutput(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        requireFloat(in[0], "input");
        if (in[0].shape.rank() != 4)
            throw OpError("input must have rank 4 ([N, C, H, W]), got shape " + in[0].shape.str());
        const Ints& size = a.getInts("size");
        if ((size[0] == 0) != (size[1] == 0))
            throw OpError("size " + std::to_string(size[0]) + "x" + std::to_string(size[1]) +
                              " gives one side only: give both, or 0 for scale_factor",
                          {"size"});
        const UpsampleGeometry g = geometry(a, in[0].shape);
        return {Shape{g.n, g.c, g.outH, g.outW}, DType::F32};
    }
    // Nearest copies; bilinear weighs four taps (4 multiplies, 3 adds).
    double flops(const Attrs& a, std::span<const TensorSpec>, const TensorSpec& out) const override
    {
        return double(out.shape.numel()) * (a.getString("mode") == "nearest" ? 1.0 : 7.0);
    }
    void forward(OpContext& c) const override
    {
        c.backend.upsample2dForward(mode(c.attrs), geometry(c.attrs, c.inputs[0].shape()), f32(c.inputs[0]), f32(c.output));
    }
    void backward(OpContext& c) const override
    {
        if (!c.gradInputs[0].defined()) return;
        c.backend.upsample2dBackward(mode(c.attrs), geometry(c.attrs, c.inputs[0].shape()), f32(c.gradOutput),
                                     f32(c.gradInputs[0]));
    }

private:
    static UpsampleMode mode(const Attrs& a)
    {
        return a.getString("mode") == "nearest" ? UpsampleMode::Nearest : UpsampleMode::Bilinear;
    }
    static UpsampleGeometry geometry(const Attrs& a, const Shape& x)
    {
        const Ints &size = a.getInts("size"), &scale = a.getInts("scale_factor");
        UpsampleGeometry g;
        g.n = x[0], g.c = x[1], g.h = x[2], g.w = x[3];
        g.outH = size[0] > 0 ? size[0] : x[2] * scale[0];
        g.outW = size[1] > 0 ? size[1] : x[3] * scale[1];
        return g;
    }
};

}  // namespace

TS_REGISTER_OPS(upsample) { r.add(std::make_unique<Upsample>()); }

}  // namespace ts
