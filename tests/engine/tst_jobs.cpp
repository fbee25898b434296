// The engine's job API (engine/jobs): runJob for training (new and resumed), evaluation and
// the learning-rate finder, against a real workspace and a real dataset reader: small IDX
// files (4x4 images of three separable classes; IDX readers always declare ten classes)
// written to a QTemporaryDir, with a test split. JobProgress is tested on its own with
// explicit time points.
//
// Tolerances: step counts, ids and sample counts are exact. Evaluation metrics against the
// training's final test metrics: 1e-9 relative (same weights, same batches, same CPU code;
// they are expected to be bit-identical). Softmax probabilities sum to 1 within 1e-5
// (float32). Learning-rate ratios: 1e-9 relative (double arithmetic on pow).
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <numeric>
#include <optional>
#include <random>

#include "blob_dataset.h"
#include "jobs/job.h"
#include "jobs/job_progress.h"
#include "store/run_reader.h"
#include "store/workspace.h"
#include "train/evaluation_report.h"
#include "train/run_control.h"

using namespace ts;
using namespace ts::test;

namespace {

constexpr std::int64_t kTrain = 210;  // 13 batches of 16 (2 dropped): 13 / 3 = 4.33 -> 5 steps per epoch
constexpr std::int64_t kTest = 50;    // 3 x 16 + a ragged 2
constexpr std::int64_t kBatch = 16, kAccumulation = 3, kEpochs = 3;
constexpr std::int64_t kBatchesPerEpoch = kTrain / kBatch;                                      // 13
constexpr std::int64_t kStepsPerEpoch = (kBatchesPerEpoch + kAccumulation - 1) / kAccumulation;  // 5

bool relClose(double a, double b, double tol)
{
    if (a == b) return true;
    return std::fabs(a - b) <= tol * std::max(std::fabs(a), std::fabs(b));
}

void writeBigEndian32(std::ofstream& f, std::uint32_t v)
{
    const char bytes[4] = {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
    f.write(bytes, 4);
}

// An IDX pair of n 4x4 images: class i % 3 lights every third pixel a little, under enough
// noise that the tiny model gets some test samples wrong (so accuracy checks mean something).
std::vector<std::int64_t> writeIdx(const std::string& dir, const std::string& prefix, std::int64_t n, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise(0.0, 40.0);
    std::ofstream images(dir + "/" + prefix + "-images-idx3-ubyte", std::ios::binary);
    std::ofstream labels(dir + "/" + prefix + "-labels-idx1-ubyte", std::ios::binary);
    writeBigEndian32(images, 0x00000803);
    writeBigEndian32(images, std::uint32_t(n));
    writeBigEndian32(images, 4);
    writeBigEndian32(images, 4);
    writeBigEndian32(labels, 0x00000801);
    writeBigEndian32(labels, std::uint32_t(n));
    std::vector<std::int64_t> out;
    for (std::int64_t i = 0; i < n; ++i) {
        const std::int64_t label = i % 3;
        for (int d = 0; d < 16; ++d) {
            const double v = (d % 3 == label ? 140.0 : 100.0) + noise(rng);
            images.put(char(std::uint8_t(std::clamp(v, 0.0, 255.0))));
        }
        labels.put(char(label));
        out.push_back(label);
    }
    return out;
}

// Flatten, Linear(16), ReLU, Linear(10), CrossEntropy on the IDX files; SGD with momentum,
// batches of 16 accumulated by 3; no validation split (the test split is evaluated each
// epoch); checkpoints every epoch, the last 2 kept.
ExperimentSpec idxSpec(const std::string& dataDir)
{
    ExperimentSpec spec;
    spec.name = "tiny_idx";
    spec.dataset.format = "idx";
    spec.dataset.path = dataDir;
    spec.dataset.validationFraction = 0.0;
    spec.dataset.numWorkers = 2;
    Graph& g = spec.model;
    g.inputs = {{"image", Shape{1, 4, 4}}, {"label", Shape{}, DType::I64}};
    g.add("flatten", "Flatten", {"image"});
    g.add("fc1", "Linear", {"flatten"}, {{"out_features", std::int64_t(16)}});
    g.add("relu", "ReLU", {"fc1"});
    g.add("fc2", "Linear", {"relu"}, {{"out_features", std::int64_t(10)}});
    g.add("loss", "CrossEntropy", {"fc2", "label"});
    spec.optimizer.type = "sgd";
    spec.optimizer.lr = 0.1;
    spec.optimizer.momentum = 0.9;
    spec.training.epochs = kEpochs;
    spec.training.batchSize = kBatch;
    spec.training.accumulationSteps = kAccumulation;
    spec.training.seed = 42;
    spec.training.device = "cpu";
    spec.training.topK = {1, 2};
    spec.training.checkpoint.everyEpochs = 1;
    spec.training.checkpoint.keepLast = 2;
    return spec;
}

// Keeps every event; at the FinishedEvent, reads what the store then says of the run.
struct StoreCheckingRecorder : Recorder {
    std::string workspaceDir;
    std::int64_t runId = -1;  // set from the StartedEvent
    std::optional<RunInfo> runAtFinish;
    bool readFailed = false;
    RunControl* control = nullptr;
    std::int64_t stopAtStep = 0;  // > 0: ask the job to stop once this step is taken
    void onEvent(const TrainEvent& e) override
    {
        if (const auto* s = std::get_if<StartedEvent>(&e)) runId = s->runId;
        if (const auto* s = std::get_if<StepEvent>(&e); s && control && s->step == stopAtStep) control->stop();
        if (std::holds_alternative<FinishedEvent>(e) && !workspaceDir.empty() && runId >= 0) {
            try {
                RunReader reader(Workspace::open(workspaceDir));
                runAtFinish = reader.run(runId);
            } catch (const std::exception&) {
                readFailed = true;
            }
        }
        Recorder::onEvent(e);
    }
};

std::vector<TrainEvent> withoutLogs(const std::vector<TrainEvent>& events)
{
    std::vector<TrainEvent> out;
    for (const auto& e : events)
        if (!std::holds_alternative<LogEvent>(e)) out.push_back(e);
    return out;
}

std::int64_t countFinished(const std::vector<TrainEvent>& events)
{
    return std::count_if(events.begin(), events.end(), [](const TrainEvent& e) { return std::holds_alternative<FinishedEvent>(e); });
}

}  // namespace

class TestJobs : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    std::string data_, ws_;
    std::vector<std::int64_t> testLabels_;
    JobEnvironment env_;
    // The run trained in trainJobAnnouncesPlanAndRecordsRun, evaluated by the tests after it.
    std::int64_t run_ = -1;
    std::map<std::string, double> finalMetrics_;

