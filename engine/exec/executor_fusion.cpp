// Which batch norm nodes also run the ReLU after them (Executor::setFusion).
#include <algorithm>

#include "exec/executor.h"
#include "ops/op.h"

namespace ts {

namespace {

bool overlaps(const Tensor& a, const Tensor& b)
{
    if (!a.defined() || !b.defined()) return false;
    const auto* a0 = static_cast<const char*>(a.raw());
    const auto* b0 = static_cast<const char*>(b.raw());
    return a0 < b0 + b.bytes() && b0 < a0 + a.bytes();
}

}  // namespace

// Node i (an op that runsFollowingRelu) and node i + 1, a ReLU that alone reads i's output, run
// as one in training when the plan keeps that safe: the ReLU's output, written at i's forward,
// shares no memory with what i reads or writes then; its gradient, read at i's backward, none
// with what i writes or the executor zeroes then; both or neither run backward; and neither is
// recomputed for a checkpointed segment.
void Executor::planFusion()
{
    const std::size_t n = graph_.nodes.size();
    fusedRelu_.assign(n, -1);
    const auto inSegment = [&](std::size_t i) {
        return std::any_of(plan_.segments.begin(), plan_.segments.end(),
                           [&](const CheckpointSegment& s) { return int(i) >= s.first && int(i) <= s.last; });
    };
    for (std::size_t i = 0; i + 1 < n; ++i) {
        const CheckedNode &a = graph_.nodes[i], &b = graph_.nodes[i + 1];
        if (!a.op->runsFollowingRelu() || b.op->type() != "ReLU" || b.inputs != std::vector<int>{a.output}) continue;
        if (graph_.values[std::size_t(a.output)].consumers.size() != 1 || a.output == graph_.outputValue) continue;
        if (inSegment(i) || inSegment(i + 1) || plan_.runsBackward[i] != plan_.runsBackward[i + 1]) continue;
        const Tensor& r = values_[std::size_t(b.output)];
        bool clash = overlaps(r, values_[std::size_t(a.output)]);
        for (int v : a.inputs) clash = clash || overlaps(r, values_[std::size_t(v)]);
        for (const Tensor& t : saved_[i]) clash = clash || overlaps(r, t);
        if (trainingPlan_ && plan_.runsBackward[i]) {
            const Tensor& dr = grads_[std::size_t(b.output)];
            clash = clash || !dr.defined();
            for (int v : a.inputs) clash = clash || overlaps(dr, grads_[std::size_t(v)]);
            for (int v : gradsZeroedAt_[i]) clash = clash || overlaps(dr, grads_[std::size_t(v)]);
        }
        if (!clash) fusedRelu_[i] = int(i + 1);
    }
}

}  // namespace ts
