// Learning-rate schedules as pure functions of the step, so the studio can draw the curve
// before training and a resumed run continues exactly. Epoch-based schedules use
// stepsPerEpoch; warm-up multiplies whatever schedule follows.
#pragma once
#include <cstdint>

#include "io/experiment_spec.h"

namespace ts {

// The learning rate at optimizer step `step` (0-based) of a run of totalSteps steps.
double scheduledLr(const ScheduleSpec& spec, double baseLr, std::int64_t step, std::int64_t stepsPerEpoch,
                   std::int64_t totalSteps);

// Reduce-on-plateau: the one schedule driven by a metric. Feed it the validation metric
// after each epoch; it multiplies the learning rate by `factor` after `patience` epochs
// without an improvement larger than `threshold` (relative), never below minLr.
class PlateauScheduler {
public:
    PlateauScheduler(const ScheduleSpec& spec, double baseLr);
    // Returns the learning rate to use from now on. `lowerIsBetter` for losses.
    double update(double metric, bool lowerIsBetter);
    double lr() const { return lr_; }

private:
    ScheduleSpec spec_;
    double lr_;
    double best_ = 0;
    bool hasBest_ = false;
    std::int64_t badEpochs_ = 0;
};

}  // namespace ts
