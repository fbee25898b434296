// Weight decay's two parameter groups (ops/op.h decays()), named and counted for the
// Hyperparameters page and the run's log: which tensors the optimizer decays, which not.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "types/experiment_spec.h"
#include "types/message.h"

namespace ts {

struct WeightDecayGroup {
    std::vector<std::string> names;  // "fc1.weight", in graph order
    std::int64_t values = 0;
};

// The trainable parameters split as the optimizer will decay them: with spec.decayAll all
// of them are in `decayed`.
struct WeightDecayGroups {
    WeightDecayGroup decayed, kept;
};
WeightDecayGroups weightDecayGroups(const CheckedGraph& graph, const OptimizerSpec& spec);

// "weight decay 0.01 on 12 weight matrices and kernels (790,528 values); not on 26 bias,
// norm and embedding tensors (48,241 values; ...)" (optim.weight_decay_groups, or
// optim.weight_decay_all with decay_all); nothing when spec.weightDecay is 0.
std::optional<Message> weightDecayMessage(const CheckedGraph& graph, const OptimizerSpec& spec);

}  // namespace ts
