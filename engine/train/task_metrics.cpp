#include "train/task_metrics.h"

#include <stdexcept>

namespace ts {

TaskMetrics TaskMetrics::forDataset(const Dataset& data, std::vector<int> topK)
{
    if (!hasValueTargets(data)) return TaskMetrics(ClassificationMetrics(data.numClasses(), std::move(topK)));
    const Shape targets = data.targetShape();
    return TaskMetrics(RegressionMetrics(targets.rank() == 0 ? 1 : targets[targets.rank() - 1]));
}

void TaskMetrics::add(const std::vector<float>& output, const Tensor& labels, double meanLoss, const std::string& outputName)
{
    const auto n = static_cast<std::int64_t>(output.size());
    if (auto* c = std::get_if<ClassificationMetrics>(&m_)) {
        const std::int64_t rows = labels.numel();  // a class per sample, or per position of a sequence
        if (n != rows * c->numClasses())
            throw std::invalid_argument("the model output '" + outputName + "' has " + std::to_string(n) + " values, expected " +
                                        std::to_string(rows * c->numClasses()) + ": " + std::to_string(c->numClasses()) +
                                        " logits for each of the labels' " + labels.shape().str());
        c->add(output.data(), labels.data<std::int64_t>(), rows, meanLoss);
        return;
    }
    if (n != labels.numel())
        throw std::invalid_argument("the model output '" + outputName + "' has " + std::to_string(n) +
                                    " values, but the targets " + labels.shape().str() + " have " +
                                    std::to_string(labels.numel()) + ": a regression model predicts one value per target");
    std::get<RegressionMetrics>(m_).add(output.data(), labels.data<float>(), n, meanLoss);
}

std::map<std::string, double> TaskMetrics::summary(const std::string& prefix) const
{
    return std::visit([&](const auto& m) { return m.summary(prefix); }, m_);
}

MetricSums TaskMetrics::sums() const
{
    return std::visit([](const auto& m) { return m.sums(); }, m_);
}

void TaskMetrics::restore(const MetricSums& sums)
{
    std::visit([&](auto& m) { m.restore(sums); }, m_);
}

}  // namespace ts
