// Pooling over NCHW images: MaxPool2d and AvgPool2d ([N, C, H, W] -> [N, C, outH, outW]),
// and GlobalAvgPool ([N, C, H, W] -> [N, C]).
#include "ops/common.h"
#include "ops/onnx_writer.h"
#include "ops/op_text.h"
#include "ops/registry.h"

namespace ts {

namespace {

using Ints = std::vector<std::int64_t>;

std::string pairText(const std::vector<std::int64_t>& v) { return std::to_string(v[0]) + "x" + std::to_string(v[1]); }

void requireImage(const TensorSpec& x)
{
    requireFloat(x, "input");
    if (x.shape.rank() != 4) throw OpError("input must have rank 4 ([N, C, H, W]), got shape " + x.shape.str());
}

class Pool2d final : public Op {
public:
    explicit Pool2d(PoolKind kind) : kind_(kind) {}
    std::string type() const override { return kind_ == PoolKind::Max ? "MaxPool2d" : "AvgPool2d"; }
    OpCategory category() const override { return OpCategory::Pooling; }
    std::string help() const override
    {
        return kind_ == PoolKind::Max
                   ? QT_TRANSLATE_NOOP("AttrHelp", "Keeps the largest value of each window: halves the image with kernel 2")
                   : QT_TRANSLATE_NOOP("AttrHelp", "Averages each window of the image");
    }
    std::vector<AttrSpec> attrSpecs() const override
    {
        std::vector<AttrSpec> specs{
            AttrSpec{"kernel_size", AttrType::Ints, std::nullopt, atLeast(1), 2}.withHelp(
                QT_TRANSLATE_NOOP("AttrHelp", "The window's height and width; 2 halves the image.")),
            AttrSpec{"stride", AttrType::Ints, AttrValue(std::int64_t{0}), atLeast(0), 2}.withHelp(QT_TRANSLATE_NOOP(
                "AttrHelp", "How far the window moves; 0 means the kernel size (windows that do not overlap).")),
            AttrSpec{"padding", AttrType::Ints, AttrValue(std::int64_t{0}), atLeast(0), 2}.withHelp(
                QT_TRANSLATE_NOOP("AttrHelp", "Zeros added around the image on each side (height, width)."))};
        if (kind_ == PoolKind::Avg)
            specs.push_back(AttrSpec{"count_include_pad", AttrType::Bool, AttrValue(true)}.withHelp(QT_TRANSLATE_NOOP(
                "AttrHelp", "Whether padded zeros count in the average at the borders (on: divide by the whole window).")));
        return specs;
    }
    std::vector<OpCase> cases() const override
    {
        using I = std::int64_t;
        if (kind_ == PoolKind::Avg)
            return {{"2x2", {{"kernel_size", I{2}}}, {{Shape{2, 3, 7, 7}}}},
                    {"3x3 stride 2 padding 1, pad counted",
                     {{"kernel_size", I{3}}, {"stride", I{2}}, {"padding", I{1}}, {"count_include_pad", true}},
                     {{Shape{2, 3, 7, 7}}}},
                    {"3x3 stride 2 padding 1, pad not counted",
                     {{"kernel_size", I{3}}, {"stride", I{2}}, {"padding", I{1}}, {"count_include_pad", false}},
                     {{Shape{2, 3, 7, 7}}}},
                    {"3x2 stride 1 padding 1,1, pad not counted",
                     {{"kernel_size", Ints{3, 2}}, {"stride", I{1}}, {"padding", I{1}}, {"count_include_pad", false}},
                     {{Shape{2, 3, 5, 6}}}}};
        // Max pooling is piecewise linear with kinks at ties. Values 0.01 apart and eps = 1e-3
        // (a tenth of the gap) keep every window's winner fixed under the perturbation, so the
        // central difference is exact up to float rounding of x +- eps (|x| <= 1.5 here:
        // ~1e-7 / 2e-3 = 5e-5), well inside the default atol 2e-3: no loosening needed.
        const auto maxCase = [](std::string label, Attrs attrs, Shape x) {
            OpCase c{std::move(label), std::move(attrs), {{std::move(x), DType::F32, InputFill::distinct(0.01)}}};
            c.eps = 1e-3;
            return c;
        };
        return {maxCase("2x2", {{"kernel_size", I{2}}}, Shape{2, 3, 7, 7}),
                maxCase("3x3 stride 1 (overlapping)", {{"kernel_size", I{3}}, {"stride", I{1}}}, Shape{2, 3, 7, 7}),
                maxCase("3x3 stride 2 padding 1", {{"kernel_size", I{3}}, {"stride", I{2}}, {"padding", I{1}}},
                        Shape{2, 3, 7, 7}),
                maxCase("2x3 stride 1,2 padding 1", {{"kernel_size", Ints{2, 3}}, {"stride", Ints{1, 2}}, {"padding", I{1}}},
                        Shape{2, 3, 6, 9})};
    }
    // The engine's stride 0 (the kernel size) is written out; ONNX pads are the begins, then the ends.
    std::string exportOnnx(OnnxNodeExport& e) const override
    {
        const Ints& kernel = e.attrs.getInts("kernel_size");
        Ints stride = e.attrs.getInts("stride");
        for (std::size_t i = 0; i < 2; ++i)
            if (stride[i] == 0) stride[i] = kernel[i];
        const Ints& pad = e.attrs.getInts("padding");
        OnnxAttrs attrs{{"kernel_shape", kernel}, {"strides", stride}, {"pads", Ints{pad[0], pad[1], pad[0], pad[1]}}};
        if (kind_ == PoolKind::Avg)
            attrs.push_back({"count_include_pad", std::int64_t{e.attrs.getBool("count_include_pad") ? 1 : 0}});
        e.b.node(kind_ == PoolKind::Max ? "MaxPool" : "AveragePool", {e.in[0]}, {e.out}, e.name, attrs);
        return e.out;
    }
    TensorSpec inferOutput(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        requireImage(in[0]);
        const PoolGeometry g = geometry(a, in[0].shape);
        // Half the kernel at most: every window then keeps at least one real input element.
        if (2 * g.padH > g.kh || 2 * g.padW > g.kw)
            throw OpError("padding " + pairText(a.getInts("padding")) + " is more than half the kernel " +
                              pairText(a.getInts("kernel_size")),
                          {"padding"});
        // Compared directly: outH() divides a negative numerator toward zero and would say 1.
        if (g.h + 2 * g.padH < g.kh || g.w + 2 * g.padW < g.kw)
            throw OpError("input is " + std::to_string(g.h) + "x" + std::to_string(g.w) + ", smaller than the kernel " +
                              pairText(a.getInts("kernel_size")) + " even with padding",
                          {"kernel_size", "padding"});
        return {Shape{g.n, g.c, g.outH(), g.outW()}, DType::F32};
    }
    std::vector<TensorSpec> saved(const Attrs&, std::span<const TensorSpec>, const TensorSpec& out) const override
    {
        if (kind_ == PoolKind::Max) return {{out.shape, DType::I32}};  // argmax per output, for the backward
        return {};
    }
    double flops(const Attrs& a, std::span<const TensorSpec>, const TensorSpec& out) const override
    {
        const auto& k = a.getInts("kernel_size");
        return double(out.shape.numel()) * double(k[0] * k[1]);
    }
    void forward(OpContext& c) const override
    {
        const PoolGeometry g = geometry(c.attrs, c.inputs[0].shape());
        std::int32_t* argmax = kind_ == PoolKind::Max ? c.saved[0].data<std::int32_t>() : nullptr;
        c.backend.pool2dForward(kind_, g, f32(c.inputs[0]), f32(c.output), argmax);
    }
    void backward(OpContext& c) const override
    {
        if (!c.gradInputs[0].defined()) return;
        const PoolGeometry g = geometry(c.attrs, c.inputs[0].shape());
        const std::int32_t* argmax = kind_ == PoolKind::Max ? c.saved[0].data<std::int32_t>() : nullptr;
        c.backend.pool2dBackward(kind_, g, f32(c.gradOutput), argmax, f32(c.gradInputs[0]), c.gradWrite(0));
    }
    bool overwritesFreshGradients() const override { return true; }

private:
    PoolGeometry geometry(const Attrs& a, const Shape& x) const
    {
        const auto& kernel = a.getInts("kernel_size");
        const auto& stride = a.getInts("stride");
        const auto& padding = a.getInts("padding");
        PoolGeometry g;
        g.n = x[0], g.c = x[1], g.h = x[2], g.w = x[3];
        g.kh = kernel[0], g.kw = kernel[1];
        g.strideH = stride[0] > 0 ? stride[0] : kernel[0];
        g.strideW = stride[1] > 0 ? stride[1] : kernel[1];
        g.padH = padding[0], g.padW = padding[1];
        g.countIncludePad = kind_ == PoolKind::Max || a.getBool("count_include_pad");
        return g;
    }

