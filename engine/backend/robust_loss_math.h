// L1 and Huber losses of one error e = prediction - target, shared by every backend's loss
// primitives (robustLossForward / robustLossBackward). delta > 0: Huber (PyTorch's HuberLoss),
// 0.5 e² within delta and delta (|e| - delta / 2) beyond it, so large errors (outliers) pull
// linearly; delta = 0: L1, |e|. The gradient is e clamped to [-delta, delta], or sign(e)
// (0 at e = 0, as PyTorch's) for L1.
#pragma once
#include "backend/host_device.h"

namespace ts {

TS_HOST_DEVICE inline double robustLoss(double e, double delta)
{
    const double a = e < 0 ? -e : e;
    if (delta <= 0) return a;
    return a <= delta ? 0.5 * e * e : delta * (a - 0.5 * delta);
}

TS_HOST_DEVICE inline float robustLossGradient(float e, float delta)
{
    if (delta <= 0) return e > 0 ? 1.0f : (e < 0 ? -1.0f : 0.0f);
    return e > delta ? delta : (e < -delta ? -delta : e);
}

}  // namespace ts
