// The attention weights a MultiHeadAttention node (ops/attention.cpp) gives one sample, for
// looking at them: the fused primitive never holds them, so they are recomputed here on the
// host from the node's input and its in-projection, with the op's layout and masks:
// q, k = x W_in^T + b_in (the first two C-column blocks), split into heads of C / heads
// channels; weights = softmax(q k^T / sqrt(C / heads)) per head, a key hidden where the
// padding mask is 0 or, when causal, where it comes after the query. A row with no key
// allowed is all zeros, as the primitive's output is. Evaluation only: no dropout.
#pragma once
#include <cstdint>
#include <vector>

namespace ts {

struct AttentionWeightsInput {
    const float* x = nullptr;             // [tokens, channels]: the node's input for one sample
    std::int64_t tokens = 0, channels = 0, heads = 1;
    const float* inProjWeight = nullptr;  // [3 channels, channels]
    const float* inProjBias = nullptr;    // [3 channels], or null (bias: false)
    const float* keyMask = nullptr;       // [tokens], 1 a real token, 0 padding; or null
    bool causal = false;
};

// [heads, tokens (queries), tokens (keys)], each row summing to 1 (or all zeros). Throws
// std::invalid_argument when heads does not divide channels.
std::vector<float> attentionWeights(const AttentionWeightsInput& in);

}  // namespace ts
