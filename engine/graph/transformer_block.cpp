#include "graph/transformer_block.h"

#include <algorithm>
#include <stdexcept>

namespace ts {

namespace {

bool usesPrefix(const Graph& g, const std::string& prefix)
{
    auto starts = [&](const std::string& name) { return name.compare(0, prefix.size(), prefix) == 0; };
    return std::any_of(g.nodes.begin(), g.nodes.end(), [&](const Node& n) { return starts(n.name); }) ||
           std::any_of(g.inputs.begin(), g.inputs.end(), [&](const GraphInput& in) { return starts(in.name); });
}

}  // namespace

std::int64_t fittingHeads(std::int64_t width, std::int64_t wanted)
{
    for (std::int64_t h = std::min(wanted, width); h > 1; --h)
        if (width % h == 0) return h;
    return 1;
}

std::string freshBlockPrefix(const Graph& graph)
{
    for (int k = 1;; ++k)
        if (const std::string p = "b" + std::to_string(k) + "_"; !usesPrefix(graph, p)) return p;
}

std::vector<std::string> appendTransformerBlock(Graph& graph, const std::string& input, const std::string& prefix,
                                                const TransformerBlockOptions& o)
{
    using I = std::int64_t;
    if (o.width < 1 || o.heads < 1 || o.mlpRatio < 1)
        throw std::invalid_argument("a Transformer block needs a width, heads and an MLP ratio of at least 1");
    if (o.width % o.heads != 0)
        throw std::invalid_argument(std::to_string(o.heads) + " heads do not divide the width " + std::to_string(o.width) + "; " +
                                    std::to_string(fittingHeads(o.width, o.heads)) + " would");
    if (!(o.dropout >= 0.0 && o.dropout < 1.0)) throw std::invalid_argument("the block's dropout must be in [0, 1)");

    Graph g = graph;  // all or nothing: a taken name leaves `graph` as it was
    std::vector<std::string> added;
    auto add = [&](const std::string& part, const std::string& op, std::vector<std::string> in, Attrs attrs = {}) {
        const std::string name = prefix + part;
        const bool taken = std::any_of(g.nodes.begin(), g.nodes.end(), [&](const Node& n) { return n.name == name; }) ||
                           std::any_of(g.inputs.begin(), g.inputs.end(), [&](const GraphInput& i) { return i.name == name; });
        if (taken) throw std::invalid_argument("the name " + name + " is taken");
        g.add(name, op, std::move(in), std::move(attrs));
        added.push_back(name);
        return name;
    };
    // Dropout on a residual branch, or the branch itself when there is none.
    auto dropped = [&](const std::string& part, const std::string& from) {
        return o.dropout > 0 ? add(part, "Dropout", {from}, {{"p", o.dropout}}) : from;
    };

    const std::string ln1 = add("ln1", "LayerNorm", {input});
    const std::string attn = add("attn", "MultiHeadAttention", {ln1}, {{"heads", I{o.heads}}, {"causal", o.causal}, {"dropout", o.dropout}});
    const std::string add1 = add("add1", "Add", {dropped("drop1", attn), input});
    const std::string ln2 = add("ln2", "LayerNorm", {add1});
    const std::string fc1 = add("fc1", "Linear", {ln2}, {{"out_features", I{o.mlpRatio * o.width}}});
    const std::string gelu = add("gelu", "GELU", {fc1});
    const std::string fc2 = add("fc2", "Linear", {gelu}, {{"out_features", I{o.width}}});
    add("add2", "Add", {dropped("drop2", fc2), add1});
    graph = std::move(g);
    return added;
}

}  // namespace ts
