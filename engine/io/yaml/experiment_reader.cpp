// Reads experiment files: each section's keys are checked (unknown ones with a suggestion),
// each value's type and range, every problem collected; then, when there was none, the
// model as a whole with checkGraph at the batch size.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "data/data_files.h"
#include "data/image_folder_dataset.h"
#include "io/yaml/experiment_options.h"
#include "io/yaml/experiment_read.h"
#include "io/yaml/experiment_sections.h"
#include "io/yaml/experiment_yaml.h"
#include "io/yaml/model_yaml.h"
#include "io/yaml/sweep_reader.h"
#include "io/yaml/yaml_load.h"

namespace ts {

using namespace yamlio;

namespace {
std::string located(const std::string& file, const ExperimentIssue& i)
{
    return i.line > 0 ? file + ":" + std::to_string(i.line) + ":" + std::to_string(i.column) + ": " + i.message
                      : file + ": " + i.message;
}

std::string describeAll(const std::string& file, const std::vector<ExperimentIssue>& issues)
{
    if (issues.size() == 1) return located(file, issues.front());
    std::string text = file;
    text.append(": ").append(std::to_string(issues.size())).append(" problems");
    for (const auto& i : issues) text.append("\n").append(located(file, i));
    return text;
}
}  // namespace

ExperimentError::ExperimentError(std::string file, int line, int column, std::string message)
    : ExperimentError(std::move(file), std::vector<ExperimentIssue>{{line, column, std::move(message)}})
{
}

ExperimentError::ExperimentError(std::string file, std::vector<ExperimentIssue> issues)
    : std::runtime_error(describeAll(file, issues)), file_(std::move(file)), issues_(std::move(issues))
{
}

namespace {

const std::vector<std::string> kFormats = {"idx", "cifar10", "csv", "image_folder", "text", "text_folder"};

// The table's entry (io/experiment_options.h) decides each option's check, so a range changed
// there changes this reader and the studio's option editor alike.
const ExperimentOption& tableOption(const std::string& key)
{
    const ExperimentOption* o = findExperimentOption(key);
    if (!o) throw std::logic_error("experiment reader: '" + key + "' is not in the option table");
    return *o;
}

template <class T> bool option(Reader& r, const MapView& m, const std::string& key, T& out)
{
    return readOption(r, m, tableOption(key), out);
}

// An option held as an int in the spec, read as a 64-bit integer.
void intOption(Reader& r, const MapView& m, const std::string& key, int& out)
{
    std::int64_t v = out;
    if (option(r, m, key, v)) out = static_cast<int>(v);
}

// dataset.sequence: a csv time series cut into forecast windows (data/time_series_dataset.h).
void readSequence(Reader& r, const Field& f, DatasetSpec& d)
{
    SequenceSpec& q = d.sequence;
    const MapView m = r.map(f.value, "sequence", {"time", "length", "horizon", "stride", "target", "features", "test_fraction"}, f.pos);
    if (d.format != "csv") r.report(f.pos, "sequence: forecast windows are cut from a csv time series (format: csv)");
    if (!d.labelColumn.empty() || !d.targetColumns.empty())
        r.report(f.pos, "sequence: a forecast's targets are sequence.target; leave label_column and target_columns out");
    r.read(m, "time", q.time);
    if (!r.read(m, "length", q.length, atLeastInt(1)) && !m.find("length"))
        r.report(f.pos, "sequence: length (the rows a window holds) is required");
    r.read(m, "horizon", q.horizon, atLeastInt(1));
    r.read(m, "stride", q.stride, atLeastInt(1));
    if (r.read(m, "target", q.target) && q.target.empty()) r.report(m.find("target")->pos, "target: name at least one column to forecast");
    if (!m.find("target")) r.report(f.pos, "sequence: target (the columns to forecast) is required");
    r.read(m, "features", q.features);
    r.read(m, "test_fraction", q.testFraction, between(0, 1, false));
}

void readDataset(Reader& r, const Field& f, DatasetSpec& d)
{
    const MapView m = r.map(f.value, "dataset",
                            {"format", "path", "label_column", "feature_columns", "target_columns", "group_column", "text_column", "sequence", "image_shape", "resize",
                             "tokenizer", "context", "vocab_size", "classes", "separator", "validation_fraction", "split_seed", "normalize",
                             "augment", "loader"},
                            f.pos);
    r.choice(m, "format", d.format, kFormats, "dataset format");
    r.read(m, "path", d.path);
    const bool labelRead = r.read(m, "label_column", d.labelColumn);
    r.read(m, "feature_columns", d.featureColumns);
    const bool targetsRead = r.read(m, "target_columns", d.targetColumns);
    if (targetsRead && d.format != "csv")
        r.report(m.find("target_columns")->pos, "target_columns: regression targets are columns of a csv dataset (format: csv)");
    if (!d.targetColumns.empty() && !d.labelColumn.empty())
        r.report(m.find("target_columns")->pos, "target_columns: a table is either classification (label_column, the classes) or "
                                                "regression (target_columns, the numbers to predict); keep one");
    r.read(m, "group_column", d.groupColumn);
    option(r, m, "dataset.text_column", d.textColumn);
    if (d.format == "csv" && !d.textColumn.empty() && !d.featureColumns.empty())
        r.report(m.find("feature_columns")->pos, "feature_columns: a csv of texts (text_column) has no feature columns: the "
                                                 "text is the input; leave feature_columns out");
    if (const Field* q = m.find("sequence")) readSequence(r, *q, d);
    if (d.format == "csv" && d.labelColumn.empty() && d.targetColumns.empty() && !d.sequence.enabled() &&
        (labelRead || !m.find("label_column")))  // else reported
        r.report(m.pos, "dataset: a csv dataset needs label_column (the column holding the class), or target_columns for "
                        "regression (the numeric columns to predict)");
    if (r.read(m, "image_shape", d.imageShape))
        if (d.imageShape.size() != 3 || d.imageShape[0] < 1 || d.imageShape[1] < 1 || d.imageShape[2] < 1)
            r.report(m.find("image_shape")->pos, "image_shape: expected [channels, height, width], each >= 1");
    option(r, m, "dataset.resize", d.resize);
    option(r, m, "dataset.tokenizer", d.tokenizer);
    option(r, m, "dataset.context", d.context);
    option(r, m, "dataset.vocab_size", d.vocabSize);
    r.read(m, "classes", d.classes);
    r.read(m, "separator", d.separator);
    if (d.format == "text_folder" && d.separator.find('\n') != std::string::npos)
        r.report(m.find("separator")->pos, "separator: the line between a file's texts, so it holds no line break");
    option(r, m, "dataset.validation_fraction", d.validationFraction);
    option(r, m, "dataset.split_seed", d.splitSeed);

    if (const Field* n = m.find("normalize")) {
        const std::size_t before = r.issueCount();
        const MapView nm = r.map(n->value, "normalize", {"mean", "std", "from_statistics"}, n->pos);
        option(r, nm, "dataset.normalize.mean", d.normalizeMean);
        r.read(nm, "std", d.normalizeStd);  // its values are checked after the counts
        option(r, nm, "dataset.normalize.from_statistics", d.normalizeFromStatistics);
        // Counts compared only when both lists were read as written (a misspelt key is no count).
        if (r.issueCount() == before && d.normalizeMean.size() != d.normalizeStd.size())
            r.report(n->pos, "normalize: mean and std need one value per channel each, got " + std::to_string(d.normalizeMean.size()) +
                                 " and " + std::to_string(d.normalizeStd.size()));
        checkOptionList(r, nm, tableOption("dataset.normalize.std"), d.normalizeStd);
    }
    if (const Field* a = m.find("augment")) {
        const MapView am = r.map(a->value, "augment", {"random_resized_crop", "random_crop_padding", "horizontal_flip"}, a->pos);
        option(r, am, "dataset.augment.random_resized_crop", d.randomResizedCrop);
        option(r, am, "dataset.augment.random_crop_padding", d.randomCropPadding);
        option(r, am, "dataset.augment.horizontal_flip", d.horizontalFlip);
    }
    if (const Field* l = m.find("loader")) {
        const MapView lm = r.map(l->value, "loader", {"sampler", "class_weights", "replacement", "num_workers", "prefetch", "cache"}, l->pos);
        option(r, lm, "dataset.loader.sampler", d.sampler);
        option(r, lm, "dataset.loader.class_weights", d.classWeights);
        option(r, lm, "dataset.loader.replacement", d.replacement);
        intOption(r, lm, "dataset.loader.num_workers", d.numWorkers);
        intOption(r, lm, "dataset.loader.prefetch", d.prefetchBatches);
        option(r, lm, "dataset.loader.cache", d.cache);
    }
}

void readOptimizer(Reader& r, const Field& f, OptimizerSpec& o)
{
    const MapView m = r.map(f.value, "optimizer", {"type", "lr", "momentum", "nesterov", "weight_decay", "decay_all", "beta1", "beta2", "eps", "alpha"}, f.pos);
    option(r, m, "optimizer.type", o.type);
    option(r, m, "optimizer.lr", o.lr);
    const bool momentumRead = option(r, m, "optimizer.momentum", o.momentum);
    const bool nesterovRead = option(r, m, "optimizer.nesterov", o.nesterov);
    option(r, m, "optimizer.weight_decay", o.weightDecay);
    option(r, m, "optimizer.decay_all", o.decayAll);
    option(r, m, "optimizer.beta1", o.beta1);
    option(r, m, "optimizer.beta2", o.beta2);
    option(r, m, "optimizer.eps", o.eps);
    option(r, m, "optimizer.alpha", o.alpha);
    // As torch.optim.SGD says, and the optimizer would say only when training starts.
    if (nesterovRead && o.nesterov && o.momentum == 0 && (momentumRead || !m.find("momentum")))
        r.report(m.find("nesterov")->pos, "nesterov: needs momentum > 0 (e.g. momentum: 0.9)");
}

void readSchedule(Reader& r, const Field& f, ScheduleSpec& s)
{
    const MapView m = r.map(f.value, "schedule",
                            {"type", "warmup_steps", "warmup_start_factor", "step_size", "milestones", "gamma", "min_lr",
                             "restart_epochs", "restart_multiplier", "max_lr", "pct_start", "metric", "factor", "patience", "threshold"},
                            f.pos);
    option(r, m, "schedule.type", s.type);
    option(r, m, "schedule.warmup_steps", s.warmupSteps);
    option(r, m, "schedule.warmup_start_factor", s.warmupStartFactor);
    option(r, m, "schedule.step_size", s.stepSize);
    option(r, m, "schedule.milestones", s.milestones);
    option(r, m, "schedule.gamma", s.gamma);
    option(r, m, "schedule.min_lr", s.minLr);
    option(r, m, "schedule.restart_epochs", s.restartEpochs);
    option(r, m, "schedule.restart_multiplier", s.restartMultiplier);
    option(r, m, "schedule.max_lr", s.maxLr);
    option(r, m, "schedule.pct_start", s.pctStart);
    option(r, m, "schedule.metric", s.metric);
    option(r, m, "schedule.factor", s.factor);
    option(r, m, "schedule.patience", s.patience);
    option(r, m, "schedule.threshold", s.threshold);
}

void readTraining(Reader& r, const Field& f, TrainingSpec& t)
{
    const MapView m = r.map(f.value, "training",
                            {"epochs", "batch_size", "seed", "device", "threads", "clip_grad_norm", "clip_grad_value", "accumulation_steps",
                             "early_stopping", "checkpoint", "overfit_batches", "max_steps", "deterministic", "skip_non_finite_loss",
                             "log_every_steps", "top_k", "precision", "loss_scale", "sync_batchnorm", "dist_timeout_s"},
                            f.pos);
    option(r, m, "training.epochs", t.epochs);
    option(r, m, "training.batch_size", t.batchSize);
    option(r, m, "training.seed", t.seed);
    option(r, m, "training.device", t.device);
    option(r, m, "training.threads", t.threads);
    option(r, m, "training.precision", t.precision);
    option(r, m, "training.loss_scale", t.initialLossScale);
    option(r, m, "training.clip_grad_norm", t.clipGradNorm);
    option(r, m, "training.clip_grad_value", t.clipGradValue);
    option(r, m, "training.accumulation_steps", t.accumulationSteps);
    option(r, m, "training.sync_batchnorm", t.syncBatchNorm);
    option(r, m, "training.dist_timeout_s", t.distTimeoutSeconds);
    if (const Field* e = m.find("early_stopping")) {
        // Present means on; `enabled: false` keeps the settings but turns it off.
        const MapView em = r.map(e->value, "early_stopping", {"enabled", "metric", "patience", "min_delta"}, e->pos);
        t.earlyStopping.enabled = true;
        option(r, em, "training.early_stopping.enabled", t.earlyStopping.enabled);
        option(r, em, "training.early_stopping.metric", t.earlyStopping.metric);
        option(r, em, "training.early_stopping.patience", t.earlyStopping.patience);
        option(r, em, "training.early_stopping.min_delta", t.earlyStopping.minDelta);
    }
    if (const Field* c = m.find("checkpoint")) {
        const MapView cm = r.map(c->value, "checkpoint", {"every_epochs", "keep_last", "metric"}, c->pos);
        option(r, cm, "training.checkpoint.every_epochs", t.checkpoint.everyEpochs);  // 0: only the final one
        option(r, cm, "training.checkpoint.keep_last", t.checkpoint.keepLast);
        option(r, cm, "training.checkpoint.metric", t.checkpoint.metric);
    }
    option(r, m, "training.overfit_batches", t.overfitBatches);
    option(r, m, "training.max_steps", t.maxSteps);
    option(r, m, "training.deterministic", t.deterministic);
    option(r, m, "training.skip_non_finite_loss", t.skipNonFiniteLoss);
    option(r, m, "training.log_every_steps", t.logEverySteps);
    std::vector<std::int64_t> topK(t.topK.begin(), t.topK.end());
    if (option(r, m, "training.top_k", topK)) t.topK.assign(topK.begin(), topK.end());
}

std::string fileStem(const std::string& path) { return std::filesystem::path(path).stem().string(); }

// Whether a key of `map` is `key` misspelt: its "unknown key" report already says what is missing.
bool misspells(const YAML::Node& map, const std::string& key)
{
    for (auto it = map.begin(); it != map.end(); ++it)
        if (it->first.IsScalar() && it->first.Scalar() != key && !didYouMean(it->first.Scalar(), {key}).empty()) return true;
    return false;
}

}  // namespace

}  // namespace ts

