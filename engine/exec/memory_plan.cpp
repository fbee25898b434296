#include "exec/memory_plan.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <utility>

#include "backend/backend.h"
#include "tensor/checked_size.h"

namespace ts {

namespace {

// Every buffer's bytes fit an int64 (checkGraph refuses larger); what adds them up is checked,
// and placement offsets stay below the checked sum of all buffers (unsharedBytes).
std::size_t aligned(std::size_t bytes)
{
    return checkedAdd(bytes, kBufferAlignment - 1, "a buffer of the plan") / kBufferAlignment * kBufferAlignment;
}
std::size_t specBytes(const TensorSpec& s) { return static_cast<std::size_t>(s.shape.numel()) * dtypeSize(s.dtype); }
constexpr const char* kPlanned = "the planned memory";

// Greedy placement, largest first: each buffer takes the lowest offset that does not
// collide with an already placed buffer alive at the same time. Returns the arena size.
// Tight, but each buffer looks at every placed one: quadratic (a 40,000-layer chain took 21 s).
std::size_t placeLargestFirst(std::vector<BufferPlan*>& buffers)
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

// Placement in time order, as an allocator would: at each slot the buffers that died before
// it are freed (merging with free neighbours), then the ones born at it (largest first) take
// the smallest free block that fits, or the end of the arena. O(n log n).
std::size_t placeInTimeOrder(std::vector<BufferPlan*>& buffers)
{
    std::vector<BufferPlan*> byStart = buffers, byEnd = buffers;
    std::stable_sort(byStart.begin(), byStart.end(), [](const BufferPlan* a, const BufferPlan* b) {
        return a->start != b->start ? a->start < b->start : a->bytes > b->bytes;
    });
    std::stable_sort(byEnd.begin(), byEnd.end(), [](const BufferPlan* a, const BufferPlan* b) { return a->end < b->end; });
    std::map<std::size_t, std::size_t> freeAt;              // offset -> bytes, below `frontier`
    std::set<std::pair<std::size_t, std::size_t>> freeBySize;  // (bytes, offset): the same blocks
    auto forget = [&](std::size_t offset, std::size_t bytes) { freeBySize.erase({bytes, offset}); };
    std::size_t frontier = 0, arena = 0;
    std::size_t nextEnd = 0;
    for (BufferPlan* b : byStart) {
        for (; nextEnd < byEnd.size() && byEnd[nextEnd]->end < b->start; ++nextEnd) {
            const BufferPlan* d = byEnd[nextEnd];
            if (d->bytes == 0) continue;
            std::size_t offset = d->offset, bytes = d->bytes;
            auto after = freeAt.lower_bound(offset);
            if (after != freeAt.end() && after->first == offset + bytes) {
                bytes += after->second, forget(after->first, after->second);
                after = freeAt.erase(after);
            }
            if (after != freeAt.begin()) {
                auto before = std::prev(after);
                if (before->first + before->second == offset) {
                    offset = before->first, bytes += before->second, forget(before->first, before->second);
                    freeAt.erase(before);
                }
            }
            if (offset + bytes == frontier) {
                frontier = offset;  // the arena's top is free again
            } else {
                freeAt.emplace(offset, bytes);
                freeBySize.emplace(bytes, offset);
            }
        }
        if (b->bytes == 0) {
            b->offset = 0;
            continue;
        }
        auto fit = freeBySize.lower_bound({b->bytes, 0});
        if (fit != freeBySize.end()) {
            const std::size_t bytes = fit->first, offset = fit->second;
            freeBySize.erase(fit);
            freeAt.erase(offset);
            b->offset = offset;
            if (bytes > b->bytes) {
                freeAt.emplace(offset + b->bytes, bytes - b->bytes);
                freeBySize.emplace(bytes - b->bytes, offset + b->bytes);
            }
        } else {
            b->offset = frontier;
            frontier += b->bytes;
        }
        arena = std::max(arena, frontier);
    }
    return arena;
}

// Up to this many buffers (graphs of a few thousand layers) the tight quadratic placement
// takes milliseconds; past it the allocator-style one keeps planning O(n log n).
constexpr std::size_t kLargestFirstLimit = 8192;

std::size_t place(std::vector<BufferPlan*>& buffers)
{
    return buffers.size() <= kLargestFirstLimit ? placeLargestFirst(buffers) : placeInTimeOrder(buffers);
}

// Traces each pass the plan runs (with the gradients it wants) and finds what the backend lacks.
void planPrimitives(const CheckedGraph& g, Backend& backend, const std::vector<bool>& needsGrad, MemoryPlan& plan)
{
    plan.traces.resize(g.nodes.size());
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const CheckedNode& node = g.nodes[i];
        std::vector<TensorSpec> inputs;
        std::vector<bool> inputGrads;
        for (int v : node.inputs) inputs.push_back(g.values[v].spec), inputGrads.push_back(needsGrad[v]);
        bool onCpu = false;
        for (OpPass pass : kAllOpPasses) {
            const bool runs = pass == OpPass::InferenceForward ||
                              (plan.training && (pass == OpPass::TrainingForward || plan.runsBackward[i]));
            if (!runs) continue;
            std::vector<PrimitiveCall>& calls = plan.traces[i][pass] = traceOp(*node.op, pass, node.attrs, inputs, inputGrads);
            std::vector<Primitive> missing = unsupportedPrimitives(calls, backend);
            if (missing.empty()) continue;
            plan.cpuPasses.push_back(CpuPass{static_cast<int>(i), pass, std::move(missing)});
            onCpu = true;
        }
        if (onCpu)
            plan.hostWorkspaceBytes = std::max(plan.hostWorkspaceBytes, node.op->workspaceBytes(cpuBackend(), node.attrs, inputs,
                                                                                                g.values[node.output].spec));
    }
}

}  // namespace

