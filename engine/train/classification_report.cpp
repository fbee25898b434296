#include "train/classification_report.h"

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

// One-vs-rest counts at every distinct score, highest first: after threshold i, tp[i] positives
// and fp[i] negatives score >= thresholds[i]. The base of both curves (sklearn's _binary_clf_curve).
struct BinaryCounts {
    std::vector<double> thresholds, tp, fp;
    double positives = 0, negatives = 0;
};

BinaryCounts binaryCounts(const std::vector<Prediction>& predictions, std::int64_t positiveClass)
{
    std::vector<std::pair<double, bool>> scored;
    scored.reserve(predictions.size());
    for (const Prediction& p : predictions)
        scored.emplace_back(double(p.probabilities.at(std::size_t(positiveClass))), p.label == positiveClass);
    std::sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    BinaryCounts c;
    double tp = 0, fp = 0;
    for (std::size_t i = 0; i < scored.size(); ++i) {
        (scored[i].second ? tp : fp) += 1;
        if (i + 1 < scored.size() && scored[i + 1].first == scored[i].first) continue;  // ties form one step
        c.thresholds.push_back(scored[i].first);
        c.tp.push_back(tp);
        c.fp.push_back(fp);
    }
    c.positives = tp;
    c.negatives = fp;
    return c;
}

}  // namespace

void checkPredictions(const std::vector<Prediction>& predictions, std::int64_t classes)
{
    if (predictions.empty())
        throw std::invalid_argument("the evaluation holds no samples: there is nothing to report; evaluate a split "
                                    "that has samples (--split test|val|train)");
    if (classes < 1) throw std::invalid_argument("the evaluation has no classes");
    for (const Prediction& p : predictions) {
        const std::string where = "sample " + std::to_string(p.sample);
        if (std::int64_t(p.probabilities.size()) != classes)
            throw std::invalid_argument(where + " has " + std::to_string(p.probabilities.size()) + " probabilities for " +
                                        std::to_string(classes) + " classes; evaluate the run again");
        if (p.label < 0 || p.label >= classes || p.predicted < 0 || p.predicted >= classes)
            throw std::invalid_argument(where + ": label " + std::to_string(p.label) + " or prediction " +
                                        std::to_string(p.predicted) + " outside [0, " + std::to_string(classes) + ")");
        for (float q : p.probabilities)
            if (!std::isfinite(q))
                throw std::invalid_argument(where + " has a non-finite probability (" + std::to_string(q) +
                                            "): the model's outputs are not finite for these weights; evaluate an "
                                            "earlier checkpoint (--checkpoint EPOCH) or retrain with a lower learning rate");
    }
}

std::vector<std::vector<double>> rowNormalised(const std::vector<std::vector<std::int64_t>>& confusion)
{
    std::vector<std::vector<double>> out;
    for (const auto& row : confusion) {
        double sum = 0;
        for (std::int64_t v : row) sum += double(v);
        auto& r = out.emplace_back(row.size(), 0.0);
        for (std::size_t c = 0; c < row.size(); ++c) r[c] = ratio(double(row[c]), sum);
    }
    return out;
}

double topKAccuracy(const std::vector<Prediction>& predictions, int k)
{
    if (predictions.empty()) return kNaN;
    std::int64_t correct = 0;
    for (const Prediction& p : predictions) {
        const auto& row = p.probabilities;
        const float truth = row.at(std::size_t(p.label));
        std::int64_t rank = 0;
        for (std::size_t c = 0; c < row.size(); ++c)
            if (row[c] > truth || (row[c] == truth && std::int64_t(c) < p.label)) ++rank;
        correct += rank < k;
    }
    return double(correct) / double(predictions.size());
}

RocCurve rocCurve(const std::vector<Prediction>& predictions, std::int64_t positiveClass)
{
    const BinaryCounts c = binaryCounts(predictions, positiveClass);
    RocCurve roc;
    roc.falsePositiveRate = {0.0};
    roc.truePositiveRate = {0.0};
    roc.thresholds = {std::numeric_limits<double>::infinity()};
    double area = 0, lastTp = 0, lastFp = 0;  // in counts: the trapezoids' sum over P * N
    for (std::size_t i = 0; i < c.thresholds.size(); ++i) {
        roc.falsePositiveRate.push_back(ratio(c.fp[i], c.negatives));
        roc.truePositiveRate.push_back(ratio(c.tp[i], c.positives));
        roc.thresholds.push_back(c.thresholds[i]);
        area += (c.fp[i] - lastFp) * (c.tp[i] + lastTp) / 2;
        lastTp = c.tp[i];
        lastFp = c.fp[i];
    }
    roc.auc = c.positives > 0 && c.negatives > 0 ? area / (c.positives * c.negatives) : kNaN;
    return roc;
}

