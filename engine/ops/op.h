// An op, defined once (rule 3): its attributes, shape rule, parameters, saved buffers,
// cost, forward and backward, written in Backend primitives so it runs on every backend.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "ops/op_case.h"
#include "types/attrs.h"
#include "tensor/tensor.h"

namespace ts {

struct OnnxNodeExport;  // ops/onnx_writer.h

struct TensorSpec {
    Shape shape;
    DType dtype = DType::F32;
    bool operator==(const TensorSpec&) const = default;
};

enum class InitKind : std::uint8_t { Zeros, Ones, KaimingUniform, KaimingNormal, XavierUniform, XavierNormal, Values, Normal };

// How a parameter starts. Kaiming uses fanIn and `gain` (sqrt(2) for ReLU);
// Xavier uses fanIn + fanOut. Values copies `values` (constants from attributes, such as
// class weights, kept as non-trainable parameters so they live on the device). Normal draws
// from normal(0, gain): `gain` is the standard deviation (nn.init.normal_(std=gain)).
struct InitSpec {
    InitKind kind = InitKind::Zeros;
    double fanIn = 1, fanOut = 1;
    double gain = 1.0;
    std::vector<float> values;
};

struct ParamSpec {
    std::string name;  // local: "weight", "bias", "running_mean"; the graph prefixes "node."
    Shape shape;
    InitSpec init;
    bool trainable = true;  // false: a buffer such as batch norm's running statistics
    // Whether weight decay applies; unset: by the shape (see decays()). Tables looked up by
    // index or position (Embedding, PositionalEncoding) say false.
    std::optional<bool> decay;
    // Weight tying: the full name ("embed.weight") of the parameter this one is; the graph check
    // finds it and compares shapes. A tied parameter has no storage, gradient or checkpoint entry
    // of its own: both nodes read the owner's values and add into its gradient. Empty: its own.
    std::string tiedTo;
    bool tied() const { return !tiedTo.empty(); }
};

// The one rule for weight decay's parameter groups (unless optimizer.decay_all), nanoGPT's
// and the PyTorch community's: trainable tensors of rank >= 2 (the weights of Linear, Conv*,
// attention's projections) decay; biases and normalisation scales and shifts (rank 1) do not,
// nor embedding tables, whose rarely seen rows decay would pull to zero between their updates.
inline bool decays(const ParamSpec& p) { return p.trainable && p.decay.value_or(p.shape.rank() >= 2); }

// Thrown by an op's shape rule. `attrs` names the attributes that explain the mismatch,
// so the graph can say `node 'fc2' (Linear, in_features=512): input has 256 features`.
class OpError : public std::runtime_error {
public:
    explicit OpError(const std::string& message, std::vector<std::string> attrs = {})
        : std::runtime_error(message), attrs_(std::move(attrs))
    {
    }
    const std::vector<std::string>& attrs() const { return attrs_; }

private:
    std::vector<std::string> attrs_;
};

// Everything one call of forward or backward sees. Tensors are views into the backend's
// memory. In backward, gradInputs[i] / gradParams[i] are undefined where no gradient is
// wanted (an integer input, a frozen parameter), and otherwise must be ACCUMULATED into,
// except an input gradient whose gradWrite(i) says Overwrite (Op::overwritesFreshGradients).
struct OpContext {
    Backend& backend;
    const Attrs& attrs;
    std::vector<Tensor> inputs;
    Tensor output;
    std::vector<Tensor> params;  // in the order of Op::params()
    std::vector<Tensor> saved;   // in the order of Op::saved(); kept from forward to backward
    void* workspace = nullptr;   // Op::workspaceBytes() bytes of scratch, valid during one call
    bool training = true;
    std::uint64_t seed = 0;  // differs per node and per step (dropout)
    // Statistics over the ranks (training.sync_batchnorm in a data-parallel run); null: this
    // process's batch. Only ops whose result depends on the whole batch use it.
    const CrossRankSum* acrossRanks = nullptr;

