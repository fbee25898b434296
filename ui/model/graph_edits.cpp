#include "graph_edits.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <set>

#include "graph/node_names.h"
#include "graph/transformer_block.h"
#include "ops/registry.h"

namespace ts::ui {

namespace {

std::string s8(const QString& s) { return s.toStdString(); }

// Every node that `name` feeds, directly or not.
bool reaches(const Graph& g, const std::string& from, const std::string& to)
{
    std::vector<std::string> todo{from};
    std::set<std::string> seen;
    while (!todo.empty()) {
        const std::string cur = todo.back();
        todo.pop_back();
        if (cur == to) return true;
        if (!seen.insert(cur).second) continue;
        for (const auto& n : g.nodes)
            if (std::find(n.inputs.begin(), n.inputs.end(), cur) != n.inputs.end()) todo.push_back(n.name);
    }
    return false;
}

void renameEverywhere(ModelState& s, const std::string& from, const std::string& to)
{
    for (auto& n : s.model.nodes) {
        if (n.name == from) n.name = to;
        std::replace(n.inputs.begin(), n.inputs.end(), from, to);
    }
    if (s.model.output == from) s.model.output = to;
    if (s.model.loss == from) s.model.loss = to;
    if (auto it = s.layout.positions.find(from); it != s.layout.positions.end()) {
        const NodePosition p = it->second;
        s.layout.positions.erase(it);
        s.layout.positions[to] = p;
    }
    for (auto& b : s.layout.blocks) std::replace(b.nodes.begin(), b.nodes.end(), from, to);
}

// A JSON value that keeps the attribute's type (ints and floats look alike in JSON).
QJsonArray attrToJson(const AttrValue& v)
{
    QJsonArray a{int(v.index())};
    std::visit(
        [&](const auto& x) {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, std::int64_t>) a.append(double(x));
            else if constexpr (std::is_same_v<T, double> || std::is_same_v<T, bool>) a.append(x);
            else if constexpr (std::is_same_v<T, std::string>) a.append(QString::fromStdString(x));
            else {
                QJsonArray list;
                for (auto e : x) list.append(double(e));
                a.append(list);
            }
        },
        v);
    return a;
}

std::optional<AttrValue> attrFromJson(const QJsonArray& a)
{
    if (a.size() != 2) return std::nullopt;
    const QJsonValue v = a[1];
    switch (a[0].toInt(-1)) {
    case 0: return AttrValue(std::int64_t(v.toDouble()));
    case 1: return AttrValue(v.toDouble());
    case 2: return AttrValue(v.toBool());
    case 3: return AttrValue(v.toString().toStdString());
    case 4: {
        std::vector<std::int64_t> out;
        for (const auto& e : v.toArray()) out.push_back(std::int64_t(e.toDouble()));
        return AttrValue(out);
    }
    case 5: {
        std::vector<double> out;
        for (const auto& e : v.toArray()) out.push_back(e.toDouble());
        return AttrValue(out);
    }
    }
    return std::nullopt;
}

constexpr const char* kClipKind = "trainstudio-nodes";

}  // namespace

Node* findNode(Graph& g, const QString& name)
{
    for (auto& n : g.nodes)
        if (n.name == s8(name)) return &n;
    return nullptr;
}

const Node* findNode(const Graph& g, const QString& name)
{
    for (const auto& n : g.nodes)
        if (n.name == s8(name)) return &n;
    return nullptr;
}

bool isGraphInput(const Graph& g, const QString& name)
{
    return std::any_of(g.inputs.begin(), g.inputs.end(), [&](const GraphInput& in) { return in.name == s8(name); });
}

bool isIntegerInput(const Graph& g, const QString& name)
{
    return std::any_of(g.inputs.begin(), g.inputs.end(),
                       [&](const GraphInput& in) { return in.name == s8(name) && in.dtype != DType::F32; });
}

ModelState addNode(ModelState s, const QString& op, QPointF pos, QString* name)
{
    const std::string fresh = freshNodeName(s.model, nodeNameBase(s8(op)));
    s.model.add(fresh, s8(op), {});
    s.layout.positions[fresh] = {pos.x(), pos.y()};
    if (name) *name = QString::fromStdString(fresh);
    return s;
}

