#include "exec/executor.h"

#include <chrono>
#include <stdexcept>

#include "backend/backend.h"
#include "ops/init.h"

namespace ts {

Executor::Executor(CheckedGraph graph, Backend& backend, bool training)
    : graph_(std::move(graph)), backend_(backend), plan_(planMemory(graph_, backend, training)),
      trainingPlan_(training), training_(training)
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
                if (spec.trainable != (pass == 0)) continue;
                Parameter p;
                p.name = spec.name;
                p.init = spec.init;
                p.trainable = spec.trainable;
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
    // Node order in nodeParams_ must follow Op::params() order; restore it (pass order split them).
    for (std::size_t i = 0; i < graph_.nodes.size(); ++i) {
        std::vector<int> ordered;
        for (const ParamSpec& spec : graph_.nodes[i].params)
            for (int idx : nodeParams_[i])
                if (params_[idx].name == spec.name) ordered.push_back(idx);
        nodeParams_[i] = ordered;
    }

    for (std::size_t v = 0; v < graph_.values.size(); ++v) {
        values_.push_back(bufferView(plan_.values[v], graph_.values[v].spec));
        grads_.push_back(plan_.grads[v].bytes ? bufferView(plan_.grads[v], graph_.values[v].spec) : Tensor());
    }
    gradsBornAt_.resize(graph_.nodes.size());
    const int slots = 2 * static_cast<int>(graph_.nodes.size());
    for (std::size_t v = 0; v < graph_.values.size(); ++v)
        if (plan_.grads[v].bytes) gradsBornAt_[static_cast<std::size_t>(slots - 1 - plan_.grads[v].start)].push_back(static_cast<int>(v));
    saved_.resize(graph_.nodes.size());
    for (std::size_t i = 0; i < graph_.nodes.size(); ++i)
        for (std::size_t k = 0; k < graph_.nodes[i].saved.size(); ++k)
            saved_[i].push_back(bufferView(plan_.saved[i][k], graph_.nodes[i].saved[k]));

    lossSeed_ = Tensor::empty(Shape{1}, DType::F32, alloc);
    const float one = 1.0f;
    backend_.copyFromHost(lossSeed_.raw(), &one, sizeof one);
    initParameters(0);
}

Executor::~Executor() = default;

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

void Executor::forward()
{
    for (std::size_t i = 0; i < graph_.nodes.size(); ++i) {
        const CheckedNode& node = graph_.nodes[i];
        OpContext ctx{backend_, node.attrs};
        for (int v : node.inputs) ctx.inputs.push_back(values_[v]);
        ctx.output = values_[node.output];
        for (int p : nodeParams_[i]) ctx.params.push_back(params_[p].value);
        ctx.saved = saved_[i];
        ctx.workspace = workspace_->data();
        ctx.training = training_;
        ctx.seed = mixSeed(mixSeed(seed_, step_), i);
        timed(i, &NodeTiming::forwardSeconds, [&] { node.op->forward(ctx); });
    }
}

void Executor::backward()
{
    if (!trainingPlan_) throw std::logic_error("backward() on an executor planned for inference");
    if (graph_.lossValue < 0) throw std::logic_error("backward() on a graph without a loss node");
    const int n = static_cast<int>(graph_.nodes.size());
    for (int i = n - 1; i >= 0; --i) {
        if (!plan_.runsBackward[i]) continue;
        const CheckedNode& node = graph_.nodes[i];
        // Each gradient buffer is zeroed when it comes alive, just before the first backward
        // that writes it; backward primitives then accumulate.
        for (int v : gradsBornAt_[i]) backend_.zeroBytes(grads_[v].raw(), grads_[v].bytes());
        if (node.output == graph_.lossValue) backend_.copyBytes(grads_[node.output].raw(), lossSeed_.raw(), sizeof(float));
        OpContext ctx{backend_, node.attrs};
        for (int v : node.inputs) {
            ctx.inputs.push_back(values_[v]);
            ctx.gradInputs.push_back(grads_[v]);
        }
        ctx.output = values_[node.output];
        ctx.gradOutput = grads_[node.output];
        for (int p : nodeParams_[i]) {
            ctx.params.push_back(params_[p].value);
            ctx.gradParams.push_back(params_[p].grad);
        }
        ctx.saved = saved_[i];
        ctx.workspace = workspace_->data();
        ctx.training = training_;
        ctx.seed = mixSeed(mixSeed(seed_, step_), i);
        timed(static_cast<std::size_t>(i), &NodeTiming::backwardSeconds, [&] { node.op->backward(ctx); });
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
    timings_[node].*field += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
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
