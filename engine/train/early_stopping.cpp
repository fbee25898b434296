#include "train/early_stopping.h"

#include <cmath>

namespace ts {

EarlyStopping::EarlyStopping(const EarlyStoppingSpec& spec) : spec_(spec), lower_(lowerIsBetter(spec.metric)) {}

bool EarlyStopping::update(double value)
{
    const std::int64_t epoch = updates_++;
    const bool improved = std::isfinite(value) &&
                          (!hasBest_ || (lower_ ? value < best_ - spec_.minDelta : value > best_ + spec_.minDelta));
    if (improved) {
        hasBest_ = true;
        best_ = value;
        bestEpoch_ = epoch;
        bad_ = 0;
        return false;
    }
    ++bad_;
    return bad_ >= spec_.patience;
}

}  // namespace ts
