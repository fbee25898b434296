// The rule table, the dispatch of events to the rules, firing once, and the job's listener.
// The rules themselves are in diagnostics_rules.cpp (the event stream) and
// diagnostics_model.cpp (the experiment and the data, before the first step).
#include "train/diagnostics.h"

#include <algorithm>

namespace ts {

namespace {

using enum MessageId;
using Level = LogEvent::Level;
namespace a = diagnostic_action;

const std::vector<DiagnosticRule> kRules = {
    {"diag.non_finite", DiagNonFinite, Level::Error, {a::kResumeLowerLr, a::kHyperparameters}},
    {"diag.not_converging", DiagNotConverging, Level::Warning,
     {a::kCheckLabels, a::kCheckLossFunction, a::kLrFinder, a::kCheckInitialisation, a::kGradNormChart,
      a::kCheckNormalisation}},
    {"diag.loss_rising", DiagLossRising, Level::Warning, {a::kLrFinder, a::kHyperparameters}},
    {"diag.loss_oscillating", DiagLossOscillating, Level::Warning, {a::kLrFinder, a::kHyperparameters}},
    {"diag.gradient_exploding", DiagGradientExploding, Level::Warning, {a::kHyperparameters, a::kGradNormChart, a::kModel}},
    {"diag.gradient_vanishing", DiagGradientVanishing, Level::Warning, {a::kModel, a::kGradNormChart, a::kHyperparameters}},
    {"diag.overfitting", DiagOverfitting, Level::Warning, {a::kHyperparameters, a::kDatasets, a::kModel}},
    {"diag.loader_starving", DiagLoaderStarving, Level::Warning, {a::kDatasets}},
    {"diag.memory_growing", DiagMemoryGrowing, Level::Warning, {}},
    {"diag.memory_fragmented", DiagMemoryFragmented, Level::Info, {}},
    {"diag.batchnorm_small_batch", DiagBatchNormSmallBatch, Level::Warning, {a::kModel, a::kHyperparameters}},
    {"diag.batchnorm_after_dropout", DiagBatchNormAfterDropout, Level::Warning, {a::kModel}},
    {"diag.batchnorm_accumulation", DiagBatchNormAccumulation, Level::Warning, {a::kModel, a::kHyperparameters}},
    {"diag.loss_scale_falling", DiagLossScaleFalling, Level::Warning, {a::kHyperparameters}},
    {"diag.imbalanced_accuracy", DiagImbalancedAccuracy, Level::Warning, {a::kEvaluateRun, a::kDatasets, a::kModel}},
    {"diag.transformer_warmup", DiagTransformerWarmup, Level::Warning, {a::kAddWarmup, a::kHyperparameters}},
};

}  // namespace

const std::vector<DiagnosticRule>& diagnosticRules() { return kRules; }

const DiagnosticRule* diagnosticRule(const std::string& messageId)
{
    if (!messageId.starts_with("diag.")) return nullptr;
    for (const DiagnosticRule& r : kRules)
        if (messageId == r.id) return &r;
    return nullptr;
}

Diagnostics::Diagnostics(ExperimentSpec spec, std::vector<std::int64_t> classCounts, std::vector<std::string> classNames)
    : spec_(std::move(spec)), classCounts_(std::move(classCounts)), classNames_(std::move(classNames))
{
    for (const Node& n : spec_.model.nodes)
        if (n.op == "MultiHeadAttention") attention_.push_back(n.name);
}

std::int64_t suggestedWarmupSteps(std::int64_t totalSteps, std::int64_t step)
{
    std::int64_t steps = std::max({totalSteps / 20, 2 * step, std::int64_t(100)});
    if (totalSteps > 0) steps = std::min(steps, totalSteps / 5);
    return std::max<std::int64_t>(steps, 1);
}

bool Diagnostics::hasFired(MessageId id) const { return firedIds_.count(id) != 0; }

void Diagnostics::fire(std::vector<LogEvent>& out, MessageId id, std::vector<std::string> args)
{
    if (!firedIds_.insert(id).second) return;  // once per run
    const auto rule = std::find_if(kRules.begin(), kRules.end(), [id](const DiagnosticRule& r) { return r.message == id; });
    const Level level = rule != kRules.end() ? rule->level : Level::Warning;
    LogEvent event{level, makeMessage(id, std::move(args))};
    fired_.push_back(event.message.id);
    out.push_back(std::move(event));
}

std::vector<LogEvent> Diagnostics::observe(const TrainEvent& event)
{
    std::vector<LogEvent> out;
    if (const auto* started = std::get_if<StartedEvent>(&event)) {
        continued_ = started->firstStep > 0;
        stepsPerEpoch_ = started->stepsPerEpoch;
        totalSteps_ = started->totalSteps;
        checkModel(out);
        checkImbalance(out);
    } else if (const auto* s = std::get_if<StepEvent>(&event)) {
        onStep(*s, out);
    } else if (const auto* e = std::get_if<EpochEvent>(&event)) {
        onEpoch(*e, out);
    } else if (const auto* l = std::get_if<LogEvent>(&event)) {
        onLog(*l, out);
    } else if (const auto* f = std::get_if<FinishedEvent>(&event)) {
        onFinished(*f, out);
    }
    return out;
}

void DiagnosticsListener::forward(const TrainEvent& event)
{
    for (TrainListener* l : next_) l->onEvent(event);
}

void DiagnosticsListener::onEvent(const TrainEvent& event)
{
    std::vector<LogEvent> raised = diagnostics_.observe(event);
    if (allocator_)
        if (const auto* e = std::get_if<EpochEvent>(&event)) {
            std::vector<LogEvent> memory = diagnostics_.observeMemory(e->epoch, allocator_->stats());
            raised.insert(raised.end(), memory.begin(), memory.end());
        }
    const bool last = std::holds_alternative<FinishedEvent>(event);  // the run's log closes with it
    if (!last) forward(event);
    for (const LogEvent& l : raised) forward(l);
    if (last) forward(event);
}

}  // namespace ts
