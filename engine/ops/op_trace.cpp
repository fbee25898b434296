#include "ops/op_trace.h"

#include <algorithm>

namespace ts {

std::vector<PrimitiveCall> traceOp(const Op& op, OpPass pass, const Attrs& attrs, std::span<const TensorSpec> inputs,
                                   const std::vector<bool>& inputGrads)
{
    TracingBackend tracer;  // no inner backend: a dry run
    Allocator& placeholders = tracer.allocator();
    const auto tensor = [&](const TensorSpec& s) { return Tensor::empty(s.shape, s.dtype, placeholders); };
    const TensorSpec output = op.inferOutput(attrs, inputs);

    OpContext ctx{tracer, attrs};
    for (const TensorSpec& s : inputs) ctx.inputs.push_back(tensor(s));
    ctx.output = tensor(output);
    const std::vector<ParamSpec> params = op.params(attrs, inputs);
    for (const ParamSpec& p : params) ctx.params.push_back(tensor({p.shape}));
    for (const TensorSpec& s : op.saved(attrs, inputs, output)) ctx.saved.push_back(tensor(s));
    ctx.workspace = tensor({Shape{std::int64_t(op.workspaceBytes(tracer, attrs, inputs, output))}, DType::U8}).raw();
    ctx.training = isTraining(pass);
    if (isBackward(pass)) {
        ctx.gradOutput = tensor(output);
        for (std::size_t i = 0; i < inputs.size(); ++i) {
            const bool wanted = inputGrads.empty() ? op.inputDifferentiable(int(i)) : inputGrads[i];
            ctx.gradInputs.push_back(wanted ? tensor(inputs[i]) : Tensor());
        }
        for (const ParamSpec& p : params) ctx.gradParams.push_back(p.trainable ? tensor({p.shape}) : Tensor());
        op.backward(ctx);
    } else {
        op.forward(ctx);
    }
    return tracer.take();
}

std::vector<Primitive> unsupportedPrimitives(const std::vector<PrimitiveCall>& calls, const Backend& backend)
{
    std::vector<Primitive> missing;
    for (const PrimitiveCall& c : calls)
        if (!backend.supports(c.primitive) && std::find(missing.begin(), missing.end(), c.primitive) == missing.end())
            missing.push_back(c.primitive);
    return missing;
}

}  // namespace ts
