// Writes experiment files in the layout the reader takes, leaving out values equal to their
// defaults so a saved file says only what is particular to the experiment.
#include <fstream>
#include <iterator>
#include <filesystem>

#include "io/yaml/experiment_sections.h"
#include "io/yaml/experiment_yaml.h"
#include "io/yaml/experiment_text.h"
#include "io/yaml/model_yaml.h"
#include "io/yaml/sweep_reader.h"

namespace ts {

using namespace yamlio;

namespace {

// Adds key: value when value differs from the default.
template <class T, class R> void put(Out& m, const char* key, const T& value, const T& fallback, R render)
{
    if (!(value == fallback)) m.add(key, Out::scalar(render(value)));
}
void putNumber(Out& m, const char* key, double v, double d) { put(m, key, v, d, yamlNumber); }
void putInt(Out& m, const char* key, std::int64_t v, std::int64_t d) { put(m, key, v, d, yamlInt); }
void putBool(Out& m, const char* key, bool v, bool d) { put(m, key, v, d, yamlBool); }
void putString(Out& m, const char* key, const std::string& v, const std::string& d) { put(m, key, v, d, yamlString); }
void putSection(Out& parent, const char* key, Out section)
{
    if (!section.empty()) parent.add(key, std::move(section));
}

Out datasetOut(const DatasetSpec& d)
{
    const DatasetSpec def;
    Out m = Out::map(true);
    m.add("format", Out::scalar(yamlString(d.format)));  // always: it says how to read `path`
    put(m, "path", d.path, def.path, yamlText);
    putString(m, "label_column", d.labelColumn, def.labelColumn);
    if (!d.featureColumns.empty()) m.add("feature_columns", yamlList(d.featureColumns, yamlString));
    if (!d.targetColumns.empty()) m.add("target_columns", yamlList(d.targetColumns, yamlString));
    putString(m, "group_column", d.groupColumn, def.groupColumn);
    putString(m, "text_column", d.textColumn, def.textColumn);
    if (d.sequence.enabled()) {
        const SequenceSpec& q = d.sequence;
        Out seq = Out::map(true);
        putString(seq, "time", q.time, def.sequence.time);
        putInt(seq, "length", q.length, def.sequence.length);
        putInt(seq, "horizon", q.horizon, def.sequence.horizon);
        putInt(seq, "stride", q.stride, def.sequence.stride);
        seq.add("target", yamlList(q.target, yamlString));
        if (!q.features.empty()) seq.add("features", yamlList(q.features, yamlString));
        putNumber(seq, "test_fraction", q.testFraction, def.sequence.testFraction);
        m.add("sequence", std::move(seq));
    }
    if (!d.imageShape.empty()) m.add("image_shape", yamlList(d.imageShape, yamlInt));
    putString(m, "resize", d.resize, def.resize);
    putString(m, "tokenizer", d.tokenizer, def.tokenizer);
    putInt(m, "context", d.context, def.context);
    putInt(m, "vocab_size", d.vocabSize, def.vocabSize);
    if (!d.classes.empty()) m.add("classes", yamlList(d.classes, yamlString));
    putString(m, "separator", d.separator, def.separator);
    putNumber(m, "validation_fraction", d.validationFraction, def.validationFraction);
    put(m, "split_seed", d.splitSeed, def.splitSeed, [](std::uint64_t v) { return std::to_string(v); });

    Out norm = Out::map();
    if (!d.normalizeMean.empty() || !d.normalizeStd.empty()) {
        norm.add("mean", yamlList(d.normalizeMean, yamlNumber));
        norm.add("std", yamlList(d.normalizeStd, yamlNumber));
    }
    putBool(norm, "from_statistics", d.normalizeFromStatistics, def.normalizeFromStatistics);
    putSection(m, "normalize", std::move(norm));

    Out augment = Out::map();
    putNumber(augment, "random_resized_crop", d.randomResizedCrop, def.randomResizedCrop);
    putInt(augment, "random_crop_padding", d.randomCropPadding, def.randomCropPadding);
    putBool(augment, "horizontal_flip", d.horizontalFlip, def.horizontalFlip);
    putSection(m, "augment", std::move(augment));

    Out loader = Out::map();
    putString(loader, "sampler", d.sampler, def.sampler);
    if (!d.classWeights.empty()) loader.add("class_weights", yamlList(d.classWeights, yamlNumber));
    putBool(loader, "replacement", d.replacement, def.replacement);
    putInt(loader, "num_workers", d.numWorkers, def.numWorkers);
    putInt(loader, "prefetch", d.prefetchBatches, def.prefetchBatches);
    putBool(loader, "cache", d.cache, def.cache);
    putSection(m, "loader", std::move(loader));
    return m;
}

Out optimizerOut(const OptimizerSpec& o)
{
    const OptimizerSpec def;
    Out m = Out::map();
    m.add("type", Out::scalar(yamlString(o.type)));  // type and lr always: they are the experiment
    m.add("lr", Out::scalar(yamlNumber(o.lr)));
    putNumber(m, "momentum", o.momentum, def.momentum);
    putBool(m, "nesterov", o.nesterov, def.nesterov);
    putNumber(m, "weight_decay", o.weightDecay, def.weightDecay);
    putBool(m, "decay_all", o.decayAll, def.decayAll);
    putNumber(m, "beta1", o.beta1, def.beta1);
    putNumber(m, "beta2", o.beta2, def.beta2);
    putNumber(m, "eps", o.eps, def.eps);
    putNumber(m, "alpha", o.alpha, def.alpha);
    return m;
}

Out scheduleOut(const ScheduleSpec& s)
{
    const ScheduleSpec def;
    Out m = Out::map();
    putInt(m, "warmup_steps", s.warmupSteps, def.warmupSteps);
    putNumber(m, "warmup_start_factor", s.warmupStartFactor, def.warmupStartFactor);
    putInt(m, "step_size", s.stepSize, def.stepSize);
    if (!s.milestones.empty()) m.add("milestones", yamlList(s.milestones, yamlInt));
    putNumber(m, "gamma", s.gamma, def.gamma);
    putNumber(m, "min_lr", s.minLr, def.minLr);
    putInt(m, "restart_epochs", s.restartEpochs, def.restartEpochs);
    putNumber(m, "restart_multiplier", s.restartMultiplier, def.restartMultiplier);
    putNumber(m, "max_lr", s.maxLr, def.maxLr);
    putNumber(m, "pct_start", s.pctStart, def.pctStart);
    putString(m, "metric", s.metric, def.metric);
    putNumber(m, "factor", s.factor, def.factor);
    putInt(m, "patience", s.patience, def.patience);
    putNumber(m, "threshold", s.threshold, def.threshold);
    if (m.empty() && s.type == def.type) return m;  // a constant rate: no section at all
    m.fields.insert(m.fields.begin(), {"type", Out::scalar(yamlString(s.type))});
    return m;
}

Out trainingOut(const TrainingSpec& t)
{
    const TrainingSpec def;
    Out m = Out::map(true);
    m.add("epochs", Out::scalar(yamlInt(t.epochs)));  // always: every reader wants these two
    m.add("batch_size", Out::scalar(yamlInt(t.batchSize)));
    put(m, "seed", t.seed, def.seed, [](std::uint64_t v) { return std::to_string(v); });
    putString(m, "device", t.device, def.device);
    put(m, "threads", t.threads, def.threads, [](std::int64_t v) { return std::to_string(v); });
    putString(m, "precision", t.precision, def.precision);
    putNumber(m, "loss_scale", t.initialLossScale, def.initialLossScale);
    putNumber(m, "clip_grad_norm", t.clipGradNorm, def.clipGradNorm);
    putNumber(m, "clip_grad_value", t.clipGradValue, def.clipGradValue);
    putInt(m, "accumulation_steps", t.accumulationSteps, def.accumulationSteps);
    const EarlyStoppingSpec& e = t.earlyStopping;
    if (e.enabled || !(e == EarlyStoppingSpec{})) {
        Out es = Out::map();
        if (!e.enabled) es.add("enabled", Out::scalar("false"));
        es.add("metric", Out::scalar(yamlString(e.metric)));
        es.add("patience", Out::scalar(yamlInt(e.patience)));
        putNumber(es, "min_delta", e.minDelta, def.earlyStopping.minDelta);
        m.add("early_stopping", std::move(es));
    }
    Out cs = Out::map();  // only the keys that differ: `checkpoint: {keep_last: 5}`
    putInt(cs, "every_epochs", t.checkpoint.everyEpochs, def.checkpoint.everyEpochs);
    putInt(cs, "keep_last", t.checkpoint.keepLast, def.checkpoint.keepLast);
    putString(cs, "metric", t.checkpoint.metric, def.checkpoint.metric);
    putSection(m, "checkpoint", std::move(cs));
    putInt(m, "overfit_batches", t.overfitBatches, def.overfitBatches);
    putInt(m, "max_steps", t.maxSteps, def.maxSteps);
    putBool(m, "deterministic", t.deterministic, def.deterministic);
    putBool(m, "sync_batchnorm", t.syncBatchNorm, def.syncBatchNorm);
    putNumber(m, "dist_timeout_s", t.distTimeoutSeconds, def.distTimeoutSeconds);
    putBool(m, "skip_non_finite_loss", t.skipNonFiniteLoss, def.skipNonFiniteLoss);
    putInt(m, "log_every_steps", t.logEverySteps, def.logEverySteps);
    if (t.topK != def.topK) m.add("top_k", yamlList(t.topK, [](int k) { return std::to_string(k); }));
    return m;
}

}  // namespace

}  // namespace ts