ModelState removeNodes(ModelState s, const QStringList& names)
{
    std::set<std::string> gone;
    for (const auto& n : names)
        if (findNode(s.model, n)) gone.insert(s8(n));
    if (gone.empty()) return s;
    std::erase_if(s.model.nodes, [&](const Node& n) { return gone.count(n.name) != 0; });
    for (auto& n : s.model.nodes) std::erase_if(n.inputs, [&](const std::string& in) { return gone.count(in) != 0; });
    if (gone.count(s.model.output)) s.model.output.clear();
    if (gone.count(s.model.loss)) s.model.loss.clear();
    for (const auto& g : gone) s.layout.positions.erase(g);
    for (auto& b : s.layout.blocks) std::erase_if(b.nodes, [&](const std::string& n) { return gone.count(n) != 0; });
    std::erase_if(s.layout.blocks, [](const ModelBlock& b) { return b.nodes.empty(); });
    return s;
}

ModelState moveNodes(ModelState s, const QHash<QString, QPointF>& positions)
{
    for (auto it = positions.begin(); it != positions.end(); ++it)
        s.layout.positions[s8(it.key())] = {it.value().x(), it.value().y()};
    return s;
}

QString connectionRefusal(const ModelState& s, const QString& from, const QString& to, int port)
{
    const Node* target = findNode(s.model, to);
    if (!target) return QObject::tr("%1 is a model input: it takes no inputs").arg(to);
    if (!findNode(s.model, from) && !isGraphInput(s.model, from)) return QObject::tr("%1 does not exist").arg(from);
    if (from == to) return QObject::tr("%1 cannot feed itself").arg(to);
    if (reaches(s.model, s8(to), s8(from)))
        return QObject::tr("That would make a cycle: %1 already depends on %2").arg(from, to);
    const int used = int(target->inputs.size());
    if (port < used && target->inputs[std::size_t(port)] == s8(from)) return QObject::tr("Already connected");
    if (const Op* op = OpRegistry::builtin().find(target->op)) {
        const int most = op->maxInputs();
        if (most >= 0 && port >= most)
            return QObject::tr("%1 (%2) takes %n input(s)", nullptr, most).arg(to, QString::fromStdString(target->op));
        if (port < used)
            return QObject::tr("Input %1 of %2 is already fed by %3: delete that wire first")
                .arg(QString::fromStdString(op->inputName(port)), to, QString::fromStdString(target->inputs[std::size_t(port)]));
    }
    return {};
}

ModelState connectNodes(ModelState s, const QString& from, const QString& to, int port)
{
    Node* target = findNode(s.model, to);
    if (!target || port < 0) return s;
    if (port < int(target->inputs.size())) target->inputs[std::size_t(port)] = s8(from);
    else target->inputs.push_back(s8(from));
    return s;
}

ModelState disconnect(ModelState s, const QString& to, int port)
{
    Node* target = findNode(s.model, to);
    if (target && port >= 0 && port < int(target->inputs.size())) target->inputs.erase(target->inputs.begin() + port);
    return s;
}

QString renameRefusal(const ModelState& s, const QString& node, const QString& name)
{
    static const QRegularExpression identifier(QStringLiteral("^[A-Za-z_][A-Za-z0-9_.-]*$"));
    if (name.isEmpty()) return QObject::tr("A node needs a name");
    if (!identifier.match(name).hasMatch())
        return QObject::tr("Use letters, digits, '_', '.' or '-', starting with a letter or '_'");
    if (name != node && (findNode(s.model, name) || isGraphInput(s.model, name)))
        return QObject::tr("The name %1 is taken").arg(name);
    return {};
}

ModelState renameNode(ModelState s, const QString& node, const QString& name)
{
    if (node == name || !renameRefusal(s, node, name).isEmpty() || !findNode(s.model, node)) return s;
    renameEverywhere(s, s8(node), s8(name));
    return s;
}

