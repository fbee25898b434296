// A run's metrics whatever its task: ClassificationMetrics for class targets, RegressionMetrics
// for value targets (data/dataset.h TargetKind). The trainer's epochs and the evaluator
// accumulate this, so a task is chosen once, by the data, and never tested again per batch.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "data/dataset.h"
#include "tensor/tensor.h"
#include "train/metrics.h"
#include "train/regression_metrics.h"

namespace ts {

class TaskMetrics {
public:
    explicit TaskMetrics(ClassificationMetrics m) : m_(std::move(m)) {}
    explicit TaskMetrics(RegressionMetrics m) : m_(std::move(m)) {}
    // Regression for value targets (one target per last dimension of targetShape()), else
    // classification over the data's classes with the given top-k values.
    static TaskMetrics forDataset(const Dataset& data, std::vector<int> topK);

    // One batch: the model's output on the host and the batch's labels (i64 classes, or f32
    // values of the output's shape). Throws std::invalid_argument naming `outputName` and
    // both shapes when the output does not hold one score per class (or one value per target).
    void add(const std::vector<float>& output, const Tensor& labels, double meanLoss, const std::string& outputName);
    std::map<std::string, double> summary(const std::string& prefix) const;
    MetricSums sums() const;
    void restore(const MetricSums& sums);

    ClassificationMetrics* classification() { return std::get_if<ClassificationMetrics>(&m_); }
    const ClassificationMetrics* classification() const { return std::get_if<ClassificationMetrics>(&m_); }
    const RegressionMetrics* regression() const { return std::get_if<RegressionMetrics>(&m_); }

private:
    std::variant<ClassificationMetrics, RegressionMetrics> m_;
};

}  // namespace ts
