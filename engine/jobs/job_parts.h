// What the jobs of job.cpp, evaluate_job.cpp and lr_find_job.cpp share (internal to jobs/).
#pragma once
#include <string>
#include <vector>

#include "backend/select_backend.h"
#include "jobs/job.h"

namespace ts {

void publishLog(TrainListener& listener, LogEvent::Level level, Message message);

// env.backend, or the backend `device` selects (its notice, such as the CPU fallback of
// "auto", is logged). Throws std::runtime_error saying why a device is unusable.
Backend& jobBackend(const JobEnvironment& env, const std::string& device, TrainListener& listener,
                    BackendPurpose purpose = BackendPurpose::Train);
std::string jobCacheDirectory(const JobEnvironment& env);

// Passes every event on but the FinishedEvent, which a job sends itself once the store has
// committed what the run wrote.
class AllButFinished final : public TrainListener {
public:
    explicit AllButFinished(TrainListener& next) : next_(next) {}
    void onEvent(const TrainEvent& event) override
    {
        if (!std::holds_alternative<FinishedEvent>(event)) next_.onEvent(event);
    }

private:
    TrainListener& next_;
};

// Runs `body` (which fills `result`), turns an exception into a Failed FinishedEvent with its
// message, then sends the FinishedEvent: the ending every job shares.
template <class Body>
JobResult finishJob(JobResult result, TrainListener& listener, Body&& body)
{
    try {
        body(result);
    } catch (const std::exception& e) {
        result.finished.outcome = FinishedEvent::Outcome::Failed;
        result.finished.message = Message{e.what()};
    }
    listener.onEvent(result.finished);
    return result;
}

// A run's checkpoint by what a user typed: best (falls back to last, and logs so) | last |
// an epoch number | a weights file. Throws std::invalid_argument naming the epochs it keeps.
// (evaluate_job.cpp; used by evaluate and export.)
CheckpointRecord chooseCheckpoint(const std::vector<CheckpointRecord>& checkpoints, std::int64_t runId,
                                  const std::string& choice, TrainListener& listener);

JobResult runEvaluateJob(const EvaluateJob& job, const JobEnvironment& env, RunControl& control, TrainListener& listener);
JobResult runLrFindJob(const LrFindJob& job, const JobEnvironment& env, RunControl& control, TrainListener& listener);
JobResult runSweepJob(const SweepJob& job, const JobEnvironment& env, RunControl& control, TrainListener& listener);
JobResult runDataCheckJob(const DataCheckJob& job, const JobEnvironment& env, RunControl& control, TrainListener& listener);
JobResult runLabelCheckJob(const LabelCheckJob& job, const JobEnvironment& env, RunControl& control, TrainListener& listener);
JobResult runStepProbeJob(const StepProbeJob& job, const JobEnvironment& env, RunControl& control, TrainListener& listener);

}  // namespace ts
