// Runs a checked graph on a backend: forward, backward (reverse order), zero-grad, with
// every activation placed in one arena by the memory plan. Parameters live in one flat
// buffer (and their gradients in another), so optimizers can update them in one sweep.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "exec/cpu_fallback.h"
#include "exec/memory_plan.h"
#include "graph/graph.h"
#include "tensor/tensor.h"

namespace ts {

class Backend;

struct Parameter {
    std::string name;  // "fc1.weight"
    Tensor value;
    Tensor grad;  // undefined for buffers (running statistics) and in inference executors
    InitSpec init;
    bool trainable = true;
    bool decay = false;  // in weight decay's group (ops/op.h decays())
};

// Accumulated wall time per node while profiling is on (the backend is synchronised
// around each node, so this costs speed: use it to see where time goes, not to train).
// backwardSeconds includes recomputeSeconds: a checkpointed node's second forward is part
// of what backward costs.
struct NodeTiming {
    double forwardSeconds = 0, backwardSeconds = 0, recomputeSeconds = 0;
    std::int64_t calls = 0;
};

class Executor {
public:
    // training: plan for forward + backward; otherwise forward only, with more buffer reuse.
    Executor(CheckedGraph graph, Backend& backend, bool training = true);
    // With the plan already made (planMemory of this graph, backend and mode): the trainer
    // compares it with the free memory before anything is allocated.
    Executor(CheckedGraph graph, MemoryPlan plan, Backend& backend, bool training);
    ~Executor();
    Executor(const Executor&) = delete;
    Executor& operator=(const Executor&) = delete;

    const CheckedGraph& graph() const { return graph_; }  // at the input shapes fitInput set
    const CheckedGraph& plannedGraph() const { return planned_; }  // at the shapes planned for
    const MemoryPlan& plan() const { return plan_; }
    Backend& backend() const { return backend_; }

    std::vector<Parameter>& parameters() { return params_; }
    const Parameter* findParameter(const std::string& name) const;
    // All trainable values / gradients as single contiguous tensors (views cover them).
    const Tensor& flatParameters() const { return flatValues_; }
    const Tensor& flatGradients() const { return flatGrads_; }
    // Initialises every parameter from one seed (per-parameter streams derived from names).
    void initParameters(std::uint64_t seed);

    // Copies host data into graph input `name` (shape must match, dtype must match).
    void setInput(const std::string& name, const Tensor& host);
    // Runs the same model with graph input `name` at another shape (batch included; a batch of
    // texts cut to its longest, say) inside the buffers planned for the shapes it was built
    // with: every value, gradient and saved tensor is then viewed at the new shapes, and the
    // planned shape brings the planned views back. False, and nothing changes, when the model
    // does not take that shape (it flattens the tokens into features, say), its parameters would
    // differ, or any tensor or a node's scratch would need more bytes than planned.
    bool fitInput(const std::string& name, const Shape& shape);
    // Batch norm and dropout follow this mode; an inference executor is always in eval.
    void setTraining(bool training);
    bool training() const { return training_; }
    // Dropout draws from (seed, step, node): set the step before each forward.
    void setStep(std::uint64_t step) { step_ = step; }
    void setSeed(std::uint64_t seed) { seed_ = seed; }

    void forward();
    // Requires a loss node and a training executor. Starts from d(loss) = the loss scale.
    void backward();
    // Called during backward() after each node's backward with the node's index (in reverse
    // order): that node's parameter gradients are final then, so data parallelism can start
    // their all-reduce while the rest of backward runs. Empty: none.
    void setBackwardHook(std::function<void(int node)> hook) { backwardHook_ = std::move(hook); }
    // Synchronised batch norm: statistics summed over the ranks through `sum` in training
    // mode (OpContext::acrossRanks). Empty (the default): each process's batch alone.
    void setCrossRankSum(CrossRankSum sum) { crossRankSum_ = std::move(sum); }
    // The parameters node i owns (indices into parameters()).
    const std::vector<int>& nodeParameters(std::size_t node) const { return nodeParams_[node]; }
    // The backward seed d(loss) (default 1): 1/N averages gradients accumulated over N
    // micro-batches; a large value is the loss scale of fp16 training.
    void setLossScale(float scale);
    void zeroGrad();