QByteArray copyNodes(const ModelState& s, const QStringList& names)
{
    QJsonArray nodes;
    QSet<QString> chosen(names.begin(), names.end());
    for (const auto& n : s.model.nodes) {
        const QString name = QString::fromStdString(n.name);
        if (!chosen.contains(name)) continue;
        QJsonObject attrs;
        for (const auto& [k, v] : n.attrs.values()) attrs[QString::fromStdString(k)] = attrToJson(v);
        QJsonArray inputs;
        for (const auto& in : n.inputs) inputs.append(QString::fromStdString(in));
        QJsonObject o{{"name", name}, {"op", QString::fromStdString(n.op)}, {"attrs", attrs}, {"inputs", inputs},
                      {"checkpoint", n.checkpoint}};
        if (auto p = s.layout.positions.find(n.name); p != s.layout.positions.end()) o["pos"] = QJsonArray{p->second.x, p->second.y};
        nodes.append(o);
    }
    QJsonArray blocks;
    for (const auto& b : s.layout.blocks) {
        QJsonArray members;
        bool inside = true;
        for (const auto& m : b.nodes) {
            inside = inside && chosen.contains(QString::fromStdString(m));
            members.append(QString::fromStdString(m));
        }
        if (inside) blocks.append(QJsonObject{{"name", QString::fromStdString(b.name)}, {"nodes", members}});
    }
    return QJsonDocument(QJsonObject{{"kind", kClipKind}, {"nodes", nodes}, {"blocks", blocks}}).toJson(QJsonDocument::Compact);
}

ModelState pasteNodes(ModelState s, const QByteArray& clip, QPointF offset, QStringList* pasted)
{
    const QJsonObject root = QJsonDocument::fromJson(clip).object();
    if (root.value("kind").toString() != QLatin1String(kClipKind)) return s;
    // Fresh names first, so wires inside the copy can follow them.
    std::map<std::string, std::string> fresh;
    Graph names = s.model;
    for (const auto& v : root.value("nodes").toArray()) {
        const QJsonObject o = v.toObject();
        const std::string op = s8(o.value("op").toString());
        const std::string name = freshNodeName(names, nodeNameBase(op));
        fresh[s8(o.value("name").toString())] = name;
        names.add(name, op, {});
    }
    for (const auto& v : root.value("nodes").toArray()) {
        const QJsonObject o = v.toObject();
        Node n;
        n.name = fresh.at(s8(o.value("name").toString()));
        n.op = s8(o.value("op").toString());
        n.checkpoint = o.value("checkpoint").toBool();
        const QJsonObject attrs = o.value("attrs").toObject();
        for (auto a = attrs.begin(); a != attrs.end(); ++a)
            if (auto value = attrFromJson(a.value().toArray())) n.attrs.set(s8(a.key()), *value);
        for (const auto& in : o.value("inputs").toArray()) {
            const std::string from = s8(in.toString());
            if (auto f = fresh.find(from); f != fresh.end()) n.inputs.push_back(f->second);
            else if (findNode(s.model, QString::fromStdString(from)) || isGraphInput(s.model, QString::fromStdString(from)))
                n.inputs.push_back(from);
        }
        const QJsonArray pos = o.value("pos").toArray();
        s.layout.positions[n.name] = {pos.at(0).toDouble() + offset.x(), pos.at(1).toDouble() + offset.y()};
        if (pasted) pasted->append(QString::fromStdString(n.name));
        s.model.nodes.push_back(std::move(n));
    }
    for (const auto& v : root.value("blocks").toArray()) {
        ModelBlock b;
        b.name = s8(freshBlockName(s));
        for (const auto& m : v.toObject().value("nodes").toArray()) b.nodes.push_back(fresh.at(s8(m.toString())));
        s.layout.blocks.push_back(std::move(b));
    }
    return s;
}

QString freshBlockName(const ModelState& s)
{
    Graph taken;
    for (const auto& b : s.layout.blocks) taken.add(b.name, "", {});
    return QString::fromStdString(freshNodeName(taken, "block"));
}

