#include "optim/weight_decay.h"

#include "tensor/quote_text.h"

namespace ts {

WeightDecayGroups weightDecayGroups(const CheckedGraph& graph, const OptimizerSpec& spec)
{
    WeightDecayGroups groups;
    for (const CheckedNode& node : graph.nodes)
        for (const ParamSpec& p : node.params) {
            if (!p.trainable || p.tied()) continue;  // a tied weight follows its owner's group
            WeightDecayGroup& g = spec.decayAll || decays(p) ? groups.decayed : groups.kept;
            g.names.push_back(p.name);
            g.values += p.shape.numel();
        }
    return groups;
}

std::optional<Message> weightDecayMessage(const CheckedGraph& graph, const OptimizerSpec& spec)
{
    if (spec.weightDecay == 0) return std::nullopt;
    const WeightDecayGroups g = weightDecayGroups(graph, spec);
    const auto count = [](const WeightDecayGroup& group) { return std::to_string(group.names.size()); };
    const auto values = [](const WeightDecayGroup& group) { return groupDigits(std::uint64_t(group.values)); };
    if (spec.decayAll)
        return makeMessage(MessageId::OptimWeightDecayAll, {numberArg(spec.weightDecay), count(g.decayed), values(g.decayed)});
    return makeMessage(MessageId::OptimWeightDecayGroups,
                       {numberArg(spec.weightDecay), count(g.decayed), values(g.decayed), count(g.kept), values(g.kept)});
}

}  // namespace ts
