#include "graph/graph_diagnosis.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>

#include "graph/graph_checks.h"
#include "graph/training_check.h"

namespace ts {

const NodeDiagnosis* GraphDiagnosis::find(const std::string& node) const
{
    for (const auto& n : nodes)
        if (n.name == node) return &n;
    return nullptr;
}

namespace {

// The builder shows a sum past int64 as the largest count rather than a wrapped negative one.
void addSaturating(std::int64_t& sum, std::int64_t n)
{
    if (__builtin_add_overflow(sum, n, &sum)) sum = INT64_MAX;
}

void fillFromChecked(GraphDiagnosis& d, const Graph& g, CheckedGraph cg)
{
    std::map<std::string, const CheckedNode*> byName;
    for (const auto& cn : cg.nodes) byName[cn.name] = &cn;
    for (const auto& node : g.nodes) {
        NodeDiagnosis nd;
        nd.name = node.name;
        const CheckedNode& cn = *byName.at(node.name);
        nd.known = true;
        nd.output = cg.values[cn.output].spec;
        nd.cost = nodeCost(cn, nd.output);
        addSaturating(d.parameters, nd.cost.parameters);
        d.flops += nd.cost.flops;
        d.nodes.push_back(std::move(nd));
    }
    d.checked = std::move(cg);
}

void fail(GraphDiagnosis& d, NodeDiagnosis& nd, const GraphError& e)
{
    if (!nd.problem.empty()) return;
    nd.problem = e.what();
    nd.kind = e.kind();
    d.problems.push_back(e);
}

}  // namespace

GraphDiagnosis diagnoseGraph(const Graph& g, std::int64_t batch, const OpRegistry& registry)
{
    GraphDiagnosis d;
    d.batch = std::max<std::int64_t>(1, batch);
    std::optional<GraphError> whole;
    try {
        fillFromChecked(d, g, checkGraph(g, batch, registry));
        if (auto untrainable = trainingProblem(*d.checked)) d.problems.push_back(std::move(*untrainable));
        return d;
    } catch (const GraphError& e) {
        whole = e;
    }

    // The same steps as checkGraph, each node on its own.
    const int n = static_cast<int>(g.nodes.size());
    d.nodes.resize(n);
    std::set<std::string> inputNames;
    for (const auto& in : g.inputs) inputNames.insert(in.name);
    std::map<std::string, int> nodeIndex;
    for (int i = 0; i < n; ++i) {
        d.nodes[i].name = g.nodes[i].name;
        if (inputNames.count(g.nodes[i].name) || !nodeIndex.emplace(g.nodes[i].name, i).second)
            fail(d, d.nodes[i], GraphError(GraphError::Kind::DuplicateName, g.nodes[i].name,
                                           "node '" + g.nodes[i].name + "' (" + g.nodes[i].op + "): the name '" +
                                               g.nodes[i].name + "' is used twice"));
    }
    std::vector<const Op*> ops(n);
    std::vector<Attrs> attrs(n);
    for (int i = 0; i < n; ++i)
        if (auto err = checkNodeAlone(g.nodes[i], nodeIndex, inputNames, registry, ops[i], attrs[i])) fail(d, d.nodes[i], *err);

    std::vector<int> order;
    try {
        order = topologicalOrder(g, nodeIndex);
    } catch (const GraphError& e) {
        // The nodes on or after a cycle have no order: pin the cycle on the node it names and
        // treat the rest as blocked; everything before the cycle is still inferred.
        if (auto it = nodeIndex.find(e.node()); it != nodeIndex.end()) fail(d, d.nodes[it->second], e);
        std::vector<int> pending(n, 0);
        std::vector<std::vector<int>> users(n);
        for (int i = 0; i < n; ++i)
            for (const auto& in : g.nodes[i].inputs)
                if (auto u = nodeIndex.find(in); u != nodeIndex.end()) ++pending[i], users[u->second].push_back(i);
        std::vector<int> ready;
        for (int i = 0; i < n; ++i)
            if (pending[i] == 0) ready.push_back(i);
        while (!ready.empty()) {
            const int i = ready.back();
            ready.pop_back();
            order.push_back(i);
            for (int u : users[i])
                if (--pending[u] == 0) ready.push_back(u);
        }
        for (int i = 0; i < n; ++i)
            if (pending[i] > 0) d.nodes[i].blocked = d.nodes[i].problem.empty();
    }

    std::vector<ValueInfo> values;
    std::map<std::string, int> valueIndex;
    for (const auto& in : g.inputs) {
        std::vector<std::int64_t> dims{batch};
        dims.insert(dims.end(), in.shape.dims().begin(), in.shape.dims().end());
        valueIndex[in.name] = static_cast<int>(values.size());
        values.push_back(ValueInfo{in.name, TensorSpec{Shape(dims), in.dtype}, -1, {}});
    }
    for (int i : order) {
        NodeDiagnosis& nd = d.nodes[i];
        if (!nd.problem.empty() || nd.blocked || batch < 1) continue;
        std::vector<int> inputs;
        for (const auto& in : g.nodes[i].inputs) {
            auto v = valueIndex.find(in);
            if (v == valueIndex.end()) break;
            inputs.push_back(v->second);
        }
        if (inputs.size() != g.nodes[i].inputs.size()) {
            nd.blocked = true;
            continue;
        }
        try {
            TensorSpec out;
            CheckedNode cn = inferNode(g.nodes[i], ops[i], attrs[i], inputs, values, out);
            nd.known = true;
            nd.output = out;
            nd.cost = nodeCost(cn, out);
            addSaturating(d.parameters, nd.cost.parameters);
            d.flops += nd.cost.flops;
            valueIndex[nd.name] = static_cast<int>(values.size());
            values.push_back(ValueInfo{nd.name, out, i, {}});
        } catch (const GraphError& e) {
            fail(d, nd, e);
        }
    }
    // What checkGraph found that no single node explains (no nodes, the named output or loss).
    bool pinned = false;
    for (const auto& p : d.problems) pinned = pinned || std::string(p.what()) == whole->what();
    if (!pinned) d.problems.push_back(*whole);
    std::stable_sort(d.problems.begin(), d.problems.end(), [&](const GraphError& a, const GraphError& b) {
        auto at = [&](const GraphError& e) {
            auto it = nodeIndex.find(e.node());
            return it == nodeIndex.end() ? n : it->second;
        };
        return at(a) < at(b);
    });
    return d;
}

}  // namespace ts
