// The pre-norm Transformer block as plain nodes of the Graph (rule 2: no block op, so the
// user can open it and edit any part, and checkpointing, export and the cost model see
// ordinary nodes). Defined once here: the Model page's palette inserts it, anything else
// that builds a Transformer may call it too.
//
//   x -> ln1 -> attn -> [drop1] -> add1(+x) -> ln2 -> fc1 (ratio x width) -> gelu -> fc2 -> [drop2] -> add2(+add1)
//
// what PyTorch writes as x = x + drop(attn(ln1(x))); x = x + drop(fc2(gelu(fc1(ln2(x))))),
// with the attention's own dropout on its weights (GPT-2's layout). At dropout 0 the two
// Dropout nodes are left out (they would only hold memory).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "types/model_graph.h"

namespace ts {

struct TransformerBlockOptions {
    std::int64_t width = 128;     // the input's last dimension: fc2 maps back to it
    std::int64_t heads = 4;       // must divide width (fittingHeads)
    std::int64_t mlpRatio = 4;    // fc1's width = mlpRatio x width
    double dropout = 0.1;         // on the attention weights and both residual branches
    bool causal = false;          // a position attends only to itself and the ones before it
};

// Appends the block's nodes to `graph`, fed by `input` (a graph input or a node of `graph`),
// named `prefix` + ln1, attn, drop1, add1, ln2, fc1, gelu, fc2, drop2, add2. Returns their
// names in order; the last is the block's output. Throws std::invalid_argument when the
// heads do not divide the width, a size is below 1, the dropout is outside [0, 1), or a name
// is taken.
std::vector<std::string> appendTransformerBlock(Graph& graph, const std::string& input, const std::string& prefix,
                                                const TransformerBlockOptions& options);

// The largest head count up to `wanted` that divides `width` (1 at worst): 4 for 128, 3 for 6.
std::int64_t fittingHeads(std::int64_t width, std::int64_t wanted);

// "b1_", "b2_", ...: the first such prefix no node or input of `graph` starts with.
std::string freshBlockPrefix(const Graph& graph);

}  // namespace ts
