// The classification part of an evaluation, computed from stored predictions (labels and
// softmax rows, as RunReader::predictions returns them): the confusion matrix, per-class
// precision / recall / F1 / support with macro, micro and weighted averages, top-k accuracy,
// and one-vs-rest ROC and precision-recall curves with their areas. Pure functions, so the
// evaluate job, the CLI and the studio all compute the same numbers the same way.
//
// Conventions follow scikit-learn, which the test suite checks them against
// (tests/cli/check_eval_sklearn.py): 0/0 counts as 0; macro and weighted averages run over the
// classes that occur as a label or a prediction; AP is average_precision_score's
// sum_n (R_n - R_{n-1}) P_n (no interpolation). Scores are the float probabilities promoted to
// double, so ties are exactly the ties a reader of predictions.csv sees.
#pragma once
#include <cstdint>
#include <vector>

#include "train/metrics.h"
#include "types/evaluation_records.h"

namespace ts {

struct AveragedScores {
    double precision = 0, recall = 0, f1 = 0;
};

// One class against the rest, at every distinct score taken as a threshold (highest first).
// ROC starts at (0, 0) with an infinite threshold; PR points are (recall, precision) pairs.
struct RocCurve {
    std::vector<double> falsePositiveRate, truePositiveRate, thresholds;
    double auc = 0;  // NaN when the class has no positives or no negatives
};
struct PrecisionRecallCurve {
    std::vector<double> recall, precision, thresholds;
    double averagePrecision = 0;  // NaN when the class has no positives
};

struct TopKAccuracy {
    int k = 1;
    double accuracy = 0;
};

struct ClassificationReport {
    std::int64_t classes = 0, samples = 0;
    std::vector<std::vector<std::int64_t>> confusion;  // [truth][predicted], counts
    std::vector<ClassScores> perClass;
    AveragedScores macro, micro, weighted;
    std::vector<TopKAccuracy> topK;  // k = 1 first
    std::vector<RocCurve> roc;       // one per class
    std::vector<PrecisionRecallCurve> precisionRecall;
    double macroRocAuc = 0;          // mean over the classes whose AUC is defined (NaN: none)

    double accuracy() const { return topK.empty() ? 0 : topK.front().accuracy; }
};

// Throws std::invalid_argument naming the sample when the predictions are empty, a label or
// prediction lies outside [0, classes), a row has the wrong length or a probability is NaN.
void checkPredictions(const std::vector<Prediction>& predictions, std::int64_t classes);

// topK: the k values to report besides 1 (those >= classes are left out: they are always 1).
ClassificationReport classificationReport(const std::vector<Prediction>& predictions, std::int64_t classes,
                                          const std::vector<int>& topK = {3, 5});

// Each row divided by its sum (the class's support); a class with no samples stays all 0.
std::vector<std::vector<double>> rowNormalised(const std::vector<std::vector<std::int64_t>>& confusion);

// The fraction of samples whose true class is among the k most probable (ties broken by the
// lower class index, as the first-maximum argmax does).
double topKAccuracy(const std::vector<Prediction>& predictions, int k);

// One class against the rest, scored by its probability.
RocCurve rocCurve(const std::vector<Prediction>& predictions, std::int64_t positiveClass);
PrecisionRecallCurve precisionRecallCurve(const std::vector<Prediction>& predictions, std::int64_t positiveClass);

}  // namespace ts