namespace ts::yamlio {

std::string readExperimentFile(const std::string& path)
{
    // A folder or a FIFO is named as such (an ifstream opens a folder, and waits on a FIFO).
    std::error_code ec;
    if (std::filesystem::exists(path, ec))
        if (const std::string why = whyNotAFile(path); !why.empty()) throw ExperimentError(path, 0, 0, why);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ExperimentError(path, 0, 0, "cannot open the file");
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw ExperimentError(path, 0, 0, "cannot read the file");
    return text.str();
}

YAML::Node parseExperimentYaml(const std::string& text, const std::string& sourceName)
{
    try {
        return loadBounded(text);
    } catch (const YAML::ParserException& e) {
        throw ExperimentError(sourceName, e.mark.line + 1, e.mark.column + 1, "YAML syntax: " + e.msg);
    }
}

// The dataset as the model's inputs see it: an image folder without image_shape has the shape
// its reader will choose (the most common image size, from the files' headers), so its model
// needs no inputs listed. The spec itself keeps image_shape empty (written back as it was read).
static DatasetSpec withImpliedImageShape(const ExperimentSpec& spec)
{
    DatasetSpec d = spec.dataset;
    if (d.format != "image_folder" || !d.imageShape.empty() || d.path.empty()) return d;
    try {
        const std::string root = resolvedDatasetPath(d, experimentDataDirectory(spec));
        const std::string train = joinPath(root, "train");
        const Shape shape = ImageFolderDataset(std::filesystem::is_directory(train) ? train : root, {}, "shape").sampleShape();
        d.imageShape = {shape[0], shape[1], shape[2]};
    } catch (const std::exception&) {  // no folder (yet): the model must then list its inputs
    }
    return d;
}

ExperimentSpec readExperimentSections(Reader& r, const YAML::Node& root, ModelMarks& marks)
{
    const Pos top{1, 1};
    ExperimentSpec spec;
    spec.sourceFile = r.source();
    if (!root.IsMap()) {
        r.report(top, "an experiment file is a mapping with keys such as name, dataset, model, optimizer, training");
        return spec;
    }
    // Sections are independent: each reports its own problems and the reading goes on.
    r.attempt([&] {
        const MapView m = r.map(root, "the experiment",
                                {"name", "description", "dataset", "model", "optimizer", "schedule", "training", "sweep", "layout"}, top);
        if (!r.read(m, "name", spec.name)) spec.name = fileStem(r.source());
        r.read(m, "description", spec.description);
        if (const Field* f = m.find("dataset")) readDataset(r, *f, spec.dataset);
        if (const Field* f = m.find("optimizer")) readOptimizer(r, *f, spec.optimizer);
        if (const Field* f = m.find("schedule")) readSchedule(r, *f, spec.schedule);
        if (const Field* f = m.find("training")) readTraining(r, *f, spec.training);
        if (const Field* f = m.find("sweep")) spec.sweep = readSweep(r, *f, root, spec);  // after dataset and training
        if (const Field* model = m.find("model")) spec.model = readModel(r, *model, withImpliedImageShape(spec), marks);
        else if (!misspells(root, "model")) r.report(top, "missing key 'model' (layers: or nodes: describing the network)");
        if (const Field* f = m.find("layout")) spec.layout = readLayout(r, *f);
    });
    return spec;
}

Pos graphErrorPos(const GraphError& e, const Graph& model, const ModelMarks& marks)
{
    if (auto it = marks.nodes.find(e.node()); it != marks.nodes.end()) return it->second;
    if (!e.node().empty() && e.node() == model.output && marks.output.line) return marks.output;
    if (!e.node().empty() && e.node() == model.loss && marks.loss.line) return marks.loss;
    return marks.model;
}

ExperimentSpec readExperiment(Reader& r, const YAML::Node& root)
{
    if (!root.IsMap()) r.fail(Pos{1, 1}, "an experiment file is a mapping with keys such as name, dataset, model, optimizer, training");
    ModelMarks marks;
    ExperimentSpec spec = readExperimentSections(r, root, marks);
    r.finish();
    try {
        checkGraph(spec.model, spec.training.batchSize);
    } catch (const GraphError& e) {
        if (!onlyTheBatchTooLarge(e, spec.model)) r.fail(graphErrorPos(e, spec.model, marks), e.what());
    }
    return spec;
}

}  // namespace ts::yamlio

namespace ts {

ExperimentSpec parseExperiment(const std::string& yamlText, const std::string& sourceName)
{
    yamlio::Reader reader(sourceName);
    return yamlio::readExperiment(reader, yamlio::parseExperimentYaml(yamlText, sourceName));
}

ExperimentSpec loadExperiment(const std::string& path) { return parseExperiment(yamlio::readExperimentFile(path), path); }

}  // namespace ts
