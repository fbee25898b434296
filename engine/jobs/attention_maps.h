// What a trained run attends to: for one sample (an image of its dataset's test split, or a
// text for a model that reads tokens), the attention weights of every MultiHeadAttention node,
// [heads, queries, keys] each, from a checkpoint chosen as predict chooses it. The sample goes
// through the model as evaluation sends it (the experiment's own loader, eval mode); each
// node's weights are then recomputed from the input it received (ops/attention_weights.h),
// since the fused attention never holds them. Nothing is recorded: a read, like Predictor.
// The Runs page's Attention tab uses it. One thread at a time per AttentionMaps.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "jobs/predictor.h"
#include "tensor/shape.h"
#include "types/message.h"
#include "types/run_records.h"

namespace ts {

struct AttentionMap {
    std::string node;  // "b1_attn"
    std::int64_t heads = 0, queries = 0, keys = 0;
    bool causal = false, masked = false;  // masked: the node has a key-padding mask input
    std::vector<float> weights;           // [heads, queries, keys]; a row sums to 1 (0: no key allowed)
    float at(std::int64_t head, std::int64_t query, std::int64_t key) const
    {
        return weights[std::size_t((head * queries + query) * keys + key)];
    }
};

struct AttentionSample {
    std::vector<AttentionMap> maps;  // one per MultiHeadAttention node, in execution order
    // An image sample: its pixels as the dataset reads them ([C, H, W], in [0, 1]) and its class.
    Shape imageShape;
    std::vector<float> image;
    std::string className;
    // A text: the text of each token the model read, in order (a map's queries and keys are
    // its first tokens: all of them but the padding that a causal or masked node never sees).
    std::vector<std::string> tokens;
};

class AttentionMaps {
public:
    // Loads the checkpoint (Predictor's errors) and, for a model of images or features, opens
    // the run's dataset. std::invalid_argument when the model has no MultiHeadAttention node.
    explicit AttentionMaps(const PredictorOptions& options);
    ~AttentionMaps();
    AttentionMaps(const AttentionMaps&) = delete;
    AttentionMaps& operator=(const AttentionMaps&) = delete;

    // The model reads token ids: samples are texts (textSample), else dataset samples.
    bool readsText() const;
    std::int64_t context() const;  // tokens the model reads at once (text models)
    // The split dataset samples come from ("test", or "validation" / "training" when the data
    // has no test split) and its size.
    const std::string& splitName() const;
    std::int64_t sampleCount() const;
    std::vector<std::string> nodeNames() const;

    // Sample `index` of the split (std::out_of_range outside it).
    AttentionSample datasetSample(std::int64_t index);
    // `text` encoded by the run's tokenizer (TokenizeError for characters outside it); only its
    // first context() tokens are read, and an empty text is refused (std::invalid_argument).
    AttentionSample textSample(const std::string& text);

    const CheckpointRecord& checkpoint() const;  // epoch and step filled from the file when the store does not name it
    const std::vector<Message>& notes() const;   // what loading said (the checkpoint "best" fell back to)

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace ts
