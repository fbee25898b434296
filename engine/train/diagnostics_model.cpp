// The diagnostics raised before the first step, from the experiment's graph and settings and
// the training split's class counts: the seeds' batch-norm warnings and accuracy on
// imbalanced classes (thresholds: diagnostics.h).
#include <algorithm>
#include <cstdio>
#include <map>

#include "train/diagnostics.h"

namespace ts {

namespace {

using enum MessageId;

bool isBatchNorm(const Node& n) { return n.op == "BatchNorm1d" || n.op == "BatchNorm2d"; }

// "bn1, bn2, bn3 and 2 more": names in a sentence without flooding it.
std::string nameList(const std::vector<std::string>& names)
{
    std::string out;
    const std::size_t shown = std::min<std::size_t>(names.size(), 3);
    for (std::size_t i = 0; i < shown; ++i) out += (i ? ", " : "") + names[i];
    if (names.size() > shown) out += " +" + std::to_string(names.size() - shown);
    return out;
}

// The metric a run is judged by: early stopping's when on, else the best checkpoint's.
const std::string& judgedBy(const ExperimentSpec& spec)
{
    return spec.training.earlyStopping.enabled ? spec.training.earlyStopping.metric : spec.training.checkpoint.metric;
}

bool hasClassWeights(const Graph& g)
{
    for (const Node& n : g.nodes) {
        if (!n.attrs.has("class_weights")) continue;
        const auto* w = std::get_if<std::vector<double>>(&n.attrs.get("class_weights"));
        if (w && !w->empty()) return true;
    }
    return false;
}

}  // namespace

void Diagnostics::checkModel(std::vector<LogEvent>& out)
{
    const Graph& g = spec_.model;
    std::map<std::string, const Node*> byName;
    std::vector<std::string> norms;
    for (const Node& n : g.nodes) {
        byName[n.name] = &n;
        if (isBatchNorm(n)) norms.push_back(n.name);
    }
    if (norms.empty()) return;
    const TrainingSpec& t = spec_.training;
    if (t.batchSize < kBatchNormMinBatch) fire(out, DiagBatchNormSmallBatch, {nameList(norms), std::to_string(t.batchSize)});
    if (t.accumulationSteps > 1)
        fire(out, DiagBatchNormAccumulation,
             {nameList(norms), std::to_string(t.batchSize), std::to_string(t.accumulationSteps),
              std::to_string(t.batchSize * t.accumulationSteps)});
    // Batch norm fed by dropout, directly or through a reshape (which leaves the variance alone).
    for (const Node& n : g.nodes) {
        if (!isBatchNorm(n) || n.inputs.empty()) continue;
        const Node* in = byName.count(n.inputs[0]) ? byName[n.inputs[0]] : nullptr;
        while (in && (in->op == "Flatten" || in->op == "Reshape") && !in->inputs.empty())
            in = byName.count(in->inputs[0]) ? byName[in->inputs[0]] : nullptr;
        if (in && in->op == "Dropout") {
            fire(out, DiagBatchNormAfterDropout, {n.name, in->name});
            break;
        }
    }
}

void Diagnostics::checkImbalance(std::vector<LogEvent>& out)
{
    // Classes with no sample are left out: a reader may declare more classes than the data has.
    std::size_t largest = classCounts_.size(), smallest = classCounts_.size();
    for (std::size_t c = 0; c < classCounts_.size(); ++c) {
        if (classCounts_[c] <= 0) continue;
        if (largest == classCounts_.size() || classCounts_[c] > classCounts_[largest]) largest = c;
        if (smallest == classCounts_.size() || classCounts_[c] < classCounts_[smallest]) smallest = c;
    }
    if (largest == classCounts_.size() || largest == smallest) return;
    const double ratio = double(classCounts_[largest]) / double(classCounts_[smallest]);
    const std::string& metric = judgedBy(spec_);
    if (ratio < kImbalanceRatio || !metric.ends_with("acc")) return;
    // Already balanced by the sampler or the loss: accuracy still flatters, but the fix is in.
    const std::string& sampler = spec_.dataset.sampler;
    if (sampler == "weighted" || sampler == "class_balanced" || hasClassWeights(spec_.model)) return;
    const auto name = [&](std::size_t c) { return c < classNames_.size() ? classNames_[c] : std::to_string(c); };
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", ratio);
    fire(out, DiagImbalancedAccuracy,
         {text, name(largest), std::to_string(classCounts_[largest]), name(smallest),
          std::to_string(classCounts_[smallest]), metric});
}

}  // namespace ts
