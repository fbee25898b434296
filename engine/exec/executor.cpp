#include "exec/executor.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "backend/backend.h"
#include "ops/init.h"

namespace ts {

Executor::Executor(CheckedGraph graph, Backend& backend, bool training)
    : Executor(graph, planMemory(graph, backend, training), backend, training)
{
}

Executor::Executor(CheckedGraph graph, MemoryPlan plan, Backend& backend, bool training)
    : graph_(std::move(graph)), backend_(backend), plan_(std::move(plan)), trainingPlan_(training), training_(training)
{
    Allocator& alloc = backend_.allocator();
    arena_ = std::make_shared<Storage>(alloc, std::max<std::size_t>(plan_.activationBytes, 1));
    workspace_ = std::make_shared<Storage>(alloc, std::max<std::size_t>(plan_.workspaceBytes, 1));
    paramStorage_ = std::make_shared<Storage>(alloc, std::max<std::size_t>(plan_.parameterBytes, 1));
    gradStorage_ = std::make_shared<Storage>(alloc, std::max<std::size_t>(plan_.gradientBytes, 1));
    backend_.zeroBytes(paramStorage_->data(), paramStorage_->bytes());  // alignment padding included

    // Trainable parameters first, so the flat views cover exactly them.
    std::size_t valueOffset = 0, gradOffset = 0;
    nodeParams_.resize(graph_.nodes.size());
    for (int pass = 0; pass < 2; ++pass) {
        for (std::size_t i = 0; i < graph_.nodes.size(); ++i) {
            for (const ParamSpec& spec : graph_.nodes[i].params) {
                if (spec.trainable != (pass == 0) || spec.tied()) continue;
                Parameter p;
                p.name = spec.name;
                p.init = spec.init;
                p.trainable = spec.trainable;
                p.decay = decays(spec);
                p.value = Tensor::view(paramStorage_, valueOffset, spec.shape, DType::F32);
                valueOffset += (p.value.bytes() + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment;
                if (training && spec.trainable) {
                    p.grad = Tensor::view(gradStorage_, gradOffset, spec.shape, DType::F32);
                    gradOffset += (p.grad.bytes() + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment;
                }
                nodeParams_[i].push_back(static_cast<int>(params_.size()));
                params_.push_back(std::move(p));
            }
        }
        if (pass == 0) {
            flatValues_ = Tensor::view(paramStorage_, 0, Shape{static_cast<std::int64_t>(valueOffset / 4)}, DType::F32);
            flatGrads_ = Tensor::view(gradStorage_, 0, Shape{static_cast<std::int64_t>(gradOffset / 4)}, DType::F32);
        }
    }
    // Node order in nodeParams_ must follow Op::params() order; restore it (pass order split
    // them). A tied parameter is its owner's (checkGraph found it).
    for (std::size_t i = 0; i < graph_.nodes.size(); ++i) {
        std::vector<int> ordered;
        for (const ParamSpec& spec : graph_.nodes[i].params) {
            const std::string& name = spec.tied() ? spec.tiedTo : spec.name;
            for (std::size_t idx = 0; idx < params_.size(); ++idx)
                if (params_[idx].name == name) ordered.push_back(static_cast<int>(idx));
        }
        nodeParams_[i] = ordered;
    }

    planned_ = graph_;
    viewBuffers();
    // A gradient buffer comes alive at the backward slot of the node that first writes it.
    std::vector<int> nodeAtSlot(static_cast<std::size_t>(std::max(plan_.slotCount, 1)), -1);
    for (std::size_t i = 0; i < graph_.nodes.size(); ++i)
        if (plan_.backwardSlot[i] < plan_.slotCount) nodeAtSlot[static_cast<std::size_t>(plan_.backwardSlot[i])] = static_cast<int>(i);
    // It is zeroed then, unless that node's op overwrites it (its only use as an input there).
    gradsZeroedAt_.resize(graph_.nodes.size());
    gradInputWrite_.resize(graph_.nodes.size());
    for (std::size_t v = 0; v < graph_.values.size(); ++v)
        if (plan_.grads[v].bytes) {
            const auto node = static_cast<std::size_t>(nodeAtSlot[static_cast<std::size_t>(plan_.grads[v].start)]);
            const CheckedNode& writer = graph_.nodes[node];
            const auto uses = std::count(writer.inputs.begin(), writer.inputs.end(), static_cast<int>(v));
            const auto k = static_cast<std::size_t>(std::find(writer.inputs.begin(), writer.inputs.end(), static_cast<int>(v)) -
                                                    writer.inputs.begin());
            if (uses == 1 && writer.op->overwritesFreshGradients() && writer.op->inputDifferentiable(static_cast<int>(k))) {
                gradInputWrite_[node].resize(writer.inputs.size(), GradWrite::Accumulate);
                gradInputWrite_[node][k] = GradWrite::Overwrite;
            } else {
                gradsZeroedAt_[node].push_back(static_cast<int>(v));
            }
        }

    // A segment's non-trainable parameters are contiguous: they follow the trainable ones in
    // node order, so one copy backs them up.
    segmentEndingAt_.assign(graph_.nodes.size(), -1);
    for (std::size_t s = 0; s < plan_.segments.size(); ++s) {
        const CheckpointSegment& seg = plan_.segments[s];
        segmentEndingAt_[static_cast<std::size_t>(seg.last)] = static_cast<int>(s);
        void* state = nullptr;
        for (int i = seg.first; i <= seg.last && !state; ++i)
            for (int p : nodeParams_[static_cast<std::size_t>(i)])
                if (!params_[p].trainable) {
                    state = params_[p].value.raw();
                    break;
                }
        segmentState_.emplace_back(state, seg.stateBackup.bytes ? static_cast<char*>(arena_->data()) + seg.stateBackup.offset : nullptr);
    }

    cpuPasses_.assign(graph_.nodes.size(), 0);
    for (const CpuPass& p : plan_.cpuPasses) cpuPasses_[static_cast<std::size_t>(p.node)] |= 1u << unsigned(p.pass);
    if (!plan_.cpuPasses.empty()) cpu_ = std::make_unique<CpuFallback>(backend_, plan_.hostWorkspaceBytes);

    planFusion();
    lossSeed_ = Tensor::empty(Shape{1}, DType::F32, alloc);
    const float one = 1.0f;
    backend_.copyFromHost(lossSeed_.raw(), &one, sizeof one);
    initParameters(0);
}

Executor::~Executor() = default;

void Executor::viewBuffers()
{
    values_.clear(), grads_.clear(), backValues_.clear();
    for (std::size_t v = 0; v < graph_.values.size(); ++v) {
        values_.push_back(bufferView(plan_.values[v], graph_.values[v].spec));
        grads_.push_back(plan_.grads[v].bytes ? bufferView(plan_.grads[v], graph_.values[v].spec) : Tensor());
        backValues_.push_back(plan_.recomputedValues[v].bytes ? bufferView(plan_.recomputedValues[v], graph_.values[v].spec)
                                                              : values_.back());
    }
    saved_.assign(graph_.nodes.size(), {});
    backSaved_.assign(graph_.nodes.size(), {});
    for (std::size_t i = 0; i < graph_.nodes.size(); ++i)
        for (std::size_t k = 0; k < graph_.nodes[i].saved.size(); ++k) {
            saved_[i].push_back(bufferView(plan_.saved[i][k], graph_.nodes[i].saved[k]));
            backSaved_[i].push_back(plan_.recomputedSaved[i].empty() ? saved_[i].back()
                                                                     : bufferView(plan_.recomputedSaved[i][k], graph_.nodes[i].saved[k]));
        }
}

Tensor Executor::bufferView(const BufferPlan& b, const TensorSpec& spec) const
{
    return Tensor::view(arena_, b.offset, spec.shape, spec.dtype);
}

const Parameter* Executor::findParameter(const std::string& name) const
{
    for (const auto& p : params_)
        if (p.name == name) return &p;
    return nullptr;
}

void Executor::initParameters(std::uint64_t seed)
{
    for (auto& p : params_) {
        Tensor host = Tensor::empty(p.value.shape());
        initialise(p.init, host.data<float>(), host.numel(), mixSeed(seed, stableHash(p.name)));
        backend_.copyFromHost(p.value.raw(), host.raw(), host.bytes());
    }
    zeroGrad();
}

void Executor::setInput(const std::string& name, const Tensor& host)
{
    const int v = graph_.findValue(name);
    if (v < 0 || graph_.values[v].producer >= 0) throw std::invalid_argument("'" + name + "' is not a graph input");
    const Tensor& dst = values_[v];
    if (host.shape() != dst.shape() || host.dtype() != dst.dtype())
        throw std::invalid_argument("input '" + name + "' expects " + dst.shape().str() + " " +
                                    std::string(dtypeName(dst.dtype())) + ", got " + host.shape().str() + " " +
                                    std::string(dtypeName(host.dtype())));
    backend_.copyFromHost(dst.raw(), host.raw(), host.bytes());
}

void Executor::setTraining(bool training) { training_ = training && trainingPlan_; }

OpContext Executor::context(std::size_t i, const std::vector<Tensor>& values, const std::vector<Tensor>& saved,
                            Backend& backend) const
{
    const CheckedNode& node = graph_.nodes[i];
    OpContext ctx{backend, node.attrs};
    for (int v : node.inputs) ctx.inputs.push_back(values[v]);
    ctx.output = values[node.output];
    for (int p : nodeParams_[i]) ctx.params.push_back(params_[p].value);
    ctx.saved = saved;
    ctx.workspace = workspace_->data();
    ctx.training = training_;
    if (crossRankSum_) ctx.acrossRanks = &crossRankSum_;
    ctx.seed = mixSeed(mixSeed(seed_, step_), i);  // the recomputation draws the same dropout masks
    return ctx;
}

void Executor::run(std::size_t i, OpPass pass, OpContext& ctx)
{
    const Op& op = *graph_.nodes[i].op;
    if (cpuPasses_[i] & (1u << unsigned(pass))) {
        std::vector<bool> state;  // what a forward may update: the buffers (running statistics)
        for (int p : nodeParams_[i]) state.push_back(!params_[p].trainable);
        cpu_->run(op, ctx, isBackward(pass), state);
    } else if (isBackward(pass)) {
        op.backward(ctx);
    } else {
        op.forward(ctx);
    }
}

void Executor::forward()
{
    const OpPass pass = training_ ? OpPass::TrainingForward : OpPass::InferenceForward;
    for (std::size_t i = 0; i < graph_.nodes.size(); ++i) {
        if (fusing() && fusedWith(i) >= 0) continue;  // node i - 1 ran it
        OpContext ctx = context(i, values_, saved_[i], backendOf(i));
        timed(i, &NodeTiming::forwardSeconds, [&] { run(i, pass, ctx); });
    }
}

// Runs the segment's forward again into the buffers backward reads. Running statistics were
// updated by forward(); they are restored afterwards so momentum is applied once.
void Executor::recompute(const CheckpointSegment& segment)
{
    const auto [state, backup] = segmentState_[static_cast<std::size_t>(&segment - plan_.segments.data())];
    if (backup) backend_.copyBytes(backup, state, segment.stateBackup.bytes);
    for (int j = segment.first; j <= segment.last; ++j) {
        const auto i = static_cast<std::size_t>(j);
        OpContext ctx = context(i, backValues_, backSaved_[i], backend_);  // segments are never fused
        timed(i, &NodeTiming::recomputeSeconds, [&] { run(i, OpPass::TrainingForward, ctx); });
    }
    if (backup) backend_.copyBytes(state, backup, segment.stateBackup.bytes);
}

void Executor::backward()
{
    if (!trainingPlan_) throw std::logic_error("backward() on an executor planned for inference");
    if (graph_.lossValue < 0) throw std::logic_error("backward() on a graph without a loss node");
    const int n = static_cast<int>(graph_.nodes.size());
    const OpPass pass = training_ ? OpPass::TrainingBackward : OpPass::InferenceBackward;
    for (int i = n - 1; i >= 0; --i) {
        if (segmentEndingAt_[i] >= 0) recompute(plan_.segments[static_cast<std::size_t>(segmentEndingAt_[i])]);
        if (!plan_.runsBackward[i]) continue;
        const CheckedNode& node = graph_.nodes[i];
        // A gradient buffer comes alive just before the first backward that writes it: zeroed for
        // the primitives that accumulate, or handed over to be overwritten.
        for (int v : gradsZeroedAt_[i]) backend_.zeroBytes(grads_[v].raw(), grads_[v].bytes());
        if (node.output == graph_.lossValue) backend_.copyBytes(grads_[node.output].raw(), lossSeed_.raw(), sizeof(float));
        if (fusing() && fusedWith(static_cast<std::size_t>(i)) >= 0) {  // node i - 1 runs its backward
            if (backwardHook_) backwardHook_(i);
            continue;
        }
        const auto k = static_cast<std::size_t>(i);
        OpContext ctx = context(k, backValues_, backSaved_[k], backendOf(k));
        for (int v : node.inputs) ctx.gradInputs.push_back(grads_[v]);
        ctx.gradOutput = grads_[node.output];
        for (int p : nodeParams_[k]) ctx.gradParams.push_back(params_[p].grad);
        ctx.gradInputWrite = gradInputWrite_[k];
        timed(k, &NodeTiming::backwardSeconds, [&] { run(k, pass, ctx); });
        if (backwardHook_) backwardHook_(i);
    }
}

void Executor::setProfiling(bool on)
{
    profiling_ = on;
    timings_.assign(graph_.nodes.size(), NodeTiming{});
}

template <class Fn> void Executor::timed(std::size_t node, double NodeTiming::*field, Fn&& fn)
{
    if (!profiling_) return fn();
    backend_.synchronize();
    const auto start = std::chrono::steady_clock::now();
    fn();
    backend_.synchronize();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    timings_[node].*field += seconds;
    if (field == &NodeTiming::recomputeSeconds) timings_[node].backwardSeconds += seconds;
    if (field == &NodeTiming::forwardSeconds) ++timings_[node].calls;
}

void Executor::setLossScale(float scale) { backend_.copyFromHost(lossSeed_.raw(), &scale, sizeof scale); }

void Executor::zeroGrad()
{
    if (flatGrads_.numel() > 0) backend_.zeroBytes(gradStorage_->data(), gradStorage_->bytes());
}

float Executor::loss() const
{
    if (graph_.lossValue < 0) throw std::logic_error("the graph has no loss node");
    float host = 0;
    backend_.copyToHost(&host, values_[graph_.lossValue].raw(), sizeof host);
    return host;
}

Tensor Executor::value(const std::string& name) const
{
    const int v = graph_.findValue(name);
    if (v < 0) throw std::invalid_argument("no value named '" + name + "'");
    return values_[v];
}

Tensor Executor::grad(const std::string& name) const
{
    const int v = graph_.findValue(name);
    if (v < 0) throw std::invalid_argument("no value named '" + name + "'");
    return grads_[v];
}

}  // namespace ts
