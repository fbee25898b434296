// Conv1d: y = conv(x, W) + b over sequences; x [N, C, L], W [K, C/groups, R], b [K] -> [N, K, outL].
// A 2-D convolution of height 1 ([N, C, 1, L] with a 1 x R kernel: the same memory), so it runs on
// the conv primitives of every backend.
#include "ops/common.h"
#include "ops/conv_rules.h"
#include "ops/onnx_writer.h"
#include "ops/op_text.h"
#include "ops/registry.h"

namespace ts {

namespace {

using Ints = std::vector<std::int64_t>;

class Conv1d final : public Op {
public:
    std::string type() const override { return "Conv1d"; }
    OpCategory category() const override { return OpCategory::Layer; }
    std::string help() const override
    {
        return QT_TRANSLATE_NOOP("AttrHelp", "1-D convolution over [N, C, L] sequences (time series, audio, token "
                                             "features): learned filters slide along the length");
    }
    std::vector<AttrSpec> attrSpecs() const override
    {
        return {inputChannelsAttr("in_channels"),
                AttrSpec{"out_channels", AttrType::Int, std::nullopt, atLeast(1)}.withHelp(
                    QT_TRANSLATE_NOOP("AttrHelp", "The number of filters, so the output's channels.")),
                AttrSpec{"kernel_size", AttrType::Ints, std::nullopt, atLeast(1), 1}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "How many neighbouring steps each filter sees; 3 to 7 is usual.")),
                AttrSpec{"stride", AttrType::Ints, AttrValue(std::int64_t{1}), atLeast(1), 1}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "How far the filter moves between outputs; 2 halves the length.")),
                AttrSpec{"padding", AttrType::Ints, AttrValue(std::int64_t{0}), atLeast(0), 1}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "Zeros added at each end of the sequence. kernel_size / 2 (1 for a kernel of 3) keeps the length.")),
                dilationAttr(1),
                groupsAttr(),
                biasAttr(),
                weightInitAttr()};
    }
    std::vector<OpCase> cases() const override
    {
        using I = std::int64_t;
        const auto convCase = [](std::string label, Shape x, I out, Attrs more) {
            more.set("out_channels", out);
            if (!more.has("kernel_size")) more.set("kernel_size", I{3});
            return OpCase{std::move(label), std::move(more), {{std::move(x)}}};
        };
        return {convCase("kernel 3", Shape{2, 3, 9}, 4, {}),
                convCase("stride 2 padding 1", Shape{2, 3, 10}, 4, {{"stride", I{2}}, {"padding", I{1}}}),
                convCase("dilation 2, groups 2", Shape{2, 4, 11}, 6, {{"padding", I{2}}, {"dilation", I{2}}, {"groups", I{2}}}),
                convCase("depthwise, kernel 5", Shape{2, 3, 12}, 3, {{"kernel_size", I{5}}, {"padding", I{2}}, {"groups", I{3}}}),
                convCase("pointwise without bias", Shape{3, 5, 6}, 2, {{"kernel_size", I{1}}, {"bias", false}})};
    }
    // ONNX Conv is n-dimensional: the 1-D attributes as they are; pads: begin, then end.
    std::string exportOnnx(OnnxNodeExport& e) const override
    {
        std::vector<std::string> ins{e.in[0], e.weightInput("weight")};
        if (e.attrs.getBool("bias")) ins.push_back(e.floatParam("bias"));
        const std::int64_t pad = e.attrs.getInts("padding")[0];
        e.b.node("Conv", ins, {e.out}, e.name,
                 {{"kernel_shape", e.attrs.getInts("kernel_size")},
                  {"strides", e.attrs.getInts("stride")},
                  {"pads", Ints{pad, pad}},
                  {"dilations", e.attrs.getInts("dilation")},
                  {"group", e.attrs.getInt("groups")}});
        return e.out;
    }
    TensorSpec inferOutput(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        requireFloat(in[0], "input");
        if (in[0].shape.rank() != 3)
            throw OpError("input must have rank 3 ([N, C, L]), got shape " + in[0].shape.str());
        const ConvGeometry g = geometry(a, in[0].shape);
        checkGroupedChannels(g.c, a.getInt("in_channels"), g.k, g.groups);
        const std::int64_t span = g.dilW * (g.s - 1) + 1;
        if (g.w + 2 * g.padW < span)  // outW() would divide a negative numerator toward zero
            throw OpError("input has length " + std::to_string(g.w) + " (" + std::to_string(g.w + 2 * g.padW) +
                              " with padding), shorter than the kernel's extent " + std::to_string(span),
                          {"kernel_size", "padding", "dilation"});
        return {Shape{g.n, g.k, g.outW()}, DType::F32};
    }
    std::vector<ParamSpec> params(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        const ConvGeometry g = geometry(a, in[0].shape);
        const double fanIn = double(g.c / g.groups * g.s);
        std::vector<ParamSpec> p{{"weight", Shape{g.k, g.c / g.groups, g.s}, weightInit(a, fanIn, double(g.k * g.s / g.groups))}};
        if (a.getBool("bias")) p.push_back({"bias", Shape{g.k}, {biasInit(a, fanIn)}});
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
        return 2.0 * double(out.shape.numel()) * double(g.c / g.groups * g.s);
    }
    void forward(OpContext& c) const override
    {
        const ConvGeometry g = geometry(c.attrs, c.inputs[0].shape());
        c.backend.conv2dForward(g, f32(c.inputs[0]), f32(c.params[0]), f32(c.output), c.workspace);
        if (c.params.size() > 1) c.backend.addBias(f32(c.params[1]), f32(c.output), g.n, g.k, g.outW());
    }
    void backward(OpContext& c) const override
    {
        const ConvGeometry g = geometry(c.attrs, c.inputs[0].shape());
        c.backend.conv2dBackward(g, f32(c.inputs[0]), f32(c.params[0]), f32(c.gradOutput), f32(c.gradInputs[0]),
                                 f32(c.gradParams[0]), c.workspace,
                                 c.gradInputs[0].defined() ? c.gradWrite(0) : GradWrite::Accumulate);
        if (c.gradParams.size() > 1 && c.gradParams[1].defined())
            c.backend.biasBackward(f32(c.gradOutput), f32(c.gradParams[1]), g.n, g.k, g.outW());
    }
    bool overwritesFreshGradients() const override { return true; }

private:
    // [N, C, L] as [N, C, 1, L] with a 1 x R kernel; the height's stride, padding and dilation stay 1, 0, 1.
    static ConvGeometry geometry(const Attrs& a, const Shape& x)
    {
        ConvGeometry g;
        g.n = x[0], g.c = x[1], g.h = 1, g.w = x[2];
        g.k = a.getInt("out_channels");
        g.r = 1, g.s = a.getInts("kernel_size")[0];
        g.strideW = a.getInts("stride")[0];
        g.padW = a.getInts("padding")[0];
        g.dilW = a.getInts("dilation")[0];
        g.groups = a.getInt("groups");
        return g;
    }
};

}  // namespace

TS_REGISTER_OPS(conv1d) { r.add(std::make_unique<Conv1d>()); }

}  // namespace ts
