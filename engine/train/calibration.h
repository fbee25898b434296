// How far a classifier's probabilities can be trusted, from stored predictions: the
// reliability diagram and expected calibration error, negative log-likelihood, the Brier
// score, and temperature scaling (Guo et al., "On Calibration of Modern Neural Networks", 2017).
// Pure functions over Prediction rows (softmax probabilities as float, computed in double).
#pragma once
#include <cstdint>
#include <vector>

#include "types/evaluation_records.h"

namespace ts {

// Guo's 15 equal-width bins of confidence (the maximum probability): bin b holds the samples
// with b/15 < confidence <= (b+1)/15, so (0, 1/15], ..., (14/15, 1].
constexpr int kCalibrationBins = 15;

struct ReliabilityBin {
    double lower = 0, upper = 0;  // (lower, upper]
    std::int64_t count = 0;
    double accuracy = 0, confidence = 0;  // means over the bin; NaN when it is empty
};

struct Calibration {
    std::vector<ReliabilityBin> bins;
    // ECE = sum_b |B_b| / n * |acc(B_b) - conf(B_b)|; "correct" means the first maximal
    // probability is the label.
    double ece = 0;
    // Mean of -log p_label, as scikit-learn's log_loss (1.2) computes it: every probability
    // clipped to [eps, 1 - eps] with eps = 2.22e-16 (float64 machine epsilon, what log_loss
    // uses for float64 input), the row renormalised to sum 1, then the log. A probability
    // that underflowed to 0 thus costs -log(eps) = 36.04, not infinity.
    double nll = 0;
    // Multi-class Brier score: the mean over samples of sum_k (p_k - y_k)^2, with y one-hot.
    // Not divided by the number of classes (Brier's 1950 definition): it lies in [0, 2].
    double brier = 0;
};

// Throws std::invalid_argument on an empty set.
std::vector<ReliabilityBin> reliabilityBins(const std::vector<Prediction>& predictions, int bins = kCalibrationBins);
double expectedCalibrationError(const std::vector<ReliabilityBin>& bins);
double negativeLogLikelihood(const std::vector<Prediction>& predictions);
double brierScore(const std::vector<Prediction>& predictions);
Calibration calibration(const std::vector<Prediction>& predictions);

// Temperature scaling: p' = softmax(log(p) / T). log p is the logits up to a per-sample
// constant, which softmax ignores, so this is exactly softmax(z / T) of the model's logits. A
// probability that underflowed to 0 is taken as the smallest positive float (its log is
// -103.3: the logit was at least that far below the top). Prediction and confidence are
// recomputed (T > 0 keeps the order, so the prediction stays).
std::vector<Prediction> applyTemperature(const std::vector<Prediction>& predictions, double temperature);

struct TemperatureFit {
    double temperature = 1;
    double nllBefore = 0, nllAfter = 0;  // of the fitting set, at T = 1 and at the fitted T
    int evaluations = 0;                 // NLL evaluations the search made
    bool atBound = false;                // the minimum lies at the search range's edge
};

// The T > 0 minimising the mean NLL of softmax(log(p) / T) over `predictions` (the fitting
// set: the validation split's predictions). The NLL is convex in 1/T (a log-sum-exp of
// linear functions minus a linear one), hence unimodal in log T, so a golden-section search on
// log T over [log 0.01, log 100] finds the minimum without derivatives or a starting guess;
// it stops when the bracket is 1e-7 wide in log T (T to a relative 1e-7). Throws
// std::invalid_argument on an empty set.
TemperatureFit fitTemperature(const std::vector<Prediction>& predictions);
// The NLL of the rescaled probabilities, without building them (what fitTemperature minimises).
double temperatureNll(const std::vector<Prediction>& predictions, double temperature);

}  // namespace ts
