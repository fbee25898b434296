// MaxPool1d and AvgPool1d over sequences: x [N, C, L] -> [N, C, outL], on the 2-D pooling
// primitives with height 1 ([N, C, 1, L], the same memory, and a 1 x kernel window).
#include "ops/common.h"
#include "ops/onnx_writer.h"
#include "ops/op_text.h"
#include "ops/registry.h"

namespace ts {

namespace {

using Ints = std::vector<std::int64_t>;

class Pool1d final : public Op {
public:
    explicit Pool1d(PoolKind kind) : kind_(kind) {}
    std::string type() const override { return kind_ == PoolKind::Max ? "MaxPool1d" : "AvgPool1d"; }
    OpCategory category() const override { return OpCategory::Pooling; }
    std::string help() const override
    {
        return kind_ == PoolKind::Max
                   ? QT_TRANSLATE_NOOP("AttrHelp", "Keeps the largest value of each window along a sequence: halves the length with kernel 2")
                   : QT_TRANSLATE_NOOP("AttrHelp", "Averages each window along a sequence");
    }
    std::vector<AttrSpec> attrSpecs() const override
    {
        std::vector<AttrSpec> specs{
            AttrSpec{"kernel_size", AttrType::Ints, std::nullopt, atLeast(1), 1}.withHelp(
                QT_TRANSLATE_NOOP("AttrHelp", "The window's length; 2 halves the sequence.")),
            AttrSpec{"stride", AttrType::Ints, AttrValue(std::int64_t{0}), atLeast(0), 1}.withHelp(QT_TRANSLATE_NOOP(
                "AttrHelp", "How far the window moves; 0 means the kernel size (windows that do not overlap).")),
            AttrSpec{"padding", AttrType::Ints, AttrValue(std::int64_t{0}), atLeast(0), 1}.withHelp(QT_TRANSLATE_NOOP(
                "AttrHelp", "Padding added at each end of the sequence; at most half the kernel."))};
        if (kind_ == PoolKind::Avg)
            specs.push_back(AttrSpec{"count_include_pad", AttrType::Bool, AttrValue(true)}.withHelp(QT_TRANSLATE_NOOP(
                "AttrHelp", "Whether padded zeros count in the average at the borders (on: divide by the whole window).")));
        return specs;
    }
    std::vector<OpCase> cases() const override
    {
        using I = std::int64_t;
        if (kind_ == PoolKind::Avg)
            return {{"kernel 2", {{"kernel_size", I{2}}}, {{Shape{2, 3, 9}}}},
                    {"kernel 3 stride 2 padding 1, pad counted", {{"kernel_size", I{3}}, {"stride", I{2}}, {"padding", I{1}}},
                     {{Shape{2, 3, 9}}}},
                    {"kernel 3 stride 1 padding 1, pad not counted",
                     {{"kernel_size", I{3}}, {"stride", I{1}}, {"padding", I{1}}, {"count_include_pad", false}},
                     {{Shape{2, 3, 8}}}}};
        // Values 0.01 apart and eps = 1e-3 keep each window's maximum where it is (as MaxPool2d's cases).
        const auto maxCase = [](std::string label, Attrs attrs, Shape x) {
            OpCase c{std::move(label), std::move(attrs), {{std::move(x), DType::F32, InputFill::distinct(0.01)}}};
            c.eps = 1e-3;
            return c;
        };
        return {maxCase("kernel 2", {{"kernel_size", I{2}}}, Shape{2, 3, 9}),
                maxCase("kernel 3 stride 1 (overlapping)", {{"kernel_size", I{3}}, {"stride", I{1}}}, Shape{2, 3, 8}),
                maxCase("kernel 3 stride 2 padding 1", {{"kernel_size", I{3}}, {"stride", I{2}}, {"padding", I{1}}}, Shape{2, 3, 9})};
    }
    // ONNX pooling is n-dimensional: the 1-D attributes with the engine's stride 0 written out.
    std::string exportOnnx(OnnxNodeExport& e) const override
    {
        const PoolGeometry g = geometry(e.attrs, e.inSpecs[0].shape);
        OnnxAttrs attrs{{"kernel_shape", Ints{g.kw}}, {"strides", Ints{g.strideW}}, {"pads", Ints{g.padW, g.padW}}};
        if (kind_ == PoolKind::Avg) attrs.push_back({"count_include_pad", std::int64_t{g.countIncludePad ? 1 : 0}});
        e.b.node(kind_ == PoolKind::Max ? "MaxPool" : "AveragePool", {e.in[0]}, {e.out}, e.name, attrs);
        return e.out;
    }
    TensorSpec inferOutput(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        requireFloat(in[0], "input");
        if (in[0].shape.rank() != 3)
            throw OpError("input must have rank 3 ([N, C, L]), got shape " + in[0].shape.str());
        const PoolGeometry g = geometry(a, in[0].shape);
        // Half the kernel at most (PyTorch's rule): every window keeps a real element.
        if (2 * g.padW > g.kw)
            throw OpError("padding " + std::to_string(g.padW) + " is more than half the kernel " + std::to_string(g.kw),
                          {"padding"});
        if (g.w + 2 * g.padW < g.kw)  // outW() would divide a negative numerator toward zero
            throw OpError("input has length " + std::to_string(g.w) + ", shorter than the kernel " + std::to_string(g.kw) +
                              " even with padding",
                          {"kernel_size", "padding"});
        return {Shape{g.n, g.c, g.outW()}, DType::F32};
    }
    std::vector<TensorSpec> saved(const Attrs&, std::span<const TensorSpec>, const TensorSpec& out) const override
    {
        if (kind_ == PoolKind::Max) return {{out.shape, DType::I32}};  // each window's argmax, for the backward
        return {};
    }
    double flops(const Attrs& a, std::span<const TensorSpec>, const TensorSpec& out) const override
    {
        return double(out.shape.numel()) * double(a.getInts("kernel_size")[0]);
    }
    void forward(OpContext& c) const override
    {
        std::int32_t* argmax = kind_ == PoolKind::Max ? c.saved[0].data<std::int32_t>() : nullptr;
        c.backend.pool2dForward(kind_, geometry(c.attrs, c.inputs[0].shape()), f32(c.inputs[0]), f32(c.output), argmax);
    }
    void backward(OpContext& c) const override
    {
        if (!c.gradInputs[0].defined()) return;
        const std::int32_t* argmax = kind_ == PoolKind::Max ? c.saved[0].data<std::int32_t>() : nullptr;
        c.backend.pool2dBackward(kind_, geometry(c.attrs, c.inputs[0].shape()), f32(c.gradOutput), argmax,
                                 f32(c.gradInputs[0]), c.gradWrite(0));
    }
    bool overwritesFreshGradients() const override { return true; }

private:
    PoolGeometry geometry(const Attrs& a, const Shape& x) const
    {
        const std::int64_t kernel = a.getInts("kernel_size")[0], stride = a.getInts("stride")[0];
        PoolGeometry g;
        g.n = x[0], g.c = x[1], g.h = 1, g.w = x[2];
        g.kh = 1, g.kw = kernel;
        g.strideW = stride > 0 ? stride : kernel;
        g.padW = a.getInts("padding")[0];
        g.countIncludePad = kind_ == PoolKind::Max || a.getBool("count_include_pad");
        return g;
    }

    PoolKind kind_;
};

}  // namespace

TS_REGISTER_OPS(pool1d)
{
    r.add(std::make_unique<Pool1d>(PoolKind::Max));
    r.add(std::make_unique<Pool1d>(PoolKind::Avg));
}

}  // namespace ts
