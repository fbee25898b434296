// The label check job: every training sample ranked by how strongly a model contradicts its
// label (jobs/label_ranking.h), kept in the store (store/label_overlay.h: label_checks and
// label_suspects) for the CLI's `data labels` and the Datasets page.
//
// In-sample: the evaluate job over the run's train split (the same evaluator and stored
// predictions, no second inference loop), ranked. Fast, but the model has fitted the very
// labels it judges, so a memorised wrong label hides.
// K-fold: the training file split (validation included, excluded samples left out) in K
// stratified folds; for each, the Trainer trains the experiment's recipe on the other K-1
// folds (no checkpoints, nothing recorded as a run) and the trainer's evaluator predicts the
// held-out fold, so every sample gets out-of-sample probabilities.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cmath>
#include <filesystem>
#include <random>
#include <stdexcept>

#include "backend/backend.h"
#include "data/dataset.h"
#include "data/label_overlay.h"
#include "data/loader.h"
#include "data/subset_dataset.h"
#include "io/yaml/experiment_yaml.h"
#include "jobs/job_overlay.h"
#include "jobs/job_parts.h"
#include "jobs/label_ranking.h"
#include "store/label_overlay.h"
#include "store/run_reader.h"
#include "train/evaluation.h"
#include "train/metrics.h"
#include "train/run_control.h"
#include "train/trainer.h"

