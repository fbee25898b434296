#include "train/evaluation_comparison.h"

#include <stdexcept>
#include <string>

namespace ts {

namespace {
const char* const kSameSplit = "; evaluate both runs on the same split (the same dataset and --split) to compare them";
}

void checkSameSamples(const std::vector<Prediction>& a, const std::vector<Prediction>& b)
{
    if (a.size() != b.size())
        throw std::invalid_argument("run A's evaluation holds " + std::to_string(a.size()) + " samples and run B's " +
                                    std::to_string(b.size()) + kSameSplit);
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i].sample != b[i].sample)
            throw std::invalid_argument("row " + std::to_string(i) + " is sample " + std::to_string(a[i].sample) +
                                        " in run A's evaluation but sample " + std::to_string(b[i].sample) + " in run B's" +
                                        kSameSplit);
        if (a[i].label != b[i].label)
            throw std::invalid_argument("sample " + std::to_string(a[i].sample) + " has label " + std::to_string(a[i].label) +
                                        " in run A's evaluation but label " + std::to_string(b[i].label) + " in run B's" +
                                        kSameSplit);
    }
}

EvaluationComparison compareEvaluations(const std::vector<Prediction>& a, const std::vector<Prediction>& b,
                                        std::int64_t classes)
{
    checkSameSamples(a, b);
    // Only the confusion matrix and per-class scores are needed: no top-k beyond 1.
    const ClassificationReport ra = classificationReport(a, classes, {});
    const ClassificationReport rb = classificationReport(b, classes, {});

    EvaluationComparison c;
    c.classes = classes;
    c.samples = std::int64_t(a.size());
    c.accuracyA = ra.accuracy();
    c.accuracyB = rb.accuracy();
    c.confusionA = ra.confusion;
    c.confusionB = rb.confusion;
    const auto sharesA = rowNormalised(ra.confusion), sharesB = rowNormalised(rb.confusion);
    c.normalisedDifference = sharesB;
    for (std::size_t t = 0; t < sharesA.size(); ++t)
        for (std::size_t p = 0; p < sharesA[t].size(); ++p) c.normalisedDifference[t][p] -= sharesA[t][p];

    for (std::size_t k = 0; k < std::size_t(classes); ++k) {
        const ClassScores& sa = ra.perClass[k];
        const ClassScores& sb = rb.perClass[k];
        c.perClass.push_back({sa, sb, sb.precision - sa.precision, sb.recall - sa.recall, sb.f1 - sa.f1});
    }

    for (std::size_t i = 0; i < a.size(); ++i) {
        const bool rightA = a[i].predicted == a[i].label, rightB = b[i].predicted == b[i].label;
        if (rightA == rightB) continue;
        const SampleDisagreement d{a[i].sample, a[i].label, a[i].predicted, b[i].predicted, a[i].confidence, b[i].confidence};
        (rightA ? c.aRightBWrong : c.bRightAWrong).push_back(d);
    }
    return c;
}

}  // namespace ts
