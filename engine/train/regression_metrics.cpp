#include "train/regression_metrics.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "data/dataset.h"

namespace ts {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}

RegressionMetrics::RegressionMetrics(std::int64_t targets) : targets_(targets)
{
    if (targets < 1) throw std::invalid_argument("RegressionMetrics: at least one target, got " + std::to_string(targets));
    perTarget_.resize(static_cast<std::size_t>(targets));
}

void RegressionMetrics::add(const float* predicted, const float* actual, std::int64_t n, double meanLoss)
{
    add(predicted, actual, n);
    lossSum_ += meanLoss * static_cast<double>(n);
    lossCount_ += n;
}

void RegressionMetrics::add(const float* predicted, const float* actual, std::int64_t n)
{
    if (n % targets_ != 0)
        throw std::invalid_argument("RegressionMetrics: " + std::to_string(n) + " values are not rows of " +
                                    std::to_string(targets_) + " targets");
    for (std::int64_t i = 0; i < n; ++i) {
        const double y = actual[i], e = static_cast<double>(predicted[i]) - y;
        absSum_ += std::abs(e);
        squareSum_ += e * e;
        if (y != 0) {
            percentSum_ += std::abs(e / y);
            ++percentCount_;
        }
        Target& t = perTarget_[static_cast<std::size_t>(i % targets_)];
        t.n += 1;
        t.sum += y;
        t.sumSquares += y * y;
        t.sse += e * e;
    }
    count_ += n;
}

void RegressionMetrics::reset() { *this = RegressionMetrics(targets_); }

double RegressionMetrics::loss() const { return lossCount_ ? lossSum_ / static_cast<double>(lossCount_) : kNaN; }
double RegressionMetrics::mae() const { return count_ ? absSum_ / static_cast<double>(count_) : kNaN; }
double RegressionMetrics::rmse() const { return count_ ? std::sqrt(squareSum_ / static_cast<double>(count_)) : kNaN; }
double RegressionMetrics::mape() const
{
    return percentCount_ ? 100.0 * percentSum_ / static_cast<double>(percentCount_) : kNaN;
}

double RegressionMetrics::r2() const
{
    double total = 0;
    for (const Target& t : perTarget_) {
        if (t.n == 0) return kNaN;
        const double sst = t.sumSquares - t.sum * t.sum / t.n;
        if (!(sst > 0)) return kNaN;
        total += 1 - t.sse / sst;
    }
    return total / static_cast<double>(perTarget_.size());
}

MetricSums RegressionMetrics::sums() const
{
    MetricSums s;
    s.count = count_;
    s.lossSum = lossSum_;
    s.lossCount = lossCount_;
    s.valueSums = {absSum_, squareSum_, percentSum_, static_cast<double>(percentCount_)};
    for (const Target& t : perTarget_) s.valueSums.insert(s.valueSums.end(), {t.n, t.sum, t.sumSquares, t.sse});
    return s;
}

void RegressionMetrics::restore(const MetricSums& s)
{
    if (s.valueSums.size() != 4 + 4 * perTarget_.size())
        throw std::invalid_argument("regression metric sums hold " + std::to_string(s.valueSums.size()) + " numbers, " +
                                    std::to_string(4 + 4 * perTarget_.size()) + " expected for " + std::to_string(targets_) +
                                    " targets");
    count_ = s.count;
    lossSum_ = s.lossSum;
    lossCount_ = s.lossCount;
    absSum_ = s.valueSums[0];
    squareSum_ = s.valueSums[1];
    percentSum_ = s.valueSums[2];
    percentCount_ = static_cast<std::int64_t>(s.valueSums[3]);
    for (std::size_t i = 0; i < perTarget_.size(); ++i) {
        const double* v = &s.valueSums[4 + 4 * i];
        perTarget_[i] = Target{v[0], v[1], v[2], v[3]};
    }
}

std::map<std::string, double> RegressionMetrics::summary(const std::string& prefix) const
{
    std::map<std::string, double> m;
    if (lossCount_) m[prefix + "_loss"] = loss();
    m[prefix + "_mae"] = mae();
    m[prefix + "_rmse"] = rmse();
    if (percentCount_) m[prefix + "_mape"] = mape();
    if (const double r = r2(); !std::isnan(r)) m[prefix + "_r2"] = r;
    return m;
}

MeanBaseline meanBaseline(const Dataset& train, const Dataset& evaluated)
{
    const Shape shape = train.targetShape();
    const std::int64_t numel = shape.numel(), targets = shape[shape.rank() - 1];
    if (train.size() == 0) throw std::invalid_argument("the mean baseline needs training samples");
    std::vector<float> v(static_cast<std::size_t>(numel));
    MeanBaseline b;
    b.mean.assign(static_cast<std::size_t>(targets), 0.0);
    for (std::int64_t i = 0; i < train.size(); ++i) {
        train.getValues(i, v.data());
        for (std::int64_t k = 0; k < numel; ++k) b.mean[static_cast<std::size_t>(k % targets)] += v[static_cast<std::size_t>(k)];
    }
    for (double& m : b.mean) m /= static_cast<double>(train.size() * (numel / targets));
    double abs = 0, squares = 0;
    for (std::int64_t i = 0; i < evaluated.size(); ++i) {
        evaluated.getValues(i, v.data());
        for (std::int64_t k = 0; k < numel; ++k) {
            const double e = b.mean[static_cast<std::size_t>(k % targets)] - v[static_cast<std::size_t>(k)];
            abs += std::abs(e);
            squares += e * e;
        }
    }
    const double n = static_cast<double>(evaluated.size() * numel);
    b.mae = n > 0 ? abs / n : kNaN;
    b.rmse = n > 0 ? std::sqrt(squares / n) : kNaN;
    return b;
}

void addBaselineMetrics(std::map<std::string, double>& metrics, const std::string& prefix, const MeanBaseline& baseline)
{
    metrics[prefix + "_baseline_mae"] = baseline.mae;
    metrics[prefix + "_baseline_rmse"] = baseline.rmse;
}

}  // namespace ts
