#include "exec/cpu_fallback.h"

#include <algorithm>
#include <map>
#include <utility>

#include "backend/backend.h"

namespace ts {

namespace {

// Host copies of the device buffers one pass sees, each buffer once.
class HostMirrors {
public:
    explicit HostMirrors(Backend& device) : device_(device) {}

    // The host copy of `t`, filled from the device when `read`; `written`: copied back by flush().
    Tensor operator()(const Tensor& t, bool read, bool written = false)
    {
        if (!t.defined()) return {};
        auto it = std::find_if(mirrors_.begin(), mirrors_.end(),
                               [&](const Mirror& m) { return m.device.raw() == t.raw() && m.device.bytes() == t.bytes(); });
        if (it == mirrors_.end()) {
            mirrors_.push_back({t, Tensor::empty(t.shape(), t.dtype())});
            it = std::prev(mirrors_.end());
        }
        if (read && !it->read) device_.copyToHost(it->host.raw(), t.raw(), t.bytes());
        it->read = it->read || read;
        it->written = it->written || written;
        return it->host;
    }
    void flush()
    {
        for (const Mirror& m : mirrors_)
            if (m.written) device_.copyFromHost(m.device.raw(), m.host.raw(), m.device.bytes());
    }

private:
    struct Mirror {
        Tensor device, host;
        bool read = false, written = false;
    };
    Backend& device_;
    std::vector<Mirror> mirrors_;
};

}  // namespace

CpuFallback::CpuFallback(Backend& device, std::size_t workspaceBytes)
    : device_(device), workspace_(std::make_shared<Storage>(CpuAllocator::instance(), std::max<std::size_t>(workspaceBytes, 1)))
{
}

void CpuFallback::run(const Op& op, const OpContext& ctx, bool backward, const std::vector<bool>& stateParams)
{
    HostMirrors host(device_);
    OpContext c{cpuBackend(), ctx.attrs};
    for (const Tensor& t : ctx.inputs) c.inputs.push_back(host(t, true));
    for (std::size_t k = 0; k < ctx.params.size(); ++k)
        c.params.push_back(host(ctx.params[k], true, !backward && k < stateParams.size() && stateParams[k]));
    // Forward writes its output whole; its saved buffers perhaps not (batch norm at inference):
    // they go over first, so what it leaves keeps its bits.
    c.output = host(ctx.output, backward, !backward);
    for (const Tensor& t : ctx.saved) c.saved.push_back(host(t, true, !backward));
    c.workspace = workspace_->data();
    c.training = ctx.training;
    c.seed = ctx.seed;
    // The communicator sums in the device's memory: the host values go over and back.
    CrossRankSum acrossRanks;
    if (ctx.acrossRanks) {
        acrossRanks = [&](float* data, std::size_t count) {
            Tensor scratch = Tensor::empty(Shape{static_cast<std::int64_t>(count)}, DType::F32, device_.allocator());
            device_.copyFromHost(scratch.raw(), data, count * sizeof(float));
            (*ctx.acrossRanks)(scratch.data<float>(), count);
            device_.copyToHost(data, scratch.raw(), count * sizeof(float));
        };
        c.acrossRanks = &acrossRanks;
    }
    if (backward) {
        c.gradOutput = host(ctx.gradOutput, true);
        // An input gradient to overwrite needs no copy in; the others accumulate onto what is there.
        for (std::size_t i = 0; i < ctx.gradInputs.size(); ++i)
            c.gradInputs.push_back(host(ctx.gradInputs[i], ctx.gradWrite(i) == GradWrite::Accumulate, true));
        for (const Tensor& t : ctx.gradParams) c.gradParams.push_back(host(t, true, true));
        c.gradInputWrite = ctx.gradInputWrite;
        op.backward(c);
    } else {
        op.forward(c);
    }
    host.flush();
}

std::vector<Message> describeCpuPasses(const CheckedGraph& graph, const MemoryPlan& plan, const std::string& backend)
{
    // Per (op type, backward): the primitives missing, in order of first need, and the nodes.
    struct Group {
        std::vector<Primitive> missing;
        std::vector<int> nodes;
    };
    std::map<std::pair<std::string, bool>, Group> groups;
    for (const CpuPass& p : plan.cpuPasses) {
        Group& g = groups[{graph.nodes[static_cast<std::size_t>(p.node)].op->type(), isBackward(p.pass)}];
        for (Primitive m : p.missing)
            if (std::find(g.missing.begin(), g.missing.end(), m) == g.missing.end()) g.missing.push_back(m);
        if (std::find(g.nodes.begin(), g.nodes.end(), p.node) == g.nodes.end()) g.nodes.push_back(p.node);
    }
    std::vector<Message> lines;
    for (const auto& [key, g] : groups) {
        std::string missing;
        for (Primitive m : g.missing) missing += (missing.empty() ? "" : ", ") + std::string(primitiveName(m));
        lines.push_back(makeMessage(key.second ? MessageId::TrainCpuBackward : MessageId::TrainCpuForward,
                                    {key.first, missing, backend, std::to_string(g.nodes.size())}));
    }
    return lines;
}

}  // namespace ts
