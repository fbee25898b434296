// Classification metrics against values computed by hand (and, for AUC, against a
// brute-force count over all positive/negative pairs).
#include <QtTest>

#include <cmath>
#include <random>

#include "train/metrics.h"

using namespace ts;

namespace {

// Seven samples, three classes. Predictions (first maximum): 0 1 1 2 2 0 0; labels
// 0 0 1 1 2 2 1. Rows 5 and 6 tie at the top, so the first maximum decides.
const float kLogits[] = {
    2, 1, 0,      // y=0 pred 0, true-class rank 0
    0.5, 1.5, 0,  // y=0 pred 1, rank 1
    0, 3, 1,      // y=1 pred 1, rank 0
    1, 0, 2,      // y=1 pred 2, rank 2
    0, 1, 2,      // y=2 pred 2, rank 0
    1, 1, 0,      // y=2 pred 0, rank 2
    1, 1, 0,      // y=1 pred 0, rank 1 (tie with class 0, which comes first)
};
const std::int64_t kLabels[] = {0, 0, 1, 1, 2, 2, 1};

ClassificationMetrics threeClass()
{
    ClassificationMetrics m(3, {1, 2, 3});
    m.add(kLogits, kLabels, 4, 1.0);               // batch mean loss 1 over 4 samples
    m.add(kLogits + 12, kLabels + 4, 3, 2.0);      // batch mean loss 2 over 3 samples
    return m;
}

double pairwiseAuc(const std::vector<double>& s, const std::vector<int>& y)
{
    double wins = 0, pairs = 0;
    for (std::size_t i = 0; i < s.size(); ++i)
        for (std::size_t j = 0; j < s.size(); ++j)
            if (y[i] == 1 && y[j] == 0) {
                wins += s[i] > s[j] ? 1.0 : s[i] == s[j] ? 0.5 : 0.0;
                pairs += 1;
            }
    return wins / pairs;
}

}  // namespace

