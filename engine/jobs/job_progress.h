// How far a job has come and when it will end, from its own events: the one progress rule
// the CLI's bar and the studio's job list share. Training counts optimizer steps against the
// StartedEvent's plan (so accumulation and resumed runs count right); other jobs count
// ProgressEvents. The ETA is the elapsed time per step times the steps left, timed from the
// first step, not from set-up.
#pragma once
#include <chrono>
#include <cstdint>
#include <optional>

#include "types/events.h"

namespace ts {

class JobProgress {
public:
    using Clock = std::chrono::steady_clock;

    void onEvent(const TrainEvent& event, Clock::time_point now = Clock::now());

    const StartedEvent& plan() const { return plan_; }
    bool started() const { return started_; }
    std::int64_t done() const { return done_; }    // steps (or units) done by this job
    std::int64_t total() const { return total_; }  // 0: not known yet
    double fraction() const { return total_ > 0 ? double(done_) / double(total_) : 0.0; }
    // Seconds left; empty before two steps have been timed.
    std::optional<double> etaSeconds() const;
    std::int64_t epoch() const { return epoch_; }
    // Steps of the current epoch done, of plan().stepsPerEpoch.
    std::int64_t stepsInEpoch() const { return inEpoch_; }

private:
    StartedEvent plan_;
    bool started_ = false;
    std::int64_t done_ = 0, total_ = 0, epoch_ = 0, inEpoch_ = 0, timedFrom_ = 0;
    std::optional<Clock::time_point> first_;
    Clock::time_point last_{};
};

}  // namespace ts
