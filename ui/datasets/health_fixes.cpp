#include "health_fixes.h"

#include <cmath>

#include "data/dataset_health.h"
#include "ops/registry.h"

namespace ts::ui {

namespace {

double significant(double v, int digits)
{
    if (v == 0 || !std::isfinite(v)) return v;
    const double scale = std::pow(10.0, digits - 1 - int(std::floor(std::log10(std::abs(v)))));
    return std::round(v * scale) / scale;
}

bool isLossOp(const std::string& op)
{
    const Op* o = OpRegistry::builtin().find(op);
    return o && o->isLoss();
}

}  // namespace

std::vector<double> HealthFixes::lossClassWeights(const std::vector<std::int64_t>& trainCounts)
{
    std::vector<double> w = balancedClassWeights(trainCounts);
    for (double& x : w) x = significant(x, 4);
    return w;
}

int HealthFixes::lossNode(const ExperimentSpec& spec)
{
    const auto& nodes = spec.model.nodes;
    if (!spec.model.loss.empty()) {
        for (int i = 0; i < int(nodes.size()); ++i)
            if (nodes[std::size_t(i)].name == spec.model.loss) return i;
        return -1;
    }
    for (int i = int(nodes.size()) - 1; i >= 0; --i)
        if (isLossOp(nodes[std::size_t(i)].op)) return i;
    return -1;
}

std::optional<ExperimentSpec> HealthFixes::withLossClassWeights(const ExperimentSpec& spec,
                                                                const std::vector<double>& weights, QString* why)
{
    const int i = lossNode(spec);
    if (i < 0) {
        *why = tr("The model has no loss node to weight: add a CrossEntropy loss on the Model page.");
        return std::nullopt;
    }
    const Node& loss = spec.model.nodes[std::size_t(i)];
    if (loss.op != "CrossEntropy") {
        *why = tr("The model's loss '%1' is %2: class weights apply to a CrossEntropy loss. Use the class-balanced "
                  "sampler instead.")
                   .arg(QString::fromStdString(loss.name), QString::fromStdString(loss.op));
        return std::nullopt;
    }
    if (weights.empty()) {
        *why = tr("There are no class counts to weight by.");
        return std::nullopt;
    }
    ExperimentSpec out = spec;
    out.model.nodes[std::size_t(i)].attrs.set("class_weights", AttrValue(weights));
    if (out.dataset.sampler == "class_balanced") out.dataset.sampler = "random";
    return out;
}

ExperimentSpec HealthFixes::withClassBalancedSampler(const ExperimentSpec& spec)
{
    ExperimentSpec out = spec;
    out.dataset.sampler = "class_balanced";
    const int i = lossNode(out);
    if (i >= 0) {
        Attrs& attrs = out.model.nodes[std::size_t(i)].attrs;
        if (attrs.has("class_weights")) attrs.set("class_weights", AttrValue(std::vector<double>{}));
    }
    return out;
}

bool HealthFixes::usesLossClassWeights(const ExperimentSpec& spec)
{
    const int i = lossNode(spec);
    if (i < 0) return false;
    const Attrs& attrs = spec.model.nodes[std::size_t(i)].attrs;
    if (!attrs.has("class_weights")) return false;
    const AttrValue& v = attrs.get("class_weights");
    if (const auto* w = std::get_if<std::vector<double>>(&v)) return !w->empty();
    if (const auto* w = std::get_if<std::vector<std::int64_t>>(&v)) return !w->empty();  // [1, 2] read as integers
    return false;
}

bool HealthFixes::usesClassBalancedSampler(const ExperimentSpec& spec) { return spec.dataset.sampler == "class_balanced"; }

}  // namespace ts::ui
