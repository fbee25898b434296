#include "optim/loss_scaler.h"

#include <algorithm>
#include <cmath>

namespace ts {

bool LossScaler::update(double scaledGradNorm)
{
    if (!enabled_) return std::isfinite(scaledGradNorm);
    if (!std::isfinite(scaledGradNorm)) {
        scale_ = std::max(scale_ * 0.5, std::ldexp(1.0, -24));  // fp16's smallest subnormal
        cleanSteps_ = 0;
        return false;
    }
    if (++cleanSteps_ >= kGrowthInterval) {
        scale_ *= 2.0;
        cleanSteps_ = 0;
    }
    return true;
}

}  // namespace ts
