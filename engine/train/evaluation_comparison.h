// Two models side by side: two runs' predictions over the same samples (an evaluation of
// each on the same split, as RunReader::predictions returns them) turned into what changed
// from run A to run B: both confusion matrices and the difference of their row-normalised
// forms, per-class precision / recall / F1 of each (ts::classificationReport) with the
// deltas, and the samples one of them gets right and the other wrong. Pure functions.
#pragma once
#include <cstdint>
#include <vector>

#include "train/classification_report.h"
#include "types/evaluation_records.h"

namespace ts {

struct ClassComparison {
    ClassScores a, b;  // precision, recall, F1, support of each run
    double precisionDelta = 0, recallDelta = 0, f1Delta = 0;  // b - a
};

// A sample exactly one of the two runs classifies correctly.
struct SampleDisagreement {
    std::int64_t sample = 0, label = 0;
    std::int64_t predictedA = 0, predictedB = 0;
    float confidenceA = 0, confidenceB = 0;  // each run's probability of its own prediction
};

struct EvaluationComparison {
    std::int64_t classes = 0, samples = 0;
    double accuracyA = 0, accuracyB = 0;
    std::vector<std::vector<std::int64_t>> confusionA, confusionB;  // [truth][predicted], counts
    // rowNormalised(B) - rowNormalised(A): on the diagonal a positive value is a class B
    // recognises more often; off it, a positive value is a mistake B makes more often.
    std::vector<std::vector<double>> normalisedDifference;
    std::vector<ClassComparison> perClass;
    std::vector<SampleDisagreement> aRightBWrong, bRightAWrong;  // in sample order
};

// Throws std::invalid_argument unless `a` and `b` hold the same samples: the same count, and
// sample by sample the same index and label (naming the first that differs), since only then
// do their matrices and per-sample answers compare; also what checkPredictions throws.
void checkSameSamples(const std::vector<Prediction>& a, const std::vector<Prediction>& b);

EvaluationComparison compareEvaluations(const std::vector<Prediction>& a, const std::vector<Prediction>& b,
                                        std::int64_t classes);

}  // namespace ts