const ModelBlock* blockOf(const ModelState& s, const QString& node)
{
    for (const auto& b : s.layout.blocks)
        if (std::find(b.nodes.begin(), b.nodes.end(), s8(node)) != b.nodes.end()) return &b;
    return nullptr;
}

ModelState groupBlock(ModelState s, const QStringList& names, const QString& block)
{
    ModelBlock b{s8(block), {}, false};
    // Members in the model's order, each taken out of any block it was in.
    for (const auto& n : s.model.nodes)
        if (names.contains(QString::fromStdString(n.name))) b.nodes.push_back(n.name);
    if (b.nodes.empty()) return s;
    for (auto& other : s.layout.blocks)
        std::erase_if(other.nodes, [&](const std::string& m) { return std::find(b.nodes.begin(), b.nodes.end(), m) != b.nodes.end(); });
    std::erase_if(s.layout.blocks, [](const ModelBlock& x) { return x.nodes.empty(); });
    s.layout.blocks.push_back(std::move(b));
    return s;
}

ModelState ungroupBlock(ModelState s, const QString& block)
{
    std::erase_if(s.layout.blocks, [&](const ModelBlock& b) { return b.name == s8(block); });
    return s;
}

ModelState setBlockCollapsed(ModelState s, const QString& block, bool collapsed)
{
    for (auto& b : s.layout.blocks)
        if (b.name == s8(block)) b.collapsed = collapsed;
    return s;
}

ModelState setCheckpoint(ModelState s, const QStringList& names, bool on)
{
    for (auto& n : s.model.nodes)
        if (names.contains(QString::fromStdString(n.name))) n.checkpoint = on;
    return s;
}

ModelState insertTransformerBlock(ModelState s, const QString& from, const TransformerBlockOptions& options, QPointF pos, double row,
                                  QString* block)
{
    const std::string input = s8(from);
    std::vector<std::string> readers;  // the nodes that read `from` now: they will read the block
    for (const auto& n : s.model.nodes)
        if (!input.empty() && std::find(n.inputs.begin(), n.inputs.end(), input) != n.inputs.end()) readers.push_back(n.name);
    const std::vector<std::string> members = appendTransformerBlock(s.model, input, freshBlockPrefix(s.model), options);
    const std::string& out = members.back();
    for (auto& n : s.model.nodes)
        if (std::find(readers.begin(), readers.end(), n.name) != readers.end()) std::replace(n.inputs.begin(), n.inputs.end(), input, out);
    if (!input.empty() && s.model.output == input) s.model.output = out;
    if (input.empty())  // unwired: the recipe's two reads of its input are left for the user
        for (auto& n : s.model.nodes)
            if (std::find(members.begin(), members.end(), n.name) != members.end()) std::erase(n.inputs, std::string());

    if (!readers.empty())  // inserted into a chain: what follows moves down to make room
        for (auto& [name, p] : s.layout.positions)
            if (p.y >= pos.y() - row / 2) p.y += row;
    for (std::size_t i = 0; i < members.size(); ++i) s.layout.positions[members[i]] = {pos.x(), pos.y() + row * double(i)};

    Graph taken;
    for (const auto& b : s.layout.blocks) taken.add(b.name, "", {});
    ModelBlock b{freshNodeName(taken, "transformer"), members, !input.empty()};
    if (block) *block = QString::fromStdString(b.name);
    s.layout.blocks.push_back(std::move(b));
    return s;
}

ModelState setAttribute(ModelState s, const QString& node, const QString& attr, const AttrValue& value)
{
    if (Node* n = findNode(s.model, node)) n->attrs.set(s8(attr), value);
    return s;
}

ModelState resetAttribute(ModelState s, const QString& node, const QString& attr)
{
    Node* n = findNode(s.model, node);
    if (!n || !n->attrs.has(s8(attr))) return s;
    Attrs kept;
    for (const auto& [k, v] : n->attrs.values())
        if (k != s8(attr)) kept.set(k, v);
    n->attrs = kept;
    return s;
}

}  // namespace ts::ui
