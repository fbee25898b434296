#include "train/memory_advice.h"

#include <sstream>

#include "exec/memory_plan.h"
#include "optim/optimizer.h"
#include "tensor/format_bytes.h"

namespace ts {

RunMemory runMemory(const MemoryPlan& plan, const OptimizerSpec& optimizer)
{
    RunMemory m;
    m.parameters = plan.parameterBytes;
    m.gradients = plan.gradientBytes;
    // One copy of the trainable parameters (the gradients' size) per optimizer buffer.
    m.optimizerState = optimizerStateNames(optimizer).size() * plan.gradientBytes;
    m.activations = plan.activationBytes;
    m.workspace = plan.workspaceBytes;
    return m;
}

RunMemory planRunMemory(const ExperimentSpec& spec, std::int64_t batch, Backend& backend)
{
    return runMemory(planMemory(checkGraph(spec.model, batch), backend, /*training=*/true), spec.optimizer);
}

std::vector<std::string> runMemoryArgs(const RunMemory& m, const std::string& optimizerType)
{
    return {formatBytes(double(m.parameters)), formatBytes(double(m.gradients)), optimizerType,
            formatBytes(double(m.optimizerState)), formatBytes(double(m.activations)), formatBytes(double(m.workspace)),
            formatBytes(double(m.total()))};
}

Message describeRunMemory(const RunMemory& m, const std::string& optimizerType)
{
    return makeMessage(MessageId::MemoryBreakdown, runMemoryArgs(m, optimizerType));
}

std::string outOfMemoryAdvice(const ExperimentSpec& spec, Backend& backend, std::size_t availableBytes)
{
    const std::int64_t batch = spec.training.batchSize;
    const RunMemory need = planRunMemory(spec, batch, backend);
    std::ostringstream out;
    out << "The run's plan at batch " << batch << ": " << describeRunMemory(need, spec.optimizer.type).text << ", with "
        << formatBytes(double(availableBytes)) << " available.";
    for (std::int64_t b = batch / 2; b >= 1; b /= 2) {
        const RunMemory smaller = planRunMemory(spec, b, backend);
        if (smaller.total() > availableBytes) continue;
        const std::int64_t steps = (batch + b - 1) / b;
        out << " What fits: training.batch_size: " << b << " (" << formatBytes(double(smaller.total()))
            << "), with training.accumulation_steps: " << steps * spec.training.accumulationSteps
            << " to keep the effective batch of " << batch * spec.training.accumulationSteps << ".";
        return out.str();
    }
    const std::size_t fixed = need.parameters + need.gradients + need.optimizerState;
    out << " Even batch 1 does not fit: the parameters, their gradients and the optimizer state alone need "
        << formatBytes(double(fixed)) << ". Use a smaller model, or an optimizer with less state (sgd without "
        << "momentum keeps none; adam keeps two copies of the parameters).";
    return out.str();
}

}  // namespace ts
