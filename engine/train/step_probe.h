// One real training step of a model at a given batch size, on synthetic data of the right
// shape: what the Model page runs to confirm that the largest batch the plan promises does
// fit (automatically on a GPU, on request on the CPU). The step is the trainer's own work
// (Executor, optimizer from makeOptimizer, feedBatch, forward, backward, gradient norm,
// clipping, one optimizer step), once, with nothing recorded; it reports the allocator's
// peak next to the plan, and an out-of-memory as a result, never as an exception.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "types/experiment_spec.h"
#include "types/run_memory.h"

namespace ts {

class Backend;
class RunControl;

struct StepProbe {
    enum class Outcome {
        Ran,          // the step ran: peakBytes is what it took
        OutOfMemory,  // the device (or the budget) had too little memory: message says how much was asked
        Failed,       // anything else (a model that does not check, a bad setting): message
        Stopped,      // the control asked it to stop before the step was done
    };
    Outcome outcome = Outcome::Failed;
    std::int64_t batch = 0;
    RunMemory planned;          // planRunMemory at that batch (zero when the model does not check)
    std::size_t peakBytes = 0;  // the allocator's peak above what it held before, over set-up and the step
    double setupSeconds = 0;    // executor, parameters, optimizer
    double stepSeconds = 0;     // forward, backward and the optimizer step, synchronised
    float loss = 0;             // the step's loss (finite for a sensible model)
    std::string message;        // why it did not run (English; empty when it ran)
    bool ran() const { return outcome == Outcome::Ran; }
};

// Runs one step of `spec`'s model at `batch` on `backend` with `spec`'s optimizer, precision,
// seed and clipping. `budgetBytes` (0: none) caps what the step may take: a plan above it is
// reported as OutOfMemory without allocating, and so is a measured peak above it. The
// backend is shared (one stream, one set of library handles and scratch buffers, one
// allocator): the caller must not run this while a run trains on the same backend (the step
// probe job runs on the job queue's one thread, after any run). The backend's matrix precision
// is set for the step and restored. `control` (optional) is checked between the phases (the
// data, set-up, forward, backward, the optimizer step): a stop ends it Stopped, memory freed.
StepProbe probeTrainingStep(const ExperimentSpec& spec, std::int64_t batch, Backend& backend, std::size_t budgetBytes = 0,
                            const RunControl* control = nullptr);

}  // namespace ts
