// Ops that rearrange sequences and multiply them, for Transformers built by hand: Permute (the
// transpose too), MatMul (batched matrix products) and Slice (a graph node has one output, so a
// split is several Slices). The batch dimension (dim 0) always stays where it is.
#include <limits>
#include <string>

#include "ops/common.h"
#include "ops/onnx_writer.h"
#include "ops/op_text.h"
#include "ops/registry.h"

namespace ts {

namespace {

using I = std::int64_t;
using Ints = std::vector<std::int64_t>;

std::string str(std::int64_t v) { return std::to_string(v); }

// ---- Permute -----------------------------------------------------------------------------

// The full permutation [0, dims...] for an input of `rank`, or throws naming `dims`.
std::vector<int> fullPermutation(const Ints& dims, int rank)
{
    const std::string given = Shape(dims).str();
    if (static_cast<int>(dims.size()) != rank - 1)
        throw OpError("dims " + given + " orders " + str(I(dims.size())) + " dimensions, the input has " +
                          str(rank - 1) + " besides the batch",
                      {"dims"});
    std::vector<int> perm{0};
    std::vector<bool> seen(std::size_t(rank), false);
    for (I d : dims) {
        if (d < 1 || d >= rank || seen[std::size_t(d)])
            throw OpError("dims " + given + " must name each of the dimensions 1.." + str(rank - 1) +
                              " once (the batch, 0, stays first)",
                          {"dims"});
        seen[std::size_t(d)] = true;
        perm.push_back(static_cast<int>(d));
    }
    return perm;
}

PermuteGeometry permuteGeometry(const Shape& x, std::vector<int> perm)
{
    return {x.dims(), std::move(perm)};
}

class Permute final : public Op {
public:
    std::string type() const override { return "Permute"; }
    OpCategory category() const override { return OpCategory::Structure; }
    std::string help() const override
    {
        return QT_TRANSLATE_NOOP("AttrHelp", "Reorders the dimensions of each sample; also the transpose: dims 2, 1 turns "
                                             "[batch, channels, tokens] into [batch, tokens, channels]");
    }
    std::vector<AttrSpec> attrSpecs() const override
    {
        return {AttrSpec{"dims", AttrType::Ints, std::nullopt, atLeast(1)}.withHelp(QT_TRANSLATE_NOOP(
            "AttrHelp", "The new order of the dimensions after the batch, by their numbers (1 is the first after the "
                        "batch), e.g. \"2, 1\" swaps the last two of a rank-3 input. The batch stays first."))};
    }
    std::vector<OpCase> cases() const override
    {
        return {{"[2,3,5] swap the last two", {{"dims", Ints{2, 1}}}, {{Shape{2, 3, 5}}}},
                {"[2,3,4,5] heads first", {{"dims", Ints{2, 1, 3}}}, {{Shape{2, 3, 4, 5}}}},
                {"[2,3,1,4] rotate", {{"dims", Ints{3, 1, 2}}}, {{Shape{2, 3, 1, 4}}}},
                {"[1,2,3,2,2] reversed", {{"dims", Ints{4, 3, 2, 1}}}, {{Shape{1, 2, 3, 2, 2}}}}};
    }
    std::string exportOnnx(OnnxNodeExport& e) const override
    {
        Ints perm{0};
        for (I d : e.attrs.getInts("dims")) perm.push_back(d);
        e.b.node("Transpose", {e.in[0]}, {e.out}, e.name, {{"perm", perm}});
        return e.out;
    }
    TensorSpec inferOutput(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        requireFloat(in[0], "input");
        const Shape& x = in[0].shape;
        if (x.rank() < 2 || x.rank() > 8)
            throw OpError("input must have 2 to 8 dimensions, got shape " + x.str());
        const std::vector<int> perm = fullPermutation(a.getInts("dims"), x.rank());
        Ints dims;
        for (int p : perm) dims.push_back(x[p]);
        return {Shape(dims), DType::F32};
    }
    double flops(const Attrs&, std::span<const TensorSpec>, const TensorSpec&) const override { return 0; }
    void forward(OpContext& c) const override
    {
        const Shape& x = c.inputs[0].shape();
        c.backend.permute(permuteGeometry(x, fullPermutation(c.attrs.getInts("dims"), x.rank())), f32(c.inputs[0]),
                          f32(c.output), GradWrite::Overwrite);
    }
    // dx = dy permuted back: y's dimension d is x's perm[d], so x's perm[d] is dy's d.
    void backward(OpContext& c) const override
    {
        if (!c.gradInputs[0].defined()) return;
        const std::vector<int> perm = fullPermutation(c.attrs.getInts("dims"), c.inputs[0].shape().rank());
        std::vector<int> inverse(perm.size());
        for (std::size_t d = 0; d < perm.size(); ++d) inverse[std::size_t(perm[d])] = static_cast<int>(d);
        c.backend.permute(permuteGeometry(c.output.shape(), inverse), f32(c.gradOutput), f32(c.gradInputs[0]),
                          c.gradWrite(0));
    }
    bool overwritesFreshGradients() const override { return true; }
};

// ---- MatMul ------------------------------------------------------------------------------

// a [L..., M, K] x b [L..., K, N] -> [L..., M, N]: the leading dimensions (batch first) equal.
struct MatMulDims {
    I count, m, k, n;
};

MatMulDims matMulDims(const Shape& a, const Shape& b)
{
    return {a.product(0, a.rank() - 2), a[-2], a[-1], b[-1]};
}

class MatMul final : public Op {
public:
    std::string type() const override { return "MatMul"; }
    OpCategory category() const override { return OpCategory::Layer; }
    std::string help() const override
    {
        return QT_TRANSLATE_NOOP("AttrHelp", "Multiplies two inputs as matrices, sample by sample: [batch, M, K] times [batch, K, N] "
                                             "gives [batch, M, N] (attention's scores and weighted sums, built by hand)");
    }
    std::vector<OpCase> cases() const override
    {
        return {{"[2,3,4] x [2,4,5]", {}, {{Shape{2, 3, 4}}, {Shape{2, 4, 5}}}},
                {"[2,2,3,4] x [2,2,4,3] (heads)", {}, {{Shape{2, 2, 3, 4}}, {Shape{2, 2, 4, 3}}}},
                {"[3,1,5] x [3,5,1]", {}, {{Shape{3, 1, 5}}, {Shape{3, 5, 1}}}}};
    }
    std::string exportOnnx(OnnxNodeExport& e) const override
    {
        e.b.node("MatMul", {e.in[0], e.in[1]}, {e.out}, e.name);
        return e.out;
    }
    int minInputs() const override { return 2; }
    int maxInputs() const override { return 2; }
    std::string inputName(int i) const override { return i == 0 ? "a" : "b"; }
    TensorSpec inferOutput(const Attrs&, std::span<const TensorSpec> in) const override
    {
        requireFloat(in[0], "a (input 1)");
        requireFloat(in[1], "b (input 2)");
        const Shape &a = in[0].shape, &b = in[1].shape;
        if (a.rank() < 3 || b.rank() != a.rank())
            throw OpError("a " + a.str() + " and b " + b.str() + " must have the same rank, at least 3 ([batch, M, K] and "
                          "[batch, K, N])");
        for (int d = 0; d < a.rank() - 2; ++d)
            if (a[d] != b[d])
                throw OpError("a " + a.str() + " and b " + b.str() + " differ in dimension " + str(d) +
                              ": the dimensions before the last two (batch first) must be equal");
        if (a[-1] != b[-2])
            throw OpError("a " + a.str() + " has " + str(a[-1]) + " columns, b " + b.str() + " has " + str(b[-2]) +
                          " rows: [.., M, K] x [.., K, N] needs them equal");
        Shape out = a;
        out[-1] = b[-1];
        return {out, DType::F32};
    }
    double flops(const Attrs&, std::span<const TensorSpec> in, const TensorSpec&) const override
    {
        const MatMulDims d = matMulDims(in[0].shape, in[1].shape);
        return 2.0 * double(d.count) * double(d.m) * double(d.n) * double(d.k);
    }
    void forward(OpContext& c) const override
    {
        const MatMulDims d = matMulDims(c.inputs[0].shape(), c.inputs[1].shape());
        const float *a = f32(c.inputs[0]), *b = f32(c.inputs[1]);
        float* y = f32(c.output);
        for (I l = 0; l < d.count; ++l)
            c.backend.gemm(false, false, d.m, d.n, d.k, 1.0f, a + l * d.m * d.k, d.k, b + l * d.k * d.n, d.n, 0.0f,
                           y + l * d.m * d.n, d.n);
    }
    // da = dy b^T, db = a^T dy, per leading index.
    void backward(OpContext& c) const override
    {
        const MatMulDims d = matMulDims(c.inputs[0].shape(), c.inputs[1].shape());
        const float *a = f32(c.inputs[0]), *b = f32(c.inputs[1]), *dy = f32(c.gradOutput);
        float *da = f32(c.gradInputs[0]), *db = f32(c.gradInputs[1]);
        const float betaA = c.gradWrite(0) == GradWrite::Overwrite ? 0.0f : 1.0f;
        const float betaB = c.gradWrite(1) == GradWrite::Overwrite ? 0.0f : 1.0f;
        for (I l = 0; l < d.count; ++l) {
            const float* dyl = dy + l * d.m * d.n;
            if (da)
                c.backend.gemm(false, true, d.m, d.k, d.n, 1.0f, dyl, d.n, b + l * d.k * d.n, d.n, betaA,
                               da + l * d.m * d.k, d.k);
            if (db)
                c.backend.gemm(true, false, d.k, d.n, d.m, 1.0f, a + l * d.m * d.k, d.k, dyl, d.n, betaB,
                               db + l * d.k * d.n, d.n);
        }
    }
    bool overwritesFreshGradients() const override { return true; }
};

// ---- Slice -------------------------------------------------------------------------------

// [start, end) along `axis`, resolved against the input (negative counts from the end; end 0:
// to the end), or throws naming the attribute at fault.
struct SliceRange {
    int axis;
    I start, end;
};

SliceRange sliceRange(const Attrs& a, const Shape& x)
{
    const I givenAxis = a.getInt("axis"), axis = givenAxis < 0 ? givenAxis + x.rank() : givenAxis;
    if (axis < 0 || axis >= x.rank())
        throw OpError("axis " + str(givenAxis) + " is outside the " + str(x.rank()) + " dimensions of input " + x.str(),
                      {"axis"});
    if (axis == 0) throw OpError("cannot slice the batch dimension (axis 0)", {"axis"});
    const I size = x[int(axis)], givenStart = a.getInt("start"), givenEnd = a.getInt("end");
    const I start = givenStart < 0 ? givenStart + size : givenStart;
    const I end = givenEnd == 0 ? size : givenEnd < 0 ? givenEnd + size : givenEnd;
    if (start < 0 || start >= size)
        throw OpError("start " + str(givenStart) + " is outside axis " + str(axis) + " of size " + str(size), {"start"});
    if (end > size) throw OpError("end " + str(givenEnd) + " is past axis " + str(axis) + " of size " + str(size), {"end"});
    if (end <= start)
        throw OpError("end " + str(givenEnd) + " is not after start " + str(givenStart) + " on axis " + str(axis) +
                          " of size " + str(size) + ": the slice would be empty",
                      {"end"});
    return {static_cast<int>(axis), start, end};
}

class Slice final : public Op {
public:
    std::string type() const override { return "Slice"; }
    OpCategory category() const override { return OpCategory::Structure; }
    std::string help() const override
    {
        return QT_TRANSLATE_NOOP("AttrHelp", "Keeps the part of the input from start to end along one axis. A node has one output, "
                                             "so a split is several Slices of one input (e.g. queries, keys and values from one "
                                             "projection)");
    }
    std::vector<AttrSpec> attrSpecs() const override
    {
        return {AttrSpec{"axis", AttrType::Int, AttrValue(std::int64_t{-1})}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "The axis sliced (negative counts from the end; -1, the default, is the last). The batch "
                                "axis 0 cannot be sliced.")),
                AttrSpec{"start", AttrType::Int, AttrValue(std::int64_t{0})}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "The first index kept; negative counts from the end.")),
                AttrSpec{"end", AttrType::Int, AttrValue(std::int64_t{0})}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "One past the last index kept; negative counts from the end (-1 leaves the last out); "
                                "0, the default, runs to the end."))};
    }
    std::vector<OpCase> cases() const override
    {
        return {{"[2,3,12] the middle third of the last axis", {{"start", I{4}}, {"end", I{8}}}, {{Shape{2, 3, 12}}}},
                {"[2,5,4] tokens 1 to the end", {{"axis", I{1}}, {"start", I{1}}}, {{Shape{2, 5, 4}}}},
                {"[2,3,4,5] axis -2 from -3 to -1", {{"axis", I{-2}}, {"start", I{-3}}, {"end", I{-1}}}, {{Shape{2, 3, 4, 5}}}}};
    }
    // Slice with the attributes as given: negative indices mean the same in ONNX; end 0 is
    // INT64_MAX there (to the end).
    std::string exportOnnx(OnnxNodeExport& e) const override
    {
        const I end = e.attrs.getInt("end");
        const auto one = [&](const std::string& what, I v) { return e.b.int64s(e.name + "." + what, {1}, {v}); };
        e.b.node("Slice",
                 {e.in[0], one("starts", e.attrs.getInt("start")), one("ends", end == 0 ? std::numeric_limits<I>::max() : end),
                  one("axes", e.attrs.getInt("axis"))},
                 {e.out}, e.name);
        return e.out;
    }
    TensorSpec inferOutput(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        requireFloat(in[0], "input");
        const SliceRange r = sliceRange(a, in[0].shape);
        Shape out = in[0].shape;
        out[r.axis] = r.end - r.start;
        return {out, DType::F32};
    }
    double flops(const Attrs&, std::span<const TensorSpec>, const TensorSpec&) const override { return 0; }
    // The input viewed as [outer, size * inner]: the slice is a column block of each row.
    void forward(OpContext& c) const override
    {
        const Block b = block(c);
        c.backend.copy2d(f32(c.inputs[0]) + b.offset, b.inCols, f32(c.output), b.outCols, b.outer, b.outCols, false);
    }
    void backward(OpContext& c) const override
    {
        if (!c.gradInputs[0].defined()) return;
        const Block b = block(c);
        c.backend.copy2d(f32(c.gradOutput), b.outCols, f32(c.gradInputs[0]) + b.offset, b.inCols, b.outer, b.outCols, true);
    }

private:
    struct Block {
        I outer, inCols, outCols, offset;
    };
    static Block block(const OpContext& c)
    {
        const Shape& x = c.inputs[0].shape();
        const SliceRange r = sliceRange(c.attrs, x);
        const I inner = x.product(r.axis + 1, x.rank());
        return {x.product(0, r.axis), x[r.axis] * inner, (r.end - r.start) * inner, r.start * inner};
    }
};

}  // namespace

TS_REGISTER_OPS(sequence)
{
    r.add(std::make_unique<Permute>());
    r.add(std::make_unique<MatMul>());
    r.add(std::make_unique<Slice>());
}

}  // namespace ts
