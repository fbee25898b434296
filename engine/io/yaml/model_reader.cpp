// Reads the `model:` section into a Graph, checking each op and attribute where it is written.
// Problems are collected (Reader::report): a broken layer is reported and the others still
// read; checks that would only repeat an earlier problem (a missing attribute beside an
// unknown one, references when the inputs are unknown) are skipped.
#include <algorithm>
#include <cctype>
#include <set>
#include <unordered_set>

#include "io/yaml/model_yaml.h"

#include "graph/node_names.h"
#include "ops/registry.h"
#include "tensor/dtype.h"
#include "tensor/quote_text.h"

namespace ts::yamlio {

std::optional<std::vector<GraphInput>> defaultInputs(const DatasetSpec& d)
{
    const GraphInput label{"label", Shape{}, DType::I64};
    if (d.format == "idx") return std::vector<GraphInput>{{"image", Shape{1, 28, 28}}, label};
    if (d.format == "cifar10") return std::vector<GraphInput>{{"image", Shape{3, 32, 32}}, label};
    if (d.format == "image_folder" && d.imageShape.size() == 3) return std::vector<GraphInput>{{"image", Shape(d.imageShape)}, label};
    if (d.format == "text" && d.context >= 1)  // token ids in, the next token at each position out
        return std::vector<GraphInput>{{"tokens", Shape{d.context}, DType::I64}, {"label", Shape{d.context}, DType::I64}};
    const bool texts = d.format == "text_folder" || (d.format == "csv" && !d.textColumn.empty());
    if (texts && d.context >= 1)  // a text's token ids (padded with 0) in, its class out
        return std::vector<GraphInput>{{"tokens", Shape{d.context}, DType::I64}, label};
    if (d.format == "csv" && d.sequence.enabled()) {  // a window of rows in, the next `horizon` rows' targets out
        const SequenceSpec& q = d.sequence;
        const auto features = static_cast<std::int64_t>((q.features.empty() ? q.target : q.features).size());
        return std::vector<GraphInput>{{"series", Shape{q.length, features}},
                                       {"label", Shape{q.horizon, static_cast<std::int64_t>(q.target.size())}, DType::F32}};
    }
    if (d.format == "csv" && !d.featureColumns.empty()) {
        // Regression: the target columns' numbers, [targets] f32, as the output's shape.
        const GraphInput values{"label", Shape{static_cast<std::int64_t>(d.targetColumns.size())}, DType::F32};
        return std::vector<GraphInput>{{"features", Shape{static_cast<std::int64_t>(d.featureColumns.size())}},
                                       d.targetColumns.empty() ? label : values};
    }
    return std::nullopt;
}

std::string nameBase(const std::string& op) { return nodeNameBase(op); }

std::string generatedName(const std::string& op, int count) { return nameBase(op) + std::to_string(count); }

namespace {

const std::vector<std::string> kModelKeys = {"inputs", "layers", "nodes", "output", "loss"};

// Each input is read on its own; a broken one keeps its name, so references to it still resolve.
std::vector<GraphInput> readInputs(Reader& r, const Field& f)
{
    std::vector<GraphInput> inputs;
    if (!f.value.IsMap()) {
        r.report(f.pos, "inputs: expected a mapping of input names to shapes, got " + describe(f.value));
        return inputs;
    }
    for (auto it = f.value.begin(); it != f.value.end(); ++it) {
        const Field in{it->first.Scalar(), it->second, r.at(it->second), r.at(it->first)};
        if (std::any_of(inputs.begin(), inputs.end(), [&](const GraphInput& prior) { return prior.name == in.key; })) {
            r.report(in.keyPos, "inputs: " + quoteText(in.key) + " is given twice");
            continue;
        }
        GraphInput gi;
        gi.name = in.key;
        r.attempt([&] {
            if (in.value.IsSequence()) {
                gi.shape = Shape(r.integers(in));
            } else {
                const std::size_t before = r.issueCount();
                const MapView spec = r.map(in.value, "input " + quoteText(in.key), {"shape", "dtype"}, in.pos);
                if (r.issueCount() != before) return;  // not a mapping: a missing shape would only repeat it
                const Field* shape = spec.find("shape");
                if (!shape) r.fail(in.pos, "input " + quoteText(in.key) + ": needs a shape, e.g. [1, 28, 28]");
                gi.shape = Shape(r.integers(*shape));
                if (const Field* dt = spec.find("dtype")) {
                    auto parsed = parseDType(r.text(*dt));
                    if (!parsed) r.fail(dt->pos, "dtype: unknown type " + describe(dt->value) + "; valid: f32, f16, bf16, i32, i64, u8");
                    gi.dtype = *parsed;
                }
            }
            for (std::int64_t d : gi.shape.dims())
                if (d < 1) r.fail(in.pos, "input " + quoteText(in.key) + ": dimensions must be >= 1, got " + gi.shape.str());
        });
        inputs.push_back(std::move(gi));
    }
    return inputs;
}

// A YAML value as an attribute, typed by what it looks like: 3, 0.5, true, relu, [3, 3].
AttrValue attrValue(const Reader& r, const Field& f, const std::string& label)
{
    if (f.value.IsScalar()) {
        const std::string& s = f.value.Scalar();
        if (isPlainScalar(f.value)) {
            if (auto i = parseInteger(s)) return *i;
            if (auto d = parseNumber(s)) return *d;
            if (s == "true" || s == "false") return s == "true";
        }
        return s;
    }
    if (f.value.IsSequence()) {
        std::vector<std::int64_t> ints;
        std::vector<double> doubles;
        bool allInts = true;
        for (std::size_t i = 0; i < f.value.size(); ++i) {
            const YAML::Node e = f.value[i];
            const Pos p = r.at(e);
            std::optional<double> d = isPlainScalar(e) ? parseNumber(e.Scalar()) : std::nullopt;
            if (!d) r.fail(p.line ? p : f.pos, label + ": attribute " + quoteText(f.key) + " lists numbers only, got " + describe(e));
            const auto asInt = parseInteger(e.Scalar());
            allInts = allInts && asInt.has_value();
            if (asInt) ints.push_back(*asInt);
            doubles.push_back(*d);
        }
        if (allInts) return ints;  // an empty list too: it coerces to either list type
        return doubles;
    }
    r.fail(f.pos, label + ": attribute " + quoteText(f.key) + " must be a number, boolean, string or list, got " + describe(f.value));
}

// Sets the attribute as written when it reads as a value at all. A node that does not check
// keeps its attributes this way, so the Model page's draft (io/experiment_text.h) shows and
// saves it unchanged; the strict reader has reported the problem and throws anyway.
void keepAsWritten(const Reader& r, const Field& f, const std::string& label, Attrs& attrs)
{
    try {
        attrs.set(f.key, attrValue(r, f, label));
    } catch (const ExperimentError&) {
        // not a value (a list of words): the draft leaves it out, its text stays in the file
    }
}

struct Pending {
    std::string name;  // empty: generate
    Pos namePos;
    std::string op;    // empty: the item could not be read (reported), so it is left out
    Pos opPos;   // errors about the op
    Pos pos;     // the node's own position (mapped GraphErrors)
    std::vector<Field> attrFields;
    bool attrsRead = true;  // false: its attributes were not a mapping (reported)
    std::optional<std::vector<std::string>> inputs;
    std::vector<Pos> inputPos;
    bool checkpoint = false;  // a node field beside name, not an attribute: it is not the op's business
};

// Checks the op exists and each attribute against its spec, at the attribute's own position.
// An unknown op stops the node (fail); attribute problems are reported one by one.
Node resolve(Reader& r, const Pending& p, const std::string& name)
{
    const OpRegistry& registry = OpRegistry::builtin();
    const Op* op = registry.find(p.op);
    if (!op) {
        const auto types = registry.types();
        r.fail(p.opPos, "unknown op " + quoteText(p.op) + didYouMean(p.op, types) + "; known ops: " + joinList(types));
    }
    const std::string label = "node " + quoteText(name) + " (" + p.op + ")";
    const std::vector<AttrSpec> specs = op->attrSpecs();
    std::vector<std::string> names;
    for (const auto& s : specs) names.push_back(s.name);
    Node node{name, p.op, {}, {}, p.checkpoint};
    bool unknownAttribute = false;
    for (const Field& f : p.attrFields) {
        auto spec = std::find_if(specs.begin(), specs.end(), [&](const AttrSpec& s) { return s.name == f.key; });
        if (spec == specs.end()) {
            const std::string hint = didYouMean(f.key, names);
            r.report(f.keyPos, label + ": unknown attribute " + quoteText(f.key) +
                                   (!hint.empty() ? hint : names.empty() ? " (" + p.op + " takes none)" : " (" + p.op + " takes: " + joinList(names) + ")"));
            unknownAttribute = true;
            keepAsWritten(r, f, label, node.attrs);
            continue;
        }
        r.attempt([&] {
            AttrValue v = attrValue(r, f, label);
            node.attrs.set(f.key, v);  // as written, refused or not (keepAsWritten)
            Attrs normalised;
            if (std::string err = normaliseAttrs({*spec}, Attrs{{f.key, v}}, normalised); !err.empty()) r.fail(f.pos, label + ": " + err);
        });
    }
    // An unknown attribute is most often the required one misspelt: saying it is missing would repeat that.
    if (p.attrsRead && !unknownAttribute)
        for (const auto& s : specs) {
            const bool given = std::any_of(p.attrFields.begin(), p.attrFields.end(), [&](const Field& f) { return f.key == s.name; });
            if (!s.defaultValue && !given) r.report(p.pos, label + ": missing required attribute " + quoteText(s.name));
        }
    return node;
}

// `- ReLU` or `- Linear: {out_features: 512, name: fc1, checkpoint: true}`.
Pending readLayer(Reader& r, const YAML::Node& item)
{
    Pending p;
    p.pos = r.at(item);
    if (item.IsScalar()) {
        p.op = item.Scalar();
        p.opPos = p.pos;
        return p;
    }
    if (!item.IsMap() || item.size() != 1) {
        r.report(p.pos, "a layer is an op name (- ReLU) or one op with its attributes (- Linear: {out_features: 512}), got " +
                            describe(item));
        return p;
    }
    const auto it = item.begin();
    p.op = it->first.Scalar();
    p.opPos = r.at(it->first);
    p.pos = p.opPos;
    const YAML::Node attrs = it->second;
    if (attrs.IsNull()) return p;
    if (!attrs.IsMap()) {
        r.report(r.at(attrs), "layer " + p.op + ": attributes must be a mapping, got " + describe(attrs));
        p.attrsRead = false;
        return p;
    }
    std::set<std::string> seen;
    for (auto a = attrs.begin(); a != attrs.end(); ++a) {
        const Pos keyPos = r.at(a->first);
        const bool empty = a->second.IsNull();
        Field f{a->first.Scalar(), a->second, empty ? keyPos : r.at(a->second), keyPos};
        if (!seen.insert(f.key).second) {
            r.report(keyPos, "layer " + p.op + ": " + quoteText(f.key) + " is given twice");
            continue;
        }
        if (f.key == "name") r.attempt([&] { p.name = r.text(f), p.namePos = f.pos; });
        else if (f.key == "checkpoint") r.attempt([&] { p.checkpoint = r.boolean(f); });
        else p.attrFields.push_back(f);
    }
    return p;
}

// `- {name: conv1, op: Conv2d, inputs: [image], out_channels: 16, checkpoint: true}`.
Pending readNodeItem(Reader& r, const YAML::Node& item)
{
    Pending p;
    p.pos = r.at(item);
    if (!item.IsMap()) {
        r.report(p.pos, "a node is a mapping such as {name: fc1, op: Linear, inputs: [flatten], out_features: 10}, got " + describe(item));
        return p;
    }
    std::set<std::string> seen;
    bool hasOp = false;
    for (auto a = item.begin(); a != item.end(); ++a) {
        const Pos keyPos = r.at(a->first);
        const bool empty = a->second.IsNull();
        Field f{a->first.Scalar(), a->second, empty ? keyPos : r.at(a->second), keyPos};
        if (!seen.insert(f.key).second) {
            r.report(keyPos, "node: " + quoteText(f.key) + " is given twice");
            continue;
        }
        if (f.key == "name") r.attempt([&] { p.name = r.text(f), p.namePos = f.pos; });
        else if (f.key == "op") hasOp = true, r.attempt([&] { p.op = r.text(f), p.opPos = f.pos; });
        else if (f.key == "checkpoint") r.attempt([&] { p.checkpoint = r.boolean(f); });
        else if (f.key == "inputs") {
            const bool read = r.attempt([&] {
                if (f.value.IsScalar()) p.inputs = std::vector<std::string>{r.text(f)}, p.inputPos = {f.pos};
                else {
                    p.inputs = r.texts(f);
                    for (std::size_t i = 0; i < f.value.size(); ++i) p.inputPos.push_back(r.at(f.value[i]));
                }
            });
            if (!read) p.inputs = std::vector<std::string>{}, p.inputPos.clear();  // reported; nothing to check them against
        } else p.attrFields.push_back(f);
    }
    if (!hasOp) r.report(p.pos, "node" + (p.name.empty() ? std::string() : " " + quoteText(p.name)) + ": needs an op, e.g. op: Linear");
    return p;
}

}  // namespace

Graph readModel(Reader& r, const Field& field, const DatasetSpec& dataset, ModelMarks& marks)
{
    const MapView m = r.map(field.value, "model", kModelKeys, field.pos);
    marks.model = field.keyPos;
    Graph g;
    if (const Field* in = m.find("inputs")) {
        g.inputs = readInputs(r, *in);
        if (in->value.IsMap() && g.inputs.empty()) r.report(field.keyPos, "model: needs at least one input");
    } else if (auto d = defaultInputs(dataset)) g.inputs = *d;
    else r.report(field.keyPos, "model: list its inputs (e.g. inputs: {features: [6], label: {shape: [], dtype: i64}}); the "
                                "dataset does not imply them");
    // Without inputs (reported above) checks against them would only repeat that problem.
    const bool inputsKnown = !g.inputs.empty();
    if (const Field* out = m.find("output")) r.attempt([&] { g.output = r.text(*out), marks.output = out->pos; });
    if (const Field* loss = m.find("loss")) r.attempt([&] { g.loss = r.text(*loss), marks.loss = loss->pos; });

    const Field* layers = m.find("layers");
    const Field* nodes = m.find("nodes");
    if (layers && nodes) {
        r.report(nodes->keyPos, "model: give either layers (a chain) or nodes (a graph), not both");
        return g;
    }
    if (!layers && !nodes) {
        r.report(field.keyPos, "model: needs layers (a chain of layers) or nodes (a graph of named nodes)");
        return g;
    }
    const Field& list = layers ? *layers : *nodes;
    if (list.value.IsSequence() && list.value.size() == 0) {  // a list, so not "expected a list"
        r.report(list.pos, list.key + ": the list is empty; a model needs at least one " +
                               (layers ? "layer, e.g. - Linear: {out_features: 10}" : "node, e.g. - {name: fc, op: Linear, out_features: 10}"));
        return g;
    }
    if (!list.value.IsSequence()) {
        r.report(list.pos, list.key + ": expected a list of " + (layers ? "layers" : "nodes") + ", got " + describe(list.value));
        return g;
    }

    std::vector<Pending> pending;
    for (std::size_t i = 0; i < list.value.size(); ++i)
        pending.push_back(layers ? readLayer(r, list.value[i]) : readNodeItem(r, list.value[i]));

    const bool hasLabel = std::any_of(g.inputs.begin(), g.inputs.end(), [](const GraphInput& in) { return in.name == "label"; });
    std::map<std::string, int> counts;
    std::string prev = inputsKnown ? g.inputs.front().name : std::string();
    std::vector<const Pending*> placed;  // the item each node of g came from
    std::vector<std::string> unreadable;  // names of items left out, still valid references
    for (std::size_t i = 0; i < pending.size(); ++i) {
        const Pending& p = pending[i];
        if (p.op.empty()) {  // reported
            if (!p.name.empty()) unreadable.push_back(p.name);
            continue;
        }
        const int count = ++counts[nameBase(p.op)];
        const std::string name = p.name.empty() ? generatedName(p.op, count) : p.name;
        Node node{name, p.op, {}, {}, p.checkpoint};
        for (const Field& f : p.attrFields) keepAsWritten(r, f, "node " + quoteText(name) + " (" + p.op + ")", node.attrs);  // an unknown op's
        r.attempt([&] { node = resolve(r, p, name); });
        const Op* op = OpRegistry::builtin().find(p.op);
        const bool loss = op && op->isLoss();
        if (p.inputs) node.inputs = *p.inputs;
        else {
            if (loss && !hasLabel && inputsKnown)
                r.report(p.pos, "node " + quoteText(name) + " (" + p.op + "): a loss takes the previous output and the input 'label', "
                                "but the model has no input 'label'");
            node.inputs = loss ? std::vector<std::string>{prev, "label"} : std::vector<std::string>{prev};
        }
        if (layers && loss && i + 1 != pending.size())
            r.report(p.pos, "node " + quoteText(name) + " (" + p.op + "): only the last layer may be a loss; use nodes: for other graphs");
        const Pos namePos = p.name.empty() ? p.pos : p.namePos;
        const bool isInput = std::any_of(g.inputs.begin(), g.inputs.end(), [&](const GraphInput& in) { return in.name == name; });
        if (isInput) r.report(namePos, "the name " + quoteText(name) + " is already a model input");
        if (auto [it, fresh] = marks.nodes.emplace(name, p.pos); !fresh && !isInput)
            r.report(namePos, "the name " + quoteText(name) + " is already used (line " + std::to_string(it->second.line) +
                                  "); unnamed layers are named " + nameBase(p.op) + "1, " + nameBase(p.op) + "2, ...");
        prev = name;
        g.nodes.push_back(std::move(node));
        placed.push_back(&p);
    }

    // Every input reference names something, checked here to point at the reference itself.
    if (!inputsKnown) return g;
    std::vector<std::string> known;
    for (const auto& in : g.inputs) known.push_back(in.name);
    for (const auto& n : g.nodes) known.push_back(n.name);
    known.insert(known.end(), unreadable.begin(), unreadable.end());
    const std::unordered_set<std::string> knownSet(known.begin(), known.end());  // a long chain: no scan per input
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        for (std::size_t k = 0; k < g.nodes[i].inputs.size(); ++k) {
            const std::string& in = g.nodes[i].inputs[k];
            if (knownSet.count(in)) continue;
            const std::vector<Pos>& refs = placed[i]->inputPos;
            const Pos at = k < refs.size() && refs[k].line ? refs[k] : placed[i]->pos;
            r.report(at, "node " + quoteText(g.nodes[i].name) + " (" + g.nodes[i].op + "): input " + quoteText(in) + " is neither a model input nor a node" +
                             didYouMean(in, known));
        }
    return g;
}

}  // namespace ts::yamlio