    // Fusion: in training, a batch norm runs the ReLU right after it in its own passes over
    // memory where the backend has the fused primitives and the memory plan allows it
    // (executor_fusion.cpp, fusedWith). Same results, bit for bit; on by default, off to compare.
    void setFusion(bool on) { fusion_ = on; }
    // The node whose forward and backward run node i's in training (-1: none).
    int fusedWith(std::size_t i) const { return i > 0 && fusedRelu_[i - 1] == int(i) ? int(i) - 1 : -1; }

    void setProfiling(bool on);
    const std::vector<NodeTiming>& timings() const { return timings_; }  // per node, in plan order

    float loss() const;  // the loss value on the host, after forward()
    // A value or its gradient (a view into the arena, valid until the buffer is reused). A
    // value inside a checkpointed segment is its forward buffer.
    Tensor value(const std::string& name) const;
    Tensor grad(const std::string& name) const;

private:
    Tensor bufferView(const BufferPlan& b, const TensorSpec& spec) const;
    void viewBuffers();  // values_, grads_, saved_ and their backward twins at graph_'s shapes
    bool fitsPlan(const CheckedGraph& g) const;  // executor_shapes.cpp
    // Node i's context on the given views of values and saved buffers (forward or backward).
    OpContext context(std::size_t i, const std::vector<Tensor>& values, const std::vector<Tensor>& saved,
                      Backend& backend) const;
    // The backend node i's training passes run on: a fusion's, or the executor's.
    Backend& backendOf(std::size_t i) { return fusing() && fused_[i] ? *fused_[i] : backend_; }
    // Runs a pass of node i on its context: on the CPU where the plan puts it (cpuPasses).
    void run(std::size_t i, OpPass pass, OpContext& ctx);
    void recompute(const CheckpointSegment& segment);
    void planFusion();  // executor_fusion.cpp
    bool fusing() const { return fusion_ && training_; }
    template <class Fn> void timed(std::size_t node, double NodeTiming::*field, Fn&& fn);

    CheckedGraph graph_;
    Backend& backend_;
    MemoryPlan plan_;
    bool trainingPlan_;
    bool training_;
    std::uint64_t seed_ = 0, step_ = 0;

    std::shared_ptr<Storage> arena_, workspace_, paramStorage_, gradStorage_;
    Tensor flatValues_, flatGrads_, lossSeed_;
    std::vector<Parameter> params_;
    std::vector<std::vector<int>> nodeParams_;  // per node: indices into params_
    std::vector<Tensor> values_, grads_;
    std::vector<std::vector<Tensor>> saved_;
    // What backward (and a segment's recomputation) reads: the recomputed buffer where the
    // plan drops the forward one, the same view otherwise.
    std::vector<Tensor> backValues_;
    std::vector<std::vector<Tensor>> backSaved_;
    std::vector<int> segmentEndingAt_;  // per node: index into plan_.segments, or -1
    std::vector<std::pair<void*, void*>> segmentState_;  // per segment: its state (bytes 0: none) and backup
    std::vector<std::vector<int>> gradsZeroedAt_;  // per node: gradient buffers zeroed before its backward
    std::vector<std::vector<GradWrite>> gradInputWrite_;  // per node: OpContext::gradInputWrite
    std::function<void(int)> backwardHook_;
    CrossRankSum crossRankSum_;
    bool profiling_ = false;
    std::vector<NodeTiming> timings_;
    // fitInput: the graph the plan was made for, and the same model checked at other input
    // shapes (nullopt: it does not take that shape, or it needs more than planned).
    CheckedGraph planned_;
    std::map<std::pair<std::string, std::vector<std::int64_t>>, std::optional<CheckedGraph>> resized_;
    std::vector<unsigned> cpuPasses_;  // per node: bit p set where the plan runs OpPass p on the CPU
    std::unique_ptr<CpuFallback> cpu_;  // null without such passes
    bool fusion_ = true;
    std::vector<int> fusedRelu_;  // per node: the ReLU node it runs too, or -1
    std::vector<std::unique_ptr<Backend>> fused_;  // per node: the backend that runs that ReLU too, or null
};

}  // namespace ts
