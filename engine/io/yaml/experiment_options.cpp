// The table of the experiment's options and the checks made from it (io/experiment_options.h).
// The reader takes each of these keys' checks from here (yamlio::readOption), so what a file may
// say and what the option editor accepts are one description.
#include "io/yaml/experiment_options.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "io/yaml/experiment_yaml.h"
#include "io/yaml/yaml_read.h"
#include "io/yaml/yaml_write.h"
#include "tensor/quote_text.h"

namespace ts {

namespace {

using G = OptionGroup;
using K = OptionKind;

std::string num(double x)  // as the reader's messages write bounds: "0", "1", "0.5"
{
    std::ostringstream s;
    s << x;
    return s.str();
}

OptionRange above(double lo) { return {lo, {}, true, false, false}; }
OptionRange atLeast(double lo) { return {lo, {}, false, false, false}; }
OptionRange within(double lo, double hi, bool loOpen, bool hiOpen) { return {lo, hi, loOpen, hiOpen, false}; }
OptionRange finite(OptionRange r)
{
    r.finite = true;
    return r;
}

bool oneOf(const std::string& v, std::initializer_list<std::string_view> set)
{
    return std::find(set.begin(), set.end(), v) != set.end();
}

std::vector<std::int64_t> wide(const std::vector<int>& v) { return {v.begin(), v.end()}; }

std::string checkDevice(const std::string& d)
{
    if (d == "auto" || d == "cpu" || d == "cuda") return {};
    if (d.rfind("cuda:", 0) == 0 && yamlio::parseInteger(d.substr(5)).value_or(-1) >= 0) return {};
    return "expected auto, cpu, cuda or cuda:N";
}

std::string namesAMetric(const std::string& v) { return v.empty() ? "must name a metric" : ""; }

const std::vector<std::string> kMetrics = {"val_loss", "val_acc", "train_loss", "train_acc", "test_loss", "test_acc"};

// Getters: captureless, so each row stays one plain value.
#define OPTION_VALUE(expr) [](const ExperimentSpec& s) -> OptionValue { return expr; }

std::vector<ExperimentOption> makeTable()
{
    const auto sgdOrRmsprop = [](const ExperimentSpec& s) { return oneOf(s.optimizer.type, {"sgd", "rmsprop"}); };
    const auto sgd = [](const ExperimentSpec& s) { return s.optimizer.type == "sgd"; };
    const auto adamFamily = [](const ExperimentSpec& s) { return oneOf(s.optimizer.type, {"adam", "adamw"}); };
    const auto usesEps = [](const ExperimentSpec& s) { return oneOf(s.optimizer.type, {"adam", "adamw", "rmsprop"}); };
    const auto rmsprop = [](const ExperimentSpec& s) { return s.optimizer.type == "rmsprop"; };
    const auto warmup = [](const ExperimentSpec& s) { return s.schedule.warmupSteps > 0; };
    const auto weightDecay = [](const ExperimentSpec& s) { return s.optimizer.weightDecay > 0; };
    const auto step = [](const ExperimentSpec& s) { return s.schedule.type == "step"; };
    const auto multistep = [](const ExperimentSpec& s) { return s.schedule.type == "multistep"; };
    const auto decays = [](const ExperimentSpec& s) { return oneOf(s.schedule.type, {"step", "multistep", "exponential"}); };
    const auto hasFloor = [](const ExperimentSpec& s) { return oneOf(s.schedule.type, {"cosine", "cosine_restarts", "plateau"}); };
    const auto restarts = [](const ExperimentSpec& s) { return s.schedule.type == "cosine_restarts"; };
    const auto peak = [](const ExperimentSpec& s) { return oneOf(s.schedule.type, {"onecycle", "range_test"}); };
    const auto onecycle = [](const ExperimentSpec& s) { return s.schedule.type == "onecycle"; };
    const auto plateau = [](const ExperimentSpec& s) { return s.schedule.type == "plateau"; };
    const auto f16 = [](const ExperimentSpec& s) { return s.training.precision == "f16"; };
    const auto stopsEarly = [](const ExperimentSpec& s) { return s.training.earlyStopping.enabled; };
    const auto givenStatistics = [](const ExperimentSpec& s) { return !s.dataset.normalizeFromStatistics; };
    const auto weighted = [](const ExperimentSpec& s) { return s.dataset.sampler == "weighted"; };
    const auto imageFolder = [](const ExperimentSpec& s) { return s.dataset.format == "image_folder"; };
    const auto text = [](const ExperimentSpec& s) {
        return oneOf(s.dataset.format, {"text", "text_folder"}) || (s.dataset.format == "csv" && !s.dataset.textColumn.empty());
    };
    const auto csv = [](const ExperimentSpec& s) { return s.dataset.format == "csv"; };
    const auto learnedTokenizer = [](const ExperimentSpec& s) {
        return s.dataset.format == "text" && oneOf(s.dataset.tokenizer, {"bpe", "unigram"});
    };

    return {
        // Optimizer
        {.key = "optimizer.type", .group = G::Optimizer, .kind = K::Choice, .choices = {"sgd", "adam", "adamw", "rmsprop"},
         .noun = "optimizer", .value = OPTION_VALUE(s.optimizer.type)},
        {.key = "optimizer.lr", .kind = K::Number, .range = finite(above(0)), .value = OPTION_VALUE(s.optimizer.lr)},
        {.key = "optimizer.momentum", .range = within(0, 1, false, true), .applies = sgdOrRmsprop, .value = OPTION_VALUE(s.optimizer.momentum)},
        {.key = "optimizer.nesterov", .kind = K::Boolean, .applies = sgd, .value = OPTION_VALUE(s.optimizer.nesterov)},
        {.key = "optimizer.beta1", .range = within(0, 1, false, true), .applies = adamFamily, .value = OPTION_VALUE(s.optimizer.beta1)},
        {.key = "optimizer.beta2", .range = within(0, 1, false, true), .applies = adamFamily, .value = OPTION_VALUE(s.optimizer.beta2)},
        {.key = "optimizer.eps", .range = above(0), .applies = usesEps, .value = OPTION_VALUE(s.optimizer.eps)},
        {.key = "optimizer.alpha", .range = within(0, 1, false, true), .applies = rmsprop, .value = OPTION_VALUE(s.optimizer.alpha)},

        // Schedule and warm-up
        {.key = "schedule.type", .group = G::Schedule, .kind = K::Choice,
         .choices = {"constant", "step", "multistep", "exponential", "cosine", "cosine_restarts", "onecycle", "plateau", "range_test"},
         .notOffered = {"range_test"}, .noun = "schedule", .value = OPTION_VALUE(s.schedule.type)},
        {.key = "schedule.warmup_steps", .group = G::Schedule, .kind = K::Integer, .range = atLeast(0), .value = OPTION_VALUE(s.schedule.warmupSteps)},
        {.key = "schedule.warmup_start_factor", .group = G::Schedule, .range = within(0, 1, false, false), .applies = warmup,
         .value = OPTION_VALUE(s.schedule.warmupStartFactor)},
        {.key = "schedule.step_size", .group = G::Schedule, .kind = K::Integer, .range = atLeast(1), .applies = step,
         .value = OPTION_VALUE(s.schedule.stepSize)},
        {.key = "schedule.milestones", .group = G::Schedule, .kind = K::IntegerList, .range = atLeast(1), .element = "epoch",
         .increasing = true, .applies = multistep, .value = OPTION_VALUE(s.schedule.milestones)},
        {.key = "schedule.gamma", .group = G::Schedule, .range = above(0), .applies = decays, .value = OPTION_VALUE(s.schedule.gamma)},
        {.key = "schedule.min_lr", .group = G::Schedule, .range = atLeast(0), .applies = hasFloor, .value = OPTION_VALUE(s.schedule.minLr)},
        {.key = "schedule.restart_epochs", .group = G::Schedule, .kind = K::Integer, .range = atLeast(1), .applies = restarts,
         .value = OPTION_VALUE(s.schedule.restartEpochs)},
        {.key = "schedule.restart_multiplier", .group = G::Schedule, .range = atLeast(1), .applies = restarts,
         .value = OPTION_VALUE(s.schedule.restartMultiplier)},
        {.key = "schedule.max_lr", .group = G::Schedule, .range = atLeast(0), .applies = peak, .value = OPTION_VALUE(s.schedule.maxLr)},
        {.key = "schedule.pct_start", .group = G::Schedule, .range = within(0, 1, true, true), .applies = onecycle,
         .value = OPTION_VALUE(s.schedule.pctStart)},
        {.key = "schedule.metric", .group = G::Schedule, .kind = K::Text, .choices = kMetrics, .applies = plateau,
         .value = OPTION_VALUE(s.schedule.metric)},
        {.key = "schedule.factor", .group = G::Schedule, .range = within(0, 1, true, true), .applies = plateau,
         .value = OPTION_VALUE(s.schedule.factor)},
        {.key = "schedule.patience", .group = G::Schedule, .kind = K::Integer, .range = atLeast(0), .applies = plateau,
         .value = OPTION_VALUE(s.schedule.patience)},
        {.key = "schedule.threshold", .group = G::Schedule, .range = atLeast(0), .applies = plateau, .value = OPTION_VALUE(s.schedule.threshold)},

        // Regularisation
        {.key = "optimizer.weight_decay", .group = G::Regularisation, .range = atLeast(0), .value = OPTION_VALUE(s.optimizer.weightDecay)},
        {.key = "optimizer.decay_all", .group = G::Regularisation, .kind = K::Boolean, .applies = weightDecay,
         .value = OPTION_VALUE(s.optimizer.decayAll)},
        {.key = "training.clip_grad_norm", .group = G::Regularisation, .range = atLeast(0), .value = OPTION_VALUE(s.training.clipGradNorm)},
        {.key = "training.clip_grad_value", .group = G::Regularisation, .range = atLeast(0), .value = OPTION_VALUE(s.training.clipGradValue)},
        {.key = "dataset.augment.random_resized_crop", .group = G::Regularisation, .range = within(0, 1, false, false),
         .value = OPTION_VALUE(s.dataset.randomResizedCrop)},
        {.key = "dataset.augment.random_crop_padding", .group = G::Regularisation, .kind = K::Integer, .range = atLeast(0),
         .value = OPTION_VALUE(s.dataset.randomCropPadding)},
        {.key = "dataset.augment.horizontal_flip", .group = G::Regularisation, .kind = K::Boolean, .value = OPTION_VALUE(s.dataset.horizontalFlip)},

        // Batch and accumulation
        {.key = "training.epochs", .group = G::Batch, .kind = K::Integer, .range = atLeast(1), .value = OPTION_VALUE(s.training.epochs)},
        {.key = "training.batch_size", .group = G::Batch, .kind = K::Integer, .range = atLeast(1), .value = OPTION_VALUE(s.training.batchSize)},
        {.key = "training.accumulation_steps", .group = G::Batch, .kind = K::Integer, .range = atLeast(1),
         .value = OPTION_VALUE(s.training.accumulationSteps)},
        {.key = "training.sync_batchnorm", .group = G::Batch, .kind = K::Boolean, .value = OPTION_VALUE(s.training.syncBatchNorm)},
        {.key = "training.dist_timeout_s", .group = G::Batch, .range = finite(atLeast(0)), .value = OPTION_VALUE(s.training.distTimeoutSeconds)},
        {.key = "training.overfit_batches", .group = G::Batch, .kind = K::Integer, .range = atLeast(0),
         .value = OPTION_VALUE(s.training.overfitBatches)},
        {.key = "training.max_steps", .group = G::Batch, .kind = K::Integer, .range = atLeast(0),
         .value = OPTION_VALUE(s.training.maxSteps)},

        // Precision and memory
        {.key = "training.device", .group = G::Precision, .kind = K::Text, .choices = {"auto", "cpu", "cuda"}, .rule = checkDevice,
         .value = OPTION_VALUE(s.training.device)},
        {.key = "training.threads", .group = G::Precision, .kind = K::Integer, .range = atLeast(0),
         .value = OPTION_VALUE(s.training.threads)},
        {.key = "training.precision", .group = G::Precision, .kind = K::Choice, .choices = {"f32", "tf32", "bf16", "f16"},
         .value = OPTION_VALUE(s.training.precision)},
        {.key = "training.loss_scale", .group = G::Precision, .range = finite(atLeast(1)), .applies = f16,
         .value = OPTION_VALUE(s.training.initialLossScale)},

        // Checkpoints and early stopping
        {.key = "training.checkpoint.every_epochs", .group = G::Checkpoints, .kind = K::Integer, .range = atLeast(0),
         .value = OPTION_VALUE(s.training.checkpoint.everyEpochs)},
        {.key = "training.checkpoint.keep_last", .group = G::Checkpoints, .kind = K::Integer, .range = atLeast(1),
         .value = OPTION_VALUE(s.training.checkpoint.keepLast)},
        {.key = "training.checkpoint.metric", .group = G::Checkpoints, .kind = K::Text, .choices = kMetrics, .rule = namesAMetric,
         .value = OPTION_VALUE(s.training.checkpoint.metric)},
        {.key = "training.early_stopping.enabled", .group = G::Checkpoints, .kind = K::Boolean,
         .value = OPTION_VALUE(s.training.earlyStopping.enabled)},
        {.key = "training.early_stopping.metric", .group = G::Checkpoints, .kind = K::Text, .choices = kMetrics, .applies = stopsEarly,
         .value = OPTION_VALUE(s.training.earlyStopping.metric)},
        {.key = "training.early_stopping.patience", .group = G::Checkpoints, .kind = K::Integer, .range = atLeast(1), .applies = stopsEarly,
         .value = OPTION_VALUE(s.training.earlyStopping.patience)},
        {.key = "training.early_stopping.min_delta", .group = G::Checkpoints, .range = atLeast(0), .applies = stopsEarly,
         .value = OPTION_VALUE(s.training.earlyStopping.minDelta)},

        // Data loading
        {.key = "dataset.validation_fraction", .group = G::DataLoading, .range = within(0, 1, false, true),
         .value = OPTION_VALUE(s.dataset.validationFraction)},
        {.key = "dataset.split_seed", .group = G::DataLoading, .kind = K::Integer, .unsignedInteger = true,
         .value = OPTION_VALUE(s.dataset.splitSeed)},
        {.key = "dataset.resize", .group = G::DataLoading, .kind = K::Choice, .choices = {"crop", "pad", "stretch"},
         .noun = "resize mode", .applies = imageFolder, .value = OPTION_VALUE(s.dataset.resize)},
        {.key = "dataset.text_column", .group = G::DataLoading, .kind = K::Text, .applies = csv,
         .value = OPTION_VALUE(s.dataset.textColumn)},
        {.key = "dataset.tokenizer", .group = G::DataLoading, .kind = K::Choice, .choices = {"characters", "bytes", "bpe", "unigram"},
         .noun = "tokenizer", .applies = text, .value = OPTION_VALUE(s.dataset.tokenizer)},
        {.key = "dataset.context", .group = G::DataLoading, .kind = K::Integer, .range = atLeast(1), .applies = text,
         .value = OPTION_VALUE(s.dataset.context)},
        {.key = "dataset.vocab_size", .group = G::DataLoading, .kind = K::Integer, .range = atLeast(0), .applies = learnedTokenizer,
         .value = OPTION_VALUE(s.dataset.vocabSize)},
        {.key = "dataset.normalize.from_statistics", .group = G::DataLoading, .kind = K::Boolean,
         .value = OPTION_VALUE(s.dataset.normalizeFromStatistics)},
        {.key = "dataset.normalize.mean", .group = G::DataLoading, .kind = K::NumberList, .applies = givenStatistics,
         .value = OPTION_VALUE(s.dataset.normalizeMean)},
        {.key = "dataset.normalize.std", .group = G::DataLoading, .kind = K::NumberList, .range = above(0), .applies = givenStatistics,
         .value = OPTION_VALUE(s.dataset.normalizeStd)},
        {.key = "dataset.loader.sampler", .group = G::DataLoading, .kind = K::Choice,
         .choices = {"sequential", "random", "weighted", "class_balanced"}, .noun = "sampler", .value = OPTION_VALUE(s.dataset.sampler)},
        {.key = "dataset.loader.class_weights", .group = G::DataLoading, .kind = K::NumberList, .range = atLeast(0), .element = "weight",
         .applies = weighted, .value = OPTION_VALUE(s.dataset.classWeights)},
        {.key = "dataset.loader.replacement", .group = G::DataLoading, .kind = K::Boolean, .applies = weighted,
         .value = OPTION_VALUE(s.dataset.replacement)},
        {.key = "dataset.loader.num_workers", .group = G::DataLoading, .kind = K::Integer, .range = atLeast(0),
         .value = OPTION_VALUE(std::int64_t(s.dataset.numWorkers))},
        {.key = "dataset.loader.prefetch", .group = G::DataLoading, .kind = K::Integer, .range = atLeast(1),
         .value = OPTION_VALUE(std::int64_t(s.dataset.prefetchBatches))},
        {.key = "dataset.loader.cache", .group = G::DataLoading, .kind = K::Boolean, .value = OPTION_VALUE(s.dataset.cache)},

        // Seed and logging
        {.key = "training.seed", .group = G::Run, .kind = K::Integer, .unsignedInteger = true, .value = OPTION_VALUE(s.training.seed)},
        {.key = "training.deterministic", .group = G::Run, .kind = K::Boolean, .value = OPTION_VALUE(s.training.deterministic)},
        {.key = "training.skip_non_finite_loss", .group = G::Run, .kind = K::Boolean, .value = OPTION_VALUE(s.training.skipNonFiniteLoss)},
        {.key = "training.log_every_steps", .group = G::Run, .kind = K::Integer, .range = atLeast(1),
         .value = OPTION_VALUE(s.training.logEverySteps)},
        {.key = "training.top_k", .group = G::Run, .kind = K::IntegerList, .range = atLeast(1), .element = "k",
         .value = OPTION_VALUE(wide(s.training.topK))},
    };
}

#undef OPTION_VALUE

std::string joinedChoices(const std::vector<std::string>& choices)  // "f32, tf32, bf16 or f16"
{
    std::string s;
    for (std::size_t i = 0; i < choices.size(); ++i) s += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + choices[i];
    return s;
}

}  // namespace

bool OptionRange::contains(double v) const
{
    if (finite && !std::isfinite(v)) return false;
    if (std::isnan(v)) return false;
    if (min && !(minOpen ? v > *min : v >= *min)) return false;
    return !max || (maxOpen ? v < *max : v <= *max);
}

std::string OptionRange::text() const
{
    if (min && max) return "in " + std::string(minOpen ? "(" : "[") + num(*min) + ", " + num(*max) + (maxOpen ? ")" : "]");
    if (min) return (minOpen ? "> " : ">= ") + num(*min);
    if (max) return (maxOpen ? "< " : "<= ") + num(*max);
    return {};
}

std::string OptionRange::problem(double v) const
{
    if (contains(v)) return {};
    if (finite && min && !minOpen && !max) return "must be a finite number of at least " + num(*min);
    OptionRange bounds = *this;
    bounds.finite = false;
    if (bounds.contains(v)) return "must be finite";
    return "must be " + text();
}

std::string ExperimentOption::name() const { return key.substr(key.rfind('.') + 1); }
std::string ExperimentOption::section() const { return key.substr(0, key.rfind('.')); }

const std::vector<ExperimentOption>& experimentOptions()
{
    static const std::vector<ExperimentOption> table = makeTable();
    return table;
}

const ExperimentOption* findExperimentOption(const std::string& key)
{
    for (const auto& o : experimentOptions())
        if (o.key == key) return &o;
    return nullptr;
}

std::string optionProblem(const ExperimentOption& o, double value) { return o.range.problem(value); }

std::string optionProblem(const ExperimentOption& o, const std::string& value)
{
    if (o.kind == OptionKind::Choice && std::find(o.choices.begin(), o.choices.end(), value) == o.choices.end())
        return o.noun.empty() ? "expected " + joinedChoices(o.choices)
                              : "unknown " + o.noun + " " + quoteText(value) + yamlio::didYouMean(value, o.choices) +
                                    "; valid: " + yamlio::joinList(o.choices);
    return o.rule ? o.rule(value) : std::string();
}

std::string optionProblem(const ExperimentOption& o, const std::vector<double>& values)
{
    for (std::size_t i = 0; i < values.size(); ++i)
        if (!o.range.contains(values[i]) || (o.increasing && i > 0 && values[i] <= values[i - 1]))
            return o.increasing ? "expected increasing " + o.element + "s " + o.range.text()
                                : "every " + o.element + " must be " + o.range.text();
    return {};
}

std::string checkOptionText(const ExperimentOption& o, const std::string& yamlValue)
{
    YAML::Node value;
    try {
        value = YAML::Load(yamlValue);
    } catch (const YAML::ParserException& e) {
        return o.name() + ": not valid YAML (" + e.msg + ")";
    }
    // The option alone in its section, read by the very function the reader uses.
    YAML::Node section(YAML::NodeType::Map);
    section[o.name()] = value;
    yamlio::Reader reader("");
    const yamlio::MapView m = reader.map(section, o.section(), {o.name()}, {});
    std::visit([&](auto v) { yamlio::readOption(reader, m, o, v); }, optionValue(ExperimentSpec{}, o));
    try {
        reader.finish();
    } catch (const ExperimentError& e) {
        return e.message();
    }
    return {};
}

OptionValue optionValue(const ExperimentSpec& spec, const ExperimentOption& option) { return option.value(spec); }

std::string optionValueText(const ExperimentSpec& spec, const ExperimentOption& option)
{
    using namespace yamlio;
    const auto list = [](const auto& items, auto render) {
        std::string s;
        for (const auto& i : items) s += (s.empty() ? "" : ", ") + render(i);
        return "[" + s + "]";
    };
    const OptionValue v = optionValue(spec, option);
    if (const auto* b = std::get_if<bool>(&v)) return yamlBool(*b);
    if (const auto* i = std::get_if<std::int64_t>(&v)) return yamlInt(*i);
    if (const auto* u = std::get_if<std::uint64_t>(&v)) return std::to_string(*u);
    if (const auto* d = std::get_if<double>(&v)) return yamlNumber(*d);
    if (const auto* s = std::get_if<std::string>(&v)) return yamlString(*s);
    if (const auto* is = std::get_if<std::vector<std::int64_t>>(&v)) return list(*is, yamlInt);
    return list(std::get<std::vector<double>>(v), yamlNumber);
}

std::string optionYamlText(const ExperimentOption& option, const std::string& typed)
{
    const auto begin = typed.find_first_not_of(" \t\r\n");
    const std::string text = begin == std::string::npos ? "" : typed.substr(begin, typed.find_last_not_of(" \t\r\n") - begin + 1);
    switch (option.kind) {
    case OptionKind::NumberList:
    case OptionKind::IntegerList: return !text.empty() && text.front() == '[' ? text : "[" + text + "]";
    case OptionKind::Text: return yamlio::yamlString(text);
    default: return text;
    }
}

ExperimentSpec withOption(const ExperimentSpec& spec, const std::string& key, const std::string& yamlValue)
{
    const std::string source = spec.sourceFile.empty() ? std::string("experiment") : spec.sourceFile;
    if (!findExperimentOption(key)) {
        std::vector<std::string> keys;
        for (const auto& o : experimentOptions()) keys.push_back(o.key);
        throw ExperimentError(source, 0, 0, "unknown option " + quoteText(key) + yamlio::didYouMean(key, keys));
    }
    try {
        (void)YAML::Load(yamlValue);  // the override path would call this an unusable --set argument
    } catch (const YAML::ParserException& e) {
        throw ExperimentError(source, 0, 0, key.substr(key.rfind('.') + 1) + ": not valid YAML (" + e.msg + ")");
    }
    const std::string item = key + "=" + yamlValue;
    ExperimentSpec edited;
    try {
        edited = parseExperimentWithOverrides(experimentToYaml(spec), source, {item});
    } catch (const ExperimentError& e) {
        // The editor shows the field: no line of a file nobody sees, no --set argument nobody typed.
        const std::string suffix = " (from --set " + item + ")";
        std::vector<ExperimentIssue> issues;
        for (ExperimentIssue i : e.issues()) {
            if (i.message.size() >= suffix.size() && i.message.compare(i.message.size() - suffix.size(), suffix.size(), suffix) == 0)
                i.message.resize(i.message.size() - suffix.size());
            issues.push_back({0, 0, i.message});
        }
        throw ExperimentError(source, std::move(issues));
    }
    edited.sourceFile = spec.sourceFile;
    edited.name = spec.name;
    edited.description = spec.description;
    edited.model = spec.model;
    return edited;
}

}  // namespace ts
