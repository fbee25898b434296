// In-place edits of the model section (io/model_text.h). A node's attributes live in one of
// four places: nowhere (`- BatchNorm2d`), an empty value (`- BatchNorm2d:`), a flow mapping
// (`- Conv2d: {out_channels: 32}`, a `nodes:` item `{name: fc, op: Linear, ...}`) or a block
// mapping (one key per line). Changed values are replaced where they stand; adding or removing
// a key rewrites a flow mapping (one line), or adds or drops a line of a block mapping.
#include "io/yaml/model_text.h"

#include <algorithm>
#include <type_traits>

#include "io/yaml/yaml_write.h"
#include "ops/registry.h"

namespace ts::yamlio {

bool sameAttributeValue(const std::string& opType, const std::string& key, const AttrValue& a, const AttrValue& b)
{
    if (a == b) return true;
    const Op* op = OpRegistry::builtin().find(opType);
    if (!op) return false;
    const std::vector<AttrSpec> specs = op->attrSpecs();
    const auto spec = std::find_if(specs.begin(), specs.end(), [&](const AttrSpec& s) { return s.name == key; });
    if (spec == specs.end()) return false;
    Attrs na, nb;
    if (!normaliseAttrs({*spec}, Attrs{{key, a}}, na).empty() || !normaliseAttrs({*spec}, Attrs{{key, b}}, nb).empty()) return false;
    return na.get(key) == nb.get(key);
}

bool sameModelUpToSpelling(const Graph& a, const Graph& b)
{
    if (!(a.inputs == b.inputs) || a.output != b.output || a.loss != b.loss || a.nodes.size() != b.nodes.size()) return false;
    for (std::size_t i = 0; i < a.nodes.size(); ++i) {
        const Node &x = a.nodes[i], &y = b.nodes[i];
        if (x.name != y.name || x.op != y.op || x.inputs != y.inputs || x.checkpoint != y.checkpoint ||
            x.attrs.values().size() != y.attrs.values().size())
            return false;
        for (const auto& [key, v] : x.attrs.values())
            if (!y.attrs.has(key) || !sameAttributeValue(x.op, key, v, y.attrs.get(key))) return false;
    }
    return true;
}

namespace {

// A value as the writer puts it, on one line.
std::string attrText(const AttrValue& v)
{
    return std::visit(
        [](const auto& x) -> std::string {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, std::int64_t>) return yamlInt(x);
            else if constexpr (std::is_same_v<T, double>) return yamlNumber(x);
            else if constexpr (std::is_same_v<T, bool>) return yamlBool(x);
            else if constexpr (std::is_same_v<T, std::string>) return yamlString(x);
            else {
                std::string s = "[";
                for (std::size_t i = 0; i < x.size(); ++i) {
                    if (i) s += ", ";
                    if constexpr (std::is_same_v<T, std::vector<std::int64_t>>) s += yamlInt(x[i]);
                    else s += yamlNumber(x[i]);
                }
                return s + "]";
            }
        },
        v);
}

// One key of a node's mapping to set (value) or to remove (nullopt).
struct Change {
    std::string key;
    std::optional<std::string> value;
};

// Attribute names in the order the op declares them, then any others: new keys go in as the writer orders them.
std::vector<std::string> declaredOrder(const Node& n)
{
    std::vector<std::string> order;
    if (const Op* op = OpRegistry::builtin().find(n.op))
        for (const auto& s : op->attrSpecs())
            if (n.attrs.has(s.name)) order.push_back(s.name);
    for (const auto& [name, value] : n.attrs.values())
        if (std::find(order.begin(), order.end(), name) == order.end()) order.push_back(name);
    return order;
}

std::vector<Change> changesOf(const Node& before, const Node& after)
{
    std::vector<Change> out;
    for (const std::string& key : declaredOrder(after)) {
        const AttrValue& v = after.attrs.get(key);
        if (!before.attrs.has(key) || !sameAttributeValue(after.op, key, before.attrs.get(key), v)) out.push_back({key, attrText(v)});
    }
    for (const auto& [key, v] : before.attrs.values())
        if (!after.attrs.has(key)) out.push_back({key, std::nullopt});
    if (before.checkpoint != after.checkpoint)
        out.push_back({"checkpoint", after.checkpoint ? std::optional<std::string>("true") : std::nullopt});
    return out;
}

TextEdit setValue(const MapEntry& e, const std::string& text)
{
    if (e.valueSpan && !e.blockValue) return TextEdit{e.valueSpan->begin, e.valueSpan->end, text};
    return TextEdit{e.colon, e.end(), " " + text};  // an empty value, or a block list become one line
}

std::string flowMap(const std::vector<std::string>& pieces)
{
    std::string s = "{";
    for (std::size_t i = 0; i < pieces.size(); ++i) s += (i ? ", " : "") + pieces[i];
    return s + "}";
}

// Edits of the mapping `map` (a node's attributes, or a `nodes:` item); `op` is the layer's op
// text when emptying the mapping should leave the bare layer.
std::optional<std::vector<TextEdit>> mapEdits(const SourceText& src, const YAML::Node& map, const std::vector<Change>& changes,
                                              std::optional<Span> op)
{
    const auto entries = entriesOf(src, map);
    const auto whole = src.span(map);
    if (!entries || !whole || entries->empty()) return std::nullopt;
    auto find = [&](const std::string& key) -> const MapEntry* {
        for (const MapEntry& e : *entries)
            if (e.key == key) return &e;
        return nullptr;
    };
    std::vector<std::pair<const MapEntry*, std::string>> sets;
    std::vector<const MapEntry*> removes;
    std::vector<std::string> adds;  // "key: value"
    for (const Change& c : changes) {
        const MapEntry* e = find(c.key);
        if (e && c.value) sets.emplace_back(e, *c.value);
        else if (e) removes.push_back(e);
        else if (c.value) adds.push_back(yamlString(c.key) + ": " + *c.value);
        else return std::nullopt;  // removing what the file does not say
    }
    const bool emptied = removes.size() == entries->size() && adds.empty();
    if (emptied) {
        if (!op) return std::nullopt;
        return std::vector<TextEdit>{{op->begin, whole->end, src.slice(*op)}};  // the bare layer
    }
    std::vector<TextEdit> edits;
    if (map.Style() == YAML::EmitterStyle::Flow) {
        if (removes.empty() && adds.empty()) {
            for (const auto& [e, text] : sets) edits.push_back(setValue(*e, text));
            return edits;
        }
        std::vector<std::string> pieces;  // the mapping again, each kept entry as written
        for (const MapEntry& e : *entries) {
            if (std::find(removes.begin(), removes.end(), &e) != removes.end()) continue;
            const auto set = std::find_if(sets.begin(), sets.end(), [&](const auto& s) { return s.first == &e; });
            pieces.push_back(set != sets.end() ? src.slice(e.keySpan) + ": " + set->second
                                               : src.text().substr(e.keySpan.begin, e.end() - e.keySpan.begin));
        }
        pieces.insert(pieces.end(), adds.begin(), adds.end());
        edits.push_back({whole->begin, whole->end, flowMap(pieces)});
        return edits;
    }
    for (const auto& [e, text] : sets) edits.push_back(setValue(*e, text));
    for (const MapEntry* e : removes) {
        if (!src.onlyIndentBefore(e->keySpan.begin) || !src.onlyCommentAfter(e->end())) return std::nullopt;
        edits.push_back({src.lineStart(e->keySpan.begin), src.nextLine(e->end()), ""});
    }
    if (!adds.empty()) {
        const MapEntry& last = entries->back();
        const std::size_t at = src.nextLine(last.end());
        const std::string indent(last.keySpan.begin - src.lineStart(last.keySpan.begin), ' ');
        std::string text = at == src.text().size() && !src.text().ends_with('\n') ? "\n" : "";
        for (const std::string& a : adds) text += indent + a + "\n";
        edits.push_back({at, at, text});
    }
    return edits;
}

// Whether the mapping's `key` is `expected` (or, when `orAbsent`, missing).
bool says(const YAML::Node& map, const char* key, const std::string& expected, bool orAbsent)
{
    const YAML::Node v = valueOf(map, key);
    if (!v.IsDefined()) return orAbsent;
    return v.IsScalar() && v.Scalar() == expected;
}

// The edits of one node's item of the list; nullopt when the item is not the node.
std::optional<std::vector<TextEdit>> nodeEdits(const SourceText& src, const YAML::Node& item, bool layers, const Node& before,
                                               const Node& after)
{
    const std::vector<Change> changes = changesOf(before, after);
    if (changes.empty()) return std::vector<TextEdit>{};
    auto onlyAdds = [&] { return std::all_of(changes.begin(), changes.end(), [](const Change& c) { return c.value.has_value(); }); };
    auto newMap = [&](const Span& op) {
        std::vector<std::string> pieces;
        for (const Change& c : changes) pieces.push_back(yamlString(c.key) + ": " + *c.value);
        return src.slice(op) + ": " + flowMap(pieces);
    };
    if (!layers) {
        if (!item.IsMap() || !says(item, "op", before.op, false) || !says(item, "name", before.name, true)) return std::nullopt;
        return mapEdits(src, item, changes, std::nullopt);
    }
    if (item.IsScalar()) {  // `- BatchNorm2d` gains its first attribute
        const auto op = src.span(item);
        if (item.Scalar() != before.op || !op || !onlyAdds()) return std::nullopt;
        return std::vector<TextEdit>{{op->begin, op->end, newMap(*op)}};
    }
    if (!item.IsMap() || item.size() != 1) return std::nullopt;
    const auto it = item.begin();
    const auto op = src.span(it->first);
    if (!op || !it->first.IsScalar() || it->first.Scalar() != before.op) return std::nullopt;
    const YAML::Node attrs = it->second;
    if (attrs.IsNull()) {  // `- BatchNorm2d:`
        const auto colon = src.afterColon(op->end);
        if (!colon || !onlyAdds()) return std::nullopt;
        return std::vector<TextEdit>{{op->begin, *colon, newMap(*op)}};
    }
    if (!attrs.IsMap()) return std::nullopt;
    if (!says(attrs, "name", before.name, true)) return std::nullopt;
    return mapEdits(src, attrs, changes, op);
}

}  // namespace