    JobResult run(const Job& job, Recorder& rec, RunControl* control = nullptr)
    {
        RunControl own;
        return runJob(job, env_, control ? *control : own, rec);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        data_ = dir_.filePath("data").toStdString();
        QVERIFY(QDir().mkpath(QString::fromStdString(data_)));
        writeIdx(data_, "train", kTrain, 1);
        testLabels_ = writeIdx(data_, "t10k", kTest, 2);
        ws_ = dir_.filePath("ws").toStdString();
        env_.workspaceDir = ws_;
        env_.cacheDir = dir_.filePath("cache").toStdString();
        env_.systemSampleSeconds = 0;  // no monitor thread, no SystemEvents
    }

    // The plan comes first, the steps match it, and the FinishedEvent comes last, after the
    // store has committed the finished run.
    void trainJobAnnouncesPlanAndRecordsRun()
    {
        StoreCheckingRecorder rec;
        rec.workspaceDir = ws_;
        const JobResult result = run(TrainJob{.experiment = idxSpec(data_)}, rec);
        QVERIFY2(result.finished.outcome == FinishedEvent::Outcome::Finished, result.finished.message.text.c_str());
        QVERIFY(result.runId >= 0);
        run_ = result.runId;
        finalMetrics_ = result.finished.metrics;

        const std::vector<TrainEvent> events = withoutLogs(rec.events);
        QVERIFY(!events.empty());
        const auto* started = std::get_if<StartedEvent>(&events.front());
        QVERIFY2(started, "the first non-log event is not a StartedEvent");
        QCOMPARE(started->runId, result.runId);
        QCOMPARE(started->batchesPerEpoch, kBatchesPerEpoch);
        QCOMPARE(started->accumulationSteps, kAccumulation);
        QCOMPARE(started->stepsPerEpoch, kStepsPerEpoch);  // rounded up: 5, not 13 / 3 = 4
        QCOMPARE(started->totalSteps, kStepsPerEpoch * kEpochs);
        QCOMPARE(started->firstStep, std::int64_t(0));
        QCOMPARE(started->firstEpoch, std::int64_t(1));
        QCOMPARE(started->epochs, kEpochs);
        QCOMPARE(started->trainSamples, kTrain);
        QCOMPARE(started->testSamples, kTest);
        QCOMPARE(started->validationSamples, std::int64_t(0));
        QCOMPARE(rec.all<StartedEvent>().size(), std::size_t(1));

        const auto steps = rec.all<StepEvent>();
        QCOMPARE(std::int64_t(steps.size()), started->stepsThisRun());
        for (std::size_t i = 0; i < steps.size(); ++i) {
            QCOMPARE(steps[i].step, std::int64_t(i + 1));
            QCOMPARE(steps[i].epoch, std::int64_t(i) / kStepsPerEpoch + 1);
        }
        const auto epochs = rec.all<EpochEvent>();
        QCOMPARE(std::int64_t(epochs.size()), kEpochs);
        for (const auto& e : epochs) QCOMPARE(e.step, e.epoch * kStepsPerEpoch);

        // The FinishedEvent is the last event of all (logs included), and the only one.
        QVERIFY(std::holds_alternative<FinishedEvent>(rec.events.back()));
        QCOMPARE(countFinished(rec.events), std::int64_t(1));
        QVERIFY(!rec.readFailed);
        QVERIFY2(rec.runAtFinish.has_value(), "the run was not in the store when the FinishedEvent arrived");
        QCOMPARE(rec.runAtFinish->status, RunStatus::Finished);
        QVERIFY(rec.runAtFinish->endTime > 0);

        // Without a validation split the final test metrics are in the FinishedEvent.
        QVERIFY(finalMetrics_.count("test_acc") && finalMetrics_.count("test_loss"));
        RunReader reader(Workspace::open(ws_));
        const auto checkpoints = reader.checkpoints(run_);
        QVERIFY(!checkpoints.empty());
        QCOMPARE(checkpoints.back().epoch, kEpochs);
        QCOMPARE(checkpoints.back().step, kStepsPerEpoch * kEpochs);

        // One test_acc point per epoch: the final test metrics, equal to the last epoch's at the
        // same step, are not stored a second time.
        const MetricSeries testAcc = reader.metric(run_, "test_acc");
        QCOMPARE(std::int64_t(testAcc.steps.size()), kEpochs);
        QCOMPARE(testAcc.steps.back(), kStepsPerEpoch * kEpochs);
        QCOMPARE(testAcc.values.back(), finalMetrics_.at("test_acc"));
        for (const MetricSummary& summary : reader.summaries(run_))
            if (summary.name == "test_acc") QCOMPARE(summary.count, kEpochs);  // `runs show` counted kEpochs + 1

        // The stored log has what the live log shows: the plan, every epoch, every checkpoint.
        std::vector<std::string> lines;
        for (const LogLine& l : reader.logs(run_)) lines.push_back(l.message.text);
        auto count = [&](const std::string& prefix) {
            return std::count_if(lines.begin(), lines.end(), [&](const std::string& l) { return l.starts_with(prefix); });
        };
        QCOMPARE(count("training "), 1);
        QCOMPARE(std::int64_t(count("epoch ")), kEpochs);
        QVERIFY(count("checkpoint saved: ") >= 1);
        QVERIFY(count("memory on ") == 1);
    }

