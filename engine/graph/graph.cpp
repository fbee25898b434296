#include "graph/graph.h"
#include "graph/graph_checks.h"

#include <algorithm>
#include <map>
#include <set>

#include "graph/suggest.h"
#include "ops/registry.h"
#include "tensor/checked_size.h"

namespace ts {

int CheckedGraph::findValue(const std::string& name) const
{
    for (std::size_t i = 0; i < values.size(); ++i)
        if (values[i].name == name) return static_cast<int>(i);
    return -1;
}

CheckedGraph withInputShape(const CheckedGraph& g, const std::string& name, const Shape& shape)
{
    if (!g.source || !g.registry) throw std::logic_error("a checked graph without its source");
    if (shape.rank() < 1 || shape[0] != g.batch)
        throw std::invalid_argument("input '" + name + "' of " + shape.str() + " has another batch size than " +
                                    std::to_string(g.batch));
    Graph graph = *g.source;
    const auto input = std::find_if(graph.inputs.begin(), graph.inputs.end(), [&](const GraphInput& in) { return in.name == name; });
    if (input == graph.inputs.end()) throw std::invalid_argument("'" + name + "' is not a graph input");
    input->shape = Shape(std::vector<std::int64_t>(shape.dims().begin() + 1, shape.dims().end()));
    return checkGraph(graph, g.batch, *g.registry);
}

namespace {

using Kind = GraphError::Kind;

std::string nodeLabel(const Node& n) { return "node '" + n.name + "' (" + n.op + ")"; }

// "node 'fc2' (Linear, in_features=512)"
std::string nodeLabel(const Node& n, const Attrs& attrs, const std::vector<std::string>& shown)
{
    std::string s = "node '" + n.name + "' (" + n.op;
    for (const auto& a : shown)
        if (attrs.has(a)) s += ", " + a + "=" + attrValueString(attrs.get(a));
    return s + ")";
}

// Why a tensor of `spec` cannot be counted in bytes by 64-bit arithmetic; empty when it can.
// Every size the cost model and the memory plan add up passes here first, so their sums are
// the only arithmetic left to check.
std::string sizeProblem(const TensorSpec& spec)
{
    std::int64_t n = 1, bytes = 0;
    for (std::int64_t d : spec.shape.dims()) {
        if (d < 0) return "has a negative dimension";
        if (!mulFits(n, d, n)) return "has more elements than 64-bit arithmetic counts (9.2e18)";
    }
    if (!mulFits(n, static_cast<std::int64_t>(dtypeSize(spec.dtype)), bytes))
        return "needs more bytes than 64-bit arithmetic counts (8 EiB)";
    return {};
}

}  // namespace

// Orders nodes so every input comes before its consumer, keeping the listed order where
// free. Throws on a cycle, naming a node on it and the cycle itself.
std::vector<int> topologicalOrder(const Graph& g, const std::map<std::string, int>& nodeIndex)
{
    const int n = static_cast<int>(g.nodes.size());
    std::vector<int> pending(n, 0);
    std::vector<std::vector<int>> users(n);
    for (int i = 0; i < n; ++i)
        for (const auto& in : g.nodes[i].inputs)
            if (auto it = nodeIndex.find(in); it != nodeIndex.end()) {
                ++pending[i];
                users[it->second].push_back(i);
            }
    std::set<int> ready;
    for (int i = 0; i < n; ++i)
        if (pending[i] == 0) ready.insert(i);
    std::vector<int> order;
    while (!ready.empty()) {
        int i = *ready.begin();
        ready.erase(ready.begin());
        order.push_back(i);
        for (int u : users[i])
            if (--pending[u] == 0) ready.insert(u);
    }
    if (static_cast<int>(order.size()) == n) return order;

    // Walk back along unfinished inputs from the first unfinished node until a node repeats.
    int start = 0;
    while (pending[start] == 0) ++start;
    std::vector<int> path{start};
    std::vector<int> seenAt(n, -1);
    seenAt[start] = 0;
    for (;;) {
        int cur = path.back(), next = -1;
        for (const auto& in : g.nodes[cur].inputs)
            if (auto it = nodeIndex.find(in); it != nodeIndex.end() && pending[it->second] > 0) {
                next = it->second;
                break;
            }
        if (seenAt[next] >= 0) {
            std::vector<int> cycle(path.begin() + seenAt[next], path.end());
            std::reverse(cycle.begin(), cycle.end());  // data-flow direction
            std::rotate(cycle.begin(), std::find(cycle.begin(), cycle.end(), next), cycle.end());
            std::string text;
            for (int c : cycle) text += g.nodes[c].name + " -> ";
            text += g.nodes[cycle.front()].name;
            const Node& at = g.nodes[cycle.front()];
            throw GraphError(Kind::Cycle, at.name, nodeLabel(at) + ": is part of a cycle: " + text);
        }
        seenAt[next] = static_cast<int>(path.size());
        path.push_back(next);
    }
}

std::optional<GraphError> checkNodeAlone(const Node& node, const std::map<std::string, int>& nodeIndex,
                                         const std::set<std::string>& inputNames, const OpRegistry& registry,
                                         const Op*& op, Attrs& attrs)
{
    op = registry.find(node.op);
    if (!op) {
        std::string known;
        for (const auto& t : registry.types()) known += (known.empty() ? "" : ", ") + t;
        return GraphError(Kind::UnknownOp, node.name,
                          "node '" + node.name + "': unknown op '" + node.op + "'" + didYouMean(node.op, registry.types()) +
                              "; known ops: " + known);
    }
    for (const auto& in : node.inputs)
        if (!nodeIndex.count(in) && !inputNames.count(in))
            return GraphError(Kind::MissingInput, node.name, nodeLabel(node) + ": input '" + in + "' is neither a graph input nor a node");
    const int count = static_cast<int>(node.inputs.size());
    if (count < op->minInputs() || (op->maxInputs() >= 0 && count > op->maxInputs())) {
        std::string want = op->minInputs() == op->maxInputs() ? std::to_string(op->minInputs())
                         : op->maxInputs() < 0 ? "at least " + std::to_string(op->minInputs())
                         : std::to_string(op->minInputs()) + " to " + std::to_string(op->maxInputs());
        return GraphError(Kind::InputCount, node.name, nodeLabel(node) + ": takes " + want + " input(s), got " + std::to_string(count));
    }
    std::string err = normaliseAttrs(op->attrSpecs(), node.attrs, attrs);
    if (!err.empty()) return GraphError(Kind::BadAttribute, node.name, nodeLabel(node) + ": " + err);
    // Integer attributes are sizes, counts and axes: past kMaxDimension none is meaningful, and
    // below it the ops' geometry (padding + dilation x kernel) cannot overflow.
    for (const auto& [name, value] : attrs.values()) {
        std::vector<std::int64_t> ints;
        if (const auto* i = std::get_if<std::int64_t>(&value)) ints.push_back(*i);
        if (const auto* list = std::get_if<std::vector<std::int64_t>>(&value)) ints = *list;
        for (std::int64_t v : ints)
            if (v > kMaxDimension || v < -kMaxDimension)
                return GraphError(Kind::TooLarge, node.name,
                                  nodeLabel(node) + ": " + name + " = " + std::to_string(v) +
                                      " is beyond any size a layer takes (at most " + std::to_string(kMaxDimension) + ")");
    }
    return std::nullopt;
}

CheckedNode inferNode(const Node& node, const Op* op, const Attrs& attrs, const std::vector<int>& inputs,
                      const std::vector<ValueInfo>& values, TensorSpec& out)
{
    CheckedNode cn;
    cn.name = node.name;
    cn.op = op;
    cn.attrs = attrs;
    cn.checkpoint = node.checkpoint;
    cn.inputs = inputs;
    std::vector<TensorSpec> inSpecs;
    for (int v : inputs) inSpecs.push_back(values[v].spec);
    auto tooLarge = [&](const std::string& what, const TensorSpec& spec, const std::string& problem) {
        return GraphError(Kind::TooLarge, node.name,
                          nodeLabel(node) + ": " + what + " " + spec.shape.str() + " " + problem +
                              ": lower training.batch_size or the layer sizes");
    };
    for (std::size_t k = 0; k < inputs.size(); ++k)  // a graph input at a huge batch: its first consumer says so
        if (const std::string p = sizeProblem(inSpecs[k]); !p.empty())
            throw tooLarge("its input '" + values[inputs[k]].name + "'", inSpecs[k], p);
    try {
        out = op->inferOutput(cn.attrs, inSpecs);
        for (auto p : op->params(cn.attrs, inSpecs)) {
            p.name = node.name + "." + p.name;
            cn.params.push_back(std::move(p));
        }
        cn.saved = op->saved(cn.attrs, inSpecs, out);
        cn.flops = op->flops(cn.attrs, inSpecs, out);
    } catch (const OpError& e) {
        throw GraphError(Kind::ShapeMismatch, node.name, nodeLabel(node, cn.attrs, e.attrs()) + ": " + e.what());
    } catch (const SizeOverflow& e) {  // a product inside the op's rules (Flatten's, a weight's numel)
        throw GraphError(Kind::TooLarge, node.name, nodeLabel(node) + ": " + e.what() + ": lower training.batch_size or the layer sizes");
    }
    if (const std::string p = sizeProblem(out); !p.empty()) throw tooLarge("its output", out, p);
    for (const ParamSpec& p : cn.params)
        if (const std::string why = sizeProblem(TensorSpec{p.shape, DType::F32}); !why.empty())
            throw tooLarge("its parameter '" + p.name + "'", TensorSpec{p.shape, DType::F32}, why);
    for (const TensorSpec& saved : cn.saved)
        if (const std::string why = sizeProblem(saved); !why.empty()) throw tooLarge("a buffer it keeps for backward", saved, why);
    return cn;
}

// Weight tying: a tied parameter names another node's own parameter of the same shape (which
// keeps the storage); the error names the tying node and its attribute.
static void checkTiedParameters(const CheckedGraph& cg, const Graph& g, const std::map<std::string, int>& nodeIndex)
{
    std::map<std::string, const ParamSpec*> owned;
    for (const CheckedNode& n : cg.nodes)
        for (const ParamSpec& p : n.params)
            if (!p.tied()) owned[p.name] = &p;
    for (const CheckedNode& n : cg.nodes)
        for (const ParamSpec& p : n.params) {
            if (!p.tied()) continue;
            const Node& node = g.nodes[std::size_t(nodeIndex.at(n.name))];
            const std::string label = nodeLabel(node, n.attrs, {"tie_weight"});
            const auto it = owned.find(p.tiedTo);
            if (it == owned.end())
                throw GraphError(Kind::BadAttribute, n.name,
                                 label + ": no node has the weight '" + p.tiedTo +
                                     "' to share: name an Embedding node, or leave tie_weight empty for a weight of its own");
            if (it->second->shape != p.shape)
                throw GraphError(Kind::ShapeMismatch, n.name,
                                 label + ": '" + p.tiedTo + "' is " + it->second->shape.str() + " but this layer's weight is " +
                                     p.shape.str() + ": out_features must be the table's rows and the input's features its columns");
        }
}

bool onlyTheBatchTooLarge(const GraphError& e, const Graph& g)
{
    if (e.kind() != Kind::TooLarge) return false;
    try {
        checkGraph(g, 1);
        return true;
    } catch (const GraphError&) {
        return false;
    }
}

CheckedGraph checkGraph(const Graph& g, std::int64_t batch)
{
    return checkGraph(g, batch, OpRegistry::builtin());
}

CheckedGraph checkGraph(const Graph& g, std::int64_t batch, const OpRegistry& registry)
{
    if (g.nodes.empty()) throw GraphError(Kind::Empty, {}, "the graph has no nodes");
    if (batch < 1) throw GraphError(Kind::ShapeMismatch, {}, "batch size must be >= 1, got " + std::to_string(batch));

    std::map<std::string, int> nodeIndex;
    std::set<std::string> inputNames;
    for (const auto& in : g.inputs) {
        if (in.name.empty() || !inputNames.insert(in.name).second)
            throw GraphError(Kind::DuplicateName, in.name, "graph input '" + in.name + "' is defined twice or unnamed");
    }
    for (int i = 0; i < static_cast<int>(g.nodes.size()); ++i) {
        const Node& node = g.nodes[i];
        if (node.name.empty())
            throw GraphError(Kind::DuplicateName, {}, "node #" + std::to_string(i + 1) + " (" + node.op + ") has no name");
        if (inputNames.count(node.name) || !nodeIndex.emplace(node.name, i).second)
            throw GraphError(Kind::DuplicateName, node.name, nodeLabel(node) + ": the name '" + node.name + "' is used twice");
    }

    // Per node: the op exists, the inputs exist and are as many as the op takes, the attributes fit.
    std::vector<const Op*> ops(g.nodes.size());
    std::vector<Attrs> attrs(g.nodes.size());
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        if (auto err = checkNodeAlone(g.nodes[i], nodeIndex, inputNames, registry, ops[i], attrs[i])) throw *err;

    CheckedGraph cg;
    cg.batch = batch;
    cg.source = std::make_shared<const Graph>(g);
    cg.registry = &registry;
    for (const auto& in : g.inputs) {
        for (std::int64_t d : in.shape.dims())
            if (d > kMaxDimension)
                throw GraphError(Kind::TooLarge, in.name,
                                 "graph input '" + in.name + "': dimension " + std::to_string(d) + " of " + in.shape.str() +
                                     " is beyond any size a layer takes (at most " + std::to_string(kMaxDimension) + ")");
        std::vector<std::int64_t> dims{batch};
        dims.insert(dims.end(), in.shape.dims().begin(), in.shape.dims().end());
        cg.values.push_back(ValueInfo{in.name, TensorSpec{Shape(dims), in.dtype}, -1, {}});
    }

    // Shape inference in execution order.
    std::map<std::string, int> valueIndex;
    for (int v = 0; v < static_cast<int>(cg.values.size()); ++v) valueIndex[cg.values[v].name] = v;
    for (int i : topologicalOrder(g, nodeIndex)) {
        const Node& node = g.nodes[i];
        std::vector<int> inputs;
        for (const auto& in : node.inputs) inputs.push_back(valueIndex.at(in));
        TensorSpec out;
        CheckedNode cn = inferNode(node, ops[i], attrs[i], inputs, cg.values, out);
        const int nodeId = static_cast<int>(cg.nodes.size());
        for (int v : cn.inputs) cg.values[v].consumers.push_back(nodeId);
        cn.output = static_cast<int>(cg.values.size());
        valueIndex[node.name] = cn.output;
        cg.values.push_back(ValueInfo{node.name, out, nodeId, {}});
        cg.nodes.push_back(std::move(cn));
    }

    checkTiedParameters(cg, g, nodeIndex);

    auto resolve = [&](const std::string& name, const char* role) {
        auto it = valueIndex.find(name);
        if (it == valueIndex.end() || it->second < static_cast<int>(g.inputs.size()))
            throw GraphError(Kind::MissingInput, name, std::string("the graph's ") + role + " '" + name + "' is not a node");
        return it->second;
    };
    if (!g.loss.empty()) cg.lossValue = resolve(g.loss, "loss");
    if (!g.output.empty()) cg.outputValue = resolve(g.output, "output");
    for (auto it = cg.nodes.rbegin(); it != cg.nodes.rend(); ++it) {
        if (it->op->isLoss() && cg.lossValue < 0 && g.loss.empty()) cg.lossValue = it->output;
        if (!it->op->isLoss() && cg.outputValue < 0 && g.output.empty()) cg.outputValue = it->output;
    }
    if (cg.lossValue >= 0 && !cg.nodes[cg.values[cg.lossValue].producer].op->isLoss())
        throw GraphError(Kind::BadAttribute, g.loss, "node '" + g.loss + "' is named as the loss but is not a loss op");
    return cg;
}

}  // namespace ts
