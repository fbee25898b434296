// Learning-rate schedules as pure functions of the step, so the studio can draw the curve
// before training and a resumed run continues exactly. Epoch-based schedules use
// stepsPerEpoch; warm-up multiplies whatever schedule follows.
#pragma once
#include <cstdint>

#include "types/experiment_spec.h"

namespace ts {

// The learning rate at optimizer step `step` (0-based) of a run of totalSteps steps:
//   scheduledLr = schedule(step) * warmupFactor(step)
// epoch = floor(step / stepsPerEpoch); T = totalSteps; schedule(step) is (PyTorch's scheduler
// of the same name stepped once per epoch, or once per step for cosine and onecycle):
//   constant, plateau  baseLr (the PlateauScheduler supplies plateau's decays)
//   step               baseLr * gamma^floor(epoch / stepSize)
//   multistep          baseLr * gamma^(number of milestones <= epoch)
//   exponential        baseLr * gamma^epoch
//   cosine             minLr + (baseLr - minLr) (1 + cos(pi min(step, T) / T)) / 2
//   cosine_restarts    SGDR: the cosine above within each period, restarting at baseLr; the
//                      first period is restartEpochs * stepsPerEpoch steps, each next one
//                      restartMultiplier (>= 1) times longer
//   onecycle           torch's OneCycleLR defaults (cosine annealing, two phases): from
//                      maxLr/25 at step 0 up to maxLr at step pctStart*T - 1, then down to
//                      maxLr/(25*1e4) at step T-1 (held after); maxLr 0 means 10 * baseLr
//   range_test         the learning-rate finder's sweep: baseLr (maxLr/baseLr)^(step/(T-1)),
//                      exponential from baseLr at step 0 to maxLr at step T-1 (held after)
// The warm-up is not a phase of its own: the schedule runs from step 0 underneath it
// (like torch's LinearLR chained with another scheduler).
// Throws std::invalid_argument for an unknown type (the message lists the valid ones) or
// out-of-range settings (stepsPerEpoch < 1, step < 0, T < 1 for cosine/onecycle, ...).
double scheduledLr(const ScheduleSpec& spec, double baseLr, std::int64_t step, std::int64_t stepsPerEpoch,
                   std::int64_t totalSteps);

// The linear warm-up multiplier: warmupStartFactor + (1 - warmupStartFactor) * step / warmupSteps
// for step < warmupSteps, 1 from then on. (For plateau the trainer uses lr() * warmupFactor.)
double warmupFactor(const ScheduleSpec& spec, std::int64_t step);

// Reduce-on-plateau: the one schedule driven by a metric. Feed it the validation metric
// after each epoch; it multiplies the learning rate by `factor` after `patience` epochs
// without an improvement larger than `threshold` (relative), never below minLr.
// Exactly torch's ReduceLROnPlateau (threshold_mode 'rel', cooldown 0, eps 1e-8): an epoch
// improves when metric < best - |best| * threshold (lower is better; mirrored otherwise;
// torch writes best * (1 - threshold), the same for positive metrics). The first finite
// metric sets best; a non-finite one is a bad epoch. When the count of bad epochs exceeds
// patience (so on the (patience+1)-th in a row) lr becomes max(lr * factor, minLr) and the
// count restarts. Throws std::invalid_argument unless 0 <= factor < 1, patience >= 0 and
// threshold >= 0.
struct PlateauState {
    double lr = 0, best = 0;
    bool hasBest = false;
    std::int64_t badEpochs = 0;
};

class PlateauScheduler {
public:
    PlateauScheduler(const ScheduleSpec& spec, double baseLr);
    // Returns the learning rate to use from now on. `lowerIsBetter` for losses.
    double update(double metric, bool lowerIsBetter);
    double lr() const { return lr_; }
    // For checkpoints: a resumed run continues with the same best and bad-epoch count.
    PlateauState state() const { return {lr_, best_, hasBest_, badEpochs_}; }
    void restore(const PlateauState& s) { lr_ = s.lr, best_ = s.best, hasBest_ = s.hasBest, badEpochs_ = s.badEpochs; }

private:
    ScheduleSpec spec_;
    double lr_;
    double best_ = 0;
    bool hasBest_ = false;
    std::int64_t badEpochs_ = 0;
};

}  // namespace ts
