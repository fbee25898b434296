// Ops that move data rather than compute on it: Flatten, Reshape, Add, Concat, and the
// Embedding lookup. The batch dimension (dim 0) is never reshaped or concatenated.
#include <string>

#include "ops/common.h"
#include "ops/onnx_writer.h"
#include "ops/op_text.h"
#include "ops/registry.h"

namespace ts {

namespace {

std::string str(std::int64_t v) { return std::to_string(v); }

std::string listString(const std::vector<std::int64_t>& v) { return Shape(v).str(); }

using I = std::int64_t;
using Ints = std::vector<std::int64_t>;

// ONNX Reshape to [0, perSample...]: 0 copies the input's batch, so no constant fixes it.
std::string exportReshape(OnnxNodeExport& e, Ints perSample)
{
    perSample.insert(perSample.begin(), 0);
    const std::string shape = e.b.int64s(e.name + "/shape", {I(perSample.size())}, perSample);
    e.b.node("Reshape", {e.in[0], shape}, {e.out}, e.name);
    return e.out;
}

// Flatten and Reshape keep the element order, so forward is a byte copy and backward adds
// the output gradient into the input gradient unchanged (copies it, as its first writer).
void copyForward(OpContext& c) { c.backend.copyBytes(c.output.raw(), c.inputs[0].raw(), c.output.bytes()); }
void copyBackward(OpContext& c)
{
    if (!c.gradInputs[0].defined()) return;
    if (c.gradWrite(0) == GradWrite::Overwrite) c.backend.copyBytes(c.gradInputs[0].raw(), c.gradOutput.raw(), c.output.bytes());
    else c.backend.axpy(c.output.numel(), 1.0f, f32(c.gradOutput), f32(c.gradInputs[0]));
}

class Flatten final : public Op {
public:
    std::string type() const override { return "Flatten"; }
    OpCategory category() const override { return OpCategory::Structure; }
    std::string help() const override
    {
        return QT_TRANSLATE_NOOP("AttrHelp", "Joins the dimensions from start_dim on into one: [N, C, H, W] becomes [N, C·H·W]");
    }
    std::vector<AttrSpec> attrSpecs() const override
    {
        return {AttrSpec{"start_dim", AttrType::Int, AttrValue(std::int64_t{1}), atLeast(1)}.withHelp(
            QT_TRANSLATE_NOOP("AttrHelp", "The first dimension joined; 1 keeps only the batch dimension apart."))};
    }
    std::vector<OpCase> cases() const override
    {
        return {{"start_dim 1", {{"start_dim", I{1}}}, {{Shape{2, 3, 4, 5}}}},
                {"start_dim 2", {{"start_dim", I{2}}}, {{Shape{2, 3, 4, 5}}}}};
    }
    // start_dim 1 is ONNX Flatten(axis 1); a later start keeps the leading dimensions by Reshape.
    std::string exportOnnx(OnnxNodeExport& e) const override
    {
        const std::int64_t start = e.attrs.getInt("start_dim");
        if (start == 1) {
            e.b.node("Flatten", {e.in[0]}, {e.out}, e.name, {{"axis", I{1}}});
            return e.out;
        }
        Ints perSample;
        for (std::int64_t d = 1; d < start; ++d) perSample.push_back(e.inSpecs[0].shape[int(d)]);
        perSample.push_back(-1);
        return exportReshape(e, perSample);
    }
    TensorSpec inferOutput(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        const Shape& s = in[0].shape;
        const std::int64_t start = a.getInt("start_dim");
        if (start >= s.rank())
            throw OpError("start_dim " + str(start) + " is past the last dimension of input shape " + s.str(),
                          {"start_dim"});
        std::vector<std::int64_t> dims(s.dims().begin(), s.dims().begin() + start);
        dims.push_back(s.product(static_cast<int>(start), s.rank()));
        return {Shape(dims), in[0].dtype};
    }
    double flops(const Attrs&, std::span<const TensorSpec>, const TensorSpec&) const override { return 0; }
    void forward(OpContext& c) const override { copyForward(c); }
    void backward(OpContext& c) const override { copyBackward(c); }
    bool overwritesFreshGradients() const override { return true; }
};

class Reshape final : public Op {
public:
    std::string type() const override { return "Reshape"; }
    OpCategory category() const override { return OpCategory::Structure; }
    std::string help() const override
    {
        return QT_TRANSLATE_NOOP("AttrHelp", "Gives each sample a new shape with the same number of values");
    }
    std::vector<AttrSpec> attrSpecs() const override
    {
        // per sample; one -1 is inferred
        return {AttrSpec{"shape", AttrType::Ints, std::nullopt, atLeast(-1)}.withHelp(
            QT_TRANSLATE_NOOP("AttrHelp", "The new shape of one sample, without the batch dimension, e.g. \"1, 28, 28\"; one -1 is "
                                          "worked out from the rest."))};
    }
    std::vector<OpCase> cases() const override
    {
        return {{"[2,12] -> [3,-1]", {{"shape", Ints{3, -1}}}, {{Shape{2, 12}}}},
                {"[2,3,4] -> [12]", {{"shape", Ints{12}}}, {{Shape{2, 3, 4}}}},
                {"[2,2,3,2] -> [-1,2]", {{"shape", Ints{-1, 2}}}, {{Shape{2, 2, 3, 2}}}}};
    }
    std::string exportOnnx(OnnxNodeExport& e) const override { return exportReshape(e, e.attrs.getInts("shape")); }
    TensorSpec inferOutput(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        const Shape& s = in[0].shape;
        if (s.rank() < 1) throw OpError("input must have a batch dimension, got shape " + s.str());
        std::vector<std::int64_t> shape = a.getInts("shape");
        const std::int64_t perSample = s.product(1, s.rank());
        std::int64_t known = 1;
        int inferred = -1;
        for (std::size_t i = 0; i < shape.size(); ++i) {
            if (shape[i] == 0) throw OpError("shape " + listString(shape) + " has a zero dimension", {"shape"});
            if (shape[i] > 0) known *= shape[i];
            else if (inferred >= 0) throw OpError("shape " + listString(shape) + " has more than one -1", {"shape"});
            else inferred = static_cast<int>(i);
        }
        if (inferred >= 0) {
            if (perSample % known != 0)
                throw OpError("input has " + str(perSample) + " elements per sample, not a multiple of " + str(known) +
                                  " as shape " + listString(shape) + " needs",
                              {"shape"});
            shape[static_cast<std::size_t>(inferred)] = perSample / known;
        } else if (known != perSample) {
            throw OpError("input has " + str(perSample) + " elements per sample, shape " + listString(shape) +
                              " has " + str(known),
                          {"shape"});
        }
        shape.insert(shape.begin(), s[0]);
        return {Shape(shape), in[0].dtype};
    }
    double flops(const Attrs&, std::span<const TensorSpec>, const TensorSpec&) const override { return 0; }
    void forward(OpContext& c) const override { copyForward(c); }
    void backward(OpContext& c) const override { copyBackward(c); }
    bool overwritesFreshGradients() const override { return true; }
};

// y = sum of the inputs (residual connections).
class Add final : public Op {
public:
    std::string type() const override { return "Add"; }
    OpCategory category() const override { return OpCategory::Structure; }
    std::string help() const override
    {
        return QT_TRANSLATE_NOOP("AttrHelp", "Adds its inputs element by element (residual connections); the shapes must match");
    }
    std::vector<OpCase> cases() const override
    {
        return {{"2 inputs", {}, {{Shape{2, 3, 4}}, {Shape{2, 3, 4}}}},
                {"3 inputs", {}, {{Shape{2, 3, 4}}, {Shape{2, 3, 4}}, {Shape{2, 3, 4}}}}};
    }
    std::string exportOnnx(OnnxNodeExport& e) const override
    {
        e.b.node(e.in.size() == 2 ? "Add" : "Sum", e.in, {e.out}, e.name);
        return e.out;
    }
    int minInputs() const override { return 2; }
    int maxInputs() const override { return -1; }
    TensorSpec inferOutput(const Attrs&, std::span<const TensorSpec> in) const override
    {
        for (std::size_t i = 0; i < in.size(); ++i) {
            requireFloat(in[i], "input " + str(std::int64_t(i)));
            if (in[i].shape != in[0].shape)
                throw OpError("input " + str(std::int64_t(i)) + " has shape " + in[i].shape.str() + ", input 0 has " +
                              in[0].shape.str() + "; Add needs equal shapes");
        }
        return {in[0].shape, DType::F32};
    }
    double flops(const Attrs&, std::span<const TensorSpec> in, const TensorSpec& out) const override
    {
        return double(in.size() - 1) * double(out.shape.numel());
    }
    void forward(OpContext& c) const override
    {
        const std::int64_t n = c.output.numel();
        c.backend.add(n, f32(c.inputs[0]), f32(c.inputs[1]), f32(c.output));
        for (std::size_t i = 2; i < c.inputs.size(); ++i) c.backend.axpy(n, 1.0f, f32(c.inputs[i]), f32(c.output));
    }
    // A residual's skip gradient is usually fresh here (the block's first backward writer):
    // copied then, instead of zeroed and added to.
    void backward(OpContext& c) const override
    {
        for (std::size_t i = 0; i < c.gradInputs.size(); ++i) {
            const Tensor& dx = c.gradInputs[i];
            if (!dx.defined()) continue;
            if (c.gradWrite(i) == GradWrite::Overwrite) c.backend.copyBytes(dx.raw(), c.gradOutput.raw(), c.output.bytes());
            else c.backend.axpy(c.output.numel(), 1.0f, f32(c.gradOutput), f32(dx));
        }
    }
    bool overwritesFreshGradients() const override { return true; }
};

// Joins inputs along one axis. Each tensor is viewed as [outer, size_along_axis * inner],
// so an input is a column block of the output and copy2d moves it both ways.
class Concat final : public Op {
public:
    std::string type() const override { return "Concat"; }
    OpCategory category() const override { return OpCategory::Structure; }
    std::string help() const override
    {
        return QT_TRANSLATE_NOOP("AttrHelp", "Joins its inputs along one axis (channels by default)");
    }
    std::vector<AttrSpec> attrSpecs() const override
    {
        return {AttrSpec{"axis", AttrType::Int, AttrValue(std::int64_t{1})}.withHelp(
            QT_TRANSLATE_NOOP("AttrHelp", "The axis joined along (1: channels or features; negative counts from the end). The "
                                          "other dimensions must match; the batch axis 0 cannot be joined."))};
    }
    std::vector<OpCase> cases() const override
    {
        return {{"axis 1, rank 4", {{"axis", I{1}}}, {{Shape{2, 1, 3, 2}}, {Shape{2, 3, 3, 2}}, {Shape{2, 2, 3, 2}}}},
                {"axis -1, rank 4", {{"axis", I{-1}}}, {{Shape{2, 3, 2, 1}}, {Shape{2, 3, 2, 4}}, {Shape{2, 3, 2, 2}}}},
                {"axis 2, rank 3", {{"axis", I{2}}}, {{Shape{3, 2, 2}}, {Shape{3, 2, 5}}}}};
    }
    std::string exportOnnx(OnnxNodeExport& e) const override
    {
        e.b.node("Concat", e.in, {e.out}, e.name, {{"axis", I(resolveAxis(e.attrs, e.inSpecs[0].shape.rank()))}});
        return e.out;
    }
    int minInputs() const override { return 2; }
    int maxInputs() const override { return -1; }
    TensorSpec inferOutput(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        const Shape& first = in[0].shape;
        const int axis = resolveAxis(a, first.rank());
        Shape out = first;
        out[axis] = 0;
        for (std::size_t i = 0; i < in.size(); ++i) {
            requireFloat(in[i], "input " + str(std::int64_t(i)));
            const Shape& s = in[i].shape;
            bool fits = s.rank() == first.rank();
            for (int d = 0; fits && d < s.rank(); ++d) fits = d == axis || s[d] == first[d];
            if (!fits)
                throw OpError("input " + str(std::int64_t(i)) + " has shape " + s.str() + ", input 0 has " +
                                  first.str() + "; all dimensions but axis " + str(axis) + " must match",
                              {"axis"});
            out[axis] += s[axis];
        }
        return {out, DType::F32};
    }
    double flops(const Attrs&, std::span<const TensorSpec>, const TensorSpec&) const override { return 0; }
    void forward(OpContext& c) const override
    {
        forEachBlock(c, [&](std::size_t i, std::int64_t offset, std::int64_t outer, std::int64_t cols,
                            std::int64_t outCols) {
            c.backend.copy2d(f32(c.inputs[i]), cols, f32(c.output) + offset, outCols, outer, cols, false);
        });
    }
    void backward(OpContext& c) const override
    {
        forEachBlock(c, [&](std::size_t i, std::int64_t offset, std::int64_t outer, std::int64_t cols,
                            std::int64_t outCols) {
            const Tensor& dx = c.gradInputs[i];
            if (dx.defined()) c.backend.copy2d(f32(c.gradOutput) + offset, outCols, f32(dx), cols, outer, cols, true);
        });
    }

private:
    static int resolveAxis(const Attrs& a, int rank)
    {
        const std::int64_t given = a.getInt("axis");
        const std::int64_t axis = given < 0 ? given + rank : given;
        if (axis < 0 || axis >= rank)
            throw OpError("axis " + str(given) + " is outside the " + str(rank) + " dimensions of the inputs", {"axis"});
        if (axis == 0) throw OpError("cannot concatenate along the batch dimension (axis 0)", {"axis"});
        return static_cast<int>(axis);
    }
    // fn(input index, column offset in the output row, outer, input columns, output columns).
    template <class Fn> static void forEachBlock(const OpContext& c, Fn&& fn)
    {
        const Shape& out = c.output.shape();
        const int axis = resolveAxis(c.attrs, out.rank());
        const std::int64_t outer = out.product(0, axis), inner = out.product(axis + 1, out.rank());
        std::int64_t offset = 0;
        for (std::size_t i = 0; i < c.inputs.size(); ++i) {
            const std::int64_t cols = c.inputs[i].shape()[axis] * inner;
            fn(i, offset, outer, cols, out[axis] * inner);
            offset += cols;
        }
    }
};

// y[..., :] = weight[index, :] for i64 indices of any shape [N, ...].
class Embedding final : public Op {
public:
    std::string type() const override { return "Embedding"; }
    OpCategory category() const override { return OpCategory::Layer; }
    std::string help() const override
    {
        return QT_TRANSLATE_NOOP("AttrHelp", "Looks up a learned vector for each integer index (words, categories)");
    }
    std::vector<AttrSpec> attrSpecs() const override
    {
        return {AttrSpec{"num_embeddings", AttrType::Int, std::nullopt, atLeast(1)}.withHelp(QT_TRANSLATE_NOOP(
                    "AttrHelp", "How many different indices there are (the vocabulary or category count); an index must be below it.")),
                AttrSpec{"embedding_dim", AttrType::Int, std::nullopt, atLeast(1)}.withHelp(
                    QT_TRANSLATE_NOOP("AttrHelp", "The length of each learned vector.")),
                AttrSpec{"init", AttrType::String, AttrValue(std::string("normal")), {}, 0,
                         {"normal", "xavier_normal", "xavier_uniform", "zeros"}}
                    .withHelp(QT_TRANSLATE_NOOP("AttrHelp", "How the vectors start: normal (standard normal, as PyTorch), xavier_normal or xavier_uniform; "
                                                "zeros only for tests."))};
    }
    // 20 lookups into 3 rows (6 into 2): indices repeat, so the scatter-add of several lookups
    // into one weight row is exercised.
    std::vector<OpCase> cases() const override
    {
        return {{"[4,5] into 3x4", {{"num_embeddings", I{3}}, {"embedding_dim", I{4}}},
                 {{Shape{4, 5}, DType::I64, InputFill::integers(0, 3)}}},
                {"[6] into 2x3", {{"num_embeddings", I{2}}, {"embedding_dim", I{3}}},
                 {{Shape{6}, DType::I64, InputFill::integers(0, 2)}}}};
    }
    // Rows of the [num_embeddings, dim] table picked by the int64 indices.
    std::string exportOnnx(OnnxNodeExport& e) const override
    {
        e.b.node("Gather", {e.floatParam("weight"), e.in[0]}, {e.out}, e.name, {{"axis", I{0}}});
        return e.out;
    }
    bool inputDifferentiable(int) const override { return false; }
    std::string inputName(int) const override { return "indices"; }
    TensorSpec inferOutput(const Attrs& a, std::span<const TensorSpec> in) const override
    {
        if (in[0].dtype != DType::I64)
            throw OpError("input must be i64 indices, got " + std::string(dtypeName(in[0].dtype)));
        if (in[0].shape.rank() < 1) throw OpError("input must have a batch dimension, got shape " + in[0].shape.str());
        std::vector<std::int64_t> dims = in[0].shape.dims();
        dims.push_back(a.getInt("embedding_dim"));
        return {Shape(dims), DType::F32};
    }
    std::vector<ParamSpec> params(const Attrs& a, std::span<const TensorSpec>) const override
    {
        const std::int64_t rows = a.getInt("num_embeddings"), dim = a.getInt("embedding_dim");
        InitSpec init;
        if (a.getString("init") == "normal") {
            init = {InitKind::KaimingNormal, 1.0, 1.0, 1.0, {}};  // stddev gain / sqrt(fanIn) = 1, as PyTorch
        } else {
            init = weightInit(a, double(dim), double(rows));  // PyTorch's fans for a [rows, dim] weight
        }
        return {{"weight", Shape{rows, dim}, init, true, /*decay=*/false}};  // a table, not a weight matrix
    }
    double flops(const Attrs&, std::span<const TensorSpec>, const TensorSpec&) const override { return 0; }
    void forward(OpContext& c) const override
    {
        c.backend.embeddingForward(c.inputs[0].data<std::int64_t>(), f32(c.params[0]), f32(c.output),
                                   c.inputs[0].numel(), c.attrs.getInt("num_embeddings"),
                                   c.attrs.getInt("embedding_dim"));
    }
    void backward(OpContext& c) const override
    {
        if (c.gradParams[0].defined())
            c.backend.embeddingBackward(c.inputs[0].data<std::int64_t>(), f32(c.gradOutput), f32(c.gradParams[0]),
                                        c.inputs[0].numel(), c.attrs.getInt("embedding_dim"));
    }
};

}  // namespace

TS_REGISTER_OPS(structure)
{
    r.add(std::make_unique<Flatten>());
    r.add(std::make_unique<Reshape>());
    r.add(std::make_unique<Add>());
    r.add(std::make_unique<Concat>());
    r.add(std::make_unique<Embedding>());
}

}  // namespace ts
