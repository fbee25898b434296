// The evaluate job: one checkpoint of a run over one split, with the trainer's own evaluator,
// so its metrics are the ones training reported for the same weights. Every sample's
// prediction and probabilities go into the store beside the metrics, with the report computed
// from them (train/evaluation_report.h) and a temperature fitted for calibration.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <optional>
#include <stdexcept>

#include "backend/backend.h"
#include "data/dataset.h"
#include "data/loader.h"
#include "data/subset_dataset.h"
#include "exec/executor.h"
#include "graph/graph.h"
#include "io/checkpoint/checkpoint.h"
#include "io/yaml/experiment_yaml.h"
#include "jobs/evaluated_split.h"
#include "jobs/job_overlay.h"
#include "jobs/job_parts.h"
#include "store/label_overlay.h"
#include "store/resume_source.h"
#include "store/run_reader.h"
#include "store/run_writer.h"
#include "train/data_fit.h"
#include "train/evaluation.h"
#include "train/evaluation_report.h"
#include "train/metrics.h"
#include "train/regression_metrics.h"
#include "train/task_metrics.h"
#include "train/run_control.h"

namespace ts {

namespace {

std::optional<std::int64_t> parseNumber(const std::string& text)
{
    std::int64_t n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return n;
}

std::string listEpochs(const std::vector<CheckpointRecord>& checkpoints)
{
    std::string out;
    for (const auto& c : checkpoints) out += (out.empty() ? "" : ", ") + std::to_string(c.epoch);
    return out;
}

}  // namespace

// best | last | an epoch | a weights file (job_parts.h; export uses it too).
CheckpointRecord chooseCheckpoint(const std::vector<CheckpointRecord>& checkpoints, std::int64_t runId,
                                  const std::string& choice, TrainListener& listener)
{
    const std::string which = choice.empty() ? "best" : choice;
    const std::string runText = "run " + std::to_string(runId);
    if (which == "best" || which == "last") {
        if (checkpoints.empty())
            throw std::invalid_argument(runText + " has no checkpoint (it saved none before it ended); "
                                                  "train it again or resume it to write one");
        if (which == "best") {
            for (auto it = checkpoints.rbegin(); it != checkpoints.rend(); ++it)
                if (it->best) return *it;
            publishLog(listener, LogEvent::Level::Info,
                       makeMessage(MessageId::EvalNoBestCheckpoint, {std::to_string(runId)}));
        }
        return checkpoints.back();  // by step
    }
    if (const auto epoch = parseNumber(which)) {
        for (auto it = checkpoints.rbegin(); it != checkpoints.rend(); ++it)
            if (it->epoch == *epoch) return *it;
        throw std::invalid_argument(runText + " has no checkpoint of epoch " + which + " (it keeps epochs " +
                                    (checkpoints.empty() ? std::string("none") : listEpochs(checkpoints)) +
                                    "); use best, last or one of those");
    }
    CheckpointRecord file;
    file.path = which;
    file.runId = runId;
    if (!std::filesystem::exists(which))
        throw std::invalid_argument("checkpoint '" + which + "': no such file; use best, last, an epoch number or a weights file");
    return file;
}

namespace {

// Where temperature scaling is fitted: the validation split, or, when the run has none, a fixed
// 10% of the training split (drawn by the dataset's split seed, so every evaluation of the run
// uses the same samples). The model has trained on those, so they are more confidently right
// than unseen data and the fitted T leans low: a validation split is the better choice.
struct TemperatureSet {
    std::shared_ptr<Dataset> data;  // null: too few training samples to hold any out
    bool validation = false;
};

TemperatureSet temperatureSet(const DatasetSplits& splits, const ExperimentSpec& spec)
{
    if (splits.validation && splits.validation->size() > 0) return {splits.validation, true};
    std::vector<std::int64_t> heldOut = splitIndices(splits.train->size(), 0.1, spec.dataset.splitSeed).validation;
    if (heldOut.empty()) return {};
    return {std::make_shared<SubsetDataset>(splits.train, std::move(heldOut), "training split's 10% hold-out"), false};
}

void softmax(const float* logits, std::int64_t classes, std::vector<float>& out)
{
    out.resize(std::size_t(classes));
    const float top = *std::max_element(logits, logits + classes);
    double sum = 0;
    for (std::int64_t c = 0; c < classes; ++c) sum += out[c] = std::exp(logits[c] - top);
    for (float& p : out) p = float(p / sum);
}

double unixNow()
{
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// What an evaluation of `samples` of `split` by checkpoint `chosen` records, metrics aside.
EvaluationRecord recordOf(std::int64_t runId, const CheckpointRecord& chosen, const std::string& split, std::int64_t samples,
                          std::int64_t classes)
{
    EvaluationRecord record;
    record.runId = runId;
    record.checkpointPath = chosen.path;
    record.step = chosen.step;
    record.epoch = chosen.epoch;
    record.split = split;
    record.samples = samples;
    record.classes = classes;
    record.createdTime = unixNow();
    return record;
}

}  // namespace

JobResult runEvaluateJob(const EvaluateJob& job, const JobEnvironment& env, RunControl& control, TrainListener& listener)
{
    JobResult start;
    start.runId = job.runId;
    return finishJob(start, listener, [&](JobResult& result) {
        FinishedEvent& done = result.finished;
        if (env.workspaceDir.empty()) throw std::invalid_argument("evaluating a run needs the workspace that holds it");
        const Workspace workspace{std::filesystem::absolute(env.workspaceDir).lexically_normal().string()};  // read, not created
        RunReader reader(workspace);
        const std::optional<RunInfo> run = reader.run(job.runId);
        if (!run) throw std::invalid_argument("run " + std::to_string(job.runId) + " is not in " + workspace.databasePath());
        CheckpointRecord chosen = chooseCheckpoint(reader.checkpoints(job.runId), job.runId, job.checkpoint, listener);
        const std::string weightsPath = absoluteCheckpointPath(workspace, chosen.path);
        const Checkpoint checkpoint = loadCheckpoint(weightsPath, chosen.sha256);
        if (chosen.step == 0 && chosen.epoch == 0) {  // a file the store did not name: its own position
            chosen.step = checkpoint.state.step;
            chosen.epoch = checkpoint.state.epoch - 1;
        }
        const ExperimentSpec spec = parseExperiment(checkpoint.state.experimentYaml, weightsPath);
        const std::string device = job.device.empty() ? spec.training.device : job.device;
        Backend& backend = jobBackend(env, device, listener, BackendPurpose::Evaluate);
        // The overlay the run trained with, so the evaluation sees the run's data.
        const LabelOverlay overlay = runLabelOverlay(workspace, job.runId);
        logLabelOverlay(listener, overlay);
        const DatasetSplits splits = openExperimentDataset(spec, jobCacheDirectory(env), overlay);
        checkDataFitsModel(splits, spec.model);  // the data may have changed since the run trained
        const std::shared_ptr<Dataset> data = selectSplit(splits, job.split, spec);
        const std::string split = splitName(splits, data);
        const std::string prefix = split;
        if (data->size() == 0)
            throw std::invalid_argument("the " + split + " split of '" + spec.dataset.path +
                                        "' holds no samples: there is nothing to evaluate; choose another split "
                                        "(--split test|val|train)");

        // An inference executor holds the checkpoint's weights; the evaluator copies them.
        const std::int64_t batch = spec.training.batchSize;
        Executor weights(checkGraph(spec.model, batch), backend, /*training=*/false);
        restoreWeights(weights, checkpoint.weights, weightsPath);
        const std::int64_t classes = splits.train->numClasses();
        Evaluator evaluator(spec.model, backend, classes, spec.training.topK);
        LoaderOptions options;
        options.batchSize = batch;
        options.seed = spec.training.seed;
        options.dropLast = options.shuffle = options.augment = false;
        options.batchAllocator = &backend.hostAllocator();
        publishLog(listener, LogEvent::Level::Info,
                   makeMessage(MessageId::EvalStarted, {std::to_string(job.runId), std::to_string(chosen.epoch),
                                                        std::to_string(chosen.step), weightsPath, split,
                                                        data->description()}));

        // Regression: every sample's predicted and actual values, the trainer's metrics and the
        // training-mean baseline beside them; no classes, so no calibration.
        if (hasValueTargets(*data)) {
            Loader loader(data, spec.dataset, splits.trainStatistics, options);
            TaskMetrics metrics = TaskMetrics::forDataset(*data, {});
            std::vector<Prediction> predictions;
            const std::int64_t perSample = data->targetShape().numel(), batches = loader.batchesPerEpoch();
            const bool complete = evaluator.evaluate(weights, loader, metrics, &control, [&](const Batch& b, const std::vector<float>& values) {
                const float* targets = b.labels.data<float>();
                for (std::int64_t i = 0; i < b.size; ++i) {
                    Prediction p;
                    p.sample = std::int64_t(predictions.size());
                    p.values.assign(values.begin() + i * perSample, values.begin() + (i + 1) * perSample);
                    p.targets.assign(targets + i * perSample, targets + (i + 1) * perSample);
                    predictions.push_back(std::move(p));
                }
                listener.onEvent(ProgressEvent{b.index + 1, batches, makeMessage(MessageId::EvalProgress, {split})});
            });
            const auto seen = std::int64_t(predictions.size());
            if (!complete) {
                done.outcome = FinishedEvent::Outcome::Stopped;
                done.message = makeMessage(MessageId::EvalStopped, {std::to_string(seen), std::to_string(data->size())});
                return;
            }
            EvaluationRecord record = recordOf(job.runId, chosen, prefix, seen, 0);  // 0 classes: regression
            record.metrics = metrics.summary(prefix);
            const MeanBaseline baseline = meanBaseline(*splits.train, *data);
            addBaselineMetrics(record.metrics, prefix, baseline);
            RunWriter writer(workspace);
            result.evaluationId = writer.addEvaluation(record, predictions);
            done.metrics = record.metrics;
            const RegressionMetrics& r = *metrics.regression();
            done.message = makeMessage(MessageId::EvalFinishedRegression,
                                       {std::to_string(result.evaluationId), std::to_string(job.runId), std::to_string(chosen.epoch),
                                        std::to_string(seen), prefix, numberArg(r.mae()), numberArg(r.rmse()),
                                        numberArg(baseline.mae), numberArg(baseline.rmse)});
            return;
        }

        // One pass over a dataset: every sample's prediction, and the trainer's metrics.
        const auto predict = [&](const std::shared_ptr<Dataset>& set, ClassificationMetrics& metrics, bool progress,
                                 std::vector<Prediction>& out) {
            Loader loader(set, spec.dataset, splits.trainStatistics, options);
            out.reserve(std::size_t(set->size()));
            const std::int64_t batches = loader.batchesPerEpoch();
            std::int64_t seen = 0;
            const bool complete = evaluator.evaluate(
                weights, loader, metrics, &control, [&](const Batch& b, const std::vector<float>& logits) {
                    const auto* labels = b.labels.data<std::int64_t>();
                    for (std::int64_t i = 0; i < b.size; ++i) {
                        Prediction p;
                        p.sample = seen + i;
                        p.label = labels[i];
                        softmax(logits.data() + i * classes, classes, p.probabilities);
                        p.predicted = std::max_element(p.probabilities.begin(), p.probabilities.end()) - p.probabilities.begin();
                        p.confidence = p.probabilities[std::size_t(p.predicted)];
                        out.push_back(std::move(p));
                    }
                    seen += b.size;
                    if (progress) listener.onEvent(ProgressEvent{b.index + 1, batches, makeMessage(MessageId::EvalProgress, {split})});
                });
            return complete;
        };
        // Names the evaluation in a report error (a NaN probability, ...), which says the way out.
        const auto checked = [&](const std::string& what, const std::vector<Prediction>& rows) {
            try {
                checkPredictions(rows, classes);
            } catch (const std::invalid_argument& e) {
                throw std::invalid_argument("run " + std::to_string(job.runId) + ", epoch " + std::to_string(chosen.epoch) +
                                            " checkpoint, " + what + ": " + e.what());
            }
        };

        std::vector<Prediction> predictions;
        ClassificationMetrics metrics(classes, spec.training.topK);
        bool complete = predict(data, metrics, true, predictions);
        const auto seen = std::int64_t(predictions.size());
        std::optional<TemperatureFit> fit;
        std::int64_t fitSamples = 0;
        const TemperatureSet fitSet = temperatureSet(splits, spec);
        if (complete) {
            checked(split + " split", predictions);
            std::vector<Prediction> fitRows;
            if (fitSet.data && fitSet.data == data) {
                fitRows = predictions;
            } else if (fitSet.data) {
                ClassificationMetrics unused(classes, spec.training.topK);
                complete = predict(fitSet.data, unused, false, fitRows);
                if (complete) checked(fitSet.validation ? "val split" : "the training split's hold-out", fitRows);
            }
            if (complete && !fitRows.empty()) {
                fit = fitTemperature(fitRows);
                fitSamples = std::int64_t(fitRows.size());
            }
        }
        if (!complete) {
            done.outcome = FinishedEvent::Outcome::Stopped;
            done.message = makeMessage(MessageId::EvalStopped, {std::to_string(seen), std::to_string(data->size())});
        } else {
            EvaluationRecord record = recordOf(job.runId, chosen, prefix, seen, classes);
            record.metrics = metrics.summary(prefix);  // the trainer's own numbers stay as they are
            const EvaluationReport report =
                evaluationReport(predictions, classes, fit ? std::optional(fit->temperature) : std::nullopt);
            record.metrics.merge(reportMetrics(report, prefix));
            if (fit) {
                record.metrics[kTemperatureMetric] = fit->temperature;
                record.metrics[kTemperatureSamplesMetric] = double(fitSamples);
                record.metrics[kTemperatureOnValidationMetric] = fitSet.validation ? 1 : 0;
                publishLog(listener, LogEvent::Level::Info,
                           Message{"temperature scaling: T = " + numberArg(fit->temperature) + " fitted on " +
                                   std::to_string(fitSamples) + " samples (" +
                                   (fitSet.validation ? "the val split" : "10% of the train split; the run has no val split") +
                                   (fit->atBound ? "; T is at the edge of the search range 0.01..100" : "") + "); " + prefix +
                                   " ECE " + numberArg(report.calibration.ece) + " -> " + numberArg(report.calibrated.ece) +
                                   ", NLL " + numberArg(report.calibration.nll) + " -> " + numberArg(report.calibrated.nll)});
            }
            RunWriter writer(workspace);
            result.evaluationId = writer.addEvaluation(record, predictions);
            done.metrics = record.metrics;
            done.message = makeMessage(MessageId::EvalFinished,
                                       {std::to_string(result.evaluationId), std::to_string(job.runId),
                                        std::to_string(chosen.epoch), std::to_string(seen), prefix,
                                        numberArg(metrics.accuracy()), numberArg(metrics.loss())});
        }
    });
}

}  // namespace ts
