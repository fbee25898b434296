// Reads experiment files: each section's keys are checked (unknown ones with a suggestion),
// each value's type and range, every problem collected; then, when there was none, the
// model as a whole with checkGraph at the batch size.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "backend/math_precision.h"
#include "io/experiment_read.h"
#include "io/experiment_yaml.h"
#include "io/model_yaml.h"

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

const std::vector<std::string> kFormats = {"idx", "cifar10", "csv", "image_folder"};
const std::vector<std::string> kSamplers = {"sequential", "random", "weighted", "class_balanced"};
const std::vector<std::string> kOptimizers = {"sgd", "adam", "adamw", "rmsprop"};
const std::vector<std::string> kSchedules = {"constant", "step", "multistep", "exponential", "cosine", "cosine_restarts", "onecycle", "plateau", "range_test"};

void readDataset(Reader& r, const Field& f, DatasetSpec& d)
{
    const MapView m = r.map(f.value, "dataset",
                            {"format", "path", "label_column", "feature_columns", "group_column", "image_shape",
                             "validation_fraction", "split_seed", "normalize", "augment", "loader"},
                            f.pos);
    r.choice(m, "format", d.format, kFormats, "dataset format");
    r.read(m, "path", d.path);
    const bool labelRead = r.read(m, "label_column", d.labelColumn);
    r.read(m, "feature_columns", d.featureColumns);
    r.read(m, "group_column", d.groupColumn);
    if (d.format == "csv" && d.labelColumn.empty() && (labelRead || !m.find("label_column")))  // else reported
        r.report(m.pos, "dataset: a csv dataset needs label_column (the column holding the class)");
    if (r.read(m, "image_shape", d.imageShape))
        if (d.imageShape.size() != 3 || d.imageShape[0] < 1 || d.imageShape[1] < 1 || d.imageShape[2] < 1)
            r.report(m.find("image_shape")->pos, "image_shape: expected [channels, height, width], each >= 1");
    r.read<double>(m, "validation_fraction", d.validationFraction, between(0, 1, false));
    r.read(m, "split_seed", d.splitSeed);

    if (const Field* n = m.find("normalize")) {
        const std::size_t before = r.issueCount();
        const MapView nm = r.map(n->value, "normalize", {"mean", "std", "from_statistics"}, n->pos);
        r.read(nm, "mean", d.normalizeMean);
        const bool hasStd = r.read(nm, "std", d.normalizeStd);
        r.read(nm, "from_statistics", d.normalizeFromStatistics);
        // Counts compared only when both lists were read as written (a misspelt key is no count).
        if (r.issueCount() == before && d.normalizeMean.size() != d.normalizeStd.size())
            r.report(n->pos, "normalize: mean and std need one value per channel each, got " + std::to_string(d.normalizeMean.size()) +
                                 " and " + std::to_string(d.normalizeStd.size()));
        if (hasStd && std::any_of(d.normalizeStd.begin(), d.normalizeStd.end(), [](double s) { return !(s > 0); }))
            r.report(nm.find("std")->pos, "std: every value must be > 0");
    }
    if (const Field* a = m.find("augment")) {
        const MapView am = r.map(a->value, "augment", {"random_crop_padding", "horizontal_flip"}, a->pos);
        r.read<std::int64_t>(am, "random_crop_padding", d.randomCropPadding, atLeastInt(0));
        r.read(am, "horizontal_flip", d.horizontalFlip);
    }
    if (const Field* l = m.find("loader")) {
        const MapView lm = r.map(l->value, "loader", {"sampler", "class_weights", "replacement", "num_workers", "prefetch", "cache"}, l->pos);
        r.choice(lm, "sampler", d.sampler, kSamplers, "sampler");
        if (r.read(lm, "class_weights", d.classWeights) &&
            std::any_of(d.classWeights.begin(), d.classWeights.end(), [](double w) { return !(w >= 0); }))
            r.report(lm.find("class_weights")->pos, "class_weights: every weight must be >= 0");
        r.read(lm, "replacement", d.replacement);
        std::int64_t v = 0;
        if (r.read<std::int64_t>(lm, "num_workers", v, atLeastInt(0))) d.numWorkers = static_cast<int>(v);
        if (r.read<std::int64_t>(lm, "prefetch", v, atLeastInt(1))) d.prefetchBatches = static_cast<int>(v);
        r.read(lm, "cache", d.cache);
    }
}