    // The last checkpoint holds the weights of the final test pass (evaluated on the final
    // weights, then checkpointed): evaluating it gives the training's test metrics.
    void evaluateLastCheckpointMatchesTraining()
    {
        QVERIFY(run_ >= 0);
        Recorder rec;
        const JobResult result = run(EvaluateJob{.runId = run_, .checkpoint = "last", .split = "test"}, rec);
        QVERIFY2(result.finished.outcome == FinishedEvent::Outcome::Finished, result.finished.message.text.c_str());
        QCOMPARE(result.runId, run_);
        QVERIFY(result.evaluationId >= 0);
        QVERIFY(std::holds_alternative<FinishedEvent>(rec.events.back()));
        QCOMPARE(countFinished(rec.events), std::int64_t(1));

        // Every test_* metric of training, to 1e-9 relative (bit-identical expected).
        std::int64_t compared = 0;
        for (const auto& [name, value] : finalMetrics_) {
            if (!name.starts_with("test_")) continue;
            QVERIFY2(result.finished.metrics.count(name), name.c_str());
            const double got = result.finished.metrics.at(name);
            QVERIFY2(relClose(got, value, 1e-9) || (std::isnan(got) && std::isnan(value)),
                     qPrintable(QString("%1: evaluated %2, trained %3").arg(QString::fromStdString(name)).arg(got, 0, 'g', 17)
                                    .arg(value, 0, 'g', 17)));
            ++compared;
        }
        QVERIFY(compared >= 3);  // test_loss, test_acc, test_top2_acc at least

        // ProgressEvents count the test batches: 1..4 of 4.
        const auto progress = rec.all<ProgressEvent>();
        QCOMPARE(progress.size(), std::size_t(4));
        for (std::size_t i = 0; i < progress.size(); ++i) {
            QCOMPARE(progress[i].done, std::int64_t(i + 1));
            QCOMPARE(progress[i].total, std::int64_t(4));
        }

        RunReader reader(Workspace::open(ws_));
        const auto evaluations = reader.evaluations(run_);
        const auto it = std::find_if(evaluations.begin(), evaluations.end(),
                                     [&](const EvaluationRecord& r) { return r.id == result.evaluationId; });
        QVERIFY(it != evaluations.end());
        QCOMPARE(it->runId, run_);
        QCOMPARE(QString::fromStdString(it->split), QString("test"));
        QCOMPARE(it->samples, kTest);
        QCOMPARE(it->classes, std::int64_t(10));
        QCOMPARE(it->epoch, kEpochs);
        QCOMPARE(it->step, kStepsPerEpoch * kEpochs);
        QCOMPARE(it->metrics.size(), result.finished.metrics.size());
        for (const auto& [name, value] : result.finished.metrics) {
            QVERIFY2(it->metrics.count(name), name.c_str());
            QVERIFY2(relClose(it->metrics.at(name), value, 1e-12) || (std::isnan(value) && std::isnan(it->metrics.at(name))),
                     name.c_str());
        }

        const auto predictions = reader.predictions(result.evaluationId);
        QCOMPARE(std::int64_t(predictions.size()), kTest);
        std::int64_t correct = 0;
        for (std::size_t i = 0; i < predictions.size(); ++i) {
            const Prediction& p = predictions[i];
            QCOMPARE(p.sample, std::int64_t(i));
            QCOMPARE(p.label, testLabels_[i]);  // the split's order: sample i is image i
            QCOMPARE(p.probabilities.size(), std::size_t(10));
            const double sum = std::accumulate(p.probabilities.begin(), p.probabilities.end(), 0.0);
            QVERIFY2(std::fabs(sum - 1.0) <= 1e-5, qPrintable(QString("sample %1: probabilities sum to %2").arg(i).arg(sum, 0, 'g', 10)));
            for (float q : p.probabilities) QVERIFY(q >= 0.0f && q <= 1.0f);
            const auto top = std::max_element(p.probabilities.begin(), p.probabilities.end());
            QCOMPARE(p.predicted, std::int64_t(top - p.probabilities.begin()));
            QVERIFY(p.confidence == *top);
            correct += p.predicted == p.label;
        }
        const double accuracy = double(correct) / double(kTest);
        QVERIFY2(relClose(accuracy, it->metrics.at("test_acc"), 1e-12),
                 qPrintable(QString("recomputed %1, stored %2").arg(accuracy).arg(it->metrics.at("test_acc"))));

        // Temperature scaling: no validation split, so fitted on a held-out 10% of the 210
        // training samples; the report rebuilt from the stored predictions and T gives the stored scalars.
        const std::optional<double> temperature = fittedTemperature(*it);
        QVERIFY(temperature && *temperature > 0);
        QCOMPARE(it->metrics.at(kTemperatureOnValidationMetric), 0.0);
        QCOMPARE(it->metrics.at(kTemperatureSamplesMetric), 21.0);
        const auto rebuilt = reportMetrics(evaluationReport(predictions, 10, temperature), "test");
        for (const char* name : {"test_ece", "test_ece_calibrated", "test_nll", "test_nll_calibrated", "test_brier",
                                 "test_brier_calibrated", "test_weighted_f1", "test_micro_f1", "test_macro_roc_auc"}) {
            QVERIFY2(it->metrics.count(name) && rebuilt.count(name), name);
            QVERIFY2(relClose(rebuilt.at(name), it->metrics.at(name), 1e-12), name);
        }
    }

