#include "model_scene.h"

#include <QCoreApplication>
#include <QLocale>
#include <QSet>

#include "ops/registry.h"

namespace ts::ui {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

QColor categoryColour(const Op* op)
{
    if (!op) return QColor(0x9e, 0x9e, 0x9e);
    switch (op->category()) {
    case OpCategory::Layer: return QColor(0x42, 0x85, 0xf4);
    case OpCategory::Recurrent: return QColor(0x3f, 0x51, 0xb5);
    case OpCategory::Activation: return QColor(0xf4, 0xb4, 0x00);
    case OpCategory::Normalization: return QColor(0x0f, 0x9d, 0x58);
    case OpCategory::Pooling: return QColor(0x00, 0xac, 0xc1);
    case OpCategory::Structure: return QColor(0x8e, 0x24, 0xaa);
    case OpCategory::Loss: return QColor(0xdb, 0x44, 0x37);
    }
    return QColor(0x9e, 0x9e, 0x9e);
}

QList<widgets::CanvasPort> portsOf(const Node& node, const Op* op)
{
    QList<widgets::CanvasPort> ports;
    const int count = !op ? int(node.inputs.size())
                    : op->maxInputs() < 0 ? std::max<int>(op->minInputs(), int(node.inputs.size()))
                                          : op->maxInputs();
    for (int i = 0; i < count; ++i) {
        const QString name = op ? q(op->inputName(i)) : QCoreApplication::translate("ModelScene", "input %1").arg(i + 1);
        const QString from = i < int(node.inputs.size()) ? q(node.inputs[std::size_t(i)]) : QString();
        ports.append({name, from.isEmpty() ? name : QCoreApplication::translate("ModelScene", "%1 ← %2").arg(name, from)});
    }
    return ports;
}

QStringList detailsOf(const NodeDiagnosis* d, std::int64_t batch)
{
    if (!d || !d->known) {
        if (d && d->blocked) return {QCoreApplication::translate("ModelScene", "shape unknown: an input is broken")};
        return {};
    }
    QStringList lines{sampleShapeText(d->output.shape)};
    QStringList cost;
    if (d->cost.parameters > 0)
        cost << QCoreApplication::translate("ModelScene", "%1 params").arg(compactCount(double(d->cost.parameters)));
    // Per sample whatever else is broken: the diagnosis's costs are for its whole batch.
    cost << QCoreApplication::translate("ModelScene", "%1/sample")
                .arg(compactCount(d->cost.flops / double(std::max<std::int64_t>(1, batch)), QStringLiteral("FLOP")));
    lines << cost.join(QStringLiteral(" · "));
    lines << QCoreApplication::translate("ModelScene", "holds %1 for backward")
                 .arg(QLocale().formattedDataSize(qint64(d->cost.activationBytes)));
    return lines;
}

}  // namespace

QString sampleShapeText(const Shape& shape, bool withoutBatch)
{
    QStringList dims;
    for (std::size_t i = withoutBatch ? 1 : 0; i < shape.dims().size(); ++i) dims << QString::number(shape.dims()[i]);
    return QStringLiteral("[") + dims.join(QStringLiteral(", ")) + QStringLiteral("]");
}

QString compactCount(double v, const QString& unit)
{
    const double a = std::abs(v);
    const QLocale l;
    const QString space = QStringLiteral(" ");
    if (a >= 1e9) return l.toString(v / 1e9, 'f', 2) + space + QStringLiteral("G") + unit;
    if (a >= 1e6) return l.toString(v / 1e6, 'f', 2) + space + QStringLiteral("M") + unit;
    if (a >= 1e3) return l.toString(v / 1e3, 'f', 1) + space + QStringLiteral("k") + unit;
    return l.toString(v, 'f', 0) + (unit.isEmpty() ? QString() : space + unit);
}