void readOptimizer(Reader& r, const Field& f, OptimizerSpec& o)
{
    const MapView m = r.map(f.value, "optimizer", {"type", "lr", "momentum", "nesterov", "weight_decay", "beta1", "beta2", "eps", "alpha"}, f.pos);
    r.choice(m, "type", o.type, kOptimizers, "optimizer");
    r.read<double>(m, "lr", o.lr, greaterThan(0));
    r.read<double>(m, "momentum", o.momentum, between(0, 1, false));
    r.read(m, "nesterov", o.nesterov);
    r.read<double>(m, "weight_decay", o.weightDecay, notNegative());
    r.read<double>(m, "beta1", o.beta1, between(0, 1, false));
    r.read<double>(m, "beta2", o.beta2, between(0, 1, false));
    r.read<double>(m, "eps", o.eps, greaterThan(0));
    r.read<double>(m, "alpha", o.alpha, between(0, 1, false));
}

void readSchedule(Reader& r, const Field& f, ScheduleSpec& s)
{
    const MapView m = r.map(f.value, "schedule",
                            {"type", "warmup_steps", "warmup_start_factor", "step_size", "milestones", "gamma", "min_lr",
                             "restart_epochs", "restart_multiplier", "max_lr", "pct_start", "metric", "factor", "patience", "threshold"},
                            f.pos);
    r.choice(m, "type", s.type, kSchedules, "schedule");
    r.read<std::int64_t>(m, "warmup_steps", s.warmupSteps, atLeastInt(0));
    r.read<double>(m, "warmup_start_factor", s.warmupStartFactor, between(0, 1, true));
    r.read<std::int64_t>(m, "step_size", s.stepSize, atLeastInt(1));
    if (r.read(m, "milestones", s.milestones))
        for (std::size_t i = 0; i < s.milestones.size(); ++i)
            if (s.milestones[i] < 1 || (i > 0 && s.milestones[i] <= s.milestones[i - 1])) {
                r.report(m.find("milestones")->pos, "milestones: expected increasing epochs >= 1");
                break;
            }
    r.read<double>(m, "gamma", s.gamma, greaterThan(0));
    r.read<double>(m, "min_lr", s.minLr, notNegative());
    r.read<std::int64_t>(m, "restart_epochs", s.restartEpochs, atLeastInt(1));
    r.read<double>(m, "restart_multiplier", s.restartMultiplier, [](const double& v) { return v >= 1 ? "" : std::string("must be >= 1"); });
    r.read<double>(m, "max_lr", s.maxLr, notNegative());
    r.read<double>(m, "pct_start", s.pctStart, [](const double& v) { return v > 0 && v < 1 ? "" : std::string("must be in (0, 1)"); });
    r.read(m, "metric", s.metric);
    r.read<double>(m, "factor", s.factor, [](const double& v) { return v > 0 && v < 1 ? "" : std::string("must be in (0, 1)"); });
    r.read<std::int64_t>(m, "patience", s.patience, atLeastInt(0));
    r.read<double>(m, "threshold", s.threshold, notNegative());
}

std::string checkDevice(const std::string& d)
{
    if (d == "auto" || d == "cpu" || d == "cuda") return {};
    if (d.rfind("cuda:", 0) == 0 && parseInteger(d.substr(5)).value_or(-1) >= 0) return {};
    return "expected auto, cpu, cuda or cuda:N";
}

