// Conv2d: y = conv(x, W) + b over NCHW images; x [N, C, H, W], W [K, C/groups, R, S], b [K].
#include "ops/common.h"
#include "ops/registry.h"

namespace ts {

namespace {

std::string sizeText(std::int64_t a, std::int64_t b) { return std::to_string(a) + "x" + std::to_string(b); }

class Conv2d final : public Op {
public:
    std::string type() const override { return "Conv2d"; }
    OpCategory category() const override { return OpCategory::Layer; }
    std::vector<AttrSpec> attrSpecs() const override
    {
        return {{"in_channels", AttrType::Int, AttrValue(std::int64_t{0}), atLeast(0)},  // 0: from the input
                {"out_channels", AttrType::Int, std::nullopt, atLeast(1)},
                {"kernel_size", AttrType::Ints, std::nullopt, atLeast(1), 2},
                {"stride", AttrType::Ints, AttrValue(std::int64_t{1}), atLeast(1), 2},
                {"padding", AttrType::Ints, AttrValue(std::int64_t{0}), atLeast(0), 2},
                {"dilation", AttrType::Ints, AttrValue(std::int64_t{1}), atLeast(1), 2},
                {"groups", AttrType::Int, AttrValue(std::int64_t{1}), atLeast(1)},
                {"bias", AttrType::Bool, AttrValue(true)},
                weightInitAttr()};
    }
    TensorSpec inferOutput(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        requireFloat(in[0], "input");
        if (in[0].shape.rank() != 4)
            throw OpError("input must have rank 4 ([N, C, H, W]), got shape " + in[0].shape.str());
        const ConvGeometry g = geometry(a, in[0].shape);
        const std::int64_t declared = a.getInt("in_channels");
        if (declared > 0 && declared != g.c) throw OpError("input has " + std::to_string(g.c) + " channels", {"in_channels"});
        if (g.c % g.groups != 0)
            throw OpError("groups = " + std::to_string(g.groups) + " does not divide the input's " + std::to_string(g.c) +
                              " channels",
                          {"groups"});
        if (g.k % g.groups != 0)
            throw OpError("groups = " + std::to_string(g.groups) + " does not divide out_channels = " +
                              std::to_string(g.k),
                          {"groups", "out_channels"});
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
