// ConvTranspose2d, as PyTorch's: x [N, C, H, W], W [C, K/groups, R, S], b [K] -> y [N, K, outH, outW]
// with outH = (H - 1) stride - 2 padding + dilation (R - 1) + output_padding + 1.
// It is the adjoint of a Conv2d whose input is y and whose output is x, so it needs no primitive
// of its own (and runs on cuDNN on CUDA): forward is that convolution's backward-data, the input
// gradient its forward, the weight gradient its backward-filter with the roles of x and dy swapped.
#include "ops/common.h"
#include "ops/conv_rules.h"
#include "ops/onnx_writer.h"
#include "ops/op_text.h"
#include "ops/registry.h"

namespace ts {

namespace {

using Ints = std::vector<std::int64_t>;

std::string sizeText(const Ints& v) { return std::to_string(v[0]) + "x" + std::to_string(v[1]); }

// Room in the workspace for the convolution's scratch, then for the input gradient's (below).
std::size_t aligned(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

class ConvTranspose2d final : public Op {
public:
    std::string type() const override { return "ConvTranspose2d"; }
    OpCategory category() const override { return OpCategory::Layer; }
    std::string help() const override
    {
        return QT_TRANSLATE_NOOP("AttrHelp", "Transposed convolution: each input pixel spreads a learned filter over the output; "
                                             "stride 2 doubles the image (the up-step of decoders and U-Nets)");
    }
    std::vector<AttrSpec> attrSpecs() const override
    {
        return {inputChannelsAttr("in_channels"),
                AttrSpec{"out_channels", AttrType::Int, std::nullopt, atLeast(1)}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "The output's channels. Decoders usually halve them as the image doubles (128, 64, 32).")),
                AttrSpec{"kernel_size", AttrType::Ints, std::nullopt, atLeast(1), 2}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "The filter's height and width (one number for both, or \"3, 5\"). 2 with stride 2 doubles the "
                                "image exactly; 4 with stride 2 and padding 1 too, with overlapping filters.")),
                AttrSpec{"stride", AttrType::Ints, AttrValue(std::int64_t{1}), atLeast(1), 2}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "How far apart the input's pixels land in the output; 2 doubles the image.")),
                AttrSpec{"padding", AttrType::Ints, AttrValue(std::int64_t{0}), atLeast(0), 2}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "Rows and columns cropped from each border of the output, as in PyTorch: kernel 3, stride 2, "
                                "padding 1 and output_padding 1 double the image.")),
                AttrSpec{"output_padding", AttrType::Ints, AttrValue(std::int64_t{0}), atLeast(0), 2}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "Rows and columns added at the bottom and right of the output, to pick between the sizes a "
                                "stride allows; smaller than the stride.")),
                dilationAttr(2),
                groupsAttr(),
                biasAttr(),
                weightInitAttr()};
    }
    std::vector<OpCase> cases() const override
    {
        using I = std::int64_t;
        const auto convCase = [](std::string label, Shape x, I out, Attrs more) {
            more.set("out_channels", out);
            return OpCase{std::move(label), std::move(more), {{std::move(x)}}};
        };
        return {convCase("kernel 2 stride 2 (U-Net's up-step)", Shape{2, 4, 3, 3}, 3, {{"kernel_size", I{2}}, {"stride", I{2}}}),
                convCase("kernel 3 stride 2 padding 1 output_padding 1", Shape{2, 3, 4, 4}, 2,
                         {{"kernel_size", I{3}}, {"stride", I{2}}, {"padding", I{1}}, {"output_padding", I{1}}}),
                convCase("groups 2, dilation, non-square", Shape{2, 4, 3, 4}, 6,
                         {{"kernel_size", Ints{3, 2}}, {"stride", Ints{2, 1}}, {"padding", Ints{1, 0}},
                          {"output_padding", Ints{1, 0}}, {"dilation", Ints{1, 2}}, {"groups", I{2}}}),
                convCase("depthwise, stride 2", Shape{2, 3, 4, 4}, 3,
                         {{"kernel_size", I{3}}, {"stride", I{2}}, {"padding", I{1}}, {"groups", I{3}}}),
                convCase("3x3 stride 1 without bias", Shape{1, 2, 5, 5}, 3, {{"kernel_size", I{3}}, {"bias", false}}),
                // 8 channels each way, 3x3, stride 1: the CPU runs the adjoint convolution by Winograd.
                convCase("3x3 stride 1 padding 1, 8 channels", Shape{1, 8, 4, 4}, 8, {{"kernel_size", I{3}}, {"padding", I{1}}})};
    }
    // ONNX's ConvTranspose has PyTorch's weight layout and output size rule; pads: begins, then ends.
    std::string exportOnnx(OnnxNodeExport& e) const override
    {
        std::vector<std::string> ins{e.in[0], e.weightInput("weight")};
        if (e.attrs.getBool("bias")) ins.push_back(e.floatParam("bias"));
        const Ints& pad = e.attrs.getInts("padding");
        e.b.node("ConvTranspose", ins, {e.out}, e.name,
                 {{"kernel_shape", e.attrs.getInts("kernel_size")},
                  {"strides", e.attrs.getInts("stride")},
                  {"pads", Ints{pad[0], pad[1], pad[0], pad[1]}},
                  {"output_padding", e.attrs.getInts("output_padding")},
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
        checkGroupedChannels(g.k, a.getInt("in_channels"), g.c, g.groups);
        const Ints &stride = a.getInts("stride"), &outputPadding = a.getInts("output_padding");
        // Stricter than PyTorch (which also allows output_padding < dilation): the adjoint
        // convolution then maps the output back onto exactly the input.
        if (outputPadding[0] >= stride[0] || outputPadding[1] >= stride[1])
            throw OpError("output_padding " + sizeText(outputPadding) + " must be smaller than the stride " + sizeText(stride),
                          {"output_padding", "stride"});
        if (g.h < 1 || g.w < 1)
            throw OpError("padding " + sizeText(a.getInts("padding")) + " crops the whole output (it would be " +
                              std::to_string(g.h) + "x" + std::to_string(g.w) + ")",
                          {"padding"});
        return {Shape{g.n, g.c, g.h, g.w}, DType::F32};
    }
    // Shaped as PyTorch's, with its fans (fan_in = K/groups * R * S), so `init: pytorch` matches it.
    std::vector<ParamSpec> params(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        const ConvGeometry g = geometry(a, in[0].shape);
        const double taps = double(g.r * g.s), fanIn = double(g.c / g.groups) * taps;
        std::vector<ParamSpec> p{{"weight", Shape{g.k, g.c / g.groups, g.r, g.s}, weightInit(a, fanIn, double(g.k) * taps)}};
        if (a.getBool("bias")) p.push_back({"bias", Shape{g.c}, {biasInit(a, fanIn)}});
        return p;
    }
    // The convolution's scratch, then room for an input gradient to be added (backward).
    std::size_t workspaceBytes(Backend& backend, const Attrs& a, std::span<const TensorSpec> in,
                               const TensorSpec&) const override
    {
        return aligned(backend.conv2dWorkspaceBytes(geometry(a, in[0].shape))) + in[0].shape.numel() * sizeof(float);
    }
    double flops(const Attrs& a, std::span<const TensorSpec> in, const TensorSpec&) const override
    {
        const ConvGeometry g = geometry(a, in[0].shape);
        return 2.0 * double(in[0].shape.numel()) * double(g.c / g.groups) * double(g.r * g.s);
    }
    void forward(OpContext& c) const override
    {
        const ConvGeometry g = geometry(c.attrs, c.inputs[0].shape());
        c.backend.conv2dBackwardData(g, f32(c.params[0]), f32(c.inputs[0]), f32(c.output), c.workspace, GradWrite::Overwrite);
        if (c.params.size() > 1) c.backend.addBias(f32(c.params[1]), f32(c.output), g.n, g.c, g.h * g.w);
    }
    void backward(OpContext& c) const override
    {
        const ConvGeometry g = geometry(c.attrs, c.inputs[0].shape());
        const Tensor& dx = c.gradInputs[0];
        if (dx.defined()) {
            // The convolution overwrites what it writes: into dx itself when dx is fresh, else
            // into scratch that is then added.
            const bool overwrite = c.gradWrite(0) == GradWrite::Overwrite;
            float* target = overwrite ? f32(dx)
                                      : reinterpret_cast<float*>(static_cast<char*>(c.workspace) +
                                                                 aligned(c.backend.conv2dWorkspaceBytes(g)));
            c.backend.conv2dForward(g, f32(c.gradOutput), f32(c.params[0]), target, c.workspace);
            if (!overwrite) c.backend.axpy(dx.numel(), 1.0f, target, f32(dx));
        }
        if (c.gradParams[0].defined())
            c.backend.conv2dBackwardFilter(g, f32(c.gradOutput), f32(c.inputs[0]), f32(c.gradParams[0]), c.workspace);
        if (c.gradParams.size() > 1 && c.gradParams[1].defined())
            c.backend.biasBackward(f32(c.gradOutput), f32(c.gradParams[1]), g.n, g.c, g.h * g.w);
    }
    bool overwritesFreshGradients() const override { return true; }

private:
    // The convolution this op is the adjoint of: input [N, K, outH, outW] (this op's output),
    // weight [C, K/groups, R, S], output [N, C, H, W] (this op's input).
    static ConvGeometry geometry(const Attrs& a, const Shape& x)
    {
        const Ints &kernel = a.getInts("kernel_size"), &stride = a.getInts("stride"), &padding = a.getInts("padding"),
                   &dilation = a.getInts("dilation"), &outputPadding = a.getInts("output_padding");
        ConvGeometry g;
        g.n = x[0], g.k = x[1], g.c = a.getInt("out_channels");
        g.r = kernel[0], g.s = kernel[1];
        g.strideH = stride[0], g.strideW = stride[1];
        g.padH = padding[0], g.padW = padding[1];
        g.dilH = dilation[0], g.dilW = dilation[1];
        g.groups = a.getInt("groups");
        g.h = (x[2] - 1) * g.strideH - 2 * g.padH + g.dilH * (g.r - 1) + outputPadding[0] + 1;
        g.w = (x[3] - 1) * g.strideW - 2 * g.padW + g.dilW * (g.s - 1) + outputPadding[1] + 1;
        return g;
    }
};

}  // namespace

TS_REGISTER_OPS(conv_transpose) { r.add(std::make_unique<ConvTranspose2d>()); }

}  // namespace ts