void readTraining(Reader& r, const Field& f, TrainingSpec& t)
{
    const MapView m = r.map(f.value, "training",
                            {"epochs", "batch_size", "seed", "device", "clip_grad_norm", "clip_grad_value", "accumulation_steps",
                             "early_stopping", "checkpoint", "overfit_batches", "deterministic", "skip_non_finite_loss",
                             "log_every_steps", "top_k", "precision", "loss_scale"},
                            f.pos);
    r.read<std::int64_t>(m, "epochs", t.epochs, atLeastInt(1));
    r.read<std::int64_t>(m, "batch_size", t.batchSize, atLeastInt(1));
    r.read(m, "seed", t.seed);
    r.read<std::string>(m, "device", t.device, checkDevice);
    r.read<std::string>(m, "precision", t.precision, [](const std::string& v) {
        return parseMathPrecision(v) ? std::string() : std::string("expected f32, tf32, bf16 or f16");
    });
    r.read<double>(m, "loss_scale", t.initialLossScale, [](double v) {
        return v >= 1 && std::isfinite(v) ? std::string() : std::string("must be a finite number of at least 1");
    });
    r.read<double>(m, "clip_grad_norm", t.clipGradNorm, notNegative());
    r.read<double>(m, "clip_grad_value", t.clipGradValue, notNegative());
    r.read<std::int64_t>(m, "accumulation_steps", t.accumulationSteps, atLeastInt(1));
    if (const Field* e = m.find("early_stopping")) {
        // Present means on; `enabled: false` keeps the settings but turns it off.
        const MapView em = r.map(e->value, "early_stopping", {"enabled", "metric", "patience", "min_delta"}, e->pos);
        t.earlyStopping.enabled = true;
        r.read(em, "enabled", t.earlyStopping.enabled);
        r.read(em, "metric", t.earlyStopping.metric);
        r.read<std::int64_t>(em, "patience", t.earlyStopping.patience, atLeastInt(1));
        r.read<double>(em, "min_delta", t.earlyStopping.minDelta, notNegative());
    }
    if (const Field* c = m.find("checkpoint")) {
        const MapView cm = r.map(c->value, "checkpoint", {"every_epochs", "keep_last", "metric"}, c->pos);
        r.read<std::int64_t>(cm, "every_epochs", t.checkpoint.everyEpochs, atLeastInt(0));  // 0: only the final one
        r.read<std::int64_t>(cm, "keep_last", t.checkpoint.keepLast, atLeastInt(1));
        r.read<std::string>(cm, "metric", t.checkpoint.metric,
                            [](const std::string& v) { return v.empty() ? std::string("must name a metric") : std::string(); });
    }
    r.read<std::int64_t>(m, "overfit_batches", t.overfitBatches, atLeastInt(0));
    r.read(m, "deterministic", t.deterministic);
    r.read(m, "skip_non_finite_loss", t.skipNonFiniteLoss);
    r.read<std::int64_t>(m, "log_every_steps", t.logEverySteps, atLeastInt(1));
    std::vector<std::int64_t> topK;
    if (r.read(m, "top_k", topK)) {
        t.topK.clear();
        for (std::int64_t k : topK) t.topK.push_back(static_cast<int>(k));
        if (std::any_of(topK.begin(), topK.end(), [](std::int64_t k) { return k < 1; }))
            r.report(m.find("top_k")->pos, "top_k: every k must be >= 1");
    }
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
        return YAML::Load(text);
    } catch (const YAML::ParserException& e) {
        throw ExperimentError(sourceName, e.mark.line + 1, e.mark.column + 1, "YAML syntax: " + e.msg);
    }
}

ExperimentSpec readExperiment(Reader& r, const YAML::Node& root)
{
    const Pos top{1, 1};
    if (!root.IsMap()) r.fail(top, "an experiment file is a mapping with keys such as name, dataset, model, optimizer, training");

    ExperimentSpec spec;
    spec.sourceFile = r.source();
    ModelMarks marks;
    // Sections are independent: each reports its own problems and the reading goes on.
    r.attempt([&] {
        const MapView m = r.map(root, "the experiment", {"name", "description", "dataset", "model", "optimizer", "schedule", "training"}, top);
        if (!r.read(m, "name", spec.name)) spec.name = fileStem(r.source());
        r.read(m, "description", spec.description);
        if (const Field* f = m.find("dataset")) readDataset(r, *f, spec.dataset);
        if (const Field* f = m.find("optimizer")) readOptimizer(r, *f, spec.optimizer);
        if (const Field* f = m.find("schedule")) readSchedule(r, *f, spec.schedule);
        if (const Field* f = m.find("training")) readTraining(r, *f, spec.training);
        if (const Field* model = m.find("model")) spec.model = readModel(r, *model, spec.dataset, marks);
        else if (!misspells(root, "model")) r.report(top, "missing key 'model' (layers: or nodes: describing the network)");
    });
    r.finish();

    try {
        checkGraph(spec.model, spec.training.batchSize);
    } catch (const GraphError& e) {
        // The node at fault, else the model/output/loss key the error is about.
        Pos at = marks.model;
        if (auto it = marks.nodes.find(e.node()); it != marks.nodes.end()) at = it->second;
        else if (!e.node().empty() && e.node() == spec.model.output && marks.output.line) at = marks.output;
        else if (!e.node().empty() && e.node() == spec.model.loss && marks.loss.line) at = marks.loss;
        r.fail(at, e.what());
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