    void evaluateErrorsFailAndStoreNothing_data()
    {
        QTest::addColumn<QString>("which");  // unknown_run | missing_epoch | no_validation
        QTest::newRow("unknown run") << "unknown_run";
        QTest::newRow("epoch without checkpoint") << "missing_epoch";
        QTest::newRow("val split without validation") << "no_validation";
        QTest::newRow("unknown split") << "bad_split";
    }

    void evaluateErrorsFailAndStoreNothing()
    {
        QFETCH(QString, which);
        QVERIFY(run_ >= 0);
        RunReader before(Workspace::open(ws_));
        const std::size_t evaluationsBefore = before.evaluations(run_).size();
        std::vector<std::int64_t> keptEpochs;
        for (const auto& c : before.checkpoints(run_)) keptEpochs.push_back(c.epoch);
        QVERIFY(keptEpochs == (std::vector<std::int64_t>{2, 3}));  // keep_last 2: epoch 1's is gone

        EvaluateJob job{.runId = run_, .checkpoint = "last", .split = "test"};
        std::vector<std::string> expected;  // fragments the message must hold
        if (which == "unknown_run") {
            job.runId = run_ + 1000;
            expected = {"run " + std::to_string(job.runId), "not in"};
        } else if (which == "missing_epoch") {
            job.checkpoint = "1";
            expected = {"epoch 1", "2, 3"};
        } else if (which == "no_validation") {
            job.split = "val";
            expected = {"validation"};
        } else {
            job.split = "everything";
            expected = {"everything", "test, val or train"};
        }
        Recorder rec;
        const JobResult result = run(job, rec);
        QCOMPARE(result.finished.outcome, FinishedEvent::Outcome::Failed);
        QCOMPARE(result.evaluationId, std::int64_t(-1));
        QVERIFY(!rec.events.empty());
        const auto* last = std::get_if<FinishedEvent>(&rec.events.back());
        QVERIFY(last);
        QCOMPARE(last->outcome, FinishedEvent::Outcome::Failed);
        QCOMPARE(countFinished(rec.events), std::int64_t(1));
        QVERIFY(last->metrics.empty());
        for (const auto& fragment : expected)
            QVERIFY2(last->message.text.find(fragment) != std::string::npos,
                     qPrintable(QString("'%1' not in: %2").arg(QString::fromStdString(fragment), QString::fromStdString(last->message.text))));
        RunReader after(Workspace::open(ws_));
        QCOMPARE(after.evaluations(run_).size(), evaluationsBefore);
        QVERIFY(after.evaluations(job.runId).empty() || job.runId == run_);
    }

