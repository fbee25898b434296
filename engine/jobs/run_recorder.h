// Records a training run in the store: a TrainListener that turns the trainer's events into
// queued rows of a RunWriter (it never blocks the trainer, but for one commit per checkpoint).
//   StepEvent   -> metrics loss, lr, grad_norm, samples_per_s, data_wait_s and
//                  grad_norm/<parameter> at the step
//   EpochEvent  -> every metric of the epoch at its last step, plus "epoch" (value: epoch),
//                  data_wait_fraction and, once the run has been paused, paused_s (seconds in all)
//   StartedEvent, EpochEvent, CheckpointEvent -> also a log line each (what the live log shows)
//   LogEvent    -> a log line; FinishedEvent -> the test split's metrics (test_*), a log line and the
//                  run's status (finished / stopped / failed; an early stop is finished)
//   CheckpointEvent -> a checkpoint row (paths made relative to checkpoints/), removals
//   SystemEvent -> a system sample
// Epoch and final metrics are stamped with the wall time of the latest StepEvent.
//
// When the writer cannot write (disk full, RunWriter::writeFailure) and a control is given,
// the recorder pauses the run at the next event and says why (a warning to `notices` and
// the run's log); the writer's retry that commits again resumes it. Nothing is dropped: the
// rows wait in the writer's queue.
#pragma once
#include <atomic>
#include <cstdint>
#include <map>
#include <string>

#include "types/experiment_spec.h"
#include "store/run_writer.h"
#include "types/events.h"

namespace ts {

// The run row for training `spec` on `device`: experiment name and YAML, flattened
// parameters, device, seed. Callers add name, tags and the parent of a resume or fork.
NewRun newRunFor(const ExperimentSpec& spec, const std::string& device);

class RunControl;

class RunRecorder final : public TrainListener {
public:
    RunRecorder(RunWriter& writer, std::int64_t runId, RunControl* control = nullptr, TrainListener* notices = nullptr);
    ~RunRecorder() override;
    RunRecorder(const RunRecorder&) = delete;
    RunRecorder& operator=(const RunRecorder&) = delete;
    void onEvent(const TrainEvent& event) override;

private:
    void pauseWhileUnwritable();

    RunWriter& writer_;
    std::int64_t runId_;
    RunControl* control_;
    TrainListener* notices_;
    std::atomic<bool> pausedForStore_{false}, resumedByStore_{false};
    std::int64_t lastStep_ = 0;
    double lastWallTime_ = 0;  // epoch and final metrics carry no time of their own
    std::map<std::string, double> lastEpochMetrics_;
    double pausedSeconds_ = 0;  // "paused_s": the run's paused time so far
};

}  // namespace ts
