// Two runs' predictions compared (train/evaluation_comparison.h), on a case small enough to
// check by hand and on a random one checked by brute-force counting.
//
// The hand case: 3 classes, 6 samples, labels 0 0 1 1 2 2;
//   A predicts 0 1 1 1 2 0 (right on 0 2 3 4), B predicts 0 0 1 2 2 2 (right on 0 1 2 4 5).
//   confusion A [[1 1 0] [0 2 0] [1 0 1]], B [[2 0 0] [0 1 1] [0 0 2]]
//   row-normalised B - A = [[.5 -.5 0] [0 -.5 .5] [-.5 0 .5]]
//   recall A .5 1 .5, B 1 .5 1;  precision A 1/2 2/3 1, B 1 1 2/3;  F1 A 1/2 4/5 2/3, B 1 2/3 4/5
//   A right, B wrong: sample 3;  B right, A wrong: samples 1 and 5.
// Tolerance 1e-12: every expected value is a ratio of small counts, computed in double.
#include <QtTest>

#include <cmath>
#include <random>

#include "train/evaluation_comparison.h"

using namespace ts;

namespace {

// Rows whose probabilities put `confidence` on the prediction and share the rest evenly.
std::vector<Prediction> rows(std::int64_t classes, const std::vector<std::int64_t>& labels,
                             const std::vector<std::int64_t>& predicted, const std::vector<float>& confidence)
{
    std::vector<Prediction> out;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        Prediction p;
        p.sample = std::int64_t(i);
        p.label = labels[i];
        p.predicted = predicted[i];
        p.confidence = confidence[i];
        p.probabilities.assign(std::size_t(classes), (1 - confidence[i]) / float(classes - 1));
        p.probabilities[std::size_t(predicted[i])] = confidence[i];
        out.push_back(p);
    }
    return out;
}

const std::vector<std::int64_t> kLabels = {0, 0, 1, 1, 2, 2};
std::vector<Prediction> handA() { return rows(3, kLabels, {0, 1, 1, 1, 2, 0}, {0.9f, 0.6f, 0.8f, 0.7f, 0.95f, 0.5f}); }
std::vector<Prediction> handB() { return rows(3, kLabels, {0, 0, 1, 2, 2, 2}, {0.85f, 0.55f, 0.9f, 0.65f, 0.9f, 0.75f}); }

bool near(double a, double b) { return std::fabs(a - b) <= 1e-12; }

