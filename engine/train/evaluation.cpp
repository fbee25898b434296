#include "train/evaluation.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "backend/backend.h"
#include "graph/training_check.h"
#include "train/run_control.h"

namespace ts {

GraphBinding GraphBinding::of(const CheckedGraph& graph)
{
    // The Model page shows the same problem before a run is ever started.
    if (const auto problem = trainingProblem(graph)) throw std::invalid_argument(problem->what());
    GraphBinding b;
    b.label = kLabelInput;
    for (const ValueInfo& v : graph.values)
        if (v.producer < 0 && v.name != b.label) {
            b.input = v.name;
            break;
        }
    b.logits = graph.values[static_cast<std::size_t>(graph.outputValue)].name;
    return b;
}

namespace {

// A batch cut to its longest sample, padded back to `shape` (the model's one length).
Tensor padBack(const Tensor& ids, const Shape& shape, std::int64_t paddingId)
{
    const std::int64_t n = ids.shape()[0], used = ids.shape()[1], full = shape[1];
    Tensor out = Tensor::empty(shape, DType::I64);
    std::int64_t* o = out.data<std::int64_t>();
    std::fill(o, o + out.numel(), paddingId);
    for (std::int64_t i = 0; i < n; ++i) std::copy_n(ids.data<std::int64_t>() + i * used, used, o + i * full);
    return out;
}

}  // namespace

void feedBatch(Executor& executor, const GraphBinding& binding, const Batch& batch)
{
    const Shape planned = executor.plannedGraph().values[std::size_t(executor.plannedGraph().findValue(binding.input))].spec.shape;
    Tensor inputs = batch.inputs;
    if (inputs.shape() != planned && inputs.numel() == planned.numel()) inputs = inputs.reshaped(planned);
    // Texts cut to the batch's longest run at that length where the model takes it.
    if (batch.paddingId >= 0 && inputs.shape() != planned && inputs.shape().rank() == 2 && planned.rank() == 2 &&
        inputs.shape()[0] == planned[0] && inputs.shape()[1] < planned[1] && !executor.fitInput(binding.input, inputs.shape()))
        inputs = padBack(inputs, planned, batch.paddingId);
    if (inputs.shape() == planned) executor.fitInput(binding.input, planned);
    executor.setInput(binding.input, inputs);
    executor.setInput(binding.label, batch.labels);
}

std::vector<float> hostLogits(const Executor& executor, const GraphBinding& binding)
{
    const Tensor logits = executor.value(binding.logits);
    std::vector<float> host(static_cast<std::size_t>(logits.numel()));
    executor.backend().copyToHost(host.data(), logits.raw(), logits.bytes());
    return host;
}

void softmaxRow(const float* logits, std::int64_t classes, std::vector<float>& out)
{
    out.resize(std::size_t(classes));
    const float top = *std::max_element(logits, logits + classes);
    double sum = 0;
    for (std::int64_t c = 0; c < classes; ++c) sum += out[std::size_t(c)] = std::exp(logits[c] - top);
    for (float& p : out) p = float(p / sum);
}

Evaluator::Evaluator(const Graph& graph, Backend& backend, std::int64_t numClasses, std::vector<int> topK)
    : graph_(graph), backend_(backend), classes_(numClasses), topK_(std::move(topK))
{
}

Evaluator::~Evaluator() = default;

Executor& Evaluator::executorFor(std::int64_t batch)
{
    auto& slot = executors_[batch];
    if (!slot) slot = std::make_unique<Executor>(checkGraph(graph_, batch), backend_, /*training=*/false);
    return *slot;
}

bool Evaluator::evaluate(Executor& source, Loader& loader, ClassificationMetrics& metrics, const RunControl* control,
                         const BatchLogits& onBatch)
{
    const std::string output = GraphBinding::of(source.graph()).logits;
    return pass(source, loader, control, [&](const Batch& batch, const std::vector<float>& logits, double loss) {
        const std::int64_t rows = batch.labels.numel();  // a class per sample, or per position of a sequence
        if (static_cast<std::int64_t>(logits.size()) != rows * classes_)
            throw std::invalid_argument("the model output '" + output + "' has " + std::to_string(logits.size()) +
                                        " values, expected " + std::to_string(rows * classes_) + ": " +
                                        std::to_string(classes_) + " logits for each of the labels' " + batch.labels.shape().str());
        metrics.add(logits.data(), batch.labels.data<std::int64_t>(), rows, loss);
        if (onBatch) onBatch(batch, logits);
    });
}

bool Evaluator::evaluate(Executor& source, Loader& loader, TaskMetrics& metrics, const RunControl* control,
                         const BatchLogits& onBatch)
{
    const std::string output = GraphBinding::of(source.graph()).logits;
    return pass(source, loader, control, [&](const Batch& batch, const std::vector<float>& values, double loss) {
        metrics.add(values, batch.labels, loss, output);
        if (onBatch) onBatch(batch, values);
    });
}

bool Evaluator::pass(Executor& source, Loader& loader, const RunControl* control, const Count& count)
{
    // Executors whose parameters are current for this pass (copied lazily, once each).
    std::map<std::int64_t, bool> synced;
    auto sync = [&](Executor& target) {
        auto& src = source.parameters();
        auto& dst = target.parameters();
        if (src.size() != dst.size()) throw std::logic_error("evaluation executor has other parameters");
        for (std::size_t i = 0; i < src.size(); ++i) {
            if (dst[i].name != src[i].name) throw std::logic_error("evaluation executor orders parameters differently");
            backend_.copyBytes(dst[i].value.raw(), src[i].value.raw(), src[i].value.bytes());
        }
    };
    const GraphBinding binding = GraphBinding::of(source.graph());
    loader.startEpoch(0);
    Batch batch;
    while (loader.next(batch)) {
        if (control && control->stopRequested()) return false;
        Executor& exec = executorFor(batch.size);
        if (!synced[batch.size]) {
            sync(exec);
            synced[batch.size] = true;
        }
        feedBatch(exec, binding, batch);
        exec.forward();
        count(batch, hostLogits(exec, binding), exec.loss());
    }
    return true;
}

}  // namespace ts
