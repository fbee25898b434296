// Early stopping (the "which way is better" rule, lowerIsBetter, is in types/run_records.h).
#pragma once
#include <cstdint>
#include <string>

#include "types/experiment_spec.h"
#include "types/run_records.h"

namespace ts {

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
