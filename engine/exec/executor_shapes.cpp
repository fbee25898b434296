// Executor::fitInput: the same model at other input shapes, inside the buffers planned for one.
// A batch of texts cut to its longest runs the same nodes on fewer tokens; every tensor is then
// no larger than planned, so the plan (offsets, lifetimes, fusion, checkpoint segments) holds
// and only the views change.
#include <algorithm>
#include <stdexcept>

#include "backend/backend.h"
#include "exec/executor.h"

namespace ts {

namespace {

std::size_t bytesOf(const TensorSpec& s) { return static_cast<std::size_t>(s.shape.numel()) * dtypeSize(s.dtype); }

// A buffer planned with `planned` bytes (0: none) holds `spec`.
bool holds(const BufferPlan& planned, const TensorSpec& spec) { return planned.bytes == 0 || bytesOf(spec) <= planned.bytes; }

}  // namespace

bool Executor::fitsPlan(const CheckedGraph& g) const
{
    const CheckedGraph& p = planned_;
    if (g.nodes.size() != p.nodes.size() || g.values.size() != p.values.size()) return false;
    for (std::size_t v = 0; v < g.values.size(); ++v) {
        const TensorSpec& spec = g.values[v].spec;
        if (spec.dtype != p.values[v].spec.dtype || bytesOf(spec) > plan_.values[v].bytes || !holds(plan_.grads[v], spec) ||
            !holds(plan_.recomputedValues[v], spec))
            return false;
    }
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const CheckedNode &n = g.nodes[i], &q = p.nodes[i];
        if (n.op != q.op || n.params.size() != q.params.size() || n.saved.size() != q.saved.size()) return false;
        for (std::size_t k = 0; k < n.params.size(); ++k)
            if (n.params[k].name != q.params[k].name || n.params[k].shape != q.params[k].shape) return false;
        for (std::size_t k = 0; k < n.saved.size(); ++k)
            if (bytesOf(n.saved[k]) > plan_.saved[i][k].bytes ||
                (!plan_.recomputedSaved[i].empty() && bytesOf(n.saved[k]) > plan_.recomputedSaved[i][k].bytes))
                return false;
        std::vector<TensorSpec> inputs;
        for (int v : n.inputs) inputs.push_back(g.values[std::size_t(v)].spec);
        const TensorSpec& out = g.values[std::size_t(n.output)].spec;
        if (n.op->workspaceBytes(backend_, n.attrs, inputs, out) > plan_.workspaceBytes) return false;
        if (cpuPasses_[i] && n.op->workspaceBytes(cpuBackend(), n.attrs, inputs, out) > plan_.hostWorkspaceBytes) return false;
    }
    return true;
}

bool Executor::fitInput(const std::string& name, const Shape& shape)
{
    const int v = planned_.findValue(name);
    if (v < 0 || planned_.values[std::size_t(v)].producer >= 0) throw std::invalid_argument("'" + name + "' is not a graph input");
    if (graph_.values[std::size_t(v)].spec.shape == shape) return true;
    const auto use = [&](const CheckedGraph& g) {
        graph_ = g;
        viewBuffers();
        planFusion();  // a fused batch norm holds views of its tensors
        return true;
    };
    if (planned_.values[std::size_t(v)].spec.shape == shape) return use(planned_);
    auto [it, fresh] = resized_.try_emplace({name, shape.dims()});
    if (fresh) {
        try {
            CheckedGraph g = withInputShape(planned_, name, shape);
            if (fitsPlan(g)) it->second = std::move(g);
        } catch (const GraphError&) {  // the model takes no such input: nullopt
        }
    }
    return it->second && use(*it->second);
}

}  // namespace ts
