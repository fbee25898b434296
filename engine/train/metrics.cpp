#include "train/metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace ts {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }  // 0/0 -> 0, as scikit-learn
double f1Of(double p, double r) { return p + r > 0 ? 2 * p * r / (p + r) : 0.0; }
}  // namespace

ClassificationMetrics::ClassificationMetrics(std::int64_t numClasses, std::vector<int> topK)
    : classes_(numClasses), topK_(std::move(topK))
{
    if (classes_ < 1) throw std::invalid_argument("ClassificationMetrics needs at least one class");
    if (std::find(topK_.begin(), topK_.end(), 1) == topK_.end()) topK_.insert(topK_.begin(), 1);
    for (int k : topK_)
        if (k < 1) throw std::invalid_argument("top-k needs k >= 1, got " + std::to_string(k));
    reset();
}

void ClassificationMetrics::reset()
{
    count_ = lossCount_ = 0;
    lossSum_ = 0;
    topKCorrect_.assign(topK_.size(), 0);
    confusion_.assign(static_cast<std::size_t>(classes_), std::vector<std::int64_t>(static_cast<std::size_t>(classes_), 0));
    scores_.clear();
}

MetricSums ClassificationMetrics::sums() const
{
    MetricSums s;
    s.count = count_;
    s.lossSum = lossSum_;
    s.lossCount = lossCount_;
    s.topKCorrect = topKCorrect_;
    for (const auto& row : confusion_) s.confusion.insert(s.confusion.end(), row.begin(), row.end());
    for (const auto& [score, positive] : scores_) {
        s.binaryScores.push_back(score);
        s.binaryPositive.push_back(positive ? 1 : 0);
    }
    return s;
}

void ClassificationMetrics::restore(const MetricSums& s)
{
    const auto classes = static_cast<std::size_t>(classes_);
    if (s.topKCorrect.size() != topK_.size() || s.confusion.size() != classes * classes ||
        s.binaryScores.size() != s.binaryPositive.size() || (classes_ != 2 && !s.binaryScores.empty()))
        throw std::invalid_argument("the checkpoint's running metrics are for " +
                                    std::to_string(static_cast<long long>(std::sqrt(double(s.confusion.size())))) +
                                    " classes and " + std::to_string(s.topKCorrect.size()) + " top-k values, this run has " +
                                    std::to_string(classes_) + " and " + std::to_string(topK_.size()));
    count_ = s.count;
    lossSum_ = s.lossSum;
    lossCount_ = s.lossCount;
    topKCorrect_ = s.topKCorrect;
    for (std::size_t r = 0; r < classes; ++r)
        confusion_[r].assign(s.confusion.begin() + std::ptrdiff_t(r * classes), s.confusion.begin() + std::ptrdiff_t((r + 1) * classes));
    scores_.clear();
    for (std::size_t i = 0; i < s.binaryScores.size(); ++i) scores_.emplace_back(s.binaryScores[i], s.binaryPositive[i] != 0);
}

void ClassificationMetrics::add(const float* logits, const std::int64_t* labels, std::int64_t n, double meanLoss)
{
    const std::int64_t before = count_;
    add(logits, labels, n);
    // The loss is the mean over the rows that count (CrossEntropy skips ignored ones too).
    lossSum_ += meanLoss * static_cast<double>(count_ - before);
    lossCount_ += count_ - before;
}

void ClassificationMetrics::add(const float* logits, const std::int64_t* labels, std::int64_t n)
{
    for (std::int64_t i = 0; i < n; ++i) {
        const float* row = logits + i * classes_;
        const std::int64_t y = labels[i];
        if (y == kIgnoredLabel) continue;
        if (y < 0 || y >= classes_)
            throw std::out_of_range("label " + std::to_string(y) + " outside [0, " + std::to_string(classes_) + ")");
        // Rank of the true class with ties broken by index, so top-1 agrees with the
        // first-maximum argmax used for the confusion matrix.
        std::int64_t rank = 0, predicted = 0;
        for (std::int64_t c = 0; c < classes_; ++c) {
            if (row[c] > row[y] || (row[c] == row[y] && c < y)) ++rank;
            if (row[c] > row[predicted]) predicted = c;
        }
        for (std::size_t k = 0; k < topK_.size(); ++k)
            if (rank < topK_[k]) ++topKCorrect_[k];
        ++confusion_[static_cast<std::size_t>(y)][static_cast<std::size_t>(predicted)];
        if (classes_ == 2) scores_.emplace_back(static_cast<double>(row[1]) - row[0], y == 1);
        ++count_;
    }
}

double ClassificationMetrics::loss() const { return lossCount_ ? lossSum_ / static_cast<double>(lossCount_) : kNaN; }
double ClassificationMetrics::accuracy() const { return topKAccuracy(1); }

double ClassificationMetrics::topKAccuracy(int k) const
{
    if (count_ == 0) return kNaN;
    if (k >= classes_) return 1.0;
    for (std::size_t i = 0; i < topK_.size(); ++i)
        if (topK_[i] == k) return static_cast<double>(topKCorrect_[i]) / static_cast<double>(count_);
    throw std::invalid_argument("top-" + std::to_string(k) + " accuracy was not requested");
}

