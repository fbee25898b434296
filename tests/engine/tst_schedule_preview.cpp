// The schedule preview (optim/schedule_preview.h) against real training: for every schedule
// type, with and without warm-up, a short real run of the shipped tabular example (CSV with a
// grouped validation split, so the training split's size comes from the real carve) goes
// through the job API, and the learning rate it logs at each step must equal the preview's
// value for that step. Tolerances: none. Rates are compared with == (bit for bit), step
// counts exactly; the expected step counts are also worked out here by hand (floor for the
// dropped ragged batch, ceil for the accumulation).
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "blob_dataset.h"
#include "data/split_sizes.h"
#include "io/yaml/experiment_yaml.h"
#include "io/yaml/shipped_experiments.h"
#include "jobs/job.h"
#include "optim/schedule_preview.h"
#include "store/run_reader.h"
#include "store/workspace.h"
#include "train/run_control.h"

using namespace ts;
using namespace ts::test;

Q_DECLARE_METATYPE(ts::ScheduleSpec)

namespace {

constexpr std::int64_t kEpochs = 3;

ScheduleSpec schedule(const std::string& type)
{
    ScheduleSpec s;
    s.type = type;
    if (type == "step") s.stepSize = 1, s.gamma = 0.5;
    if (type == "multistep") s.milestones = {1, 2}, s.gamma = 0.3;
    if (type == "exponential") s.gamma = 0.7;
    if (type == "cosine") s.minLr = 1e-4;
    if (type == "cosine_restarts") s.restartEpochs = 1, s.restartMultiplier = 2, s.minLr = 1e-5;  // restarts after epoch 1
    if (type == "onecycle") s.maxLr = 0.01;
    if (type == "plateau") s.patience = 1000;  // never decays: the upper bound is the truth
    return s;
}

ScheduleSpec withWarmup(ScheduleSpec s)
{
    s.warmupSteps = 7;
    s.warmupStartFactor = 0.1;
    return s;
}

std::string bits(double v)
{
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", v);
    return text;
}

}  // namespace

