// How far a job has come and when it will end, from its own events: the one progress rule
// the CLI's bar and the studio's job list and status line share. Training counts optimizer
// steps against the StartedEvent's plan (so accumulation and resumed runs count right); other
// jobs count ProgressEvents.
//
// The ETA is the time per step over a moving window of the most recent steps (kWindowSteps)
// times the steps left. Set-up before the first step and the evaluation between epochs (the
// interval an EpochEvent falls in) are not step time, so neither is counted: an early ETA is
// not inflated by loading, and one after an epoch's evaluation not by the pause.
#pragma once
#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>

#include "types/events.h"

namespace ts {

class JobProgress {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr std::int64_t kWindowSteps = 200;

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
    // What a non-training job is doing, from its last ProgressEvent ("reading train"); empty before.
    const Message& what() const { return what_; }

private:
    void advance(std::int64_t done, Clock::time_point now);

    struct Interval {
        std::int64_t steps;
        double seconds;
    };
    StartedEvent plan_;
    bool started_ = false;
    std::int64_t done_ = 0, total_ = 0, epoch_ = 0, inEpoch_ = 0;
    std::optional<Clock::time_point> last_;  // when done_ was reached
    bool skipNext_ = false;                  // an evaluation happened since last_
    Message what_;
    std::deque<Interval> window_;            // recent step time, at most kWindowSteps steps
    std::int64_t windowSteps_ = 0;
    double windowSeconds_ = 0;
};

}  // namespace ts