std::vector<ClassScores> ClassificationMetrics::perClass() const
{
    std::vector<ClassScores> out(static_cast<std::size_t>(classes_));
    for (std::size_t c = 0; c < out.size(); ++c) {
        std::int64_t tp = confusion_[c][c], predicted = 0, actual = 0;
        for (std::size_t o = 0; o < out.size(); ++o) {
            predicted += confusion_[o][c];
            actual += confusion_[c][o];
        }
        out[c].precision = ratio(static_cast<double>(tp), static_cast<double>(predicted));
        out[c].recall = ratio(static_cast<double>(tp), static_cast<double>(actual));
        out[c].f1 = f1Of(out[c].precision, out[c].recall);
        out[c].support = actual;
    }
    return out;
}

ClassificationMetrics::Macro ClassificationMetrics::macro() const
{
    const std::vector<ClassScores> scores = perClass();
    Macro m;
    int present = 0;
    for (std::size_t c = 0; c < scores.size(); ++c) {
        std::int64_t predicted = 0;
        for (std::size_t o = 0; o < scores.size(); ++o) predicted += confusion_[o][c];
        if (scores[c].support == 0 && predicted == 0) continue;
        m.p += scores[c].precision;
        m.r += scores[c].recall;
        m.f1 += scores[c].f1;
        ++present;
    }
    if (present == 0) return {kNaN, kNaN, kNaN};
    return {m.p / present, m.r / present, m.f1 / present};
}

double ClassificationMetrics::macroPrecision() const { return macro().p; }
double ClassificationMetrics::macroRecall() const { return macro().r; }
double ClassificationMetrics::macroF1() const { return macro().f1; }

// Single-label: every sample is one TP (diagonal) or one FP for its prediction plus one FN
// for its label, so pooled FP == FN and all micro averages equal accuracy.
double ClassificationMetrics::microPrecision() const
{
    if (count_ == 0) return kNaN;
    std::int64_t tp = 0;
    for (std::int64_t c = 0; c < classes_; ++c) tp += confusion_[static_cast<std::size_t>(c)][static_cast<std::size_t>(c)];
    return static_cast<double>(tp) / static_cast<double>(count_);  // tp / (tp + fp), fp = count - tp
}
double ClassificationMetrics::microRecall() const { return microPrecision(); }
double ClassificationMetrics::microF1() const { return f1Of(microPrecision(), microRecall()); }

double ClassificationMetrics::rocAuc() const
{
    if (classes_ != 2) return kNaN;
    std::vector<std::pair<double, bool>> s = scores_;
    std::sort(s.begin(), s.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    // Sum of the (1-based, tie-averaged) ranks of the positives: the Mann-Whitney U statistic.
    double positiveRankSum = 0;
    std::int64_t positives = 0;
    for (std::size_t i = 0; i < s.size();) {
        std::size_t j = i;
        while (j < s.size() && s[j].first == s[i].first) ++j;
        const double averageRank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0;
        for (std::size_t t = i; t < j; ++t)
            if (s[t].second) {
                positiveRankSum += averageRank;
                ++positives;
            }
        i = j;
    }
    const auto negatives = static_cast<std::int64_t>(s.size()) - positives;
    if (positives == 0 || negatives == 0) return kNaN;
    const double p = static_cast<double>(positives), n = static_cast<double>(negatives);
    return (positiveRankSum - p * (p + 1) / 2) / (p * n);
}

std::map<std::string, double> ClassificationMetrics::summary(const std::string& prefix) const
{
    std::map<std::string, double> out;
    if (lossCount_) out[prefix + "_loss"] = loss();
    out[prefix + "_acc"] = accuracy();
    for (int k : topK_)
        if (k > 1) out[prefix + "_top" + std::to_string(k) + "_acc"] = topKAccuracy(k);
    out[prefix + "_macro_f1"] = macroF1();
    if (classes_ == 2) out[prefix + "_auc"] = rocAuc();
    return out;
}

void addLanguageModelMetrics(std::map<std::string, double>& metrics, const std::string& prefix, double charactersPerToken)
{
    const auto loss = metrics.find(prefix + "_loss");
    if (loss == metrics.end()) return;
    metrics[prefix + "_ppl"] = std::exp(loss->second);
    metrics[prefix + "_bpc"] = loss->second / std::log(2.0) / charactersPerToken;
}

double charactersPerToken(const ClassificationMetrics& m, const std::vector<int>& pieceCharacters)
{
    double characters = 0, tokens = 0;
    const auto& rows = m.confusion();
    for (std::size_t id = 0; id < rows.size() && id < pieceCharacters.size(); ++id) {
        double n = 0;
        for (std::int64_t c : rows[id]) n += double(c);
        characters += n * pieceCharacters[id];
        tokens += n;
    }
    return tokens > 0 && characters > 0 ? characters / tokens : 1.0;
}

}  // namespace ts
