// Suspect labels as the store keeps them (table label_checks / label_suspects): the label check
// job writes them, the CLI's `data labels` and the Datasets page read them. Plain data.
#pragma once
#include <cstdint>
#include <string>

namespace ts {

// One training sample's verdict. Margin = p(given) - max over the other classes of p: negative
// when the model prefers another class. jobs/label_ranking.h orders by selfConfidence.
struct LabelScore {
    std::int64_t sample = 0;  // index in the training file split (as the label overlay addresses it)
    std::int64_t label = 0;   // the given label (after the overlay the check ran with)
    std::int64_t predicted = 0;
    float confidence = 0;      // p(predicted)
    float selfConfidence = 0;  // p(label)
    float margin = 0;
    bool suspect = false;      // confident learning: another class beats the label and its threshold
};

struct LabelCheckRecord {
    std::int64_t id = 0;
    std::string datasetKey;      // data/dataset.h's datasetKey
    std::string method;          // "in_sample" | "k_fold"
    std::int64_t runId = 0;      // in-sample: the run whose checkpoint scored; 0: none
    std::int64_t evaluationId = 0;  // in-sample: the evaluation of the train split it read; 0: none
    std::int64_t folds = 0;      // k_fold
    std::int64_t epochs = 0;     // k_fold: epochs per fold; in_sample: the checkpoint's epoch
    std::int64_t samples = 0, classes = 0, suspects = 0;
    std::string overlayHash;     // data/label_overlay.h's labelOverlayHash of the overlay it ran with
    std::string experimentYaml;  // the experiment it trained (k_fold) or the run's
    double createdTime = 0, seconds = 0;
};

}  // namespace ts
