// The one-step memory check as a job (jobs/job.h StepProbeJob): on the job queue's thread, so
// it never shares the backend with a run, cancellable, and checked against the memory budget
// before it allocates. It once ran at a batch sized to all the free RAM and the kernel killed
// the studio; now the batch leaves the margin (train/memory_advice.h) and a batch beyond the
// budget is refused by memoryRefusal, the check every training run passes too.
#include "backend/backend.h"
#include "jobs/job_parts.h"
#include "tensor/format_bytes.h"
#include "train/memory_advice.h"
#include "train/run_control.h"
#include "train/step_probe.h"

namespace ts {

namespace {

std::string bytes(std::size_t n) { return formatBytes(double(n)); }

}  // namespace

JobResult runStepProbeJob(const StepProbeJob& job, const JobEnvironment& env, RunControl& control, TrainListener& listener)
{
    return finishJob(JobResult{}, listener, [&](JobResult& result) {
        FinishedEvent& done = result.finished;
        ExperimentSpec spec = job.experiment;
        if (!job.device.empty()) spec.training.device = job.device;
        if (job.batch < 0) throw std::invalid_argument("the one-step check's batch " + std::to_string(job.batch) + ": expected 1 or more (0: the largest that fits)");
        Backend& backend = jobBackend(env, spec.training.device, listener);
        const MemoryBudget budget = memoryBudget(backend);
        done.metrics["available_bytes"] = double(budget.available);
        done.metrics["margin_bytes"] = double(budget.margin);

        std::int64_t batch = job.batch;
        if (batch == 0) {
            if (budget.available == 0)
                throw std::runtime_error(backend.name() + " does not say how much memory is free: choose the batch to check yourself");
            listener.onEvent(ProgressEvent{0, 2, makeMessage(MessageId::ProbeFindingBatch,
                                                             {bytes(budget.usable), bytes(budget.available), bytes(budget.margin)})});
            batch = std::max<std::int64_t>(1, largestFittingBatch(spec, backend, budget.usable));
        }
        done.metrics["batch"] = double(batch);
        // Refused before anything is allocated, with the numbers and the batch that fits.
        const RunMemory need = planRunMemory(spec, batch, backend);
        done.metrics["planned_bytes"] = double(need.total());
        if (auto refusal = memoryRefusal(spec, batch, need, backend, budget, "here")) throw std::runtime_error(*refusal);
        if (control.stopRequested()) {
            done.outcome = FinishedEvent::Outcome::Stopped;
            done.message = makeMessage(MessageId::ProbeStopped, {std::to_string(batch)});
            return;
        }

        listener.onEvent(ProgressEvent{1, 2, makeMessage(MessageId::ProbeRunningStep, {std::to_string(batch)})});
        const StepProbe probe = probeTrainingStep(spec, batch, backend, budget.usable, &control);
        done.metrics["peak_bytes"] = double(probe.peakBytes);
        done.metrics["setup_seconds"] = probe.setupSeconds;
        done.metrics["step_seconds"] = probe.stepSeconds;
        switch (probe.outcome) {
        case StepProbe::Outcome::Ran:
            done.metrics["loss"] = probe.loss;
            done.message = makeMessage(MessageId::ProbeRan, {std::to_string(batch), bytes(probe.peakBytes), bytes(need.total()),
                                                             std::to_string(int(probe.stepSeconds * 1e3 + 0.5))});
            return;
        case StepProbe::Outcome::Stopped:
            done.outcome = FinishedEvent::Outcome::Stopped;
            done.message = makeMessage(MessageId::ProbeStopped, {std::to_string(batch)});
            return;
        case StepProbe::Outcome::OutOfMemory:
            throw std::runtime_error("one step at batch " + std::to_string(batch) + " does not fit: " + probe.message);
        case StepProbe::Outcome::Failed:
            break;
        }
        throw std::runtime_error("one step at batch " + std::to_string(batch) + " failed: " + probe.message);
    });
}

}  // namespace ts
