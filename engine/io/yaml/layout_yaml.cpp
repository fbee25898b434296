// Reads and writes the `layout:` section: where the Model page draws each node and which
// nodes it groups into blocks. One line per node and per block, so moving a node changes one
// line of the file. A name the model does not have is kept (see model_layout.h).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <set>

#include "io/yaml/experiment_sections.h"
#include "tensor/quote_text.h"

namespace ts::yamlio {

namespace {

std::optional<double> finiteNumber(const YAML::Node& n)
{
    if (!isPlainScalar(n)) return std::nullopt;
    const auto v = parseNumber(n.Scalar());
    return v && std::isfinite(*v) ? v : std::nullopt;
}

void readPositions(Reader& r, const Field& f, std::map<std::string, NodePosition>& out)
{
    if (f.value.IsNull()) return;
    if (!f.value.IsMap()) {
        r.report(f.pos, "layout: positions: expected a mapping of node names to [x, y], got " + describe(f.value));
        return;
    }
    std::map<std::string, Pos> seen;
    for (auto it = f.value.begin(); it != f.value.end(); ++it) {
        const Pos keyPos = r.at(it->first);
        if (!it->first.IsScalar()) {
            r.report(keyPos, "layout: positions: keys must be node names");
            continue;
        }
        const std::string name = it->first.Scalar();
        if (auto [prior, fresh] = seen.emplace(name, keyPos); !fresh) {
            r.report(keyPos, "layout: the position of " + quoteText(name) + " is given twice (line " + std::to_string(prior->second.line) + ")");
            continue;
        }
        const YAML::Node v = it->second;
        const Pos at = v.IsNull() ? keyPos : r.at(v);
        const std::string expected = "layout: the position of " + quoteText(name) + " must be two numbers [x, y], got ";
        if (!v.IsSequence()) {
            r.report(at, expected + describe(v));
            continue;
        }
        if (v.size() != 2) {
            r.report(at, expected + std::to_string(v.size()) + (v.size() == 1 ? " value" : " values"));
            continue;
        }
        const auto x = finiteNumber(v[0]), y = finiteNumber(v[1]);
        if (!x || !y) {
            const YAML::Node bad = x ? v[1] : v[0];
            r.report(r.at(bad).line ? r.at(bad) : at, expected + describe(bad));
            continue;
        }
        out[name] = NodePosition{*x, *y};
    }
}

// A block's node list, each name once, with where each is written.
std::vector<std::string> readBlockNodes(Reader& r, const Field& f, const std::string& block, std::vector<Pos>& places)
{
    std::vector<std::string> nodes;
    if (!f.value.IsSequence()) {
        r.report(f.pos, "layout: block " + quoteText(block) + ": nodes: expected a list of node names, got " + describe(f.value));
        return nodes;
    }
    for (std::size_t i = 0; i < f.value.size(); ++i) {
        const YAML::Node e = f.value[i];
        const Pos at = r.at(e).line ? r.at(e) : f.pos;
        if (!e.IsScalar()) {
            r.report(at, "layout: block " + quoteText(block) + ": nodes: expected node names, got " + describe(e));
            continue;
        }
        if (std::find(nodes.begin(), nodes.end(), e.Scalar()) != nodes.end()) {
            r.report(at, "layout: block " + quoteText(block) + " names node " + quoteText(e.Scalar()) + " twice");
            continue;
        }
        nodes.push_back(e.Scalar());
        places.push_back(at);
    }
    return nodes;
}

void readBlocks(Reader& r, const Field& f, std::vector<ModelBlock>& out)
{
    if (f.value.IsNull()) return;
    if (!f.value.IsSequence()) {
        r.report(f.pos, "layout: blocks: expected a list such as - {name: res1, nodes: [conv1, bn1]}, got " + describe(f.value));
        return;
    }
    std::map<std::string, std::pair<std::string, Pos>> owner;  // node -> the block that has it, and where
    std::map<std::string, Pos> names;
    for (std::size_t i = 0; i < f.value.size(); ++i) {
        const YAML::Node item = f.value[i];
        const Pos itemPos = r.at(item).line ? r.at(item) : f.pos;
        const std::size_t before = r.issueCount();
        const MapView m = r.map(item, "layout block", {"name", "nodes", "collapsed"}, itemPos);
        if (r.issueCount() != before && !item.IsMap()) continue;  // reported: not a mapping
        ModelBlock block;
        const Field* nameField = m.find("name");
        const std::string needsName = "layout: a block needs a name, e.g. {name: res1, nodes: [conv1, bn1]}";
        if (!nameField) {
            r.report(itemPos, needsName);
            continue;
        }
        if (!r.read(m, "name", block.name)) continue;  // reported: not a name
        if (block.name.empty()) {
            r.report(nameField->pos, needsName);
            continue;
        }
        if (auto [prior, fresh] = names.emplace(block.name, nameField->pos); !fresh) {
            r.report(nameField->pos, "layout: two blocks are named " + quoteText(block.name) + " (lines " + std::to_string(prior->second.line) +
                                         " and " + std::to_string(nameField->pos.line) + ")");
            continue;
        }
        if (const Field* nodes = m.find("nodes")) {
            std::vector<Pos> places;
            block.nodes = readBlockNodes(r, *nodes, block.name, places);
            for (std::size_t k = 0; k < block.nodes.size(); ++k) {
                const Pos at = places[k];
                const auto [prior, fresh] = owner.emplace(block.nodes[k], std::pair(block.name, at));
                if (!fresh)
                    r.report(at, "layout: node " + quoteText(block.nodes[k]) + " is in block " + quoteText(prior->second.first) + " (line " +
                                     std::to_string(prior->second.second.line) + ") and in block " + quoteText(block.name) +
                                     "; a node belongs to one block at most");
            }
        }
        r.read(m, "collapsed", block.collapsed);
        out.push_back(std::move(block));
    }
}

// Whole numbers as integers, others to one decimal: a canvas position needs no more.
std::string coordinate(double v)
{
    if (!std::isfinite(v)) return yamlNumber(v);
    const double rounded = std::round(v * 10) / 10;
    char buf[64];
    const bool whole = rounded == std::trunc(rounded);
    const auto end = whole ? std::to_chars(buf, buf + sizeof buf, rounded == 0 ? 0.0 : rounded, std::chars_format::fixed, 0).ptr
                           : std::to_chars(buf, buf + sizeof buf, rounded, std::chars_format::fixed, 1).ptr;
    return std::string(buf, end);
}

}  // namespace

ModelLayout readLayout(Reader& r, const Field& f)
{
    ModelLayout layout;
    const MapView m = r.map(f.value, "layout", {"positions", "blocks"}, f.pos);
    if (const Field* p = m.find("positions")) readPositions(r, *p, layout.positions);
    if (const Field* b = m.find("blocks")) readBlocks(r, *b, layout.blocks);
    return layout;
}

Out layoutOut(const ModelLayout& layout, const Graph& model)
{
    std::vector<std::string> order;
    for (const auto& in : model.inputs) order.push_back(in.name);
    for (const auto& n : model.nodes) order.push_back(n.name);
    std::set<std::string> written;
    Out positions = Out::map(true);
    auto put = [&](const std::string& name) {
        const auto it = layout.positions.find(name);
        if (it == layout.positions.end() || !written.insert(name).second) return;
        Out xy = Out::list();
        xy.push(Out::scalar(coordinate(it->second.x)));
        xy.push(Out::scalar(coordinate(it->second.y)));
        positions.add(yamlString(name), std::move(xy));
    };
    for (const auto& name : order) put(name);
    for (const auto& [name, at] : layout.positions) put(name);  // names the model does not have, by name

    Out blocks = Out::list();
    blocks.block = true;  // one line per block
    for (const ModelBlock& b : layout.blocks) {
        Out o = Out::map();
        o.add("name", Out::scalar(yamlString(b.name)));
        o.add("nodes", yamlList(b.nodes, yamlString));
        if (b.collapsed) o.add("collapsed", Out::scalar(yamlBool(true)));
        blocks.push(std::move(o));
    }
    Out out = Out::map(true);
    if (!positions.empty()) out.add("positions", std::move(positions));
    if (!blocks.empty()) out.add("blocks", std::move(blocks));
    return out;
}

}  // namespace ts::yamlio
