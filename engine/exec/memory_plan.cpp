#include "exec/memory_plan.h"

#include <algorithm>

#include "backend/backend.h"

namespace ts {

namespace {

std::size_t aligned(std::size_t bytes) { return (bytes + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment; }
std::size_t specBytes(const TensorSpec& s) { return static_cast<std::size_t>(s.shape.numel()) * dtypeSize(s.dtype); }

// Greedy placement, largest first: each buffer takes the lowest offset that does not
// collide with an already placed buffer alive at the same time. Returns the arena size.
std::size_t place(std::vector<BufferPlan*>& buffers)
{
    std::stable_sort(buffers.begin(), buffers.end(),
                     [](const BufferPlan* a, const BufferPlan* b) { return a->bytes > b->bytes; });
    std::vector<const BufferPlan*> placed;
    std::size_t arena = 0;
    for (BufferPlan* b : buffers) {
        std::vector<const BufferPlan*> live;
        for (const BufferPlan* p : placed)
            if (p->start <= b->end && b->start <= p->end) live.push_back(p);
        std::sort(live.begin(), live.end(), [](auto* x, auto* y) { return x->offset < y->offset; });
        std::size_t offset = 0;
        for (const BufferPlan* p : live) {
            if (offset + b->bytes <= p->offset) break;
            offset = std::max(offset, p->offset + p->bytes);
        }
        b->offset = offset;
        arena = std::max(arena, offset + b->bytes);
        placed.push_back(b);
    }
    return arena;
}

}  // namespace

MemoryPlan planMemory(const CheckedGraph& g, Backend& backend, bool training)
{
    const int n = static_cast<int>(g.nodes.size());
    const int lastSlot = training ? 2 * n - 1 : n - 1;
    auto backwardSlot = [n](int node) { return 2 * n - 1 - node; };

    MemoryPlan plan;
    plan.training = training;
    plan.values.resize(g.values.size());
    plan.grads.resize(g.values.size());
    plan.saved.resize(g.nodes.size());
    plan.runsBackward.assign(g.nodes.size(), false);

    // Which values need a gradient: those on a path to the loss through differentiable inputs.
    std::vector<bool> needsGrad(g.values.size(), false);
    if (training && g.lossValue >= 0) {
        needsGrad[g.lossValue] = true;
        for (int i = n - 1; i >= 0; --i) {
            const CheckedNode& node = g.nodes[i];
            if (!needsGrad[node.output]) continue;
            plan.runsBackward[i] = true;
            for (std::size_t k = 0; k < node.inputs.size(); ++k)
                if (node.op->inputDifferentiable(static_cast<int>(k)) && g.values[node.inputs[k]].producer >= 0)
                    needsGrad[node.inputs[k]] = true;
        }
    }

    for (std::size_t v = 0; v < g.values.size(); ++v) {
        const ValueInfo& info = g.values[v];
        BufferPlan& b = plan.values[v];
        b.bytes = aligned(specBytes(info.spec));
        b.start = std::max(info.producer, 0);
        b.end = b.start;
        for (int c : info.consumers) {
            b.end = std::max(b.end, c);
            if (plan.runsBackward[c]) b.end = std::max(b.end, backwardSlot(c));
        }
        if (info.producer >= 0 && plan.runsBackward[info.producer]) b.end = std::max(b.end, backwardSlot(info.producer));
        if (static_cast<int>(v) == g.outputValue || static_cast<int>(v) == g.lossValue) b.end = lastSlot;
        if (info.producer < 0) b.end = lastSlot;  // inputs are written by the caller before any step

        if (needsGrad[v]) {
            BufferPlan& gb = plan.grads[v];
            gb.bytes = b.bytes;
            gb.end = backwardSlot(info.producer);
            gb.start = gb.end;
            for (int c : info.consumers)
                if (plan.runsBackward[c]) gb.start = std::min(gb.start, backwardSlot(c));
        }
    }
    for (int i = 0; i < n; ++i) {
        for (const TensorSpec& s : g.nodes[i].saved)
            plan.saved[i].push_back(BufferPlan{0, aligned(specBytes(s)), i, plan.runsBackward[i] ? backwardSlot(i) : i});
        std::vector<TensorSpec> inputs;
        for (int v : g.nodes[i].inputs) inputs.push_back(g.values[v].spec);
        plan.workspaceBytes = std::max(plan.workspaceBytes,
                                       g.nodes[i].op->workspaceBytes(backend, g.nodes[i].attrs, inputs, g.values[g.nodes[i].output].spec));
        for (const ParamSpec& p : g.nodes[i].params) {
            const std::size_t bytes = aligned(static_cast<std::size_t>(p.shape.numel()) * sizeof(float));
            plan.parameterBytes += bytes;
            if (training && p.trainable) plan.gradientBytes += bytes;
        }
    }

    std::vector<BufferPlan*> all;
    for (auto& b : plan.values) all.push_back(&b);
    for (auto& b : plan.grads)
        if (b.bytes) all.push_back(&b);
    for (auto& list : plan.saved)
        for (auto& b : list) all.push_back(&b);
    for (const BufferPlan* b : all) plan.unsharedBytes += b->bytes;
    plan.activationBytes = place(all);
    return plan;
}

}  // namespace ts