#define QNEAR(actual, expected)                                                                                      \
    QVERIFY2(near((actual), (expected)),                                                                             \
             qPrintable(QString("%1 = %2, expected %3").arg(#actual).arg((actual), 0, 'g', 15).arg((expected), 0, 'g', 15)))

// What the message of `call`'s std::invalid_argument says; empty when it does not throw one.
template <typename F>
QString thrown(F&& call)
{
    try {
        call();
    } catch (const std::invalid_argument& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

}  // namespace

class TestEvaluationComparison : public QObject {
    Q_OBJECT

private slots:
    void handCaseMatricesAndDifference()
    {
        const EvaluationComparison c = compareEvaluations(handA(), handB(), 3);
        QCOMPARE(c.classes, 3);
        QCOMPARE(c.samples, 6);
        QNEAR(c.accuracyA, 4.0 / 6);
        QNEAR(c.accuracyB, 5.0 / 6);
        using Counts = std::vector<std::vector<std::int64_t>>;
        QCOMPARE(c.confusionA, (Counts{{1, 1, 0}, {0, 2, 0}, {1, 0, 1}}));
        QCOMPARE(c.confusionB, (Counts{{2, 0, 0}, {0, 1, 1}, {0, 0, 2}}));
        const double expected[3][3] = {{0.5, -0.5, 0}, {0, -0.5, 0.5}, {-0.5, 0, 0.5}};
        QCOMPARE(c.normalisedDifference.size(), std::size_t(3));
        for (int t = 0; t < 3; ++t)
            for (int p = 0; p < 3; ++p) QNEAR(c.normalisedDifference[t][p], expected[t][p]);
    }

    void handCasePerClassScores()
    {
        const EvaluationComparison c = compareEvaluations(handA(), handB(), 3);
        QCOMPARE(c.perClass.size(), std::size_t(3));
        const double recallA[] = {0.5, 1, 0.5}, recallB[] = {1, 0.5, 1};
        const double precisionA[] = {0.5, 2.0 / 3, 1}, precisionB[] = {1, 1, 2.0 / 3};
        const double f1A[] = {0.5, 0.8, 2.0 / 3}, f1B[] = {1, 2.0 / 3, 0.8};
        for (int k = 0; k < 3; ++k) {
            const ClassComparison& s = c.perClass[std::size_t(k)];
            QNEAR(s.a.recall, recallA[k]);
            QNEAR(s.b.recall, recallB[k]);
            QNEAR(s.recallDelta, recallB[k] - recallA[k]);
            QNEAR(s.a.precision, precisionA[k]);
            QNEAR(s.b.precision, precisionB[k]);
            QNEAR(s.precisionDelta, precisionB[k] - precisionA[k]);
            QNEAR(s.a.f1, f1A[k]);
            QNEAR(s.b.f1, f1B[k]);
            QNEAR(s.f1Delta, f1B[k] - f1A[k]);
            QCOMPARE(s.a.support, 2);
            QCOMPARE(s.b.support, 2);
        }
    }

    void handCaseDisagreements()
    {
        const EvaluationComparison c = compareEvaluations(handA(), handB(), 3);
        QCOMPARE(c.aRightBWrong.size(), std::size_t(1));
        const SampleDisagreement& only = c.aRightBWrong.front();
        QCOMPARE(only.sample, 3);
        QCOMPARE(only.label, 1);
        QCOMPARE(only.predictedA, 1);
        QCOMPARE(only.predictedB, 2);
        QCOMPARE(only.confidenceA, 0.7f);
        QCOMPARE(only.confidenceB, 0.65f);
        QCOMPARE(c.bRightAWrong.size(), std::size_t(2));
        QCOMPARE(c.bRightAWrong[0].sample, 1);
        QCOMPARE(c.bRightAWrong[0].predictedA, 1);
        QCOMPARE(c.bRightAWrong[0].predictedB, 0);
        QCOMPARE(c.bRightAWrong[0].confidenceB, 0.55f);
        QCOMPARE(c.bRightAWrong[1].sample, 5);
        QCOMPARE(c.bRightAWrong[1].predictedA, 0);
        QCOMPARE(c.bRightAWrong[1].confidenceA, 0.5f);
        // Swapping the runs swaps the lists and negates the difference.
        const EvaluationComparison swapped = compareEvaluations(handB(), handA(), 3);
        QCOMPARE(swapped.bRightAWrong.size(), std::size_t(1));
        QCOMPARE(swapped.bRightAWrong.front().sample, 3);
        QCOMPARE(swapped.aRightBWrong.size(), std::size_t(2));
        QNEAR(swapped.normalisedDifference[0][1], 0.5);
    }

    // A class neither run has samples of keeps an all-zero row: no difference, no NaN.
    void absentClassStaysZero()
    {
        const auto a = rows(4, kLabels, {0, 1, 1, 1, 2, 0}, {0.9f, 0.6f, 0.8f, 0.7f, 0.95f, 0.5f});
        const auto b = rows(4, kLabels, {0, 0, 1, 3, 2, 2}, {0.9f, 0.6f, 0.8f, 0.7f, 0.95f, 0.5f});
        const EvaluationComparison c = compareEvaluations(a, b, 4);
        for (double v : c.normalisedDifference[3]) QCOMPARE(v, 0.0);
        QNEAR(c.normalisedDifference[1][3], 0.5);  // B sends one of class 1's two samples to class 3
        QCOMPARE(c.perClass[3].a.support, 0);
        QNEAR(c.perClass[3].precisionDelta, 0.0);  // B's one prediction of 3 is wrong: precision 0 as A's 0/0
    }

    // 2,000 random samples over 7 classes, every number recounted by a plain loop.
    void randomCaseAgainstBruteForce()
    {
        const std::int64_t classes = 7, n = 2000;
        std::mt19937 rng(12345);
        std::uniform_int_distribution<std::int64_t> cls(0, classes - 1);
        std::uniform_real_distribution<float> conf(0.3f, 1.0f);
        std::bernoulli_distribution rightA(0.6), rightB(0.7);
        std::vector<std::int64_t> labels(n), predA(n), predB(n);
        std::vector<float> confA(n), confB(n);
        for (std::int64_t i = 0; i < n; ++i) {
            labels[std::size_t(i)] = cls(rng);
            predA[std::size_t(i)] = rightA(rng) ? labels[std::size_t(i)] : cls(rng);
            predB[std::size_t(i)] = rightB(rng) ? labels[std::size_t(i)] : cls(rng);
            confA[std::size_t(i)] = conf(rng);
            confB[std::size_t(i)] = conf(rng);
        }
        const auto a = rows(classes, labels, predA, confA), b = rows(classes, labels, predB, confB);
        const EvaluationComparison c = compareEvaluations(a, b, classes);

        for (std::int64_t t = 0; t < classes; ++t) {
            double support = 0;
            for (std::int64_t i = 0; i < n; ++i) support += labels[std::size_t(i)] == t;
            for (std::int64_t p = 0; p < classes; ++p) {
                double countA = 0, countB = 0;
                for (std::int64_t i = 0; i < n; ++i) {
                    countA += labels[std::size_t(i)] == t && predA[std::size_t(i)] == p;
                    countB += labels[std::size_t(i)] == t && predB[std::size_t(i)] == p;
                }
                QCOMPARE(double(c.confusionA[std::size_t(t)][std::size_t(p)]), countA);
                QCOMPARE(double(c.confusionB[std::size_t(t)][std::size_t(p)]), countB);
                QNEAR(c.normalisedDifference[std::size_t(t)][std::size_t(p)], countB / support - countA / support);
            }
            double hitA = 0, hitB = 0, calledA = 0, calledB = 0;
            for (std::int64_t i = 0; i < n; ++i) {
                hitA += labels[std::size_t(i)] == t && predA[std::size_t(i)] == t;
                hitB += labels[std::size_t(i)] == t && predB[std::size_t(i)] == t;
                calledA += predA[std::size_t(i)] == t;
                calledB += predB[std::size_t(i)] == t;
            }
            const ClassComparison& s = c.perClass[std::size_t(t)];
            QNEAR(s.recallDelta, hitB / support - hitA / support);
            QNEAR(s.precisionDelta, hitB / calledB - hitA / calledA);
            const double f1A = 2 * hitA / (support + calledA), f1B = 2 * hitB / (support + calledB);  // F1 = 2TP/(2TP+FP+FN)
            QVERIFY(std::fabs(s.f1Delta - (f1B - f1A)) <= 1e-12);
        }

        std::vector<std::int64_t> onlyA, onlyB;
        for (std::int64_t i = 0; i < n; ++i) {
            const bool ra = predA[std::size_t(i)] == labels[std::size_t(i)], rb = predB[std::size_t(i)] == labels[std::size_t(i)];
            if (ra && !rb) onlyA.push_back(i);
            if (rb && !ra) onlyB.push_back(i);
        }
        QVERIFY(!onlyA.empty() && !onlyB.empty());
        QCOMPARE(c.aRightBWrong.size(), onlyA.size());
        QCOMPARE(c.bRightAWrong.size(), onlyB.size());
        for (std::size_t j = 0; j < onlyA.size(); ++j) {
            const SampleDisagreement& d = c.aRightBWrong[j];
            QCOMPARE(d.sample, onlyA[j]);
            QCOMPARE(d.predictedB, predB[std::size_t(onlyA[j])]);
            QCOMPARE(d.confidenceB, confB[std::size_t(onlyA[j])]);
        }
        for (std::size_t j = 0; j < onlyB.size(); ++j) {
            QCOMPARE(c.bRightAWrong[j].sample, onlyB[j]);
            QCOMPARE(c.bRightAWrong[j].predictedA, predA[std::size_t(onlyB[j])]);
            QCOMPARE(c.bRightAWrong[j].confidenceA, confA[std::size_t(onlyB[j])]);
        }
    }

    void differentSamplesAreRefused()
    {
        auto shorter = handB();
        shorter.pop_back();
        QString message = thrown([&] { compareEvaluations(handA(), shorter, 3); });
        QVERIFY2(message.contains("6 samples") && message.contains("B's 5") && message.contains("same split"), qPrintable(message));

        auto relabelled = handB();
        relabelled[4].label = 0;
        message = thrown([&] { compareEvaluations(handA(), relabelled, 3); });
        QVERIFY2(message.contains("sample 4 has label 2") && message.contains("label 0 in run B's") &&
                     message.contains("same split"),
                 qPrintable(message));

        auto shifted = handB();
        shifted[2].sample = 7;
        message = thrown([&] { compareEvaluations(handA(), shifted, 3); });
        QVERIFY2(message.contains("row 2 is sample 2") && message.contains("sample 7 in run B's"), qPrintable(message));

        // What checkPredictions refuses is refused too, and empty sets.
        QVERIFY(!thrown([&] { compareEvaluations(handA(), handB(), 2); }).isEmpty());  // label 2 outside [0, 2)
        QVERIFY(!thrown([&] { compareEvaluations({}, {}, 3); }).isEmpty());
    }
};

QTEST_APPLESS_MAIN(TestEvaluationComparison)
#include "tst_evaluation_comparison.moc"
