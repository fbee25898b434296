// The evaluation report (train/classification_report.h, calibration.h, evaluation_report.h)
// on cases small enough to check by hand; tests/check_eval_sklearn.py checks the same
// functions against scikit-learn on a real evaluation.
//
// The 3-class example: 7 samples, labels 0 0 1 1 2 2 1, predictions 0 1 1 1 0 2 1.
//   confusion [truth][predicted] = [[1 1 0] [0 3 0] [1 0 1]], support 2 3 2
//   class 0: P 1/2 R 1/2 F1 1/2;  class 1: P 3/4 R 1 F1 6/7;  class 2: P 1 R 1/2 F1 2/3
//   macro P 3/4, R 2/3, F1 85/126;  weighted P 3/4, R 5/7, F1 103/147;  micro = accuracy 5/7
//   ECE: confidences .7 .62 .5 .82 .45 .9 .7 fall in bins 10 9 7 12 6 13 10 (none near an edge);
//   gaps .45 .5 .62 (wrong or alone) .3 (bin 10: both right, conf .7) .18 .1 -> 2.45 / 7 = 0.35
//   Brier (not divided by K): per-sample sums .14 .8078 .38 .0488 .665 .015 .14 -> 2.1966 / 7
//   class 0 one-vs-rest: positives score .7 .35, negatives .2 .1 .45 .05 .2 -> AUC 9/10,
//   AP = 1/2 * 1 + 1/2 * 2/3 = 5/6.
// Tolerance 1e-6: probabilities are floats (0.7f is 0.699999988).
#include <QtTest>

#include <cmath>
#include <limits>

#include "train/evaluation_report.h"

using namespace ts;

namespace {

std::vector<Prediction> rows(const std::vector<std::int64_t>& labels, const std::vector<std::vector<float>>& probabilities)
{
    std::vector<Prediction> out;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        Prediction p;
        p.sample = std::int64_t(i);
        p.label = labels[i];
        p.probabilities = probabilities[i];
        p.predicted = std::max_element(p.probabilities.begin(), p.probabilities.end()) - p.probabilities.begin();
        p.confidence = p.probabilities[std::size_t(p.predicted)];
        out.push_back(p);
    }
    return out;
}

std::vector<Prediction> threeClassExample()
{
    return rows({0, 0, 1, 1, 2, 2, 1}, {{0.7f, 0.2f, 0.1f},
                                        {0.35f, 0.62f, 0.03f},
                                        {0.2f, 0.5f, 0.3f},
                                        {0.1f, 0.82f, 0.08f},
                                        {0.45f, 0.2f, 0.35f},
                                        {0.05f, 0.05f, 0.9f},
                                        {0.2f, 0.7f, 0.1f}});
}

bool near(double a, double b, double tolerance = 1e-6) { return std::fabs(a - b) <= tolerance; }