int MemoryPlan::cpuNodes() const
{
    std::set<int> nodes;
    for (const CpuPass& c : cpuPasses) nodes.insert(c.node);
    return static_cast<int>(nodes.size());
}

MemoryPlan planMemory(const CheckedGraph& g, Backend& backend, bool training)
{
    const int n = static_cast<int>(g.nodes.size());

    MemoryPlan plan;
    plan.training = training;
    plan.values.resize(g.values.size());
    plan.grads.resize(g.values.size());
    plan.recomputedValues.resize(g.values.size());
    plan.saved.resize(g.nodes.size());
    plan.recomputedSaved.resize(g.nodes.size());
    plan.runsBackward.assign(g.nodes.size(), false);

    // Which values need a gradient: those on a path to the loss through differentiable inputs
    // that depend on a trainable parameter. What comes before every parameter (a Flatten of the
    // image before the MLP's first Linear) needs none, so that Linear skips its input gradient,
    // a whole GEMM, as PyTorch skips what does not require grad.
    std::vector<bool> trainableUpstream(g.values.size(), false);
    for (int i = 0; i < n; ++i) {
        const CheckedNode& node = g.nodes[i];
        bool upstream = std::any_of(node.params.begin(), node.params.end(), [](const ParamSpec& p) { return p.trainable; });
        for (std::size_t k = 0; k < node.inputs.size(); ++k)
            upstream = upstream || (node.op->inputDifferentiable(static_cast<int>(k)) && trainableUpstream[node.inputs[k]]);
        trainableUpstream[node.output] = upstream;
    }
    std::vector<bool> needsGrad(g.values.size(), false);
    if (training && g.lossValue >= 0 && trainableUpstream[g.lossValue]) {
        needsGrad[g.lossValue] = true;
        for (int i = n - 1; i >= 0; --i) {
            const CheckedNode& node = g.nodes[i];
            if (!needsGrad[node.output]) continue;
            plan.runsBackward[i] = true;
            for (std::size_t k = 0; k < node.inputs.size(); ++k)
                if (node.op->inputDifferentiable(static_cast<int>(k)) && trainableUpstream[node.inputs[k]])
                    needsGrad[node.inputs[k]] = true;
        }
    }

    // Segments worth recomputing: a run with no backward keeps nothing for it anyway.
    std::vector<int> segmentOf(g.nodes.size(), -1);
    auto addSegment = [&](int first, int last) {
        if (!std::any_of(plan.runsBackward.begin() + first, plan.runsBackward.begin() + last + 1, [](bool b) { return b; })) return;
        for (int k = first; k <= last; ++k) segmentOf[k] = static_cast<int>(plan.segments.size());
        plan.segments.push_back(CheckpointSegment{first, last, {}});
    };
    std::vector<int> readersAhead(g.values.size(), 0);  // of a value made in the run: its reads by later nodes of the run
    for (int i = 0; i < n; ++i) {
        if (!g.nodes[i].checkpoint) continue;
        int end = i;
        while (end + 1 < n && g.nodes[end + 1].checkpoint) ++end;
        // Split at the residual stream (see memory_plan.h): after node k when its output is
        // the one value made in the run that the rest of the run still reads, and two or more
        // of its reads are ahead.
        int first = i, open = 0;  // open: values made in the run with reads ahead
        for (int k = i; k <= end; ++k) {
            for (int v : g.nodes[k].inputs)
                if (readersAhead[v] > 0 && --readersAhead[v] == 0) --open;
            const int out = g.nodes[k].output;
            for (int c : g.values[out].consumers)
                if (c > k && c <= end) readersAhead[out] += static_cast<int>(std::count(g.nodes[c].inputs.begin(), g.nodes[c].inputs.end(), out));
            if (readersAhead[out] > 0) ++open;
            if (k == end || (readersAhead[out] >= 2 && open == 1)) {
                addSegment(first, k);
                first = k + 1;
            }
        }
        i = end;
    }

    // The timeline: forwards, then backwards in reverse, each segment's recomputation just
    // before the backward of its last node.
    plan.backwardSlot.assign(g.nodes.size(), 0);
    plan.recomputeSlot.assign(g.nodes.size(), -1);
    int t = n;
    for (int i = n - 1; i >= 0; --i) {
        if (segmentOf[i] >= 0 && plan.segments[segmentOf[i]].last == i)
            for (int k = plan.segments[segmentOf[i]].first; k <= i; ++k) plan.recomputeSlot[k] = t++;
        plan.backwardSlot[i] = t++;
    }
    plan.slotCount = training ? t : n;
    const int lastSlot = plan.slotCount - 1;
    const auto& bwd = plan.backwardSlot;
    const auto& rec = plan.recomputeSlot;

    for (std::size_t v = 0; v < g.values.size(); ++v) {
        const ValueInfo& info = g.values[v];
        const int p = info.producer;
        const bool keptToEnd = static_cast<int>(v) == g.outputValue || static_cast<int>(v) == g.lossValue || p < 0;
        // Dropped after forward: made inside a recomputed segment (not by its last node) and
        // used only inside it, so recomputing the segment brings it back for every later use.
        const bool dropped = p >= 0 && segmentOf[p] >= 0 && plan.segments[segmentOf[p]].last != p && !keptToEnd &&
                             std::all_of(info.consumers.begin(), info.consumers.end(), [&](int c) { return segmentOf[c] == segmentOf[p]; });
        BufferPlan& b = plan.values[v];
        b.bytes = aligned(specBytes(info.spec));
        b.start = std::max(p, 0);
        int forwardEnd = b.start, backwardStart = p >= 0 ? rec[p] : -1, backwardEnd = backwardStart;
        for (int c : info.consumers) {
            forwardEnd = std::max(forwardEnd, c);
            if (rec[c] >= 0) backwardEnd = std::max(backwardEnd, rec[c]);
            if (plan.runsBackward[c]) backwardEnd = std::max(backwardEnd, bwd[c]);
        }
        if (p >= 0 && plan.runsBackward[p]) backwardEnd = std::max(backwardEnd, bwd[p]);
        if (dropped) {
            b.end = forwardEnd;
            plan.recomputedValues[v] = BufferPlan{0, b.bytes, backwardStart, backwardEnd};
        } else {
            b.end = keptToEnd ? lastSlot : std::max(forwardEnd, backwardEnd);  // graph inputs: written before any step
        }

        if (needsGrad[v]) {
            BufferPlan& gb = plan.grads[v];
            gb.bytes = b.bytes;
            gb.end = bwd[p];
            gb.start = gb.end;
            for (int c : info.consumers)
                if (plan.runsBackward[c]) gb.start = std::min(gb.start, bwd[c]);
        }
    }
    for (int i = 0; i < n; ++i) {
        for (const TensorSpec& s : g.nodes[i].saved) {
            const std::size_t bytes = aligned(specBytes(s));
            const int end = plan.runsBackward[i] ? bwd[i] : i;
            if (rec[i] < 0) {
                plan.saved[i].push_back(BufferPlan{0, bytes, i, end});
            } else {  // written in forward, rewritten by the recomputation for backward
                plan.saved[i].push_back(BufferPlan{0, bytes, i, i});
                plan.recomputedSaved[i].push_back(BufferPlan{0, bytes, rec[i], std::max(rec[i], end)});
            }
        }
        std::vector<TensorSpec> inputs;
        for (int v : g.nodes[i].inputs) inputs.push_back(g.values[v].spec);
        try {
            plan.workspaceBytes = std::max(plan.workspaceBytes, g.nodes[i].op->workspaceBytes(backend, g.nodes[i].attrs, inputs,
                                                                                              g.values[g.nodes[i].output].spec));
        } catch (const SizeOverflow& e) {  // the node the user has to change
            throw SizeOverflow("node '" + g.nodes[i].name + "' (" + g.nodes[i].op->type() + "): " + e.what());
        }
        for (const ParamSpec& p : g.nodes[i].params) {
            if (p.tied()) continue;  // its owner's storage
            const std::size_t bytes = aligned(static_cast<std::size_t>(p.shape.numel()) * sizeof(float));
            plan.parameterBytes = checkedAdd(plan.parameterBytes, bytes, kPlanned);
            if (training && p.trainable) plan.gradientBytes = checkedAdd(plan.gradientBytes, bytes, kPlanned);
            if (!p.trainable && segmentOf[i] >= 0)
                plan.segments[segmentOf[i]].stateBackup.bytes = checkedAdd(plan.segments[segmentOf[i]].stateBackup.bytes, bytes, kPlanned);
        }
    }
    for (CheckpointSegment& s : plan.segments) s.stateBackup.start = rec[s.first], s.stateBackup.end = rec[s.last];
    planPrimitives(g, backend, needsGrad, plan);

    std::vector<BufferPlan*> all;
    for (auto& b : plan.values) all.push_back(&b);
    for (auto& b : plan.grads)
        if (b.bytes) all.push_back(&b);
    for (auto& b : plan.recomputedValues)
        if (b.bytes) all.push_back(&b);
    for (auto* lists : {&plan.saved, &plan.recomputedSaved})
        for (auto& list : *lists)
            for (auto& b : list) all.push_back(&b);
    for (auto& s : plan.segments)
        if (s.stateBackup.bytes) all.push_back(&s.stateBackup);
    for (const BufferPlan* b : all) plan.unsharedBytes = checkedAdd(plan.unsharedBytes, b->bytes, kPlanned);
    plan.activationBytes = place(all);
    // Once here, total() cannot wrap.
    checkedAdd(checkedAdd(plan.parameterBytes, plan.gradientBytes, kPlanned), checkedAdd(plan.activationBytes, plan.workspaceBytes, kPlanned),
               kPlanned);
    return plan;
}

}  // namespace ts
