// Writes a Graph as the `model:` section: the layers form for a chain (the common case, one
// line per layer), the nodes form otherwise. Generated names and default inputs are left out.
#include "io/yaml/model_yaml.h"
#include "ops/registry.h"
#include "tensor/dtype.h"

namespace ts::yamlio {

namespace {

Out attrOut(const AttrValue& v)
{
    return std::visit(
        [](const auto& x) -> Out {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, std::int64_t>) return Out::scalar(yamlInt(x));
            else if constexpr (std::is_same_v<T, double>) return Out::scalar(yamlNumber(x));
            else if constexpr (std::is_same_v<T, bool>) return Out::scalar(yamlBool(x));
            else if constexpr (std::is_same_v<T, std::string>) return Out::scalar(yamlString(x));
            else if constexpr (std::is_same_v<T, std::vector<std::int64_t>>) return yamlList(x, yamlInt);
            else return yamlList(x, yamlNumber);
        },
        v);
}

// Attributes in the order the op declares them (out_channels before kernel_size), as people write them.
void addAttrs(Out& map, const Node& n)
{
    const Op* op = OpRegistry::builtin().find(n.op);
    std::vector<std::string> order;
    if (op)
        for (const auto& s : op->attrSpecs())
            if (n.attrs.has(s.name)) order.push_back(s.name);
    for (const auto& [name, value] : n.attrs.values())
        if (std::find(order.begin(), order.end(), name) == order.end()) order.push_back(name);
    for (const auto& name : order) map.add(name, attrOut(n.attrs.get(name)));
}

Out shapeOut(const Shape& s) { return yamlList(s.dims(), yamlInt); }

bool isLoss(const Node& n)
{
    const Op* op = OpRegistry::builtin().find(n.op);
    return op && op->isLoss();
}

// The inputs a node gets when the file does not list them.
std::vector<std::string> defaultNodeInputs(const Node& n, const std::string& prev)
{
    return isLoss(n) ? std::vector<std::string>{prev, "label"} : std::vector<std::string>{prev};
}

}  // namespace

Out writeModel(const Graph& g, const DatasetSpec& dataset)
{
    Out model = Out::map(true);
    const auto implied = defaultInputs(dataset);
    if (!implied || !std::equal(implied->begin(), implied->end(), g.inputs.begin(), g.inputs.end(), [](const auto& a, const auto& b) {
            return a.name == b.name && a.shape == b.shape && a.dtype == b.dtype;
        })) {
        Out& inputs = model.add("inputs", Out::map());
        for (const auto& in : g.inputs) {
            if (in.dtype == DType::F32) {
                inputs.add(in.name, shapeOut(in.shape));
            } else {
                Out spec = Out::map();
                spec.add("shape", shapeOut(in.shape));
                spec.add("dtype", Out::scalar(std::string(dtypeName(in.dtype))));
                inputs.add(in.name, std::move(spec));
            }
        }
    }

    bool chain = !g.inputs.empty();
    std::string prev = chain ? g.inputs.front().name : "";
    for (std::size_t i = 0; i < g.nodes.size() && chain; ++i) {
        chain = g.nodes[i].inputs == defaultNodeInputs(g.nodes[i], prev) && (!isLoss(g.nodes[i]) || i + 1 == g.nodes.size());
        prev = g.nodes[i].name;
    }

    Out list = Out::list();
    std::map<std::string, int> counts;
    prev = g.inputs.empty() ? "" : g.inputs.front().name;
    for (const Node& n : g.nodes) {
        const bool generated = n.name == generatedName(n.op, ++counts[nameBase(n.op)]);
        if (chain) {
            Out attrs = Out::map();
            if (!generated) attrs.add("name", Out::scalar(yamlString(n.name)));
            addAttrs(attrs, n);
            if (n.checkpoint) attrs.add("checkpoint", Out::scalar(yamlBool(true)));
            if (attrs.empty()) {
                list.push(Out::scalar(yamlString(n.op)));
            } else {
                Out layer = Out::map(true);  // "- Linear: {out_features: 512}"
                layer.add(yamlString(n.op), std::move(attrs));
                list.push(std::move(layer));
            }
        } else {
            Out node = Out::map();
            if (!generated) node.add("name", Out::scalar(yamlString(n.name)));
            node.add("op", Out::scalar(yamlString(n.op)));
            if (n.inputs != defaultNodeInputs(n, prev)) node.add("inputs", yamlList(n.inputs, yamlString));
            addAttrs(node, n);
            if (n.checkpoint) node.add("checkpoint", Out::scalar(yamlBool(true)));
            list.push(std::move(node));
        }
        prev = n.name;
    }
    model.add(chain ? "layers" : "nodes", std::move(list));
    if (!g.output.empty()) model.add("output", Out::scalar(yamlString(g.output)));
    if (!g.loss.empty()) model.add("loss", Out::scalar(yamlString(g.loss)));
    return model;
}

}  // namespace ts::yamlio
