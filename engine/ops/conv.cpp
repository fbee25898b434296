// Conv2d: y = conv(x, W) + b over NCHW images; x [N, C, H, W], W [K, C/groups, R, S], b [K].
#include "ops/common.h"
#include "ops/conv_rules.h"
#include "ops/onnx_writer.h"
#include "ops/op_text.h"
#include "ops/registry.h"

namespace ts {

namespace {

using Ints = std::vector<std::int64_t>;

std::string sizeText(std::int64_t a, std::int64_t b) { return std::to_string(a) + "x" + std::to_string(b); }

// A gradient-check case: x [n, c, h, w] into `out` channels, `more` the other attributes.
OpCase convCase(std::string label, Shape x, std::int64_t out, Attrs more)
{
    more.set("out_channels", out);
    if (!more.has("kernel_size")) more.set("kernel_size", std::int64_t{3});
    return {std::move(label), std::move(more), {{std::move(x)}}};
}

class Conv2d final : public Op {
public:
    std::string type() const override { return "Conv2d"; }
    OpCategory category() const override { return OpCategory::Layer; }
    std::string help() const override
    {
        return QT_TRANSLATE_NOOP("AttrHelp", "2-D convolution over [N, C, H, W] images: learned filters slide over the plane");
    }
    std::vector<AttrSpec> attrSpecs() const override
    {
        return {inputChannelsAttr("in_channels"),
                AttrSpec{"out_channels", AttrType::Int, std::nullopt, atLeast(1)}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "The number of filters, so the output's channels. Often doubled when the image is halved (32, 64, 128).")),
                AttrSpec{"kernel_size", AttrType::Ints, std::nullopt, atLeast(1), 2}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "The filter's height and width (one number for both, or \"3, 5\"). 3 is the usual choice.")),
                AttrSpec{"stride", AttrType::Ints, AttrValue(std::int64_t{1}), atLeast(1), 2}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "How far the filter moves between outputs; 2 halves the image (instead of a pooling layer).")),
                AttrSpec{"padding", AttrType::Ints, AttrValue(std::int64_t{0}), atLeast(0), 2}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "Zeros added around the image on each side. kernel_size / 2 (1 for a 3×3 kernel) keeps the size.")),
                dilationAttr(2),
                groupsAttr(),
                biasAttr(),
                weightInitAttr()};
    }
    // Default tolerances; the batches of 7 are split by the backend into several GEMMs.
    std::vector<OpCase> cases() const override
    {
        using I = std::int64_t;
        return {convCase("plain 3x3", Shape{2, 3, 6, 6}, 4, {}),
                convCase("stride 2", Shape{2, 3, 7, 7}, 4, {{"stride", I{2}}}),
                convCase("padding 1", Shape{2, 3, 6, 6}, 4, {{"padding", I{1}}}),
                convCase("padding 2, stride 2", Shape{2, 3, 5, 5}, 4, {{"stride", I{2}}, {"padding", I{2}}}),
                convCase("dilation 2", Shape{2, 3, 7, 7}, 4, {{"padding", I{1}}, {"dilation", I{2}}}),
                convCase("groups 2", Shape{2, 4, 6, 6}, 6, {{"padding", I{1}}, {"groups", I{2}}}),
                convCase("depthwise", Shape{2, 4, 6, 6}, 4, {{"padding", I{1}}, {"groups", I{4}}}),
                convCase("depthwise, multiplier 2", Shape{2, 3, 6, 6}, 6, {{"stride", I{2}}, {"groups", I{3}}}),
                convCase("1x1", Shape{2, 3, 6, 6}, 5, {{"kernel_size", I{1}}}),
                convCase("1x1 stride 2", Shape{2, 3, 7, 7}, 5, {{"kernel_size", I{1}}, {"stride", I{2}}}),
                convCase("non-square kernel and input", Shape{2, 3, 5, 9}, 4,
                         {{"kernel_size", Ints{2, 3}}, {"stride", Ints{1, 2}}, {"padding", Ints{1, 0}}, {"dilation", Ints{1, 2}}}),
                convCase("odd sizes", Shape{3, 3, 9, 7}, 5, {{"stride", I{2}}, {"padding", I{1}}}),
                convCase("no bias", Shape{2, 3, 6, 6}, 4, {{"padding", I{1}}, {"bias", false}}),
                convCase("batch 1", Shape{1, 3, 6, 6}, 4, {}),
                convCase("batch 3", Shape{3, 3, 6, 6}, 4, {{"padding", I{1}}}),
                convCase("batch 7, 20x20", Shape{7, 2, 20, 20}, 2, {{"padding", I{1}}}),
                convCase("1x1, batch 7, 20x20", Shape{7, 2, 20, 20}, 2, {{"kernel_size", I{1}}}),
                convCase("1x1, 64x64", Shape{2, 2, 64, 64}, 2, {{"kernel_size", I{1}}})};
    }
    // ONNX pads are the begins, then the ends.
    std::string exportOnnx(OnnxNodeExport& e) const override
    {
        std::vector<std::string> ins{e.in[0], e.weightInput("weight")};
        if (e.attrs.getBool("bias")) ins.push_back(e.floatParam("bias"));
        const Ints& pad = e.attrs.getInts("padding");
        e.b.node("Conv", ins, {e.out}, e.name,
                 {{"kernel_shape", e.attrs.getInts("kernel_size")},
                  {"strides", e.attrs.getInts("stride")},
                  {"pads", Ints{pad[0], pad[1], pad[0], pad[1]}},
                  {"dilations", e.attrs.getInts("dilation")},
                  {"group", e.attrs.getInt("groups")}});
        return e.out;
    }
    TensorSpec inferOutput(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        requireFloat(in[0], "input");
        if (in[0].shape.rank() != 4)
            throw OpError("input must have rank 4 ([N, C, H, W]), got shape " + in[0].shape.str());
        const ConvGeometry g = geometry(a, in[0].shape);
        checkGroupedChannels(g.c, a.getInt("in_channels"), g.k, g.groups);
        // Compared directly: outH() divides a negative numerator toward zero and would say 1.
        const std::int64_t spanH = g.dilH * (g.r - 1) + 1, spanW = g.dilW * (g.s - 1) + 1;
        if (g.h + 2 * g.padH < spanH || g.w + 2 * g.padW < spanW)
            throw OpError("input is " + sizeText(g.h, g.w) + " (" + sizeText(g.h + 2 * g.padH, g.w + 2 * g.padW) +
                              " with padding), smaller than the kernel's " + sizeText(spanH, spanW) + " extent",
                          {"kernel_size", "padding", "dilation"});
        return {Shape{g.n, g.k, g.outH(), g.outW()}, DType::F32};
    }
    std::vector<ParamSpec> params(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        const ConvGeometry g = geometry(a, in[0].shape);
        const double taps = double(g.r * g.s);
        std::vector<ParamSpec> p{{"weight", Shape{g.k, g.c / g.groups, g.r, g.s},
                                  weightInit(a, double(g.c / g.groups) * taps, double(g.k) * taps / double(g.groups))}};
        if (a.getBool("bias")) p.push_back({"bias", Shape{g.k}, {biasInit(a, double(g.c / g.groups) * taps)}});
        return p;
    }
    std::size_t workspaceBytes(Backend& backend, const Attrs& a, std::span<const TensorSpec> in,
                               const TensorSpec&) const override
    {
        return backend.conv2dWorkspaceBytes(geometry(a, in[0].shape));
    }
    double flops(const Attrs& a, std::span<const TensorSpec> in, const TensorSpec& out) const override
    {
        const ConvGeometry g = geometry(a, in[0].shape);
        return 2.0 * double(out.shape.numel()) * double(g.c / g.groups) * double(g.r * g.s);
    }
    void forward(OpContext& c) const override
    {
        const ConvGeometry g = geometry(c.attrs, c.inputs[0].shape());
        c.backend.conv2dForward(g, f32(c.inputs[0]), f32(c.params[0]), f32(c.output), c.workspace);
        if (c.params.size() > 1) c.backend.addBias(f32(c.params[1]), f32(c.output), g.n, g.k, g.outH() * g.outW());
    }
    void backward(OpContext& c) const override
    {
        const ConvGeometry g = geometry(c.attrs, c.inputs[0].shape());
        c.backend.conv2dBackward(g, f32(c.inputs[0]), f32(c.params[0]), f32(c.gradOutput), f32(c.gradInputs[0]),
                                 f32(c.gradParams[0]), c.workspace,
                                 c.gradInputs[0].defined() ? c.gradWrite(0) : GradWrite::Accumulate);
        if (c.gradParams.size() > 1 && c.gradParams[1].defined())
            c.backend.biasBackward(f32(c.gradOutput), f32(c.gradParams[1]), g.n, g.k, g.outH() * g.outW());
    }
    bool overwritesFreshGradients() const override { return true; }

private:
    static ConvGeometry geometry(const Attrs& a, const Shape& x)
    {
        const auto& kernel = a.getInts("kernel_size");
        const auto& stride = a.getInts("stride");
        const auto& padding = a.getInts("padding");
        const auto& dilation = a.getInts("dilation");
        ConvGeometry g;
        g.n = x[0], g.c = x[1], g.h = x[2], g.w = x[3];
        g.k = a.getInt("out_channels");
        g.r = kernel[0], g.s = kernel[1];
        g.strideH = stride[0], g.strideW = stride[1];
        g.padH = padding[0], g.padW = padding[1];
        g.dilH = dilation[0], g.dilW = dilation[1];
        g.groups = a.getInt("groups");
        return g;
    }
};

}  // namespace

TS_REGISTER_OPS(conv) { r.add(std::make_unique<Conv2d>()); }

}  // namespace ts