#define QNEAR(actual, expected)                                                                                      \
    QVERIFY2(near((actual), (expected)),                                                                             \
             qPrintable(QString("%1 = %2, expected %3").arg(#actual).arg((actual), 0, 'g', 10).arg((expected), 0, 'g', 10)))

}  // namespace

class TestEvaluationReport : public QObject {
    Q_OBJECT

private slots:
    void confusionAndPerClassScores()
    {
        const ClassificationReport r = classificationReport(threeClassExample(), 3, {2, 5});
        QCOMPARE(r.samples, std::int64_t(7));
        using Matrix = std::vector<std::vector<std::int64_t>>;
        QVERIFY(r.confusion == (Matrix{{1, 1, 0}, {0, 3, 0}, {1, 0, 1}}));
        const double precision[] = {0.5, 0.75, 1.0}, recall[] = {0.5, 1.0, 0.5}, f1[] = {0.5, 6.0 / 7, 2.0 / 3};
        const std::int64_t support[] = {2, 3, 2};
        for (std::size_t c = 0; c < 3; ++c) {
            QNEAR(r.perClass[c].precision, precision[c]);
            QNEAR(r.perClass[c].recall, recall[c]);
            QNEAR(r.perClass[c].f1, f1[c]);
            QCOMPARE(r.perClass[c].support, support[c]);
        }
        const std::vector<std::vector<double>> normalised = rowNormalised(r.confusion);
        QNEAR(normalised[1][1], 1.0);
        QNEAR(normalised[2][0], 0.5);
        QNEAR(normalised[0][2], 0.0);
    }

    void averagesAndTopK()
    {
        const ClassificationReport r = classificationReport(threeClassExample(), 3, {2, 5});
        QNEAR(r.macro.precision, 0.75);
        QNEAR(r.macro.recall, 2.0 / 3);
        QNEAR(r.macro.f1, 85.0 / 126);
        QNEAR(r.weighted.precision, 0.75);
        QNEAR(r.weighted.recall, 5.0 / 7);
        QNEAR(r.weighted.f1, 103.0 / 147);
        QNEAR(r.micro.precision, 5.0 / 7);
        QNEAR(r.micro.recall, 5.0 / 7);
        QNEAR(r.micro.f1, 5.0 / 7);
        QCOMPARE(r.topK.size(), std::size_t(2));  // k = 5 >= 3 classes is left out
        QCOMPARE(r.topK[0].k, 1);
        QNEAR(r.accuracy(), 5.0 / 7);
        QCOMPARE(r.topK[1].k, 2);
        QNEAR(r.topK[1].accuracy, 1.0);  // the two wrong samples have their label second
    }

    // A class nobody predicts and no sample has is left out of macro and weighted averages
    // (scikit-learn's unique_labels), but keeps its zero row in the per-class table.
    void absentClassLeftOutOfAverages()
    {
        const ClassificationReport r = classificationReport(
            rows({0, 1, 1}, {{0.6f, 0.3f, 0.1f}, {0.2f, 0.7f, 0.1f}, {0.5f, 0.4f, 0.1f}}), 3);
        QCOMPARE(r.perClass[2].support, std::int64_t(0));
        QNEAR(r.macro.precision, (0.5 + 1.0) / 2);  // class 0: 1 of 2, class 1: 1 of 1
        QNEAR(r.macro.recall, (1.0 + 0.5) / 2);
    }

    void rocAndAveragePrecision()
    {
        const std::vector<Prediction> p = threeClassExample();
        const RocCurve roc = rocCurve(p, 0);
        QNEAR(roc.auc, 0.9);
        QCOMPARE(roc.falsePositiveRate.front(), 0.0);
        QNEAR(roc.falsePositiveRate.back(), 1.0);
        QNEAR(roc.truePositiveRate.back(), 1.0);
        const PrecisionRecallCurve pr = precisionRecallCurve(p, 0);
        QNEAR(pr.averagePrecision, 5.0 / 6);
        QNEAR(pr.precision.front(), 1.0);  // the top score (.7) is a positive
        // A perfectly separated class: AUC and AP are 1.
        const std::vector<Prediction> perfect = rows({0, 1, 1}, {{0.9f, 0.1f}, {0.2f, 0.8f}, {0.4f, 0.6f}});
        QNEAR(rocCurve(perfect, 1).auc, 1.0);
        QNEAR(precisionRecallCurve(perfect, 1).averagePrecision, 1.0);
        // Tied scores make one step: half the pairs count.
        const std::vector<Prediction> tied = rows({0, 1}, {{0.5f, 0.5f}, {0.5f, 0.5f}});
        QNEAR(rocCurve(tied, 1).auc, 0.5);
    }

    void reliabilityBinsAndEce()
    {
        const std::vector<ReliabilityBin> bins = reliabilityBins(threeClassExample());
        QCOMPARE(bins.size(), std::size_t(15));
        QNEAR(bins[0].lower, 0.0);
        QNEAR(bins[14].upper, 1.0);
        const std::int64_t counts[15] = {0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 2, 0, 1, 1, 0};
        for (std::size_t b = 0; b < 15; ++b) QCOMPARE(bins[b].count, counts[b]);
        QNEAR(bins[10].accuracy, 1.0);
        QNEAR(bins[10].confidence, 0.7);
        QNEAR(bins[9].accuracy, 0.0);
        QVERIFY(std::isnan(bins[0].accuracy));  // empty
        QNEAR(expectedCalibrationError(bins), 0.35);
        // (lower, upper]: a confidence of exactly 1 is in the last bin.
        const std::vector<ReliabilityBin> edge = reliabilityBins(rows({0, 0}, {{1.0f, 0.0f, 0.0f}, {0.34f, 0.33f, 0.33f}}));
        QCOMPARE(edge[14].count, std::int64_t(1));
        QCOMPARE(edge[5].count, std::int64_t(1));  // 0.34: 5/15 < 0.34 <= 6/15
    }

    void nllAndBrier()
    {
        const std::vector<Prediction> p = threeClassExample();
        const double nll = -(2 * std::log(0.7) + 2 * std::log(0.35) + std::log(0.5) + std::log(0.82) + std::log(0.9)) / 7;
        QNEAR(negativeLogLikelihood(p), nll);
        QNEAR(brierScore(p), 2.1966 / 7);  // documented: not divided by the 3 classes (that would be 0.1046)
        // A probability of 0 for the label is clipped to float64 epsilon, as log_loss does.
        const std::vector<Prediction> zero = rows({1}, {{1.0f, 0.0f}});
        QNEAR(negativeLogLikelihood(zero), -std::log(std::numeric_limits<double>::epsilon()));
        QNEAR(brierScore(zero), 2.0);
    }

    // Two classes, every sample 0.9 sure, three of four right: the NLL of sigmoid(log(9) / T)
    // is least where that probability equals the 3/4 hit rate, log(9) / T = log(3): T = 2.
    void temperatureFitKnownAnswer()
    {
        const std::vector<Prediction> p = rows({0, 0, 0, 1}, {{0.9f, 0.1f}, {0.9f, 0.1f}, {0.9f, 0.1f}, {0.9f, 0.1f}});
        const TemperatureFit fit = fitTemperature(p);
        QVERIFY2(near(fit.temperature, 2.0, 1e-5), qPrintable(QString::number(fit.temperature, 'g', 10)));
        QVERIFY(!fit.atBound);
        QVERIFY(fit.nllAfter < fit.nllBefore);
        QNEAR(fit.nllAfter, -(0.75 * std::log(0.75) + 0.25 * std::log(0.25)));
        const std::vector<Prediction> scaled = applyTemperature(p, fit.temperature);
        QNEAR(scaled[0].probabilities[0], 0.75);
        QCOMPARE(scaled[3].predicted, std::int64_t(0));
        QNEAR(scaled[3].confidence, 0.75);
        // Underconfident predictions (all right at 0.6) want T < 1, and T = 1 changes nothing.
        const std::vector<Prediction> shy = rows({0, 1, 0, 1, 1}, {{0.6f, 0.4f}, {0.4f, 0.6f}, {0.6f, 0.4f}, {0.45f, 0.55f}, {0.3f, 0.7f}});
        QVERIFY(fitTemperature(shy).temperature < 1);
        QNEAR(applyTemperature(shy, 1.0)[4].probabilities[1], 0.7);
        QNEAR(temperatureNll(shy, 1.0), negativeLogLikelihood(shy));
    }

    void reportMetricsAndStoredTemperature()
    {
        const EvaluationReport r = evaluationReport(threeClassExample(), 3, 1.5);
        const std::map<std::string, double> m = reportMetrics(r, "test");
        QNEAR(m.at("test_acc"), 5.0 / 7);
        QNEAR(m.at("test_weighted_f1"), 103.0 / 147);
        QNEAR(m.at("test_ece"), 0.35);
        QVERIFY(m.count("test_ece_calibrated") && m.count("test_nll_calibrated") && m.count("test_brier_calibrated"));
        QVERIFY(m.at("test_nll_calibrated") != m.at("test_nll"));
        EvaluationRecord record;
        QVERIFY(!fittedTemperature(record));
        record.metrics[kTemperatureMetric] = 1.5;
        QCOMPARE(*fittedTemperature(record), 1.5);
        const EvaluationReport uncalibrated = evaluationReport(threeClassExample(), 3, std::nullopt);
        QVERIFY(!reportMetrics(uncalibrated, "val").count("val_ece_calibrated"));
    }

    void badPredictionsAreRefusedByName()
    {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, checkPredictions({}, 3));
        std::vector<Prediction> p = threeClassExample();
        p[3].probabilities[1] = std::numeric_limits<float>::quiet_NaN();
        try {
            classificationReport(p, 3);
            QFAIL("NaN probability accepted");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("sample 3") != std::string::npos, e.what());
            QVERIFY2(std::string(e.what()).find("--checkpoint") != std::string::npos, e.what());
        }
        p = threeClassExample();
        p[0].probabilities.pop_back();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, checkPredictions(p, 3));
    }
};

QTEST_GUILESS_MAIN(TestEvaluationReport)
#include "tst_evaluation_report.moc"