class TestSchedulePreview : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    JobEnvironment env_;

    // The shipped tabular example, shortened: 3 epochs on the CPU, every step logged.
    ExperimentSpec tabular(const ScheduleSpec& s, std::int64_t batch, std::int64_t accumulation)
    {
        ExperimentSpec spec = loadExperiment((shippedExperimentsDirectory() / "tabular_example.yaml").string());
        spec.schedule = s;
        spec.training.epochs = kEpochs;
        spec.training.batchSize = batch;
        spec.training.accumulationSteps = accumulation;
        spec.training.earlyStopping.enabled = false;
        spec.training.device = "cpu";
        spec.training.logEverySteps = 1;
        spec.training.checkpoint.everyEpochs = 0;
        return spec;
    }

    std::int64_t trainSamples(const ExperimentSpec& spec) { return experimentSplitSizes(spec, env_.cacheDir).train; }

    JobResult train(const ExperimentSpec& spec, Recorder& rec, const std::string& workspace = {})
    {
        JobEnvironment env = env_;
        env.workspaceDir = workspace;
        RunControl control;
        return runJob(TrainJob{.experiment = spec}, env, control, rec);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        env_.cacheDir = dir_.filePath("cache").toStdString();
        env_.systemSampleSeconds = 0;
    }

    void previewEqualsLoggedRates_data()
    {
        QTest::addColumn<ScheduleSpec>("schedule");
        QTest::addColumn<qint64>("batch");
        QTest::addColumn<qint64>("accumulation");
        // Batch sizes that leave a ragged last batch (dropped), accumulation 2 in half the cases
        // (with an odd batch count, so the epoch's last group is short).
        const struct {
            const char* type;
            qint64 batch, accumulation;
        } cases[] = {{"constant", 32, 1},    {"step", 28, 2},   {"multistep", 50, 1},       {"exponential", 22, 2},
                     {"cosine", 32, 2},      {"cosine_restarts", 19, 1}, {"onecycle", 26, 2}, {"plateau", 32, 1}};
        for (const auto& c : cases) {
            QTest::addRow("%s", c.type) << schedule(c.type) << c.batch << c.accumulation;
            QTest::addRow("%s+warmup", c.type) << withWarmup(schedule(c.type)) << c.batch << c.accumulation;
        }
    }

    void previewEqualsLoggedRates()
    {
        QFETCH(ScheduleSpec, schedule);
        QFETCH(qint64, batch);
        QFETCH(qint64, accumulation);
        const ExperimentSpec spec = tabular(schedule, batch, accumulation);
        const std::int64_t samples = trainSamples(spec);
        QVERIFY2(samples % batch != 0, "the case should leave a ragged last batch");
        const SchedulePreview preview = previewSchedule(spec, samples);
        QCOMPARE(preview.isUpperBound, schedule.type == "plateau");
        QCOMPARE(previewLearningRates(spec, samples), preview.rates);

        // By hand: the ragged batch is dropped, a short last group is still a step.
        const std::int64_t batches = samples / batch;
        const std::int64_t perEpoch = (batches + accumulation - 1) / accumulation;
        QCOMPARE(preview.plan.batchesPerEpoch, batches);
        QCOMPARE(preview.plan.stepsPerEpoch, perEpoch);
        QCOMPARE(preview.plan.totalSteps, perEpoch * kEpochs);
        QCOMPARE(std::int64_t(preview.rates.size()), perEpoch * kEpochs);

        Recorder rec;
        const JobResult result = train(spec, rec);
        QVERIFY2(result.finished.outcome == FinishedEvent::Outcome::Finished, result.finished.message.text.c_str());
        const auto started = rec.all<StartedEvent>();
        QCOMPARE(started.size(), std::size_t(1));
        QCOMPARE(started[0].trainSamples, samples);
        QCOMPARE(started[0].batchesPerEpoch, preview.plan.batchesPerEpoch);
        QCOMPARE(started[0].stepsPerEpoch, preview.plan.stepsPerEpoch);
        QCOMPARE(started[0].totalSteps, preview.plan.totalSteps);

        const auto steps = rec.all<StepEvent>();
        QCOMPARE(steps.size(), preview.rates.size());
        for (std::size_t k = 0; k < steps.size(); ++k) {
            QCOMPARE(steps[k].step, std::int64_t(k + 1));
            const std::string why = "step " + std::to_string(k + 1) + ": logged " + bits(steps[k].lr) + ", previewed " +
                                    bits(preview.rates[k]);
            QVERIFY2(steps[k].lr == preview.rates[k], why.c_str());
        }
        // The schedule really moves (or, for constant and plateau, really does not).
        const bool flat = schedule.warmupSteps == 0 && (schedule.type == "constant" || schedule.type == "plateau");
        QCOMPARE(preview.rates.front() == preview.rates.back(), flat);
    }

    // A plateau that does decay: the preview stays above what the run logs, equal until the
    // first decay. Epoch 1 sets the best; no later epoch beats a relative threshold of 10, so
    // with patience 0 the rate halves after epoch 2.
    void plateauPreviewIsAnUpperBound()
    {
        ScheduleSpec s = withWarmup(schedule("plateau"));
        s.patience = 0;
        s.threshold = 10;
        s.factor = 0.5;
        const ExperimentSpec spec = tabular(s, 32, 1);
        const SchedulePreview preview = previewSchedule(spec, trainSamples(spec));
        QVERIFY(preview.isUpperBound);
        Recorder rec;
        const JobResult result = train(spec, rec);
        QVERIFY2(result.finished.outcome == FinishedEvent::Outcome::Finished, result.finished.message.text.c_str());
        const auto steps = rec.all<StepEvent>();
        QCOMPARE(steps.size(), preview.rates.size());
        bool decayed = false;
        for (std::size_t k = 0; k < steps.size(); ++k) {
            QVERIFY(steps[k].lr <= preview.rates[k]);
            if (steps[k].epoch <= 2) QVERIFY(steps[k].lr == preview.rates[k]);
            decayed = decayed || steps[k].lr < preview.rates[k];
        }
        QVERIFY2(decayed, "the plateau schedule never lowered the rate: the case tests nothing");
        QVERIFY(steps.back().lr == preview.rates.back() * 0.5);
    }

    // What the store keeps of a recorded run (the overlay's source) equals the preview too.
    void storedRatesEqualPreview()
    {
        const ExperimentSpec spec = tabular(withWarmup(schedule("cosine")), 26, 2);
        const std::vector<double> rates = previewLearningRates(spec, trainSamples(spec));
        Recorder rec;
        const JobResult result = train(spec, rec, dir_.filePath("ws").toStdString());
        QVERIFY2(result.finished.outcome == FinishedEvent::Outcome::Finished, result.finished.message.text.c_str());
        QVERIFY(result.runId >= 0);
        RunReader reader(Workspace::open(dir_.filePath("ws").toStdString()));
        const MetricSeries stored = reader.metric(result.runId, "lr");
        QCOMPARE(stored.values.size(), rates.size());
        for (std::size_t k = 0; k < rates.size(); ++k) {
            QCOMPARE(stored.steps[k], std::int64_t(k + 1));
            QVERIFY2(stored.values[k] == rates[k], ("step " + std::to_string(k + 1)).c_str());
        }
    }

    // Overfit mode plans from its fixed batches, as the trainer does.
    void overfitModeCountsItsFixedBatches()
    {
        ExperimentSpec spec = tabular(schedule("cosine"), 16, 2);
        spec.training.overfitBatches = 3;
        const SchedulePreview preview = previewSchedule(spec, trainSamples(spec));
        QCOMPARE(preview.plan.batchesPerEpoch, std::int64_t(3));
        QCOMPARE(preview.plan.stepsPerEpoch, std::int64_t(2));
        Recorder rec;
        QCOMPARE(train(spec, rec).finished.outcome, FinishedEvent::Outcome::Finished);
        const auto steps = rec.all<StepEvent>();
        QCOMPARE(steps.size(), preview.rates.size());
        for (std::size_t k = 0; k < steps.size(); ++k) QVERIFY(steps[k].lr == preview.rates[k]);
    }

    // Settings the trainer refuses are refused by the preview with the trainer's own words.
    void refusesWhatTheTrainerRefuses()
    {
        const ExperimentSpec tooBig = tabular(schedule("constant"), 100000, 1);
        QString previewMessage;
        try {
            previewSchedule(tooBig, trainSamples(tooBig));
        } catch (const std::invalid_argument& e) {
            previewMessage = QString::fromStdString(e.what());
        }
        QVERIFY2(previewMessage.contains("fewer than one batch of 100000"), qPrintable(previewMessage));
        Recorder rec;
        const JobResult failed = train(tooBig, rec);
        QCOMPARE(failed.finished.outcome, FinishedEvent::Outcome::Failed);
        QCOMPARE(QString::fromStdString(failed.finished.message.text), previewMessage);

        ExperimentSpec noAccumulation = tabular(schedule("constant"), 32, 1);
        noAccumulation.training.accumulationSteps = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, previewSchedule(noAccumulation, 240));
        ExperimentSpec badCycle = tabular(schedule("onecycle"), 32, 1);
        badCycle.schedule.pctStart = 2;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, previewSchedule(badCycle, 240));
    }

    // A missing dataset is a DataError naming the path, not a crash.
    void splitSizesOfAMissingDataset()
    {
        ExperimentSpec spec = tabular(schedule("constant"), 32, 1);
        spec.dataset.path = dir_.filePath("nowhere.csv").toStdString();
        try {
            experimentSplitSizes(spec, env_.cacheDir);
            QFAIL("no error for a missing file");
        } catch (const DataError& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains("nowhere.csv") ||
                         QString::fromStdString(e.file()).contains("nowhere.csv"),
                     e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestSchedulePreview)
#include "tst_schedule_preview.moc"
