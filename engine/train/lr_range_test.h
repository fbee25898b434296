// The learning-rate range test's analysis (Smith 2015, "Cyclical learning rates"; fastai's
// lr_find): the loss of each step of an exponential sweep of the rate, smoothed, and the rates
// the common rules read off it. Pure functions of the (lr, loss) points, so the job, the CLI
// and the studio read the same suggestions off the same curve, and a test checks them on
// curves whose answer is known.
#pragma once
#include <cstddef>
#include <span>
#include <vector>

namespace ts {

// The loss smoothed as TensorBoard and fastai do (debiased exponential moving average,
// beta 0.98), and whether the sweep has diverged: the smoothed loss is not finite or above
// 4x its minimum so far (larger rates only get worse).
class RangeTestSmoother {
public:
    double push(double loss);  // the smoothed loss after this step
    bool diverged() const { return diverged_; }

private:
    static constexpr double kBeta = 0.98;
    double average_ = 0, best_ = 0;
    std::size_t count_ = 0;
    bool diverged_ = false;
};

// The rules, each a rate the sweep tried:
//   steepest  the steepest descent of the smoothed loss against log(lr), before its minimum
//   minimum   the lowest smoothed loss's rate divided by 10 (Smith's conservative rule)
//   valley    halfway along the longest stretch over which the loss keeps falling (the
//             longest decreasing subsequence, fastai's default since 2.5): robust to the
//             early noise that can put the steepest point anywhere
// Each rule fails on some curves (the steepest point lands in early noise, a minimum near
// divergence, a valley that starts at the first step), so `suggested` is their median:
// wrong only when two of the three are. `spread` is the largest rule over the smallest:
// above 3, the curve has no clear answer (noisy, or too few steps).
struct LrSuggestions {
    double steepest = 0, minimum = 0, valley = 0, suggested = 0, spread = 0;
    bool rulesDisagree() const { return spread > 3.0; }
};

// `lrs` increasing, one per step, `smoothedLosses` from a RangeTestSmoother. Throws
// std::invalid_argument with fewer than 5 points or sizes that differ.
LrSuggestions suggestLearningRates(std::span<const double> lrs, std::span<const double> smoothedLosses);

// One range test's points: the rates swept and the smoothed loss at each.
struct LrRangeCurve {
    std::vector<double> lrs, losses;
};
// Smooths raw per-step losses (what StepEvents carry) into a curve.
LrRangeCurve smoothRangeTest(std::span<const double> lrs, std::span<const double> rawLosses);

// Several range tests of the same sweep (other seeds) side by side: per step, over the
// steps every test reached, the mean smoothed loss and its min-max band, with the
// suggestions read off the mean curve and off each test. Throws std::invalid_argument for
// no curves or curves that swept different rates.
struct LrRangeBand {
    std::vector<double> lrs, mean, low, high;
    LrSuggestions suggestions;            // of the mean curve
    std::vector<LrSuggestions> perCurve;  // in the order given
    // The largest over the smallest of the tests' suggested rates (1 for one test).
    double seedSpread() const;
};
LrRangeBand combineRangeTests(const std::vector<LrRangeCurve>& curves);

}  // namespace ts
