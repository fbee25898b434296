#include "jobs/job_progress.h"

#include <algorithm>

namespace ts {

void JobProgress::advance(std::int64_t done, Clock::time_point now)
{
    const std::int64_t steps = done - done_;
    if (last_ && steps > 0 && !skipNext_) {
        window_.push_back({steps, std::chrono::duration<double>(now - *last_).count()});
        windowSteps_ += steps;
        windowSeconds_ += window_.back().seconds;
        while (window_.size() > 1 && windowSteps_ - window_.front().steps >= kWindowSteps) {
            windowSteps_ -= window_.front().steps;
            windowSeconds_ -= window_.front().seconds;
            window_.pop_front();
        }
    }
    if (steps > 0 || !last_) {
        last_ = now;
        skipNext_ = false;
    }
    done_ = std::max(done_, done);
}

void JobProgress::onEvent(const TrainEvent& event, Clock::time_point now)
{
    if (const auto* s = std::get_if<StartedEvent>(&event)) {
        plan_ = *s;
        started_ = true;
        total_ = s->stepsThisRun();
        epoch_ = s->firstEpoch;
    } else if (const auto* step = std::get_if<StepEvent>(&event)) {
        advance(std::max<std::int64_t>(0, step->step - plan_.firstStep), now);
        epoch_ = step->epoch;
        inEpoch_ = plan_.stepsPerEpoch > 0 ? std::clamp<std::int64_t>(step->step - (step->epoch - 1) * plan_.stepsPerEpoch,
                                                                        0, plan_.stepsPerEpoch)
                                           : 0;
    } else if (std::holds_alternative<EpochEvent>(event)) {
        skipNext_ = true;  // the evaluation that ended the epoch is not step time
    } else if (const auto* p = std::get_if<ProgressEvent>(&event)) {
        total_ = p->total;
        what_ = p->what;
        advance(p->done, now);
    }
}

std::optional<double> JobProgress::etaSeconds() const
{
    if (windowSteps_ < 1 || total_ <= 0) return std::nullopt;
    return windowSeconds_ / double(windowSteps_) * double(std::max<std::int64_t>(0, total_ - done_));
}

}  // namespace ts
