#include "train/step_probe.h"

#include <chrono>
#include <cmath>
#include <memory>
#include <new>
#include <stdexcept>

#include "backend/backend.h"
#include "backend/math_precision.h"
#include "exec/executor.h"
#include "optim/optimizer.h"
#include "tensor/format_bytes.h"
#include "train/evaluation.h"
#include "train/memory_advice.h"
#include "train/run_control.h"

namespace ts {

namespace {

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A batch as the loader hands one over (host memory the backend copies from fastest):
// inputs spread over the normalised range, labels cycling through the classes.
Batch syntheticBatch(const CheckedGraph& graph, const GraphBinding& binding, std::int64_t batch, Allocator& host)
{
    const Shape& inputShape = graph.values[static_cast<std::size_t>(graph.findValue(binding.input))].spec.shape;
    const Shape& logitsShape = graph.values[static_cast<std::size_t>(graph.findValue(binding.logits))].spec.shape;
    const std::int64_t classes = logitsShape.rank() >= 2 ? std::max<std::int64_t>(1, logitsShape[1]) : 2;
    Batch b;
    b.size = batch;
    b.inputs = Tensor::empty(inputShape, DType::F32, host);
    float* x = b.inputs.data<float>();
    for (std::int64_t i = 0; i < b.inputs.numel(); ++i) x[i] = static_cast<float>((i * 7919) % 255) / 127.5f - 1.0f;
    b.labels = Tensor::empty(Shape{batch}, DType::I64, host);
    for (std::int64_t i = 0; i < batch; ++i) b.labels.data<std::int64_t>()[i] = i % classes;
    return b;
}

// The backend's matrix precision for the probe, as the trainer sets it, put back afterwards.
class PrecisionFor {
public:
    PrecisionFor(Backend& backend, MathPrecision p) : backend_(backend), before_(backend.mathPrecision())
    {
        backend_.setMathPrecision(p);
    }
    ~PrecisionFor() { backend_.setMathPrecision(before_); }

private:
    Backend& backend_;
    MathPrecision before_;
};

// Thrown between the phases when the control asks for a stop; caught below.
struct StopRequested {};

std::string tooLarge(const char* what, std::size_t bytes, std::size_t budget)
{
    return std::string(what) + " " + formatBytes(double(bytes)) + ", more than the " + formatBytes(double(budget)) + " allowed";
}

}  // namespace

StepProbe probeTrainingStep(const ExperimentSpec& spec, std::int64_t batch, Backend& backend, std::size_t budgetBytes,
                            const RunControl* control)
{
    StepProbe r;
    r.batch = batch;
    const auto checkStop = [control] {
        if (control && control->stopRequested()) throw StopRequested{};
    };
    try {
        if (batch < 1) throw std::invalid_argument("batch size " + std::to_string(batch) + ": expected 1 or more");
        const auto precision = parseMathPrecision(spec.training.precision);
        if (!precision)
            throw std::invalid_argument("training.precision '" + spec.training.precision + "': expected f32, tf32, bf16 or f16");
        const PrecisionFor precisionFor(backend, *precision);
        const CheckedGraph graph = checkGraph(spec.model, batch);
        r.planned = runMemory(planMemory(graph, backend, /*training=*/true), spec.optimizer);
        if (budgetBytes > 0 && r.planned.total() > budgetBytes) {
            r.outcome = StepProbe::Outcome::OutOfMemory;
            r.message = tooLarge("the plan needs", r.planned.total(), budgetBytes) + ": not run";
            return r;
        }
        const GraphBinding binding = GraphBinding::of(graph);
        // The batch belongs to the loader, not to the device's plan: made before counting.
        checkStop();
        const Batch data = syntheticBatch(graph, binding, batch, backend.hostAllocator());
        checkStop();
        Allocator& allocator = backend.allocator();
        backend.synchronize();
        const std::size_t before = allocator.stats().allocated;
        allocator.resetPeak();
        {
            // What Trainer::setup and one optimizer step of Trainer::trainEpoch do, in order.
            const auto setupStart = std::chrono::steady_clock::now();
            Executor exec(graph, backend, /*training=*/true);
            exec.initParameters(spec.training.seed);
            exec.setSeed(spec.training.seed);
            std::unique_ptr<Optimizer> optimizer = makeOptimizer(spec.optimizer, exec);
            backend.synchronize();
            r.setupSeconds = secondsSince(setupStart);
            checkStop();

            const auto stepStart = std::chrono::steady_clock::now();
            exec.setTraining(true);
            exec.setLossScale(1.0f);
            exec.zeroGrad();
            feedBatch(exec, binding, data);
            exec.setStep(0);
            exec.forward();
            r.loss = exec.loss();
            const std::vector<float> logits = hostLogits(exec, binding);  // as the trainer reads them
            checkStop();
            exec.backward();
            checkStop();
            gradientNorm(exec);
            if (spec.training.clipGradNorm > 0) clipGradientNorm(exec, spec.training.clipGradNorm);
            if (spec.training.clipGradValue > 0) clipGradientValue(exec, spec.training.clipGradValue);
            optimizer->step(static_cast<float>(spec.optimizer.lr));
            backend.synchronize();
            r.stepSeconds = secondsSince(stepStart);
        }
        const AllocatorStats after = allocator.stats();
        r.peakBytes = after.peak > before ? after.peak - before : 0;
        if (budgetBytes > 0 && r.peakBytes > budgetBytes) {
            r.outcome = StepProbe::Outcome::OutOfMemory;
            r.message = tooLarge("the step took", r.peakBytes, budgetBytes);
            return r;
        }
        r.outcome = StepProbe::Outcome::Ran;
    } catch (const StopRequested&) {
        r.outcome = StepProbe::Outcome::Stopped;
        r.message = "stopped before the step was done";
    } catch (const DeviceOutOfMemory& e) {
        r.outcome = StepProbe::Outcome::OutOfMemory;
        r.message = e.what();
    } catch (const std::bad_alloc&) {
        r.outcome = StepProbe::Outcome::OutOfMemory;
        r.message = "the system could not allocate the step's memory (" + formatBytes(double(r.planned.total())) + " planned)";
    } catch (const std::exception& e) {
        r.outcome = StepProbe::Outcome::Failed;
        r.message = e.what();
    }
    return r;
}

}  // namespace ts
