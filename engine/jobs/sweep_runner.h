// Runs an experiment's sweep (SweepSpec, the file's `sweep:` section) headless: every trial is
// a TrainJob of the workspace (jobs/job.h) with the trial's values as overrides, tagged
// {"sweep:<id>", "trial:<k>"} and named "<experiment> sweep <id> #k".
//
// Before anything trains, each trial's planned memory (train/memory_advice.h) is compared with
// the device's (a GPU's memory, the machine's RAM for the CPU) and trials that would not fit
// are skipped with the reason.
//
// Successive halving, synchronous: rung r trains the surviving trials to its epochs
// (sweepRungs), ranks them by the sweep's metric at that epoch and keeps the best 1/eta. A
// trial pauses at a rung by stopping its run after that epoch's evaluation (the run's
// checkpoint stays) and continues by resuming it: every run keeps training.epochs as its
// length, so its schedule is the one an uninterrupted run follows, and on the CPU the resumed
// steps are bit for bit those of an uninterrupted run.
//
// All state is in the store (rule 5): the runner keeps none of its own. Run again, it
// regenerates the same trials, finds each one's runs by their tags and continues: trials at a
// rung already are not trained again, a stopped or killed trial resumes from its newest
// checkpoint.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "jobs/job.h"
#include "jobs/sweep_trials.h"

namespace ts {

// What a sweep tells its front end besides the trials' own training events.
struct SweepEvent {
    enum class Kind {
        Planned,   // the sweep, its rungs, each trial's values
        Skipped,   // a trial that will not run (memory, invalid)
        Training,  // a trial starts or resumes training to a rung
        Result,    // a trial's metric at a rung (trained now, or found in the store)
        Failed,    // a trial's run failed
        Rung,      // the trials a rung keeps
        Best,      // the best trial
        Finished,  // how the sweep ended
    };
    Kind kind = Kind::Planned;
    int trial = 0;  // 1-based; 0: about the sweep
    int rung = 0;   // 1-based; 0: none
    Message message;
};

class SweepListener {
public:
    virtual ~SweepListener() = default;
    virtual void onSweepEvent(const SweepEvent& event) = 0;
};

struct SweepTrialResult {
    SweepTrial trial;
    enum class State { Pending, Skipped, Paused, Finished, Failed };
    State state = State::Pending;  // Paused: at a rung, resumable; Finished: trained all epochs (or stopped early)
    Message reason;                // Skipped and Failed: why
    std::size_t plannedBytes = 0;  // planned memory; 0 when it could not be planned
    std::int64_t epochs = 0;       // epochs trained
    std::optional<double> metric;  // the sweep's metric at its last epoch
    std::map<std::string, double> lastMetrics;  // the newest run's metrics, last values (test_acc, ...)
    std::vector<std::int64_t> runs;             // its runs in the store, oldest first
};

struct SweepResult {
    std::string id;
    FinishedEvent::Outcome outcome = FinishedEvent::Outcome::Finished;  // Finished, Stopped or Failed
    Message message;
    std::vector<std::int64_t> rungs;  // epochs of each rung
    std::vector<SweepTrialResult> trials;
    int best = 0;                  // the best trial's number; 0: none
    std::int64_t trainingJobs = 0;  // training jobs this call ran
    double seconds = 0;
};

const char* sweepTrialStateName(SweepTrialResult::State state);  // "pending", "skipped", ...

// Runs the sweep on the calling thread; trial events go to `trialListener` as from runJob,
// and `control` stops it (the running trial stops with a checkpoint; run it again to go on).
// Never throws: a problem ends in outcome Failed with the message.
SweepResult runSweep(const SweepJob& job, const JobEnvironment& env, RunControl& control, TrainListener& trialListener,
                     SweepListener& listener);

}  // namespace ts