void ModelScene::show(const ModelState& state, const GraphDiagnosis& diagnosis)
{
    const Graph& g = state.model;
    const std::int64_t batch = diagnosis.batch;
    m_blockInputs.clear();
    m_blockOutput.clear();
    m_blockMembers.clear();
    m_shownAs.clear();

    QSet<QString> collapsedMembers;
    for (const auto& b : state.layout.blocks) {
        QStringList members;
        for (const auto& m : b.nodes) members << q(m);
        m_blockMembers[blockId(q(b.name))] = members;
        if (!b.collapsed) continue;
        for (const auto& m : members) {
            collapsedMembers.insert(m);
            m_shownAs[m] = blockId(q(b.name));
        }
    }

    QSet<QString> shown;
    QPointF nextFree(0, 0);
    for (const QString& id : m_canvas->nodeIds()) nextFree.setY(std::max(nextFree.y(), m_canvas->nodeRect(id).bottom() + 40));
    auto place = [&](const QString& id, const std::string& name) {
        shown.insert(id);
        if (auto p = state.layout.positions.find(name); p != state.layout.positions.end())
            m_canvas->setNodePos(id, QPointF(p->second.x, p->second.y));
        else if (!m_canvas->nodeIds().contains(id) || m_canvas->nodePos(id).isNull()) {
            m_canvas->setNodePos(id, nextFree);
            nextFree.ry() += 120;
        }
    };

    for (const auto& in : g.inputs) {
        widgets::NodeLook look;
        look.title = q(in.name);
        look.subtitle = QCoreApplication::translate("ModelScene", "Input");
        look.details = {sampleShapeText(in.shape, false) + QStringLiteral(" ") + q(std::string(dtypeName(in.dtype)))};
        look.accent = QColor(0x60, 0x7d, 0x8b);
        const bool had = m_canvas->nodeIds().contains(q(in.name));
        m_canvas->setNode(q(in.name), look);
        if (!had || state.layout.positions.count(in.name)) place(q(in.name), in.name);
        else shown.insert(q(in.name));
    }
    const OpRegistry& registry = OpRegistry::builtin();
    for (const auto& node : g.nodes) {
        const QString id = q(node.name);
        if (collapsedMembers.contains(id)) continue;
        const Op* op = registry.find(node.op);
        const NodeDiagnosis* d = diagnosis.find(node.name);
        widgets::NodeLook look;
        look.title = id;
        look.subtitle = q(node.op);
        look.inputs = portsOf(node, op);
        look.variadic = op && op->maxInputs() < 0;
        look.hasOutput = !(op && op->isLoss());
        look.accent = categoryColour(op);
        look.details = detailsOf(d, batch);
        look.checkpoint = node.checkpoint;
        if (d && !d->problem.empty()) look.error = q(d->problem);
        const bool had = m_canvas->nodeIds().contains(id);
        m_canvas->setNode(id, look);
        if (!had || state.layout.positions.count(node.name)) place(id, node.name);
        else shown.insert(id);
    }

    // Collapsed blocks: one node; its ports are the members' inputs from outside the block.
    QList<widgets::CanvasFrame> frames;
    for (const auto& b : state.layout.blocks) {
        const QString id = blockId(q(b.name));
        const QStringList& members = m_blockMembers[id];
        bool checkpoint = !b.nodes.empty();
        for (const auto& m : b.nodes)
            if (const Node* n = findNode(g, q(m))) checkpoint = checkpoint && n->checkpoint;
        if (!b.collapsed) {
            frames.append({id, q(b.name), members, checkpoint});
            continue;
        }
        widgets::NodeLook look;
        look.title = q(b.name);
        look.subtitle = QCoreApplication::translate("ModelScene", "Block of %n node(s)", nullptr, int(members.size()));
        look.collapsedBlock = true;
        look.checkpoint = checkpoint;
        look.accent = QColor(0x5c, 0x6b, 0xc0);
        std::int64_t params = 0;
        QStringList problems;
        QString last;
        for (const auto& m : b.nodes) {
            const Node* n = findNode(g, q(m));
            if (!n) continue;
            for (int p = 0; p < int(n->inputs.size()); ++p)
                if (!members.contains(q(n->inputs[std::size_t(p)]))) {
                    m_blockInputs[id].append({q(m), p});
                    look.inputs.append({q(registry.find(n->op) ? registry.find(n->op)->inputName(p) : "input"),
                                        q(m) + QStringLiteral(" ← ") + q(n->inputs[std::size_t(p)])});
                }
            if (const NodeDiagnosis* d = diagnosis.find(m)) {
                params += d->cost.parameters;
                if (!d->problem.empty()) problems << q(d->problem);
                if (d->known) look.details = {sampleShapeText(d->output.shape)};
            }
            last = q(m);
        }
        look.details << QCoreApplication::translate("ModelScene", "%1 params").arg(compactCount(double(params)));
        look.error = problems.join(QLatin1Char('\n'));
        m_blockOutput[id] = last;
        m_canvas->setNode(id, look);
        if (auto p = state.layout.positions.find(b.nodes.front()); p != state.layout.positions.end())
            m_canvas->setNodePos(id, QPointF(p->second.x, p->second.y));
        shown.insert(id);
    }
    for (const QString& id : m_canvas->nodeIds())
        if (!shown.contains(id)) m_canvas->removeNode(id);

    QList<widgets::CanvasWire> wires;
    for (const auto& node : g.nodes) {
        const QString to = q(node.name);
        for (int p = 0; p < int(node.inputs.size()); ++p) {
            const QString from = canvasId(q(node.inputs[std::size_t(p)]));
            QString shownTo = canvasId(to);
            int shownPort = p;
            if (shownTo != to) {
                if (shownTo == from) continue;  // inside a collapsed block
                shownPort = int(m_blockInputs[shownTo].indexOf({to, p}));
            }
            wires.append({from, shownTo, shownPort});
        }
    }
    m_canvas->setWires(wires);
    m_canvas->setFrames(frames);
}

QPair<QString, int> ModelScene::inputTarget(const QString& canvasId, int port) const
{
    if (!isBlockId(canvasId)) return {canvasId, port};
    const auto ports = m_blockInputs.value(canvasId);
    if (port >= 0 && port < ports.size()) return ports[port];
    const QStringList members = m_blockMembers.value(canvasId);
    return {members.isEmpty() ? QString() : members.front(), port};
}

QString ModelScene::outputSource(const QString& canvasId) const
{
    return isBlockId(canvasId) ? m_blockOutput.value(canvasId) : canvasId;
}

QStringList ModelScene::modelNodes(const QStringList& canvasIds) const
{
    QStringList out;
    for (const QString& id : canvasIds) out << (isBlockId(id) ? m_blockMembers.value(id) : QStringList{id});
    return out;
}

QString ModelScene::canvasId(const QString& node) const { return m_shownAs.value(node, node); }

}  // namespace ts::ui