class TestMetrics : public QObject {
    Q_OBJECT
private slots:
    // Padding positions (label -100, CrossEntropy's ignore_index) count nowhere: the same rows
    // with two padded ones added give the same accuracy, confusion and loss.
    void ignoredLabelsAreNotCounted()
    {
        const ClassificationMetrics plain = threeClass();
        std::vector<float> logits(kLogits, kLogits + 12);
        std::vector<std::int64_t> labels(kLabels, kLabels + 4);
        logits.insert(logits.end(), {9, 0, 0, 0, 9, 0});  // two rows that would be wrong if counted
        labels.insert(labels.end(), {kIgnoredLabel, kIgnoredLabel});
        ClassificationMetrics m(3, {1, 2, 3});
        m.add(logits.data(), labels.data(), 6, 1.0);  // the loss is the mean over the 4 counted rows
        m.add(kLogits + 12, kLabels + 4, 3, 2.0);
        QCOMPARE(m.count(), plain.count());
        QCOMPARE(m.accuracy(), plain.accuracy());
        QCOMPARE(m.loss(), plain.loss());
        QCOMPARE(m.confusion(), plain.confusion());
        const std::int64_t bad = -1;
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, m.add(kLogits, &bad, 1));
    }
    // Bits per character divide the loss per token by the characters a target token stands
    // for: targets 0, 2, 2 of pieces 1, 3 and 4 characters long are 9 characters in 3 tokens.
    void bitsPerCharacterCountTheTargetsCharacters()
    {
        ClassificationMetrics m(3);
        const float logits[9] = {1, 0, 0, 0, 0, 1, 1, 0, 0};
        const std::int64_t labels[3] = {0, 2, 2};
        m.add(logits, labels, 3, 2.0);
        QCOMPARE(charactersPerToken(m, {1, 3, 4}), 3.0);
        QCOMPARE(charactersPerToken(m, {1, 1, 1}), 1.0);
        std::map<std::string, double> metrics{{"val_loss", 2.0}};
        addLanguageModelMetrics(metrics, "val", 3.0);
        QCOMPARE(metrics["val_ppl"], std::exp(2.0));
        QCOMPARE(metrics["val_bpc"], 2.0 / std::log(2.0) / 3.0);
    }
    void lossIsWeightedBySamples()
    {
        QCOMPARE(threeClass().loss(), 10.0 / 7.0);  // (4*1 + 3*2) / 7, not (1 + 2) / 2
        QCOMPARE(threeClass().count(), std::int64_t(7));
    }

    void accuracyAndTopK()
    {
        const ClassificationMetrics m = threeClass();
        QCOMPARE(m.accuracy(), 3.0 / 7.0);
        QCOMPARE(m.topKAccuracy(1), 3.0 / 7.0);
        QCOMPARE(m.topKAccuracy(2), 5.0 / 7.0);  // ranks 0 1 0 2 0 2 1
        QCOMPARE(m.topKAccuracy(3), 1.0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ClassificationMetrics(3, {0}));
    }

    void confusionMatrix()
    {
        const std::vector<std::vector<std::int64_t>> expected = {{1, 1, 0}, {1, 1, 1}, {1, 0, 1}};
        QCOMPARE(threeClass().confusion(), expected);
    }

    void perClassAndAverages()
    {
        const ClassificationMetrics m = threeClass();
        const auto pc = m.perClass();
        QCOMPARE(pc.size(), std::size_t(3));
        // class 0: TP 1, predicted 3, actual 2; class 1: TP 1, 2, 3; class 2: TP 1, 2, 2.
        QCOMPARE(pc[0].precision, 1.0 / 3.0);
        QCOMPARE(pc[0].recall, 0.5);
        QCOMPARE(pc[0].f1, 0.4);
        QCOMPARE(pc[1].precision, 0.5);
        QCOMPARE(pc[1].recall, 1.0 / 3.0);
        QCOMPARE(pc[1].f1, 0.4);
        QCOMPARE(pc[2].precision, 0.5);
        QCOMPARE(pc[2].recall, 0.5);
        QCOMPARE(pc[2].f1, 0.5);
        QCOMPARE(pc[1].support, std::int64_t(3));
        QCOMPARE(m.macroPrecision(), 4.0 / 9.0);
        QCOMPARE(m.macroRecall(), 4.0 / 9.0);
        QVERIFY(std::abs(m.macroF1() - 1.3 / 3.0) < 1e-12);
        QCOMPARE(m.microPrecision(), 3.0 / 7.0);
        QCOMPARE(m.microRecall(), 3.0 / 7.0);
        QVERIFY(std::abs(m.microF1() - 3.0 / 7.0) < 1e-12);
        QVERIFY(std::isnan(m.rocAuc()));  // not binary
    }

    void macroSkipsAbsentClasses()
    {
        // Four classes, class 3 never a label nor a prediction: macro over classes 0..2.
        ClassificationMetrics m(4);
        const float logits[] = {1, 0, 0, -1, 0, 1, 0, -1, 0, 1, 0, -1};
        const std::int64_t labels[] = {0, 1, 2};
        m.add(logits, labels, 3);
        // class 0: P 1 R 1; class 1: P 1/2 R 1; class 2: P 0 R 0 -> macro P 1/2, R 2/3.
        QCOMPARE(m.macroPrecision(), 0.5);
        QCOMPARE(m.macroRecall(), 2.0 / 3.0);
        QVERIFY(std::isnan(m.loss()));  // no batch carried a loss
    }

    void aucWithTies()
    {
        // Scores l1 - l0 (exact in binary): positives 0.75, 0.25, 0.25; negatives 0.25, -0.5, 1.
        // Pairs: 0.75 beats two negatives (2), each 0.25 ties one and beats one (1.5 + 1.5): 5/9.
        ClassificationMetrics m(2);
        const float logits[] = {0.5f, 1.25f, 1, 1.25f, 0, 0.25f, 2, 2.25f, 0.5f, 0, -1, 0};
        const std::int64_t labels[] = {1, 1, 1, 0, 0, 0};
        m.add(logits, labels, 6);
        QVERIFY(std::abs(m.rocAuc() - 5.0 / 9.0) < 1e-12);
        QCOMPARE(m.summary("val").count("val_auc"), std::size_t(1));
    }

    void aucMatchesPairCountOnRandomTies()
    {
        std::mt19937 rng(7);
        std::uniform_int_distribution<int> score(-3, 3), label(0, 1);
        ClassificationMetrics m(2);
        std::vector<double> s;
        std::vector<int> y;
        for (int i = 0; i < 200; ++i) {
            const float logits[2] = {0.0f, static_cast<float>(score(rng))};
            const std::int64_t l = label(rng);
            m.add(logits, &l, 1);
            s.push_back(logits[1]);
            y.push_back(static_cast<int>(l));
        }
        QVERIFY(std::abs(m.rocAuc() - pairwiseAuc(s, y)) < 1e-12);
    }

    void aucUndefinedWithOneClass()
    {
        ClassificationMetrics m(2);
        const float logits[] = {0, 1, 1, 0};
        const std::int64_t labels[] = {1, 1};
        m.add(logits, labels, 2);
        QVERIFY(std::isnan(m.rocAuc()));
    }

    void badLabelThrows()
    {
        ClassificationMetrics m(3);
        const std::int64_t label = 3;
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, m.add(kLogits, &label, 1));
    }

    void summaryNamesAndReset()
    {
        ClassificationMetrics m = threeClass();
        const auto s = m.summary("val");
        QCOMPARE(s.at("val_loss"), 10.0 / 7.0);
        QCOMPARE(s.at("val_acc"), 3.0 / 7.0);
        QCOMPARE(s.at("val_top2_acc"), 5.0 / 7.0);
        QVERIFY(s.count("val_macro_f1") == 1 && s.count("val_top1_acc") == 0 && s.count("val_auc") == 0);
        m.reset();
        QCOMPARE(m.count(), std::int64_t(0));
        QVERIFY(std::isnan(m.accuracy()));
    }
};

QTEST_GUILESS_MAIN(TestMetrics)
#include "tst_metrics.moc"