    Tensor gradOutput;
    std::vector<Tensor> gradInputs;
    std::vector<Tensor> gradParams;
    // Per gradInputs[i]; empty: all Accumulate. Overwrite: the buffer is unzeroed and this
    // backward is its first writer, so it must write every element (=), not add.
    std::vector<GradWrite> gradInputWrite;
    GradWrite gradWrite(std::size_t i) const
    {
        return i < gradInputWrite.size() ? gradInputWrite[i] : GradWrite::Accumulate;
    }
};

// The family an op belongs to: the model builder's palette groups ops by it, so a newly
// registered op appears there without a list kept by hand.
enum class OpCategory : std::uint8_t { Layer, Recurrent, Activation, Normalization, Pooling, Structure, Loss };
std::string opCategoryName(OpCategory c);  // "layer", "activation", ... (stable, untranslated)

// Everything about an op is here or in its op file: a test fails for a registered op without
// help, without help for each attribute, without cases, or (unless a loss) without an ONNX form.
class Op {
public:
    virtual ~Op() = default;
    virtual std::string type() const = 0;  // "Linear", "Conv2d", ...
    virtual OpCategory category() const = 0;
    // One line saying what the op does, in English, marked for translation (ops/op_text.h).
    virtual std::string help() const { return {}; }
    virtual std::vector<AttrSpec> attrSpecs() const { return {}; }
    // The configurations it is checked in (ops/op_case.h).
    virtual std::vector<OpCase> cases() const { return {}; }
    // Writes the op's inference form as ONNX nodes (opset 17) and returns the value name that
    // holds its output: normally e.out, the input's for an op that is the identity at inference.
    // Empty: the op has no ONNX form (a loss, which the export drops).
    virtual std::string exportOnnx(OnnxNodeExport& e) const
    {
        (void)e;
        return {};
    }
    virtual int minInputs() const { return 1; }
    virtual int maxInputs() const { return 1; }  // -1: any number
    // Input i takes a gradient (false for integer targets and indices).
    virtual bool inputDifferentiable(int i) const { (void)i; return true; }
    // What input i is, for ports and messages: "input" for one-input ops, else "input 1", ...
    virtual std::string inputName(int i) const
    {
        return maxInputs() == 1 ? std::string("input") : "input " + std::to_string(i + 1);
    }
    // A loss produces a scalar that backward starts from.
    virtual bool isLoss() const { return false; }

    // The output's spec, or throws OpError. Input shapes include the batch dimension.
    virtual TensorSpec inferOutput(const Attrs& attrs, std::span<const TensorSpec> inputs) const = 0;
    virtual std::vector<ParamSpec> params(const Attrs& attrs, std::span<const TensorSpec> inputs) const
    {
        (void)attrs, (void)inputs;
        return {};
    }
    virtual std::vector<TensorSpec> saved(const Attrs& attrs, std::span<const TensorSpec> inputs,
                                          const TensorSpec& output) const
    {
        (void)attrs, (void)inputs, (void)output;
        return {};
    }
    virtual std::size_t workspaceBytes(Backend& backend, const Attrs& attrs, std::span<const TensorSpec> inputs,
                                       const TensorSpec& output) const
    {
        (void)backend, (void)attrs, (void)inputs, (void)output;
        return 0;
    }
    // Forward floating-point operations (a multiply-add counts 2).
    virtual double flops(const Attrs& attrs, std::span<const TensorSpec> inputs, const TensorSpec& output) const
    {
        (void)attrs, (void)inputs;
        return static_cast<double>(output.shape.numel());
    }

    virtual void forward(OpContext& ctx) const = 0;
    virtual void backward(OpContext& ctx) const = 0;
    // True: backward honours ctx.gradWrite(i), so the executor may hand it an input gradient
    // buffer it has not zeroed. Worth it for the ops whose input gradient is a whole activation.
    virtual bool overwritesFreshGradients() const { return false; }
};

// Shape-rule helpers shared by ops.
inline void requireRank(const TensorSpec& t, int rank, const std::string& what)
{
    if (t.shape.rank() != rank)
        throw OpError(what + " must have rank " + std::to_string(rank) + ", got shape " + t.shape.str());
}
inline void requireFloat(const TensorSpec& t, const std::string& what)
{
    if (t.dtype != DType::F32) throw OpError(what + " must be f32, got " + std::string(dtypeName(t.dtype)));
}

}  // namespace ts
