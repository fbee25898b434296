// Early stopping and the "which way is better" rule shared with the plateau scheduler.
#pragma once
#include <cstdint>
#include <string>

#include "io/experiment_spec.h"

namespace ts {

// Metric direction by name: anything ending in "loss" is minimised, everything else
// (accuracy, F1, AUC) maximised.
bool lowerIsBetter(const std::string& metric);

class EarlyStopping {
public:
    explicit EarlyStopping(const EarlyStoppingSpec& spec);
    // Feed the epoch's value of spec.metric; true when training should stop: `patience`
    // epochs in a row without improving on the best by more than minDelta. A NaN never
    // improves.
    bool update(double value);
    double best() const { return best_; }
    std::int64_t bestEpoch() const { return bestEpoch_; }  // 0-based count of updates
    std::int64_t epochsWithoutImprovement() const { return bad_; }
    bool hasBest() const { return hasBest_; }
    std::int64_t updates() const { return updates_; }
    // Resume: continue with the counts a checkpoint recorded.
    void restore(bool hasBest, double best, std::int64_t bestEpoch, std::int64_t bad, std::int64_t updates)
    {
        hasBest_ = hasBest, best_ = best, bestEpoch_ = bestEpoch, bad_ = bad, updates_ = updates;
    }

private:
    EarlyStoppingSpec spec_;
    bool lower_;
    bool hasBest_ = false;
    double best_ = 0;
    std::int64_t bestEpoch_ = -1, bad_ = 0, updates_ = 0;
};

}  // namespace ts