    // A run stopped at step 7 (in epoch 2) and resumed: the resumed job announces the
    // checkpoint's step, its steps continue from there, and JobProgress counts only them.
    void resumeJobContinuesFromCheckpointStep()
    {
        RunControl control;
        StoreCheckingRecorder first;
        first.workspaceDir = ws_;
        first.control = &control;
        first.stopAtStep = 7;
        const JobResult stopped = run(TrainJob{.experiment = idxSpec(data_)}, first, &control);
        QVERIFY2(stopped.finished.outcome == FinishedEvent::Outcome::Stopped, stopped.finished.message.text.c_str());
        QVERIFY(first.runAtFinish.has_value());
        QCOMPARE(first.runAtFinish->status, RunStatus::Stopped);
        QCOMPARE(first.all<StepEvent>().back().step, std::int64_t(7));

        StoreCheckingRecorder second;
        second.workspaceDir = ws_;
        TrainJob resume;
        resume.resume = std::to_string(stopped.runId);
        JobProgress progress;
        struct Feed : TrainListener {
            StoreCheckingRecorder* rec;
            JobProgress* progress;
            std::vector<std::pair<std::int64_t, std::int64_t>> doneAtStep;  // (step, progress.done())
            void onEvent(const TrainEvent& e) override
            {
                progress->onEvent(e);
                if (const auto* s = std::get_if<StepEvent>(&e)) doneAtStep.emplace_back(s->step, progress->done());
                rec->onEvent(e);
            }
        } feed;
        feed.rec = &second;
        feed.progress = &progress;
        RunControl fresh;
        const JobResult resumed = runJob(resume, env_, fresh, feed);
        QVERIFY2(resumed.finished.outcome == FinishedEvent::Outcome::Finished, resumed.finished.message.text.c_str());
        QVERIFY(resumed.runId >= 0 && resumed.runId != stopped.runId);

        const auto starts = second.all<StartedEvent>();
        QCOMPARE(starts.size(), std::size_t(1));
        const StartedEvent& s = starts.front();
        QCOMPARE(s.runId, resumed.runId);
        QCOMPARE(s.firstStep, std::int64_t(7));
        QCOMPARE(s.firstEpoch, std::int64_t(2));
        QCOMPARE(s.stepsPerEpoch, kStepsPerEpoch);
        QCOMPARE(s.totalSteps, kStepsPerEpoch * kEpochs);
        QCOMPARE(s.stepsThisRun(), kStepsPerEpoch * kEpochs - 7);

        const auto steps = second.all<StepEvent>();
        QCOMPARE(std::int64_t(steps.size()), s.stepsThisRun());
        QCOMPARE(steps.front().step, std::int64_t(8));
        QCOMPARE(steps.back().step, s.totalSteps);
        for (const auto& [step, done] : feed.doneAtStep) QCOMPARE(done, step - 7);
        QCOMPARE(progress.done(), s.stepsThisRun());
        QCOMPARE(progress.total(), s.stepsThisRun());
        QCOMPARE(progress.fraction(), 1.0);
        QCOMPARE(progress.epoch(), kEpochs);
        QCOMPARE(progress.stepsInEpoch(), kStepsPerEpoch);

        QVERIFY(second.runAtFinish.has_value());
        QCOMPARE(second.runAtFinish->status, RunStatus::Finished);
        QVERIFY(second.runAtFinish->parentRunId == std::optional<std::int64_t>(stopped.runId));
        QCOMPARE(QString::fromStdString(second.runAtFinish->parentRelation), QString("resume"));
        // It keeps the name its user knows it by.
        QCOMPARE(second.runAtFinish->name, first.runAtFinish->name + " (resumed)");

        // The resumed run has trained all its epochs: resuming it again is refused, and no
        // empty run is created.
        const std::size_t runsBefore = RunReader(Workspace::open(ws_)).listRuns().size();
        StoreCheckingRecorder third;
        RunControl again;
        TrainJob resumeDone;
        resumeDone.resume = std::to_string(resumed.runId);
        const JobResult refused = runJob(resumeDone, env_, again, third);
        QCOMPARE(refused.finished.outcome, FinishedEvent::Outcome::Failed);
        QVERIFY2(refused.finished.message.text.find("nothing is left to resume") != std::string::npos &&
                     refused.finished.message.text.find("--epochs") != std::string::npos,
                 refused.finished.message.text.c_str());
        QCOMPARE(refused.runId, std::int64_t(-1));
        QCOMPARE(RunReader(Workspace::open(ws_)).listRuns().size(), runsBefore);
        // More epochs: the same resume trains on.
        TrainJob further = resumeDone;
        further.epochs = kEpochs + 1;
        StoreCheckingRecorder fourth;
        fourth.workspaceDir = ws_;
        RunControl more;
        const JobResult extended = runJob(further, env_, more, fourth);
        QVERIFY2(extended.finished.outcome == FinishedEvent::Outcome::Finished, extended.finished.message.text.c_str());
        QCOMPARE(fourth.all<StepEvent>().front().step, kStepsPerEpoch * kEpochs + 1);
        QCOMPARE(fourth.runAtFinish->name, first.runAtFinish->name + " (resumed)");  // not "(resumed) (resumed)"
    }