    PoolKind kind_;
};

// The mean of each channel plane: average pooling with the whole plane as the kernel, whose
// [N, C, 1, 1] output has the memory layout of [N, C].
class GlobalAvgPool final : public Op {
public:
    std::string type() const override { return "GlobalAvgPool"; }
    OpCategory category() const override { return OpCategory::Pooling; }
    std::string help() const override
    {
        return QT_TRANSLATE_NOOP("AttrHelp", "The mean of each channel's whole plane: [N, C, H, W] becomes [N, C], ready for a Linear head");
    }
    std::vector<OpCase> cases() const override { return {{"3x4 planes of 5x6", {}, {{Shape{3, 4, 5, 6}}}}}; }
    // GlobalAveragePool [N, C, 1, 1], then Flatten(axis 1) [N, C].
    std::string exportOnnx(OnnxNodeExport& e) const override
    {
        const std::string pooled = e.step("pooled");
        e.b.node("GlobalAveragePool", {e.in[0]}, {pooled}, e.name);
        e.b.node("Flatten", {pooled}, {e.out}, e.name + "/flatten", {{"axis", std::int64_t{1}}});
        return e.out;
    }
    TensorSpec inferOutput(const Attrs&, std::span<const TensorSpec> in) const override
    {
        requireImage(in[0]);
        if (in[0].shape[2] < 1 || in[0].shape[3] < 1) throw OpError("input has empty planes, shape " + in[0].shape.str());
        return {Shape{in[0].shape[0], in[0].shape[1]}, DType::F32};
    }
    double flops(const Attrs&, std::span<const TensorSpec> in, const TensorSpec&) const override
    {
        return double(in[0].shape.numel());
    }
    void forward(OpContext& c) const override
    {
        c.backend.pool2dForward(PoolKind::Avg, geometry(c.inputs[0].shape()), f32(c.inputs[0]), f32(c.output), nullptr);
    }
    void backward(OpContext& c) const override
    {
        if (!c.gradInputs[0].defined()) return;
        c.backend.pool2dBackward(PoolKind::Avg, geometry(c.inputs[0].shape()), f32(c.gradOutput), nullptr,
                                 f32(c.gradInputs[0]), c.gradWrite(0));
    }
    bool overwritesFreshGradients() const override { return true; }

private:
    static PoolGeometry geometry(const Shape& x)
    {
        PoolGeometry g;
        g.n = x[0], g.c = x[1], g.h = x[2], g.w = x[3];
        g.kh = g.h, g.kw = g.w;
        g.strideH = g.h, g.strideW = g.w;
        return g;
    }
};

}  // namespace

TS_REGISTER_OPS(pool)
{
    r.add(std::make_unique<Pool2d>(PoolKind::Max));
    r.add(std::make_unique<Pool2d>(PoolKind::Avg));
    r.add(std::make_unique<GlobalAvgPool>());
}

}  // namespace ts
