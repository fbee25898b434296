#include "train/memory_advice.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "backend/backend.h"
#include "backend/devices.h"
#include "exec/memory_plan.h"
#include "optim/optimizer.h"
#include "tensor/checked_size.h"
#include "tensor/format_bytes.h"

namespace ts {

RunMemory runMemory(const MemoryPlan& plan, const OptimizerSpec& optimizer)
{
    RunMemory m;
    m.parameters = plan.parameterBytes;
    m.gradients = plan.gradientBytes;
    // One copy of the trainable parameters (the gradients' size) per optimizer buffer.
    m.optimizerState = checkedMul(optimizerStateNames(optimizer).size(), plan.gradientBytes, "the optimizer state");
    m.activations = plan.activationBytes;
    m.workspace = plan.workspaceBytes;
    checkedAdd(plan.total(), m.optimizerState, "the run's planned memory");  // so m.total() cannot wrap
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

namespace {
// MemAvailable from /proc/meminfo: what the kernel estimates can be allocated without swapping.
std::size_t availableRam()
{
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    std::size_t kib = 0;
    std::string unit;
    while (meminfo >> key >> kib >> unit)
        if (key == "MemAvailable:") return kib * 1024;
    return 0;
}
}  // namespace

std::size_t availableTrainingBytes(Backend& backend)
{
    const Device d = backend.device();
    const std::size_t system = d.kind == DeviceKind::CUDA ? cudaMemoryInfo(d.index).freeBytes : availableRam();
    if (system == 0) return 0;
    const AllocatorStats held = backend.allocator().stats();
    return system + (held.reserved - held.allocated);
}

std::size_t memoryMargin(std::size_t availableBytes, bool gpu)
{
    const std::size_t floor = gpu ? std::size_t(512) << 20 : std::size_t(1) << 30;
    return std::max(floor, availableBytes / (gpu ? 10 : 5));
}

MemoryBudget memoryBudget(Backend& backend)
{
    MemoryBudget b;
    b.available = availableTrainingBytes(backend);
    if (b.available == 0) return b;
    b.margin = memoryMargin(b.available, backend.device().kind == DeviceKind::CUDA);
    b.usable = b.available > b.margin ? b.available - b.margin : 0;
    return b;
}

std::string describeBudget(const MemoryBudget& budget, Backend& backend, const std::string& whose)
{
    const std::string available =
        formatBytes(double(budget.available)) + " " + availableMemoryName(backend) + (whose.empty() ? "" : " " + whose);
    if (budget.margin == 0 && budget.usable == budget.available) return available;
    return formatBytes(double(budget.usable)) + " of the " + available + ", " + formatBytes(double(budget.margin)) +
           " kept free for the system";
}

std::int64_t largestFittingBatch(const ExperimentSpec& spec, Backend& backend, std::size_t availableBytes,
                                 std::int64_t limit)
{
    auto fits = [&](std::int64_t batch) {
        try {
            return planRunMemory(spec, batch, backend).total() <= availableBytes;
        } catch (const GraphError& e) {  // a batch so large its sizes overflow does not fit either
            if (e.kind() == GraphError::Kind::TooLarge) return false;
            throw;
        } catch (const SizeOverflow&) {
            return false;
        }
    };
    if (limit < 1 || !fits(1)) return 0;
    std::int64_t fitting = 1, tooLarge = 0;  // 0: none found yet
    while (!tooLarge) {
        const std::int64_t next = std::min(fitting * 2, limit);
        if (next == fitting) return fitting;  // the limit fits
        (fits(next) ? fitting : tooLarge) = next;
    }
    while (tooLarge - fitting > 1) {
        const std::int64_t mid = fitting + (tooLarge - fitting) / 2;
        (fits(mid) ? fitting : tooLarge) = mid;
    }
    return fitting;
}

std::string availableMemoryName(Backend& backend)
{
    return backend.device().kind == DeviceKind::CUDA ? "free on " + backend.name() : "of RAM available (MemAvailable)";
}

std::optional<std::string> memoryRefusal(const ExperimentSpec& spec, std::int64_t batch, const RunMemory& need,
                                         Backend& backend, const MemoryBudget& budget, const std::string& whose, int ranks)
{
    const std::size_t availableBytes = budget.usable;
    if (budget.available == 0 || need.total() <= availableBytes) return std::nullopt;
    std::ostringstream out;
    out << "the run does not fit in memory: at batch " << batch << (ranks > 1 ? " per rank" : "") << " it needs " << formatBytes(double(need.total())) << " ("
        << describeRunMemory(need, spec.optimizer.type).text << "), more than the " << describeBudget(budget, backend, whose)
        << ".";
    const std::int64_t largest = largestFittingBatch(spec, backend, availableBytes, std::max<std::int64_t>(batch - 1, 0));
    if (largest > 0) {
        out << " The largest batch that fits: training.batch_size: " << largest * ranks << " ("
            << formatBytes(double(planRunMemory(spec, largest, backend).total()))
            << (ranks > 1 ? " per rank, " + std::to_string(largest) + " samples each" : "") << ")";
        // The same effective batch in micro-batches: the largest divisor of the batch that fits
        // (looked for below 2^20 only; past that the batch itself is the problem).
        std::int64_t divisor = std::min<std::int64_t>(largest, 1 << 20), steps = 0, effective = 0;
        while (divisor > 1 && batch % divisor != 0) --divisor;
        if ((divisor > 1 || largest == 1) && !__builtin_mul_overflow(batch / divisor, spec.training.accumulationSteps, &steps) &&
            !__builtin_mul_overflow(batch, spec.training.accumulationSteps, &effective))
            out << "; or training.batch_size: " << divisor * ranks << " with training.accumulation_steps: " << steps
                << " to keep the effective batch of " << effective * ranks;
        out << ".";
    } else {
        std::size_t fixed = 0;
        try {
            const RunMemory one = planRunMemory(spec, 1, backend);
            fixed = one.parameters + one.gradients + one.optimizerState;
        } catch (const std::exception&) {
            fixed = need.parameters + need.gradients + need.optimizerState;
        }
        out << " Even batch 1 does not fit: the parameters, their gradients and the optimizer state alone need "
            << formatBytes(double(fixed)) << ". Use a smaller model, or an optimizer with less state (sgd without "
            << "momentum keeps none; adam keeps two copies of the parameters).";
    }
    return out.str();
}

std::string largestBatchNote(const ExperimentSpec& spec, Backend& backend, const MemoryBudget& budget, std::int64_t batch,
                             int ranks)
{
    const std::size_t availableBytes = budget.usable;
    if (budget.available == 0) return {};
    try {
        planRunMemory(spec, 1, backend);
    } catch (const std::exception&) {  // not the batch's fault
        return {};
    }
    const std::int64_t largest = largestFittingBatch(spec, backend, availableBytes, std::max<std::int64_t>(batch - 1, 0));
    return describeBudget(budget, backend) +
           (largest > 0 ? ": the largest batch that fits is training.batch_size: " + std::to_string(largest * ranks)
                        : ": not even batch 1 fits");
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
