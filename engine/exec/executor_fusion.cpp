// Fusions are ways of running the plan; the Graph and the ops know nothing of them. Today one:
// a batch norm in training and the ReLU right after it run as one (Executor::setFusion). The
// nodes are found by what they call (MemoryPlan::traces), never by name, and the batch norm's
// own forward and backward run on a backend that swaps its primitives for the fused ones.
#include <algorithm>
#include <stdexcept>

#include "backend/forwarding_backend.h"
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

std::size_t count(const std::vector<PrimitiveCall>& calls, Primitive p)
{
    return static_cast<std::size_t>(
        std::count_if(calls.begin(), calls.end(), [&](const PrimitiveCall& c) { return c.primitive == p; }));
}

bool isOnly(const std::vector<PrimitiveCall>& calls, Primitive p, Activation a)
{
    return calls == std::vector<PrimitiveCall>{{p, a}};
}

// Runs a batch norm's passes with the ReLU after it: its batchNormForwardTraining becomes
// batchNormReluForwardTraining, which also writes the ReLU's output r, and its
// batchNormBackward becomes batchNormReluBackward from r's gradient dr (the batch norm's own
// output gradient, which the skipped ReLU backward would have written, is the scratch). The
// fused backward recomputes y from beta, which batchNormBackward is not given: it is the one
// the forward used (the parameter, or the op's workspace, which its backward fills again).
class BatchNormReluBackend final : public ForwardingBackend {
public:
    BatchNormReluBackend(Backend& inner, const Tensor& y, const Tensor& r, const Tensor& dy, const Tensor& dr)
        : ForwardingBackend(&inner), y_(y.data<float>()), r_(r.data<float>()),
          dy_(dy.defined() ? dy.data<float>() : nullptr), dr_(dr.defined() ? dr.data<float>() : nullptr)
    {
    }
    void batchNormForwardTraining(const float* x, const float* gamma, const float* beta, float* y, float* saveMean,
                                  float* saveInvStd, float* runningMean, float* runningVar, std::int64_t n,
                                  std::int64_t c, std::int64_t inner, float momentum, float eps,
                                  const CrossRankSum* acrossRanks) override
    {
        if (y != y_) throw std::logic_error("fused batch norm: the ReLU reads another buffer than the one written");
        beta_ = beta;
        this->inner()->batchNormReluForwardTraining(x, gamma, beta, y, r_, saveMean, saveInvStd, runningMean,
                                                    runningVar, n, c, inner, momentum, eps, acrossRanks);
    }
    void batchNormBackward(const float* x, const float* gamma, const float* dy, const float* saveMean,
                           const float* saveInvStd, float* dx, float* dgamma, float* dbeta, std::int64_t n,
                           std::int64_t c, std::int64_t inner, const CrossRankSum* acrossRanks,
                           GradWrite write) override
    {
        if (dy != dy_ || !beta_) throw std::logic_error("fused batch norm: backward without its training forward");
        this->inner()->batchNormReluBackward(x, gamma, beta_, y_, r_, dr_, dy_, saveMean, saveInvStd, dx, dgamma,
                                             dbeta, n, c, inner, acrossRanks, write);
    }

private:
    float *y_, *r_, *dy_;
    const float* dr_;
    const float* beta_ = nullptr;
};

}  // namespace

// Node i, whose training forward calls batchNormForwardTraining once (and its backward
// batchNormBackward once), and node i + 1, whose forward is one activationForward(ReLU) (and
// backward one activationBackward(ReLU)) of i's output alone, run as one in training when the
// backend has both fused primitives, neither node runs a pass on the CPU, and the plan keeps
// it safe: the ReLU's output, written at i's forward, shares no memory with what i reads or
// writes then; its gradient, read at i's backward, none with what i writes or the executor
// zeroes then; both or neither run backward; and neither is recomputed for a checkpointed segment.
void Executor::planFusion()
{
    const std::size_t n = graph_.nodes.size();
    fusedRelu_.assign(n, -1);
    fused_.clear();
    fused_.resize(n);
    if (!trainingPlan_ || !backend_.supports(Primitive::batchNormReluForwardTraining) ||
        !backend_.supports(Primitive::batchNormReluBackward))
        return;
    const auto inSegment = [&](std::size_t i) {
        return std::any_of(plan_.segments.begin(), plan_.segments.end(),
                           [&](const CheckpointSegment& s) { return int(i) >= s.first && int(i) <= s.last; });
    };
    for (std::size_t i = 0; i + 1 < n; ++i) {
        const CheckedNode &a = graph_.nodes[i], &b = graph_.nodes[i + 1];
        const OpTrace &ta = plan_.traces[i], &tb = plan_.traces[i + 1];
        const bool backward = plan_.runsBackward[i];
        if (count(ta[OpPass::TrainingForward], Primitive::batchNormForwardTraining) != 1 ||
            !isOnly(tb[OpPass::TrainingForward], Primitive::activationForward, Activation::ReLU))
            continue;
        if (backward && (count(ta[OpPass::TrainingBackward], Primitive::batchNormBackward) != 1 ||
                         !isOnly(tb[OpPass::TrainingBackward], Primitive::activationBackward, Activation::ReLU)))
            continue;
        if (b.inputs != std::vector<int>{a.output} || graph_.values[std::size_t(a.output)].consumers.size() != 1 ||
            a.output == graph_.outputValue || graph_.values[std::size_t(a.output)].spec != graph_.values[std::size_t(b.output)].spec)
            continue;
        if (cpuPasses_[i] || cpuPasses_[i + 1]) continue;
        if (inSegment(i) || inSegment(i + 1) || backward != plan_.runsBackward[i + 1]) continue;
        const Tensor& r = values_[std::size_t(b.output)];
        bool clash = overlaps(r, values_[std::size_t(a.output)]);
        for (int v : a.inputs) clash = clash || overlaps(r, values_[std::size_t(v)]);
        for (const Tensor& t : saved_[i]) clash = clash || overlaps(r, t);
        const Tensor& dr = grads_[std::size_t(b.output)];
        if (backward) {
            clash = clash || !dr.defined();
            for (int v : a.inputs) clash = clash || overlaps(dr, grads_[std::size_t(v)]);
            for (int v : gradsZeroedAt_[i]) clash = clash || overlaps(dr, grads_[std::size_t(v)]);
        }
        if (clash) continue;
        fusedRelu_[i] = int(i + 1);
        fused_[i] = std::make_unique<BatchNormReluBackend>(backend_, values_[std::size_t(a.output)], r,
                                                           grads_[std::size_t(a.output)], dr);
    }
}

}  // namespace ts