std::optional<std::vector<TextEdit>> modelAttributeEdits(const SourceText& src, const YAML::Node& model, const Graph& before,
                                                         const Graph& after)
{
    if (!(before.inputs == after.inputs) || before.output != after.output || before.loss != after.loss ||
        before.nodes.size() != after.nodes.size() || !model.IsMap())
        return std::nullopt;
    for (std::size_t i = 0; i < before.nodes.size(); ++i) {
        const Node &b = before.nodes[i], &a = after.nodes[i];
        if (b.name != a.name || b.op != a.op || b.inputs != a.inputs) return std::nullopt;
    }
    const YAML::Node layers = valueOf(model, "layers"), nodes = valueOf(model, "nodes");
    if (layers.IsSequence() == nodes.IsSequence()) return std::nullopt;
    const YAML::Node list = layers.IsSequence() ? layers : nodes;
    if (list.size() != before.nodes.size()) return std::nullopt;  // an item that did not read: rewrite
    std::vector<TextEdit> edits;
    for (std::size_t i = 0; i < before.nodes.size(); ++i) {
        if (before.nodes[i] == after.nodes[i]) continue;
        const auto node = nodeEdits(src, list[i], layers.IsSequence(), before.nodes[i], after.nodes[i]);
        if (!node) return std::nullopt;
        edits.insert(edits.end(), node->begin(), node->end());
    }
    return edits;
}

}  // namespace ts::yamlio