    void lrFindSweepsGeometrically_data()
    {
        QTest::addColumn<double>("minLr");
        QTest::addColumn<double>("maxLr");
        QTest::addColumn<QString>("divergence");  // no | yes | either
        QTest::newRow("gentle range: all steps") << 1e-4 << 1e-2 << "no";
        QTest::newRow("up to 10") << 1e-4 << 10.0 << "either";
        // Diverges part-way, and the lowest loss comes within a decade of min_lr (at about
        // 0.72 here): "lowest / 10" alone would suggest a rate below the range tried.
        QTest::newRow("starts near divergence") << 0.5 << 100.0 << "yes";
    }

    void lrFindSweepsGeometrically()
    {
        QFETCH(double, minLr);
        QFETCH(double, maxLr);
        QFETCH(QString, divergence);
        LrFindJob job;
        job.experiment = idxSpec(data_);
        job.experiment.training.accumulationSteps = 1;  // 13 steps an epoch: the sweep spans 3 epochs
        job.minLr = minLr;
        job.maxLr = maxLr;
        job.steps = 30;
        Recorder rec;
        const JobResult result = run(job, rec);
        QVERIFY2(result.finished.outcome != FinishedEvent::Outcome::Failed, result.finished.message.text.c_str());
        QCOMPARE(result.runId, std::int64_t(-1));  // nothing recorded
        QVERIFY(std::holds_alternative<FinishedEvent>(rec.events.back()));
        QCOMPARE(countFinished(rec.events), std::int64_t(1));

        const auto steps = rec.all<StepEvent>();
        QVERIFY(steps.size() >= 5);
        QVERIFY(std::int64_t(steps.size()) <= job.steps);
        const bool diverged = result.finished.message.text.find("diverged") != std::string::npos;
        if (!diverged) QCOMPARE(std::int64_t(steps.size()), job.steps);  // stops at `steps` exactly
        if (divergence != "either") QVERIFY2(diverged == (divergence == "yes"), result.finished.message.text.c_str());
        // Divergence as the job defines it (debiased EMA of the loss, beta 0.98, above 4x its
        // minimum so far), recomputed from the StepEvents: the sweep stops at the first
        // divergent step, never before and never later.
        {
            double average = 0, best = INFINITY;
            std::optional<std::size_t> firstDivergent;
            for (std::size_t i = 0; i < steps.size() && !firstDivergent; ++i) {
                average = 0.98 * average + (1 - 0.98) * steps[i].loss;
                const double smoothed = average / (1 - std::pow(0.98, double(i + 1)));
                if (std::isfinite(smoothed)) best = std::min(best, smoothed);
                if (!std::isfinite(smoothed) || smoothed > 4 * best) firstDivergent = i;
            }
            QCOMPARE(firstDivergent.has_value(), diverged);
            if (firstDivergent) QCOMPARE(*firstDivergent, steps.size() - 1);
        }
        QCOMPARE(result.finished.metrics.at("steps"), double(steps.size()));

        // lr_i = minLr * (maxLr / minLr)^(i / (steps - 1)): constant ratio, from minLr.
        const double ratio = std::pow(maxLr / minLr, 1.0 / double(job.steps - 1));
        QVERIFY2(relClose(steps.front().lr, minLr, 1e-9), qPrintable(QString::number(steps.front().lr, 'g', 17)));
        for (std::size_t i = 1; i < steps.size(); ++i) {
            QCOMPARE(steps[i].step, steps[i - 1].step + 1);
            QVERIFY2(relClose(steps[i].lr / steps[i - 1].lr, ratio, 1e-9),
                     qPrintable(QString("step %1: ratio %2, expected %3").arg(steps[i].step)
                                    .arg(steps[i].lr / steps[i - 1].lr, 0, 'g', 17).arg(ratio, 0, 'g', 17)));
        }
        if (!diverged) QVERIFY(relClose(steps.back().lr, maxLr, 1e-9));
        QVERIFY(steps.back().lr <= maxLr * (1 + 1e-9));

        const double suggested = result.finished.metrics.at("suggested_lr");
        QVERIFY2(suggested >= minLr * (1 - 1e-12) && suggested <= maxLr * (1 + 1e-12),
                 qPrintable(QString("suggested %1 outside [%2, %3]").arg(suggested).arg(minLr).arg(maxLr)));
        for (const char* k : {"steepest_lr", "min_loss_lr"}) {
            const double v = result.finished.metrics.at(k);
            QVERIFY2(v >= minLr * (1 - 1e-12) && v <= maxLr * (1 + 1e-12), k);
        }
    }