PrecisionRecallCurve precisionRecallCurve(const std::vector<Prediction>& predictions, std::int64_t positiveClass)
{
    const BinaryCounts c = binaryCounts(predictions, positiveClass);
    PrecisionRecallCurve pr;
    double ap = 0, lastTp = 0;
    for (std::size_t i = 0; i < c.thresholds.size(); ++i) {
        const double precision = c.tp[i] / (c.tp[i] + c.fp[i]);  // at least one sample scores >= a threshold
        pr.recall.push_back(ratio(c.tp[i], c.positives));
        pr.precision.push_back(precision);
        pr.thresholds.push_back(c.thresholds[i]);
        ap += (c.tp[i] - lastTp) * precision;  // recall step (in positives) times the precision there
        lastTp = c.tp[i];
    }
    pr.averagePrecision = c.positives > 0 ? ap / c.positives : kNaN;
    return pr;
}

ClassificationReport classificationReport(const std::vector<Prediction>& predictions, std::int64_t classes,
                                          const std::vector<int>& topK)
{
    checkPredictions(predictions, classes);
    ClassificationReport r;
    const auto k = std::size_t(classes);
    r.classes = classes;
    r.samples = std::int64_t(predictions.size());
    r.confusion.assign(k, std::vector<std::int64_t>(k, 0));
    for (const Prediction& p : predictions) ++r.confusion[std::size_t(p.label)][std::size_t(p.predicted)];

    std::int64_t correct = 0;
    r.perClass.resize(k);
    for (std::size_t c = 0; c < k; ++c) {
        std::int64_t predicted = 0, actual = 0;
        for (std::size_t o = 0; o < k; ++o) {
            predicted += r.confusion[o][c];
            actual += r.confusion[c][o];
        }
        const double tp = double(r.confusion[c][c]);
        correct += r.confusion[c][c];
        ClassScores& s = r.perClass[c];
        s.precision = ratio(tp, double(predicted));
        s.recall = ratio(tp, double(actual));
        s.f1 = f1Of(s.precision, s.recall);
        s.support = actual;
        if (actual == 0 && predicted == 0) continue;  // absent: left out of macro and weighted
        r.macro.precision += s.precision;
        r.macro.recall += s.recall;
        r.macro.f1 += s.f1;
        r.weighted.precision += s.precision * double(actual);
        r.weighted.recall += s.recall * double(actual);
        r.weighted.f1 += s.f1 * double(actual);
    }
    std::int64_t present = 0;
    for (std::size_t c = 0; c < k; ++c) {
        std::int64_t predicted = 0;
        for (std::size_t o = 0; o < k; ++o) predicted += r.confusion[o][c];
        present += r.perClass[c].support > 0 || predicted > 0;
    }
    const double n = double(r.samples);
    r.macro = {r.macro.precision / double(present), r.macro.recall / double(present), r.macro.f1 / double(present)};
    r.weighted = {r.weighted.precision / n, r.weighted.recall / n, r.weighted.f1 / n};
    // Single-label: pooled FP and FN both count the wrong samples, so all three equal accuracy.
    const double micro = double(correct) / n;
    r.micro = {micro, micro, micro};

    r.topK.push_back({1, micro});
    for (int kk : topK)
        if (kk > 1 && kk < classes) r.topK.push_back({kk, topKAccuracy(predictions, kk)});

    double aucSum = 0;
    int aucCount = 0;
    for (std::int64_t c = 0; c < classes; ++c) {
        r.roc.push_back(rocCurve(predictions, c));
        r.precisionRecall.push_back(precisionRecallCurve(predictions, c));
        if (!std::isnan(r.roc.back().auc)) aucSum += r.roc.back().auc, ++aucCount;
    }
    r.macroRocAuc = aucCount ? aucSum / aucCount : kNaN;
    return r;
}

}  // namespace ts
