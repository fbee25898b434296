// The learning-rate range test's analysis (train/lr_range_test.h) on curves whose answers
// are known by construction, and the finder job on real data: its suggestions are the
// analysis of its own steps, and a training run after it is bit-identical to one without.
#include <QtTest>

#include <cmath>

#include "io/yaml/experiment_yaml.h"
#include "io/yaml/shipped_experiments.h"
#include "jobs/job.h"
#include "train/lr_range_test.h"
#include "train/run_control.h"

using namespace ts;

namespace {

struct StepRecorder : TrainListener {
    std::vector<StepEvent> steps;
    std::vector<LogEvent> logs;
    void onEvent(const TrainEvent& e) override
    {
        if (const auto* s = std::get_if<StepEvent>(&e)) steps.push_back(*s);
        if (const auto* l = std::get_if<LogEvent>(&e)) logs.push_back(*l);
    }
};

// x = log10(lr) from -5 in steps of 0.05 (101 points). The loss is flat at 2 up to x = -4,
// falls as 1 + e^(-3(x+4)) (steepest right after -4) to x = -1, then rises as (x+1)^2.
// Known answers: steepest at x = -3.95 (i = 21), the minimum at x = -1 (i = 80, so the
// minimum rule gives 10^-2), the valley halfway along i = 20..80, at i = 50 (x = -2.5).
struct KnownCurve {
    std::vector<double> lrs, losses;
    KnownCurve()
    {
        for (int i = 0; i <= 100; ++i) {
            const double x = -5 + 0.05 * i;
            const double fall = 1 + std::exp(-3 * (std::min(x, -1.0) + 4));
            lrs.push_back(std::pow(10.0, x));
            losses.push_back(x <= -4 ? 2.0 : x <= -1 ? fall : fall + (x + 1) * (x + 1));
        }
    }
};

bool relClose(double a, double b, double tol) { return std::abs(a - b) <= tol * std::abs(b); }

ExperimentSpec tabular()
{
    ExperimentSpec spec = loadExperiment((shippedExperimentsDirectory() / "tabular_example.yaml").string());
    spec.training.device = "cpu";
    return withAbsolutePaths(spec);
}

}  // namespace

class TestLrRangeTest : public QObject {
    Q_OBJECT

private slots:
    // TensorBoard's debiased EMA with beta 0.98, and divergence above 4x the best so far.
    void smootherIsTheDebiasedAverageAndStopsAboveFourTimesTheBest()
    {
        RangeTestSmoother s;
        QCOMPARE(s.push(3.0), 3.0);  // debiased: the first value itself
        const double second = (0.98 * 0.02 * 3.0 + 0.02 * 1.0) / (1 - 0.98 * 0.98);
        QVERIFY(relClose(s.push(1.0), second, 1e-12));
        QVERIFY(!s.diverged());
        double last = 0;
        for (int i = 0; i < 200 && !s.diverged(); ++i) last = s.push(100.0);
        QVERIFY(s.diverged());
        QVERIFY(last > 4 * second);
        RangeTestSmoother nan;
        nan.push(1.0);
        nan.push(NAN);
        QVERIFY(nan.diverged());
    }

    void rulesReadTheKnownCurve()
    {
        const KnownCurve c;
        const LrSuggestions s = suggestLearningRates(c.lrs, c.losses);
        QCOMPARE(s.steepest, c.lrs[21]);
        QCOMPARE(s.minimum, c.lrs[80] / 10);
        QCOMPARE(s.valley, c.lrs[50]);
        QCOMPARE(s.suggested, s.valley);  // the median: steepest < valley < minimum / 10
        QVERIFY(relClose(s.spread, c.lrs[80] / 10 / c.lrs[21], 1e-12));  // 10^1.95: the rules disagree
        QVERIFY(s.rulesDisagree());
    }

    // A clean curve (flat, one symmetric descent, then a steep rise) gives rules within 3x:
    // steepest and valley at the descent's middle (10^-2.25), the minimum rule at 10^-2.5.
    void rulesAgreeOnACleanDescent()
    {
        std::vector<double> lrs, losses;
        for (int i = 0; i <= 70; ++i) {
            const double x = -4 + 0.05 * i, t = std::clamp((x + 3) / 1.5, 0.0, 1.0);
            lrs.push_back(std::pow(10.0, x));
            losses.push_back(1.5 + 0.5 * std::cos(M_PI * t) + (x > -1.5 ? 20 * (x + 1.5) * (x + 1.5) : 0));
        }
        const LrSuggestions s = suggestLearningRates(lrs, losses);
        QVERIFY(relClose(s.valley, std::pow(10.0, -2.25), 1e-9));
        QVERIFY(relClose(s.minimum, std::pow(10.0, -2.5), 1e-9));
        QVERIFY2(!s.rulesDisagree(), qPrintable(QString("steepest %1 minimum %2 valley %3").arg(s.steepest).arg(s.minimum).arg(s.valley)));
    }

