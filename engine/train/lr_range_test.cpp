#include "train/lr_range_test.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace ts {

double RangeTestSmoother::push(double loss)
{
    average_ = kBeta * average_ + (1 - kBeta) * loss;
    ++count_;
    const double smoothed = average_ / (1 - std::pow(kBeta, double(count_)));
    if (std::isfinite(smoothed) && (count_ == 1 || smoothed < best_)) best_ = smoothed;
    diverged_ = !std::isfinite(smoothed) || smoothed > 4 * best_;
    return smoothed;
}

namespace {

// The index halfway along the longest strictly decreasing subsequence of `loss` (its first
// and last elements' indices are the stretch). O(n^2): a sweep has a few hundred steps.
std::size_t valleyIndex(std::span<const double> loss)
{
    const std::size_t n = loss.size();
    std::vector<std::size_t> length(n, 1), first(n);
    for (std::size_t i = 0; i < n; ++i) first[i] = i;
    std::size_t end = 0;
    for (std::size_t i = 1; i < n; ++i) {
        if (!std::isfinite(loss[i])) continue;
        for (std::size_t j = 0; j < i; ++j)
            // Ties go to the later start: a flat stretch before the fall is not part of it.
            if (std::isfinite(loss[j]) && loss[i] < loss[j] && length[j] + 1 >= length[i])
                length[i] = length[j] + 1, first[i] = first[j];
        if (length[i] > length[end]) end = i;
    }
    return first[end] + (end - first[end]) / 2;
}

}  // namespace

LrSuggestions suggestLearningRates(std::span<const double> lrs, std::span<const double> loss)
{
    if (lrs.size() != loss.size()) throw std::invalid_argument("suggestLearningRates: one loss per rate");
    if (lrs.size() < 5) throw std::invalid_argument("suggestLearningRates: fewer than 5 points");
    std::size_t minAt = 0;
    for (std::size_t i = 1; i < loss.size(); ++i)
        if (std::isfinite(loss[i]) && !(loss[i] >= loss[minAt])) minAt = i;
    std::size_t steepest = 0;
    double slope = std::numeric_limits<double>::infinity();
    for (std::size_t i = 1; i <= minAt; ++i) {
        const double d = (loss[i] - loss[i - 1]) / (std::log(lrs[i]) - std::log(lrs[i - 1]));
        if (d < slope) slope = d, steepest = i;
    }
    LrSuggestions s;
    s.steepest = lrs[steepest];
    s.minimum = lrs[minAt] / 10;
    s.valley = lrs[valleyIndex(loss)];
    // The minimum rule may fall below the sweep's start: a rate the test never tried.
    double rules[] = {s.steepest, std::max(lrs.front(), s.minimum), s.valley};
    std::sort(std::begin(rules), std::end(rules));
    s.suggested = rules[1];
    s.spread = rules[2] / rules[0];
    return s;
}

LrRangeCurve smoothRangeTest(std::span<const double> lrs, std::span<const double> rawLosses)
{
    if (lrs.size() != rawLosses.size()) throw std::invalid_argument("smoothRangeTest: one loss per rate");
    LrRangeCurve curve{{lrs.begin(), lrs.end()}, {}};
    RangeTestSmoother smoother;
    for (double loss : rawLosses) curve.losses.push_back(smoother.push(loss));
    return curve;
}

double LrRangeBand::seedSpread() const
{
    double lo = std::numeric_limits<double>::infinity(), hi = 0;
    for (const LrSuggestions& s : perCurve) lo = std::min(lo, s.suggested), hi = std::max(hi, s.suggested);
    return perCurve.empty() ? 1.0 : hi / lo;
}

LrRangeBand combineRangeTests(const std::vector<LrRangeCurve>& curves)
{
    if (curves.empty()) throw std::invalid_argument("combineRangeTests: no curves");
    std::size_t steps = std::numeric_limits<std::size_t>::max();
    for (const LrRangeCurve& c : curves) steps = std::min(steps, c.lrs.size());
    LrRangeBand band;
    for (std::size_t i = 0; i < steps; ++i) {
        const double lr = curves.front().lrs[i];
        double sum = 0, lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (const LrRangeCurve& c : curves) {
            // The same schedule gives the same rates, bit for bit; anything else is another sweep.
            if (c.lrs[i] != lr) throw std::invalid_argument("combineRangeTests: the curves swept different rates");
            sum += c.losses[i];
            lo = std::min(lo, c.losses[i]);
            hi = std::max(hi, c.losses[i]);
        }
        band.lrs.push_back(lr);
        band.mean.push_back(sum / double(curves.size()));
        band.low.push_back(lo);
        band.high.push_back(hi);
    }
    band.suggestions = suggestLearningRates(band.lrs, band.mean);
    for (const LrRangeCurve& c : curves) band.perCurve.push_back(suggestLearningRates(c.lrs, c.losses));
    return band;
}

}  // namespace ts
