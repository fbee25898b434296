// The health report's one-click fixes for class imbalance, as edits of the experiment:
//
// - class weights in the loss: the model's loss node (graph.loss, else its last loss node)
//   must be CrossEntropy; its class_weights attribute becomes n / (k * count_c) of the
//   training split's class counts (balancedClassWeights, data/dataset_health.h, the formula
//   the health check suggests: a balanced split gets 1 everywhere, an empty class 0), rounded
//   to 4 significant digits so the YAML stays readable. The sampler goes back to random if it
//   was class_balanced: both at once would correct the imbalance twice.
// - the class-balanced sampler: dataset.sampler becomes class_balanced (every class drawn
//   equally often per epoch, data/sampler.h); class weights on the loss are removed, for the
//   same reason.
#pragma once

#include <QCoreApplication>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

#include "types/experiment_spec.h"

namespace ts::ui {

class HealthFixes {
    Q_DECLARE_TR_FUNCTIONS(HealthFixes)
public:
    // n / (k * count_c), rounded to 4 significant digits.
    static std::vector<double> lossClassWeights(const std::vector<std::int64_t>& trainCounts);
    // The index of the model's loss node in spec.model.nodes, or -1.
    static int lossNode(const ts::ExperimentSpec& spec);
    // The experiment with the loss weighted; nothing (and *why) when the loss is not CrossEntropy
    // or the weights do not match the model's classes.
    static std::optional<ts::ExperimentSpec> withLossClassWeights(const ts::ExperimentSpec& spec,
                                                                  const std::vector<double>& weights, QString* why);
    static ts::ExperimentSpec withClassBalancedSampler(const ts::ExperimentSpec& spec);
    // Which fix the experiment already uses.
    static bool usesLossClassWeights(const ts::ExperimentSpec& spec);
    static bool usesClassBalancedSampler(const ts::ExperimentSpec& spec);
};

}  // namespace ts::ui
