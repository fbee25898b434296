// A sweep as one job of the job API (jobs/job.h SweepJob), so a front end's queue runs it like
// any other: the trials' events pass through, each trial's end becomes a log line (a front
// end takes a FinishedEvent as the job's end), the sweep's own events are log lines, and the
// one FinishedEvent says how the sweep ended, with the best trial's metrics.
#include "jobs/job_parts.h"
#include "jobs/sweep_runner.h"

namespace ts {

namespace {

class SweepForwarder final : public TrainListener, public SweepListener {
public:
    explicit SweepForwarder(TrainListener& next) : next_(next) {}
    void onEvent(const TrainEvent& event) override
    {
        if (const auto* f = std::get_if<FinishedEvent>(&event)) {
            const bool failed = f->outcome == FinishedEvent::Outcome::Failed;
            next_.onEvent(LogEvent{failed ? LogEvent::Level::Warning : LogEvent::Level::Info, f->message});
            return;
        }
        next_.onEvent(event);
    }
    void onSweepEvent(const SweepEvent& event) override
    {
        if (event.kind == SweepEvent::Kind::Finished) return;  // the job's FinishedEvent says it
        const bool bad = event.kind == SweepEvent::Kind::Skipped || event.kind == SweepEvent::Kind::Failed;
        next_.onEvent(LogEvent{bad ? LogEvent::Level::Warning : LogEvent::Level::Info, event.message});
    }

private:
    TrainListener& next_;
};

}  // namespace

JobResult runSweepJob(const SweepJob& job, const JobEnvironment& env, RunControl& control, TrainListener& listener)
{
    SweepForwarder forward(listener);
    const SweepResult sweep = runSweep(job, env, control, forward, forward);
    JobResult result;
    result.finished.outcome = sweep.outcome;
    result.finished.message = sweep.message;
    if (sweep.best > 0 && std::size_t(sweep.best) <= sweep.trials.size()) {
        const SweepTrialResult& best = sweep.trials[std::size_t(sweep.best - 1)];
        result.finished.metrics = best.lastMetrics;
        if (!best.runs.empty()) result.runId = best.runs.back();
    }
    listener.onEvent(result.finished);
    return result;
}

}  // namespace ts
