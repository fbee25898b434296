// The running sums of a training epoch's metrics (train/metrics.h ClassificationMetrics) and
// its time so far: what a checkpoint written mid-epoch keeps, so that the resumed epoch
// reports what an uninterrupted one would (not only the steps after the resume).
#pragma once
#include <cstdint>
#include <vector>

namespace ts {

struct MetricSums {
    std::int64_t count = 0;                 // samples
    double lossSum = 0;                     // sum of batch mean loss x batch size
    std::int64_t lossCount = 0;
    std::vector<std::int64_t> topKCorrect;  // per reported k
    std::vector<std::int64_t> confusion;    // classes x classes, row = truth
    std::vector<double> binaryScores;       // two classes only: l1 - l0 per sample
    std::vector<std::int64_t> binaryPositive;  // 1 when the sample's label is 1
    std::vector<double> valueSums;          // regression (train/regression_metrics.h): sums, all additive
    double seconds = 0, waitSeconds = 0;    // the epoch's active time and data wait so far
};

}  // namespace ts
