// Reads experiment files: each section's keys are checked (unknown ones with a suggestion),
// each value's type and range, then the model as a whole with checkGraph at the batch size.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "backend/math_precision.h"
#include "io/experiment_yaml.h"
#include "io/model_yaml.h"

namespace ts {

using namespace yamlio;

ExperimentError::ExperimentError(std::string file, int line, int column, std::string message)
    : std::runtime_error(line > 0 ? file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + message
                                  : file + ": " + message),
      file_(std::move(file)), line_(line), column_(column), message_(std::move(message))
{
}

namespace {

const std::vector<std::string> kFormats = {"idx", "cifar10", "csv", "image_folder"};
const std::vector<std::string> kSamplers = {"sequential", "random", "weighted", "class_balanced"};
const std::vector<std::string> kOptimizers = {"sgd", "adam", "adamw", "rmsprop"};
const std::vector<std::string> kSchedules = {"constant", "step", "multistep", "exponential", "cosine", "cosine_restarts", "onecycle", "plateau", "range_test"};

void readDataset(const Reader& r, const Field& f, DatasetSpec& d)
{
    const MapView m = r.map(f.value, "dataset",
                            {"format", "path", "label_column", "feature_columns", "group_column", "image_shape",
                             "validation_fraction", "split_seed", "normalize", "augment", "loader"},
                            f.pos);
    r.choice(m, "format", d.format, kFormats, "dataset format");
    r.read(m, "path", d.path);
    r.read(m, "label_column", d.labelColumn);
    r.read(m, "feature_columns", d.featureColumns);
    r.read(m, "group_column", d.groupColumn);
    if (d.format == "csv" && d.labelColumn.empty()) r.fail(m.pos, "dataset: a csv dataset needs label_column (the column holding the class)");
    if (r.read(m, "image_shape", d.imageShape))
        if (d.imageShape.size() != 3 || d.imageShape[0] < 1 || d.imageShape[1] < 1 || d.imageShape[2] < 1)
            r.fail(m.find("image_shape")->pos, "image_shape: expected [channels, height, width], each >= 1");
    r.read<double>(m, "validation_fraction", d.validationFraction, between(0, 1, false));
    r.read(m, "split_seed", d.splitSeed);

    if (const Field* n = m.find("normalize")) {
        const MapView nm = r.map(n->value, "normalize", {"mean", "std", "from_statistics"}, n->pos);
        r.read(nm, "mean", d.normalizeMean);
        r.read(nm, "std", d.normalizeStd);
        r.read(nm, "from_statistics", d.normalizeFromStatistics);
        if (d.normalizeMean.size() != d.normalizeStd.size())
            r.fail(n->pos, "normalize: mean and std need one value per channel each, got " + std::to_string(d.normalizeMean.size()) +
                               " and " + std::to_string(d.normalizeStd.size()));
        for (double s : d.normalizeStd)
            if (!(s > 0)) r.fail(nm.find("std")->pos, "std: every value must be > 0");
    }
    if (const Field* a = m.find("augment")) {
        const MapView am = r.map(a->value, "augment", {"random_crop_padding", "horizontal_flip"}, a->pos);
        r.read<std::int64_t>(am, "random_crop_padding", d.randomCropPadding, atLeastInt(0));
        r.read(am, "horizontal_flip", d.horizontalFlip);
    }
    if (const Field* l = m.find("loader")) {
        const MapView lm = r.map(l->value, "loader", {"sampler", "class_weights", "replacement", "num_workers", "prefetch", "cache"}, l->pos);
        r.choice(lm, "sampler", d.sampler, kSamplers, "sampler");
        if (r.read(lm, "class_weights", d.classWeights))
            for (double w : d.classWeights)
                if (!(w >= 0)) r.fail(lm.find("class_weights")->pos, "class_weights: every weight must be >= 0");
        r.read(lm, "replacement", d.replacement);
        std::int64_t v = 0;
        if (r.read<std::int64_t>(lm, "num_workers", v, atLeastInt(0))) d.numWorkers = static_cast<int>(v);
        if (r.read<std::int64_t>(lm, "prefetch", v, atLeastInt(1))) d.prefetchBatches = static_cast<int>(v);
        r.read(lm, "cache", d.cache);
    }
}

void readOptimizer(const Reader& r, const Field& f, OptimizerSpec& o)
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

void readSchedule(const Reader& r, const Field& f, ScheduleSpec& s)
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
            if (s.milestones[i] < 1 || (i > 0 && s.milestones[i] <= s.milestones[i - 1]))
                r.fail(m.find("milestones")->pos, "milestones: expected increasing epochs >= 1");
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

void readTraining(const Reader& r, const Field& f, TrainingSpec& t)
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
        for (std::int64_t k : topK) {
            if (k < 1) r.fail(m.find("top_k")->pos, "top_k: every k must be >= 1");
            t.topK.push_back(static_cast<int>(k));
        }
    }
}

std::string fileStem(const std::string& path) { return std::filesystem::path(path).stem().string(); }

}  // namespace

ExperimentSpec parseExperiment(const std::string& yamlText, const std::string& sourceName)
{
    const Reader r(sourceName);
    YAML::Node root;
    try {
        root = YAML::Load(yamlText);
    } catch (const YAML::ParserException& e) {
        throw ExperimentError(sourceName, e.mark.line + 1, e.mark.column + 1, "YAML syntax: " + e.msg);
    }
    const Pos top{1, 1};
    if (!root.IsMap()) r.fail(top, "an experiment file is a mapping with keys such as name, dataset, model, optimizer, training");
    const MapView m = r.map(root, "the experiment", {"name", "description", "dataset", "model", "optimizer", "schedule", "training"}, top);

    ExperimentSpec spec;
    spec.sourceFile = sourceName;
    if (!r.read(m, "name", spec.name)) spec.name = fileStem(sourceName);
    r.read(m, "description", spec.description);
    if (const Field* f = m.find("dataset")) readDataset(r, *f, spec.dataset);
    if (const Field* f = m.find("optimizer")) readOptimizer(r, *f, spec.optimizer);
    if (const Field* f = m.find("schedule")) readSchedule(r, *f, spec.schedule);
    if (const Field* f = m.find("training")) readTraining(r, *f, spec.training);

    const Field* model = m.find("model");
    if (!model) r.fail(top, "missing key 'model' (layers: or nodes: describing the network)");
    ModelMarks marks;
    spec.model = readModel(r, *model, spec.dataset, marks);
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

ExperimentSpec loadExperiment(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ExperimentError(path, 0, 0, "cannot open the file");
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw ExperimentError(path, 0, 0, "cannot read the file");
    return parseExperiment(text.str(), path);
}

}  // namespace ts