namespace ts::yamlio {

Out experimentOut(const ExperimentSpec& spec)
{
    Out root = Out::map(true);
    if (!spec.name.empty()) root.add("name", Out::scalar(yamlText(spec.name)));
    if (!spec.description.empty()) root.add("description", Out::scalar(yamlText(spec.description)));
    root.add("dataset", datasetOut(spec.dataset));
    root.add("model", writeModel(spec.model, spec.dataset));
    root.add("optimizer", optimizerOut(spec.optimizer));
    putSection(root, "schedule", scheduleOut(spec.schedule));
    root.add("training", trainingOut(spec.training));
    if (spec.sweep) root.add("sweep", sweepOut(*spec.sweep));
    if (!spec.layout.empty()) root.add("layout", layoutOut(spec.layout, spec.model));
    return root;
}

}  // namespace ts::yamlio

namespace ts {

std::string experimentToYaml(const ExperimentSpec& spec) { return render(experimentOut(spec)); }

OutputPlan saveExperiment(const ExperimentSpec& spec, const std::string& path)
{
    const OutputPlan plan = checkOutputPath(path);
    // Over an existing file, only what changed is rewritten (comments and layout kept).
    std::string text;
    if (std::ifstream in(plan.target, std::ios::binary); in) {
        const std::string existing((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        text = updateExperimentText(existing, spec);
    } else {
        text = experimentToYaml(spec);
    }
    AtomicFile file(plan.target, text.size());
    file.write(text);
    file.commit();
    return plan;
}

}  // namespace ts