namespace ts {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

double unixTime()
{
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

void softmaxInto(const float* logits, std::int64_t classes, float* out)
{
    const float top = *std::max_element(logits, logits + classes);
    double sum = 0;
    for (std::int64_t c = 0; c < classes; ++c) sum += out[c] = std::exp(logits[c] - top);
    for (std::int64_t c = 0; c < classes; ++c) out[c] = float(out[c] / sum);
}

// Stratified folds: each class's samples, shuffled by `seed`, are dealt round-robin, so every
// fold holds about 1/K of every class (a rare class is never missing from a training set).
std::vector<std::int64_t> assignFolds(const std::vector<std::int64_t>& labels, std::int64_t classes, std::int64_t folds,
                                      std::uint64_t seed)
{
    std::vector<std::vector<std::int64_t>> byClass(static_cast<std::size_t>(classes));
    for (std::size_t i = 0; i < labels.size(); ++i) byClass[std::size_t(labels[i])].push_back(std::int64_t(i));
    std::mt19937_64 rng(seed);
    std::vector<std::int64_t> fold(labels.size());
    std::int64_t next = 0;
    for (auto& members : byClass) {
        for (std::size_t i = members.size(); i > 1; --i) {  // Fisher-Yates, the same on every platform
            const auto j = std::size_t((static_cast<unsigned __int128>(rng()) * i) >> 64);
            std::swap(members[i - 1], members[j]);
        }
        for (std::int64_t m : members) fold[std::size_t(m)] = next++ % folds;
    }
    return fold;
}

struct Ranked {
    std::vector<LabelScore> scores;
    std::int64_t suspects = 0;
};

Ranked rank(const std::vector<float>& probabilities, std::int64_t classes, const std::vector<std::int64_t>& labels,
            const std::vector<std::int64_t>& samples)
{
    Ranked r;
    r.scores = rankLabels(probabilities, classes, labels, samples);
    for (const LabelScore& s : r.scores) r.suspects += s.suspect;
    return r;
}

// Stores the check and words the job's ending.
void finishCheck(JobResult& result, const Workspace& workspace, LabelCheckRecord record, const Ranked& ranked,
                 Clock::time_point start)
{
    record.suspects = ranked.suspects;
    record.samples = std::int64_t(ranked.scores.size());
    record.createdTime = unixTime();
    record.seconds = secondsSince(start);
    const std::int64_t id = addLabelCheck(workspace, record, ranked.scores);
    FinishedEvent& done = result.finished;
    done.outcome = FinishedEvent::Outcome::Finished;
    done.metrics["label_check_id"] = double(id);
    done.metrics["samples"] = double(record.samples);
    done.metrics["suspects"] = double(record.suspects);
    done.metrics["seconds"] = record.seconds;
    if (record.folds > 0) done.metrics["folds"] = double(record.folds);
    const std::string method = record.method == "k_fold" ? std::to_string(record.folds) + "-fold" : "in-sample, run " +
                                                                                                       std::to_string(record.runId);
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.1f", record.seconds);
    done.message = makeMessage(MessageId::LabelCheckFinished, {std::to_string(id), method, seconds,
                                                               std::to_string(record.suspects), std::to_string(record.samples)});
}

// A language model's text has no labels to judge: its targets are the text itself, shifted.
void requireLabels(const ExperimentSpec& spec, const std::string& what)
{
    if (spec.dataset.format == "text")
        throw std::invalid_argument(what + " trains a language model (dataset.format: text): each position's target is the "
                                           "text's next token, not a label a person gave, so there are no labels to check; "
                                           "a label check is for classification data");
}

void inSample(const LabelCheckJob& job, const JobEnvironment& env, RunControl& control, TrainListener& listener,
              JobResult& result, Clock::time_point start)
{
    const Workspace workspace{std::filesystem::absolute(env.workspaceDir).lexically_normal().string()};
    if (const std::optional<RunInfo> run = RunReader(workspace).run(job.runId))
        requireLabels(parseExperiment(run->experimentYaml, "run " + std::to_string(job.runId)), "run " + std::to_string(job.runId));
    EvaluateJob evaluate;
    evaluate.runId = job.runId;
    evaluate.checkpoint = job.checkpoint.empty() ? "best" : job.checkpoint;
    evaluate.split = "train";
    evaluate.device = job.device;
    AllButFinished forward(listener);
    const JobResult evaluated = runEvaluateJob(evaluate, env, control, forward);
    result.runId = job.runId;
    result.evaluationId = evaluated.evaluationId;
    if (evaluated.finished.outcome != FinishedEvent::Outcome::Finished) {  // stopped or failed: its own words
        result.finished = evaluated.finished;
        return;
    }
    RunReader reader(workspace);
    const std::optional<RunInfo> run = reader.run(job.runId);
    if (!run) throw std::invalid_argument("run " + std::to_string(job.runId) + " is not in " + workspace.databasePath());
    const ExperimentSpec spec = parseExperiment(run->experimentYaml, "run " + std::to_string(job.runId));
    const std::vector<Prediction> predictions = reader.predictions(evaluated.evaluationId);
    // The evaluation indexes the run's train split: its file indices come from reopening the
    // dataset with the overlay the run trained with (the same the evaluate job applied).
    const LabelOverlay overlay = runLabelOverlay(workspace, job.runId);
    const DatasetSplits splits = openExperimentDataset(spec, jobCacheDirectory(env), overlay);
    const std::int64_t classes = splits.train->numClasses();
    if (predictions.size() != splits.trainFileIndex.size())
        throw std::runtime_error("evaluation " + std::to_string(evaluated.evaluationId) + " holds " +
                                 std::to_string(predictions.size()) + " predictions for a train split of " +
                                 std::to_string(splits.trainFileIndex.size()) + " samples");
    std::vector<float> probabilities;
    probabilities.reserve(predictions.size() * std::size_t(classes));
    std::vector<std::int64_t> labels, samples;
    for (const Prediction& p : predictions) {
        probabilities.insert(probabilities.end(), p.probabilities.begin(), p.probabilities.end());
        labels.push_back(p.label);
        samples.push_back(splits.trainFileIndex[std::size_t(p.sample)]);
    }
    LabelCheckRecord record;
    record.datasetKey = datasetKey(spec.dataset, experimentDataDirectory(spec));
    record.method = "in_sample";
    record.runId = job.runId;
    record.evaluationId = evaluated.evaluationId;
    for (const EvaluationRecord& e : reader.evaluations(job.runId))
        if (e.id == evaluated.evaluationId) record.epochs = e.epoch;  // the checkpoint's
    record.classes = classes;
    record.overlayHash = labelOverlayHash(overlay);
    record.experimentYaml = run->experimentYaml;
    finishCheck(result, workspace, std::move(record), rank(probabilities, classes, labels, samples), start);
}

void kFold(const LabelCheckJob& job, const JobEnvironment& env, RunControl& control, TrainListener& listener,
           JobResult& result, Clock::time_point start)
{
    ExperimentSpec spec = withAbsolutePaths(job.experiment);
    requireLabels(spec, "the experiment");
    if (!job.device.empty()) spec.training.device = job.device;
    if (job.epochsPerFold > 0) spec.training.epochs = job.epochsPerFold;
    spec.training.earlyStopping.enabled = false;  // no validation split to watch
    spec.training.overfitBatches = 0;
    Backend& backend = jobBackend(env, spec.training.device, listener);
    const LabelOverlay overlay = currentLabelOverlay(env, spec);
    logLabelOverlay(listener, overlay);
    publishLog(listener, LogEvent::Level::Info, makeMessage(MessageId::JobLoadingData, {spec.dataset.path}));
    // Every training file sample takes part: validation is not carved out.
    DatasetSpec whole = spec.dataset;
    whole.validationFraction = 0;
    const std::string cacheDir = jobCacheDirectory(env);
    const DatasetSplits all = openDataset(whole, experimentDataDirectory(spec), cacheDir, overlay);
    const std::int64_t n = all.train->size(), classes = all.train->numClasses(), folds = job.folds;
    if (folds > n)
        throw std::invalid_argument(std::to_string(folds) + " folds need at least as many training samples; the dataset has " +
                                    std::to_string(n) + "; use fewer folds");
    const std::vector<std::int64_t>& labels = all.train->labels();
    const std::vector<std::int64_t> fold = assignFolds(labels, classes, folds, spec.dataset.splitSeed);
    std::vector<float> probabilities(std::size_t(n * classes), 0.0f);

    LoaderOptions predictOptions;
    predictOptions.batchSize = spec.training.batchSize;
    predictOptions.seed = spec.training.seed;
    predictOptions.dropLast = predictOptions.shuffle = predictOptions.augment = false;
    predictOptions.batchAllocator = &backend.hostAllocator();
    for (std::int64_t k = 0; k < folds; ++k) {
        std::vector<std::int64_t> trainPart, heldPart;
        for (std::int64_t i = 0; i < n; ++i) (fold[std::size_t(i)] == k ? heldPart : trainPart).push_back(i);
        listener.onEvent(ProgressEvent{k, folds, makeMessage(MessageId::LabelCheckProgressFold, {std::to_string(k + 1), std::to_string(folds)})});
        publishLog(listener, LogEvent::Level::Info,
                   makeMessage(MessageId::LabelCheckFold, {std::to_string(k + 1), std::to_string(folds),
                                                           std::to_string(trainPart.size()), std::to_string(heldPart.size())}));
        const std::string name = "fold " + std::to_string(k + 1);
        DatasetSplits foldSplits;
        foldSplits.train = std::make_shared<SubsetDataset>(all.train, trainPart, name + " training");
        foldSplits.trainStatistics = all.trainStatistics;  // pixel statistics of all samples: no labels in them
        TrainerOptions options;
        options.cacheDir = cacheDir;
        options.systemSampleSeconds = env.systemSampleSeconds;
        options.control = &control;
        Trainer trainer(spec, std::move(foldSplits), backend, std::move(options));
        AllButFinished forward(listener);
        trainer.addListener(&forward);
        const FinishedEvent trained = trainer.run();
        const auto stopped = [&] {
            result.finished.outcome = FinishedEvent::Outcome::Stopped;
            result.finished.message =
                makeMessage(MessageId::LabelCheckStopped, {std::to_string(k + 1), std::to_string(folds)});
        };
        if (trained.outcome == FinishedEvent::Outcome::Failed)
            throw std::runtime_error(name + " of " + std::to_string(folds) + ": " + trained.message.text);
        if (trained.outcome == FinishedEvent::Outcome::Stopped || control.stopRequested()) return stopped();

        // The held-out fold through the trainer's evaluator, with the weights just trained.
        const auto held = std::make_shared<SubsetDataset>(all.train, heldPart, name + " held out");
        Loader loader(held, spec.dataset, all.trainStatistics, predictOptions);
        Evaluator evaluator(spec.model, backend, classes, spec.training.topK);
        ClassificationMetrics metrics(classes, spec.training.topK);
        std::int64_t seen = 0;
        const bool complete = evaluator.evaluate(*trainer.executor(), loader, metrics, &control,
                                                 [&](const Batch& b, const std::vector<float>& logits) {
                                                     for (std::int64_t i = 0; i < b.size; ++i) {
                                                         const std::int64_t at = heldPart[std::size_t(seen + i)];
                                                         softmaxInto(logits.data() + i * classes, classes,
                                                                     probabilities.data() + at * classes);
                                                     }
                                                     seen += b.size;
                                                 });
        if (!complete) return stopped();
        publishLog(listener, LogEvent::Level::Info,
                   Message{name + ": held-out accuracy " + numberArg(metrics.accuracy()) + ", loss " +
                           numberArg(metrics.loss())});
    }
    listener.onEvent(ProgressEvent{folds, folds, makeMessage(MessageId::LabelCheckProgressRanking)});

    LabelCheckRecord record;
    record.datasetKey = datasetKey(spec.dataset, experimentDataDirectory(spec));
    record.method = "k_fold";
    record.folds = folds;
    record.epochs = spec.training.epochs;
    record.classes = classes;
    record.overlayHash = labelOverlayHash(overlay);
    record.experimentYaml = experimentToYaml(spec);
    const Workspace workspace = Workspace::open(env.workspaceDir);
    finishCheck(result, workspace, std::move(record), rank(probabilities, classes, labels, all.trainFileIndex), start);
}

}  // namespace

JobResult runLabelCheckJob(const LabelCheckJob& job, const JobEnvironment& env, RunControl& control, TrainListener& listener)
{
    return finishJob(JobResult{}, listener, [&](JobResult& result) {
        const auto start = Clock::now();
        if (env.workspaceDir.empty())
            throw std::invalid_argument("a label check needs the workspace that keeps its list (and, in-sample, the run)");
        if (job.folds == 1 || job.folds < 0)
            throw std::invalid_argument("folds " + std::to_string(job.folds) + ": K-fold needs at least 2 folds (5 is usual)");
        if (job.folds >= 2) return kFold(job, env, control, listener, result, start);
        if (job.runId <= 0)
            throw std::invalid_argument("a label check scores a finished run's checkpoint (in-sample: a run id) or trains "
                                        "K folds (folds >= 2)");
        inSample(job, env, control, listener, result, start);
    });
}

}  // namespace ts
