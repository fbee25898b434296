// Evaluation: the model in inference mode over a whole split, every sample counted once.
//
// The ragged last batch: evaluation keeps it (dropLast = false) and runs it on its own
// inference executor planned for that size, instead of padding it. Padding would need the
// graph's loss to ignore the padded rows (its mean is over the whole batch, with whatever
// class weights and label smoothing the graph declares), so the reported loss would drift
// from the training loss definition. An inference plan is forward-only and reuses buffers,
// so the extra executor costs a fraction of the training arena, is built once per run and
// size, and keeps its planned memory (no per-batch allocation). Parameters (and buffers such
// as batch-norm running statistics) are copied from the training executor once per pass, on
// the device.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "data/loader.h"
#include "exec/executor.h"
#include "train/metrics.h"
#include "train/task_metrics.h"

namespace ts {

class RunControl;

// Which graph values the trainer feeds and reads.
struct GraphBinding {
    std::string input;   // the first graph input that is not "label" ("image", "features")
    std::string label;   // "label"
    std::string logits;  // the graph's output: [n, classes]
    static GraphBinding of(const CheckedGraph& graph);
};

// Copies a batch into an executor planned for batch.size samples. Sample shapes that differ
// from the graph input's but hold as many values (a [16] vector for a [1, 4, 4] input) are
// reshaped. A batch of texts cut to its longest (Batch::paddingId) runs at that length where
// the model takes it (Executor::fitInput) and is padded back where it does not. Anything else
// throws std::invalid_argument naming both shapes.
void feedBatch(Executor& executor, const GraphBinding& binding, const Batch& batch);
// The executor's output for the current batch, on the host: [n * classes] floats.
std::vector<float> hostLogits(const Executor& executor, const GraphBinding& binding);

// Softmax of one row of logits into `out` (classes floats), as the evaluate job stores it and
// predict shows it: max subtracted, float exponentials summed in double.
void softmaxRow(const float* logits, std::int64_t classes, std::vector<float>& out);

class Evaluator {
public:
    Evaluator(const Graph& graph, Backend& backend, std::int64_t numClasses, std::vector<int> topK);
    ~Evaluator();

    // Runs `loader` (sequential, dropLast = false, no augmentation) through inference
    // executors carrying `source`'s current parameters. Returns false when `control` asked
    // to stop part-way (the metrics then cover what was seen). `onBatch`, when given, sees
    // each batch with its logits ([n * classes] floats) after the metrics counted it.
    using BatchLogits = std::function<void(const Batch& batch, const std::vector<float>& logits)>;
    bool evaluate(Executor& source, Loader& loader, ClassificationMetrics& metrics, const RunControl* control,
                  const BatchLogits& onBatch = {});
    // The same for either task (regression: the outputs are the predicted values).
    bool evaluate(Executor& source, Loader& loader, TaskMetrics& metrics, const RunControl* control,
                  const BatchLogits& onBatch = {});

private:
    Executor& executorFor(std::int64_t batch);
    // Runs every batch through the inference executors; `count` sees each with the output and loss.
    using Count = std::function<void(const Batch& batch, const std::vector<float>& output, double loss)>;
    bool pass(Executor& source, Loader& loader, const RunControl* control, const Count& count);

    Graph graph_;
    Backend& backend_;
    std::int64_t classes_;
    std::vector<int> topK_;
    std::map<std::int64_t, std::unique_ptr<Executor>> executors_;  // one per batch size met
};

}  // namespace ts