    void badInputIsRefused()
    {
        const std::vector<double> four = {1, 2, 3, 4}, five = {1, 2, 3, 4, 5};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, suggestLearningRates(four, four));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, suggestLearningRates(five, four));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, combineRangeTests({}));
        LrRangeCurve a{five, five}, b{{1, 2, 3, 4, 6}, five};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, combineRangeTests({a, b}));
    }

    // The band: per step the mean, minimum and maximum over the curves, up to the shortest.
    void bandIsMeanAndRangeOverTheStepsAllReached()
    {
        const KnownCurve c;
        LrRangeCurve a{c.lrs, c.losses}, b{c.lrs, c.losses};
        for (double& v : b.losses) v += 0.5;
        b.lrs.resize(90), b.losses.resize(90);
        const LrRangeBand band = combineRangeTests({a, b});
        QCOMPARE(band.lrs.size(), std::size_t(90));
        for (std::size_t i = 0; i < 90; ++i) {
            QCOMPARE(band.low[i], a.losses[i]);
            QCOMPARE(band.high[i], b.losses[i]);
            QVERIFY(relClose(band.mean[i], a.losses[i] + 0.25, 1e-12));
        }
        // Shifting a curve up leaves its rules where they were.
        QCOMPARE(band.perCurve.size(), std::size_t(2));
        QCOMPARE(band.perCurve[0].valley, band.perCurve[1].valley);
        QCOMPARE(band.suggestions.valley, c.lrs[50]);
        QCOMPARE(band.seedSpread(), 1.0);
    }

    // The job's suggestions are the analysis of the steps it reported; nothing it does
    // changes a training run that follows (a fresh model from the same seed, the same data).
    void finderJobSuggestsFromItsOwnStepsAndLeavesTrainingUntouched()
    {
        const ExperimentSpec spec = tabular();
        JobEnvironment env;
        env.systemSampleSeconds = 0;
        env.cacheDir = QDir(QDir::tempPath()).filePath("tst_lr_range_test_cache").toStdString();

        auto train = [&] {
            StepRecorder rec;
            RunControl control;
            TrainJob job{.experiment = spec};
            job.epochs = 2;
            const JobResult r = runJob(Job{job}, env, control, rec);
            [&] { QVERIFY2(r.finished.outcome == FinishedEvent::Outcome::Finished, r.finished.message.text.c_str()); }();
            return rec.steps;
        };
        const std::vector<StepEvent> before = train();

        StepRecorder finder;
        RunControl control;
        LrFindJob find{.experiment = spec};
        find.steps = 60;
        const JobResult found = runJob(Job{find}, env, control, finder);
        QVERIFY2(found.finished.outcome != FinishedEvent::Outcome::Failed, found.finished.message.text.c_str());
        std::vector<double> lrs, losses;
        for (const StepEvent& s : finder.steps) lrs.push_back(s.lr), losses.push_back(s.loss);
        const LrSuggestions expected = suggestLearningRates(lrs, smoothRangeTest(lrs, losses).losses);
        QCOMPARE(found.finished.metrics.at("suggested_lr"), expected.suggested);
        QCOMPARE(found.finished.metrics.at("valley_lr"), expected.valley);
        QCOMPARE(found.finished.metrics.at("steepest_lr"), expected.steepest);
        QCOMPARE(found.finished.metrics.at("rules_spread"), expected.spread);
        // A warning says so exactly when the rules disagree by more than 3x.
        const bool warned = std::any_of(finder.logs.begin(), finder.logs.end(),
                                        [](const LogEvent& l) { return l.message.id == "lr_find.rules_disagree"; });
        QCOMPARE(warned, expected.spread > 3);

        const std::vector<StepEvent> after = train();
        QCOMPARE(after.size(), before.size());
        for (std::size_t i = 0; i < before.size(); ++i) {
            QCOMPARE(after[i].loss, before[i].loss);  // bit for bit
            QCOMPARE(after[i].gradNorm, before[i].gradNorm);
        }
    }
};

QTEST_GUILESS_MAIN(TestLrRangeTest)
#include "tst_lr_range_test.moc"
