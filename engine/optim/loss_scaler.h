// The dynamic loss scaler of fp16 training (torch.cuda.amp.GradScaler's rules): the loss is
// multiplied by `scale` before backward so small gradients survive fp16's narrow range; the
// gradients are divided by it again before clipping and the optimizer step. A step whose
// gradients overflowed (inf/NaN) is skipped and the scale halved; after `growthInterval`
// clean steps in a row the scale doubles. Plain bookkeeping: the trainer applies the scale.
#pragma once
#include <cstdint>

namespace ts {

class LossScaler {
public:
    static constexpr double kInitialScale = 65536.0;
    static constexpr std::int64_t kGrowthInterval = 2000;

    explicit LossScaler(bool enabled, double scale = kInitialScale, std::int64_t cleanSteps = 0)
        : enabled_(enabled), scale_(enabled ? scale : 1.0), cleanSteps_(enabled ? cleanSteps : 0)
    {
    }

    bool enabled() const { return enabled_; }
    double scale() const { return scale_; }
    std::int64_t cleanSteps() const { return cleanSteps_; }

    // After backward, with the global norm of the (scaled) gradients: returns whether the
    // optimizer may step. A non-finite norm halves the scale (never below 2^-24) and skips.
    bool update(double scaledGradNorm);

private:
    bool enabled_;
    double scale_;
    std::int64_t cleanSteps_;
};

}  // namespace ts
