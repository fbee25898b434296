#include "selftest/op_case_run.h"

#include <algorithm>
#include <random>
#include <stdexcept>

namespace ts {

namespace {

using i64 = std::int64_t;

// A tensor on `backend` holding `host`'s bytes.
Tensor upload(Backend& backend, const Tensor& host)
{
    Tensor t = Tensor::empty(host.shape(), host.dtype(), backend.allocator());
    backend.copyFromHost(t.raw(), host.raw(), host.bytes());
    return t;
}

Tensor uploadFill(Backend& backend, const Shape& shape, const InputFill& fill, std::mt19937_64& rng)
{
    Tensor host = Tensor::empty(shape);
    fillInput(fill, host, rng);
    return upload(backend, host);
}

}  // namespace

OpCaseRun::OpCaseRun(const Op& op, const OpCase& c, Backend& backend, std::uint64_t seed)
    : op_(op), backend_(backend), training_(c.training)
{
    const std::string err = normaliseAttrs(op.attrSpecs(), c.attrs, attrs_);
    if (!err.empty()) throw std::invalid_argument(op.type() + " (" + c.label + "): " + err);
    std::vector<TensorSpec> specs;
    for (const OpCaseInput& in : c.inputs) specs.push_back({in.shape, in.dtype});
    const TensorSpec out = op.inferOutput(attrs_, specs);
    paramSpecs_ = op.params(attrs_, specs);

    std::mt19937_64 rng(seed);
    for (const OpCaseInput& in : c.inputs) {
        Tensor host = Tensor::empty(in.shape, in.dtype);
        fillInput(in.fill, host, rng);
        inputs_.push_back(upload(backend, host));
    }
    for (const ParamSpec& p : paramSpecs_)
        params_.push_back(uploadFill(backend, p.shape, p.trainable ? InputFill::normal(0.5) : InputFill::uniform(0.5, 1.5), rng));
    for (const TensorSpec& s : op.saved(attrs_, specs, out)) {
        saved_.push_back(Tensor::empty(s.shape, s.dtype, backend.allocator()));
        backend.zeroBytes(saved_.back().raw(), saved_.back().bytes());
    }
    const std::size_t workspaceBytes = op.workspaceBytes(backend, attrs_, specs, out);
    if (workspaceBytes) workspace_ = Tensor::empty(Shape{i64(workspaceBytes)}, DType::U8, backend.allocator());
    output_ = out.dtype == DType::F32 ? uploadFill(backend, out.shape, InputFill::uniform(-1, 1), rng)
                                      : Tensor::empty(out.shape, out.dtype, backend.allocator());
    gradOutput_ = uploadFill(backend, out.shape, InputFill::normal(), rng);
    for (std::size_t i = 0; i < inputs_.size(); ++i) {
        const bool wanted = inputs_[i].dtype() == DType::F32 && op.inputDifferentiable(static_cast<int>(i));
        gradInputs_.push_back(wanted ? uploadFill(backend, inputs_[i].shape(), InputFill::uniform(-1, 1), rng) : Tensor{});
    }
    for (std::size_t i = 0; i < params_.size(); ++i)
        gradParams_.push_back(paramSpecs_[i].trainable ? uploadFill(backend, params_[i].shape(), InputFill::uniform(-1, 1), rng)
                                                       : Tensor{});
    contextSeed_ = rng();
}

OpContext OpCaseRun::context()
{
    OpContext ctx{backend_, attrs_};
    ctx.inputs = inputs_;
    ctx.output = output_;
    ctx.params = params_;
    ctx.saved = saved_;
    ctx.workspace = workspace_.defined() ? workspace_.raw() : nullptr;
    ctx.training = training_;
    ctx.seed = contextSeed_;
    return ctx;
}

void OpCaseRun::forward()
{
    OpContext ctx = context();
    op_.forward(ctx);
    backend_.synchronize();
}

void OpCaseRun::backward()
{
    OpContext ctx = context();
    ctx.gradOutput = gradOutput_;
    ctx.gradInputs = gradInputs_;
    ctx.gradParams = gradParams_;
    op_.backward(ctx);
    backend_.synchronize();
}

NamedValues OpCaseRun::download(std::string name, const Tensor& t) const
{
    Tensor host = Tensor::empty(t.shape(), t.dtype());
    backend_.copyToHost(host.raw(), t.raw(), t.bytes());
    NamedValues v{std::move(name), std::vector<double>(static_cast<std::size_t>(t.numel())), t.dtype() != DType::F32};
    for (std::size_t i = 0; i < v.values.size(); ++i) switch (t.dtype()) {
        case DType::F32: v.values[i] = host.data<float>()[i]; break;
        case DType::I32: v.values[i] = host.data<std::int32_t>()[i]; break;
        case DType::I64: v.values[i] = double(host.data<i64>()[i]); break;
        case DType::U8: v.values[i] = host.data<std::uint8_t>()[i]; break;
        default: throw std::invalid_argument("op case outputs are f32, i32, i64 or u8");
        }
    return v;
}

std::vector<NamedValues> OpCaseRun::outputs() const { return {download("output", output_)}; }

std::vector<NamedValues> OpCaseRun::gradients() const
{
    std::vector<NamedValues> out;
    for (std::size_t i = 0; i < gradInputs_.size(); ++i)
        if (gradInputs_[i].defined()) out.push_back(download("d " + op_.inputName(static_cast<int>(i)), gradInputs_[i]));
    for (std::size_t i = 0; i < gradParams_.size(); ++i)
        if (gradParams_[i].defined()) out.push_back(download("d " + paramSpecs_[i].name, gradParams_[i]));
    return out;
}

std::vector<PrimitiveCall> traceOpCase(const Op& op, const OpCase& c, OpPass pass)
{
    Attrs attrs;
    const std::string err = normaliseAttrs(op.attrSpecs(), c.attrs, attrs);
    if (!err.empty()) throw std::invalid_argument(op.type() + " (" + c.label + "): " + err);
    std::vector<TensorSpec> specs;
    std::vector<bool> grads;
    for (std::size_t i = 0; i < c.inputs.size(); ++i) {
        specs.push_back({c.inputs[i].shape, c.inputs[i].dtype});
        grads.push_back(c.inputs[i].dtype == DType::F32 && op.inputDifferentiable(static_cast<int>(i)));
    }
    return traceOp(op, pass, attrs, specs, grads);
}

std::vector<PrimitiveCall> traceOpCase(const Op& op, const OpCase& c, bool backward)
{
    const OpPass pass = c.training ? (backward ? OpPass::TrainingBackward : OpPass::TrainingForward)
                                   : (backward ? OpPass::InferenceBackward : OpPass::InferenceForward);
    return traceOpCase(op, c, pass);
}

std::string opCaseShapes(const OpCase& c)
{
    std::string text;
    for (std::size_t i = 0; i < c.inputs.size(); ++i)
        text += (i ? " x" : "x") + (c.inputs.size() > 1 ? std::to_string(i + 1) : std::string()) + "=" + c.inputs[i].shape.str();
    return text;
}

}  // namespace ts