    void lrFindBadRangeFails_data()
    {
        QTest::addColumn<double>("minLr");
        QTest::addColumn<double>("maxLr");
        QTest::newRow("min > max") << 1.0 << 1e-3;
        QTest::newRow("min == max") << 1e-2 << 1e-2;
        QTest::newRow("min 0") << 0.0 << 1.0;
    }

    void lrFindBadRangeFails()
    {
        QFETCH(double, minLr);
        QFETCH(double, maxLr);
        LrFindJob job;
        job.experiment = idxSpec(data_);
        job.minLr = minLr;
        job.maxLr = maxLr;
        job.steps = 20;
        Recorder rec;
        const JobResult result = run(job, rec);
        QCOMPARE(result.finished.outcome, FinishedEvent::Outcome::Failed);
        QVERIFY2(result.finished.message.text.find("min_lr") != std::string::npos, result.finished.message.text.c_str());
        QVERIFY(rec.all<StepEvent>().empty());
        QVERIFY(std::holds_alternative<FinishedEvent>(rec.events.back()));
    }

    // Timed from the first step: step 11 at t = 0 and step 21 at t = 10 s is 10 steps in
    // 10 s; 100 steps this run (110 - 10), 11 done, 89 left -> 89 s. Exact to 1e-9.
    void jobProgressCountsThisRunsStepsAndTimesFromFirstStep()
    {
        using namespace std::chrono;
        JobProgress p;
        const JobProgress::Clock::time_point t0{seconds(1000)};
        QVERIFY(!p.started());
        QVERIFY(!p.etaSeconds());
        StartedEvent s;
        s.firstStep = 10;
        s.totalSteps = 110;
        s.stepsPerEpoch = 20;
        s.firstEpoch = 1;
        s.epochs = 6;  // not consistent with 110; only the step counts matter here
        p.onEvent(s, t0 - seconds(30));  // set-up time before the first step is not timed
        QVERIFY(p.started());
        QCOMPARE(p.total(), std::int64_t(100));
        QCOMPARE(p.done(), std::int64_t(0));

        p.onEvent(StepEvent{.step = 11, .epoch = 1}, t0);
        QCOMPARE(p.done(), std::int64_t(1));
        QVERIFY2(!p.etaSeconds(), "an ETA from a single step");

        p.onEvent(StepEvent{.step = 21, .epoch = 2}, t0 + seconds(10));
        QCOMPARE(p.done(), std::int64_t(11));
        QCOMPARE(p.total(), std::int64_t(100));
        QVERIFY(std::fabs(p.fraction() - 0.11) <= 1e-9);
        QVERIFY(p.etaSeconds().has_value());
        QVERIFY2(std::fabs(*p.etaSeconds() - 89.0) <= 1e-9, qPrintable(QString::number(*p.etaSeconds(), 'g', 17)));
        QCOMPARE(p.epoch(), std::int64_t(2));
        QCOMPARE(p.stepsInEpoch(), std::int64_t(1));  // step 21 is the first of epoch 2 (steps 21..40)

        // An epoch's evaluation (90 s between two steps) is not step time: the ETA stays at
        // 1 s a step for the 79 steps left.
        p.onEvent(EpochEvent{.epoch = 2, .step = 30}, t0 + seconds(19));
        p.onEvent(StepEvent{.step = 31, .epoch = 2}, t0 + seconds(109));
        QVERIFY2(std::fabs(*p.etaSeconds() - 79.0) <= 1e-9, qPrintable(QString::number(*p.etaSeconds(), 'g', 17)));
        // Faster steps since then: the window holds (10 steps, 10 s) and (10 steps, 5 s).
        p.onEvent(StepEvent{.step = 41, .epoch = 2}, t0 + seconds(114));
        QVERIFY2(std::fabs(*p.etaSeconds() - 0.75 * 69) <= 1e-9, qPrintable(QString::number(*p.etaSeconds(), 'g', 17)));
    }

