// Regression metrics accumulated batch by batch from host predictions and float targets: the
// loss, MAE, RMSE, MAPE and R². The counterpart of ClassificationMetrics (train/metrics.h) for
// datasets whose targets are values (data/dataset.h TargetKind::Values): tables' target
// columns, forecast windows [horizon, targets]. Plain C++, no backend.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "types/metric_sums.h"

namespace ts {

class RegressionMetrics {
public:
    // targets: the last dimension of a sample's targets (its target columns); R² is computed
    // per target over every sample and position, then averaged (scikit-learn's r2_score,
    // multioutput="uniform_average").
    explicit RegressionMetrics(std::int64_t targets = 1);

    // One batch: n predicted and n actual values, row-major with `targets` values per row (n a
    // multiple of it). meanLoss is the batch's mean loss; the running loss weights it by n, so a
    // smaller last batch counts for what it holds. Non-finite values count as they are (a NaN
    // prediction makes every metric NaN, as it should be seen).
    void add(const float* predicted, const float* actual, std::int64_t n, double meanLoss);
    void add(const float* predicted, const float* actual, std::int64_t n);  // no loss
    void reset();
    // The sums behind every metric (MetricSums::valueSums), for a checkpoint, and back.
    // restore() throws std::invalid_argument when they do not fit this number of targets.
    MetricSums sums() const;
    void restore(const MetricSums& sums);

    std::int64_t targets() const { return targets_; }
    std::int64_t count() const { return count_; }  // values seen
    double loss() const;  // NaN when no batch carried a loss
    double mae() const;   // mean |predicted - actual|; NaN when empty
    double rmse() const;  // sqrt(mean (predicted - actual)²)
    // Mean |predicted - actual| / |actual| in percent, over the values whose actual is not 0
    // (there the ratio is undefined; scikit-learn divides by 2.2e-16 instead, which explodes).
    // NaN when every actual is 0.
    double mape() const;
    // 1 - SSE / SST per target, averaged; NaN when a target never varies (SST = 0) or is empty.
    double r2() const;

    // "<prefix>_loss", "_mae", "_rmse", "_mape" and "_r2" (the last two when defined).
    std::map<std::string, double> summary(const std::string& prefix) const;

private:
    struct Target { double n = 0, sum = 0, sumSquares = 0, sse = 0; };

    std::int64_t targets_;
    std::int64_t count_ = 0;
    double lossSum_ = 0;
    std::int64_t lossCount_ = 0;
    double absSum_ = 0, squareSum_ = 0, percentSum_ = 0;
    std::int64_t percentCount_ = 0;
    std::vector<Target> perTarget_;
};

class Dataset;

// What predicting the training targets' mean for every sample scores on another split: the
// baseline a regression model must beat (the evaluation report shows it beside the model).
struct MeanBaseline {
    std::vector<double> mean;  // per target (the last dimension of the targets), from `train`
    double mae = 0, rmse = 0;  // on the split evaluated
};
// Both datasets have value targets of one shape (data/dataset.h); `train` is not empty.
MeanBaseline meanBaseline(const Dataset& train, const Dataset& evaluated);
// "<prefix>_baseline_mae" and "<prefix>_baseline_rmse".
void addBaselineMetrics(std::map<std::string, double>& metrics, const std::string& prefix, const MeanBaseline& baseline);

}  // namespace ts
