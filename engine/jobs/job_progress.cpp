#include "jobs/job_progress.h"

#include <algorithm>

namespace ts {

void JobProgress::onEvent(const TrainEvent& event, Clock::time_point now)
{
    if (const auto* s = std::get_if<StartedEvent>(&event)) {
        plan_ = *s;
        started_ = true;
        total_ = s->stepsThisRun();
        epoch_ = s->firstEpoch;
    } else if (const auto* step = std::get_if<StepEvent>(&event)) {
        done_ = std::max<std::int64_t>(0, step->step - plan_.firstStep);
        epoch_ = step->epoch;
        inEpoch_ = plan_.stepsPerEpoch > 0 ? std::clamp<std::int64_t>(step->step - (step->epoch - 1) * plan_.stepsPerEpoch,
                                                                        0, plan_.stepsPerEpoch)
                                           : 0;
        // Timed from the first step: set-up (data, planning) says nothing of the pace.
        if (!first_) {
            first_ = now;
            timedFrom_ = done_;
        }
        last_ = now;
    } else if (const auto* p = std::get_if<ProgressEvent>(&event)) {
        done_ = p->done;
        total_ = p->total;
        if (!first_) {
            first_ = now;
            timedFrom_ = done_;
        }
        last_ = now;
    }
}

std::optional<double> JobProgress::etaSeconds() const
{
    const std::int64_t timed = done_ - timedFrom_;
    if (!first_ || timed < 1 || total_ <= 0) return std::nullopt;
    const double perStep = std::chrono::duration<double>(last_ - *first_).count() / double(timed);
    return perStep * double(std::max<std::int64_t>(0, total_ - done_));
}

}  // namespace ts
