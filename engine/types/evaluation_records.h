// An evaluation of a run's checkpoint over a split, as the store keeps it (engine/jobs'
// evaluate job writes it; the compare-and-evaluate views read it). Plain data.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ts {

struct EvaluationRecord {
    std::int64_t id = 0;
    std::int64_t runId = 0;
    std::string checkpointPath;  // the weights file, as the store names checkpoints
    std::int64_t step = 0, epoch = 0;  // the checkpoint's
    std::string split;           // "test" | "val" | "train"
    std::int64_t samples = 0, classes = 0;
    double createdTime = 0;      // Unix seconds
    std::map<std::string, double> metrics;  // "test_acc", "test_loss", "test_macro_f1", ... (NaN kept);
                                            // regression: "test_rmse", ..., "test_baseline_rmse" (train/regression_metrics.h)
};

// One sample of the split, in the split's order.
struct Prediction {
    std::int64_t sample = 0;     // index in the split
    std::int64_t label = 0, predicted = 0;
    float confidence = 0;        // softmax probability of the predicted class
    std::vector<float> probabilities;  // softmax of the logits, one per class
    // Regression (the evaluation's classes is 0; label, predicted and confidence are 0): the
    // sample's predicted and actual target values, in the data's units. The store keeps them
    // in the probabilities column, the predicted values first.
    std::vector<float> values, targets;
};

}  // namespace ts
