#include "jobs/predictor.h"

#include <algorithm>
#include <filesystem>
#include <numeric>
#include <optional>
#include <stdexcept>

#include "backend/backend.h"
#include "data/csv_dataset.h"
#include "data/loader.h"
#include "exec/executor.h"
#include "graph/graph.h"
#include "io/checkpoint/checkpoint.h"
#include "io/yaml/experiment_yaml.h"
#include "jobs/job_parts.h"
#include "store/label_overlay.h"
#include "store/resume_source.h"
#include "store/run_reader.h"
#include "jobs/log_notes.h"
#include "train/evaluation.h"
#include "train/metrics.h"
#include "train/task_metrics.h"

namespace ts {

namespace {

// The training table's feature columns, in order: named in the experiment, or as its reader chose them.
std::vector<std::string> featureNames(const ExperimentSpec& spec)
{
    if (!spec.dataset.featureColumns.empty()) return spec.dataset.featureColumns;
    const DatasetFiles files = openDatasetFiles(spec.dataset, experimentDataDirectory(spec));
    const auto* table = dynamic_cast<const CsvDataset*>(files.train.get());
    return table ? table->featureNames() : std::vector<std::string>{};
}

}  // namespace

struct Predictor::Impl {
    ExperimentSpec spec;
    CheckpointRecord chosen;
    std::string weightsPath;
    std::vector<Message> loadNotes, notes;
    Backend* backend = nullptr;
    DatasetStatistics statistics;
    ModelInput input;
    std::unique_ptr<Executor> weights;  // holds the checkpoint; the evaluator copies from it
    std::unique_ptr<Evaluator> evaluator;
};

Predictor::Predictor(const PredictorOptions& options) : impl_(std::make_unique<Impl>())
{
    Impl& m = *impl_;
    if (options.workspaceDir.empty()) throw std::invalid_argument("predicting needs the workspace that holds the run");
    const Workspace workspace{std::filesystem::absolute(options.workspaceDir).lexically_normal().string()};  // read, not created
    RunReader reader(workspace);
    if (!reader.run(options.runId))
        throw std::invalid_argument("run " + std::to_string(options.runId) + " is not in " + workspace.databasePath() +
                                    " (trainstudio-cli runs list shows the runs there)");
    LogNotes collector(m.loadNotes, MessageId::PredictNoBestCheckpoint);
    m.chosen = chooseCheckpoint(reader.checkpoints(options.runId), options.runId, options.checkpoint, collector);
    m.weightsPath = absoluteCheckpointPath(workspace, m.chosen.path);
    const Checkpoint checkpoint = loadCheckpoint(m.weightsPath, m.chosen.sha256);
    if (m.chosen.step == 0 && m.chosen.epoch == 0) {  // a file the store did not name: its own position
        m.chosen.step = checkpoint.state.step;
        m.chosen.epoch = checkpoint.state.epoch - 1;
    }
    m.spec = parseExperiment(checkpoint.state.experimentYaml, m.weightsPath);
    JobEnvironment env;
    env.cacheDir = options.cacheDir;
    m.backend = &jobBackend(env, options.device.empty() ? m.spec.training.device : options.device, collector,
                            BackendPurpose::Predict);
    // The run's own data (its label overlay): class names, sample shape and the statistics
    // that normalize_from_statistics uses, exactly as its evaluations see them.
    const DatasetSplits splits =
        openExperimentDataset(m.spec, jobCacheDirectory(env), runLabelOverlay(workspace, options.runId));
    m.statistics = splits.trainStatistics;
    m.input.format = m.spec.dataset.format;
    m.input.resize = m.spec.dataset.resize;
    m.input.sampleShape = splits.train->sampleShape();
    m.input.classNames = splits.train->classNames();
    // Texts are encoded as the model was trained: by its checkpoint's tokenizer (a checkpoint of
    // a text classifier written before they kept it: its data's, rebuilt from the same files).
    if (const std::string& text = checkpoint.state.tokenizer.empty() ? splits.tokenizer : checkpoint.state.tokenizer;
        !text.empty()) {
        const Tokenizer tokenizer = Tokenizer::parse(text);
        if (!tokenizer.padded())
            throw std::invalid_argument("run " + std::to_string(options.runId) + " is a language model: it writes text, it "
                                        "does not classify it; trainstudio-cli generate " + std::to_string(options.runId) +
                                        " --prompt \"...\" samples from it");
        m.input.tokenizer = tokenizer;
        m.input.separator = m.spec.dataset.separator;
    } else if (m.spec.dataset.format == "csv") {
        m.input.featureNames = featureNames(m.spec);
        m.input.labelColumn = m.spec.dataset.labelColumn;
    }
    if (hasValueTargets(*splits.train)) {
        m.input.targetShape = splits.train->targetShape();
        m.input.targetNames = splits.train->targetNames();
        // One target column in an input table is shown beside the prediction, as a class label is.
        if (m.input.targetNames.size() == 1) m.input.labelColumn = m.input.targetNames[0];
    }
    m.weights = std::make_unique<Executor>(checkGraph(m.spec.model, 1), *m.backend, /*training=*/false);
    restoreWeights(*m.weights, checkpoint.weights, m.weightsPath);
    m.evaluator = std::make_unique<Evaluator>(m.spec.model, *m.backend, splits.train->numClasses(), m.spec.training.topK);
    m.notes = m.loadNotes;
}

Predictor::~Predictor() = default;

std::vector<SamplePrediction> Predictor::predict(const std::vector<std::string>& inputs, int topK,
                                                std::vector<SkippedInput>* skipped)
{
    return predict(openPredictionInputs(inputs, impl_->input, skipped), topK);
}

std::vector<SamplePrediction> Predictor::predict(const std::shared_ptr<PredictionInputs>& inputs, int topK)
{
    Impl& m = *impl_;
    m.notes = m.loadNotes;
    m.notes.insert(m.notes.end(), inputs->notes().begin(), inputs->notes().end());
    const auto classes = std::int64_t(m.input.classNames.size());
    const std::int64_t k = std::clamp<std::int64_t>(topK, 1, std::max<std::int64_t>(classes, 1));
    std::vector<SamplePrediction> out;
    if (inputs->size() == 0) return out;
    out.reserve(std::size_t(inputs->size()));

    LoaderOptions options;  // evaluation's: in order, every sample, no augmentation
    options.batchSize = std::min(m.spec.training.batchSize, inputs->size());
    options.seed = m.spec.training.seed;
    options.dropLast = options.shuffle = options.augment = false;
    options.batchAllocator = &m.backend->hostAllocator();
    DatasetSpec data = m.spec.dataset;
    data.sampler = "sequential";
    data.numWorkers = std::min(data.numWorkers, 2);
    Loader loader(inputs, data, m.statistics, options);
    if (hasValueTargets(*inputs)) {  // regression: the outputs are the predicted values
        TaskMetrics unused = TaskMetrics::forDataset(*inputs, {});
        const std::int64_t perSample = inputs->targetShape().numel();
        m.evaluator->evaluate(*m.weights, loader, unused, nullptr, [&](const Batch& batch, const std::vector<float>& values) {
            for (std::int64_t i = 0; i < batch.size; ++i) {
                SamplePrediction p;
                p.source = inputs->sources()[out.size()];
                p.values.assign(values.begin() + i * perSample, values.begin() + (i + 1) * perSample);
                out.push_back(std::move(p));
            }
        });
        return out;
    }
    ClassificationMetrics unused(classes, m.spec.training.topK);  // the inputs carry no labels to score
    std::vector<float> probabilities;
    std::vector<std::int64_t> order(static_cast<std::size_t>(classes));
    m.evaluator->evaluate(*m.weights, loader, unused, nullptr, [&](const Batch& batch, const std::vector<float>& logits) {
        for (std::int64_t i = 0; i < batch.size; ++i) {
            softmaxRow(logits.data() + i * classes, classes, probabilities);
            std::iota(order.begin(), order.end(), 0);
            std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](std::int64_t a, std::int64_t b) {
                return probabilities[std::size_t(a)] > probabilities[std::size_t(b)] ||
                       (probabilities[std::size_t(a)] == probabilities[std::size_t(b)] && a < b);
            });
            SamplePrediction p;
            p.source = inputs->sources()[out.size()];
            for (std::int64_t r = 0; r < k; ++r) {
                const std::int64_t c = order[std::size_t(r)];
                p.top.push_back({c, m.input.classNames[std::size_t(c)], probabilities[std::size_t(c)]});
            }
            out.push_back(std::move(p));
        }
    });
    return out;
}

const ModelInput& Predictor::modelInput() const { return impl_->input; }
const ExperimentSpec& Predictor::experiment() const { return impl_->spec; }
const CheckpointRecord& Predictor::checkpoint() const { return impl_->chosen; }
const std::string& Predictor::weightsPath() const { return impl_->weightsPath; }
const std::vector<Message>& Predictor::notes() const { return impl_->notes; }

}  // namespace ts