    // The window forgets old step times: after kWindowSteps fast steps, a slow start is gone.
    void jobProgressWindowForgetsOldSteps()
    {
        using namespace std::chrono;
        JobProgress p;
        StartedEvent s;
        s.totalSteps = 10000;
        s.stepsPerEpoch = 10000;
        p.onEvent(s);
        const JobProgress::Clock::time_point t0{seconds(0)};
        p.onEvent(StepEvent{.step = 1, .epoch = 1}, t0);
        p.onEvent(StepEvent{.step = 11, .epoch = 1}, t0 + seconds(100));  // 10 s a step at first
        auto t = t0 + seconds(100);
        for (std::int64_t step = 21; step <= 11 + JobProgress::kWindowSteps; step += 10) {
            t += milliseconds(100);  // then 0.01 s a step
            p.onEvent(StepEvent{.step = step, .epoch = 1}, t);
        }
        const double perStep = *p.etaSeconds() / double(p.total() - p.done());
        QVERIFY2(std::fabs(perStep - 0.01) <= 1e-9, qPrintable(QString::number(perStep, 'g', 17)));
    }

    // Non-training jobs count ProgressEvents against their own total.
    void jobProgressCountsProgressEvents()
    {
        using namespace std::chrono;
        JobProgress p;
        const JobProgress::Clock::time_point t0{seconds(50)};
        p.onEvent(ProgressEvent{1, 5, makeMessage(MessageId::EvalProgress, {"test"})}, t0);
        QCOMPARE(p.total(), std::int64_t(5));
        QCOMPARE(p.done(), std::int64_t(1));
        QVERIFY(!p.etaSeconds());
        p.onEvent(ProgressEvent{3, 5, makeMessage(MessageId::EvalProgress, {"test"})}, t0 + seconds(4));
        QVERIFY(std::fabs(p.fraction() - 0.6) <= 1e-12);
        QVERIFY(p.etaSeconds().has_value());
        QVERIFY(std::fabs(*p.etaSeconds() - 4.0) <= 1e-9);  // 2 s a unit, 2 left
    }
};

QTEST_GUILESS_MAIN(TestJobs)
#include "tst_jobs.moc"
