// NodeCanvas: the mouse and the keys (wires dragged from ports, node drags with snapping,
// panning, zooming, Tab/Space for the op popup, Delete on a wire, palette drops).
#include "node_canvas.h"

#include "canvas_minimap.h"

#include <QContextMenuEvent>
#include <QCursor>
#include <QGraphicsScene>
#include <QKeyEvent>
#include <QMimeData>
#include <QMouseEvent>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <memory>

namespace ts::widgets {

namespace {

const QString kOpMime = QStringLiteral("application/x-trainstudio-op");
constexpr int kPortReach = 9;   // view pixels around a port that still grab it
constexpr int kClickSlop = 4;   // view pixels a press may move and still be a click
constexpr double kWheelZoomPerDegree = 1.0015;  // one notch (15 degrees, 120 units) ≈ ×1.2

bool isDeleteKey(const QKeyEvent* key) { return key->key() == Qt::Key_Delete || key->key() == Qt::Key_Backspace; }
bool isPlainTab(const QKeyEvent* key) {
    return key->key() == Qt::Key_Tab && !(key->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::ShiftModifier));
}

// The scene adds to the selection with Ctrl only; Shift does the same here. Null without Shift.
std::unique_ptr<QMouseEvent> shiftAsCtrl(const QMouseEvent* event) {
    if (!(event->modifiers() & Qt::ShiftModifier)) return nullptr;
    return std::make_unique<QMouseEvent>(event->type(), event->position(), event->scenePosition(), event->globalPosition(),
                                         event->button(), event->buttons(),
                                         (event->modifiers() & ~Qt::ShiftModifier) | Qt::ControlModifier, event->pointingDevice());
}

}  // namespace

bool NodeCanvas::event(QEvent* event) {
    if (event->type() == QEvent::ShortcutOverride) {
        // Claim the keys the canvas uses before a window shortcut takes them; Delete only
        // while a wire is selected, so the page's own Delete action removes nodes.
        auto* key = static_cast<QKeyEvent*>(event);
        if ((isDeleteKey(key) && !selectedWires().isEmpty()) || isPlainTab(key) ||
            (key->key() == Qt::Key_Space && key->modifiers() == Qt::NoModifier)) {
            event->accept();
            return true;
        }
    } else if (event->type() == QEvent::KeyPress && isPlainTab(static_cast<QKeyEvent*>(event))) {
        emit insertRequested(cursorScenePos());  // before the focus chain sees the Tab
        return true;
    }
    return QGraphicsView::event(event);
}

// Tab belongs to the canvas (the op popup); Shift+Tab still leaves it, so the keyboard can.
bool NodeCanvas::focusNextPrevChild(bool next) { return next ? true : QGraphicsView::focusNextPrevChild(next); }

QPointF NodeCanvas::cursorScenePos() const {
    if (viewport()->rect().contains(m_lastMouse)) return mapToScene(m_lastMouse);
    const QPoint global = viewport()->mapFromGlobal(QCursor::pos());
    return mapToScene(viewport()->rect().contains(global) ? global : viewport()->rect().center());
}

void NodeCanvas::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Space && event->modifiers() == Qt::NoModifier) {
        if (!event->isAutoRepeat()) {
            m_spaceHeld = true;
            m_spaceUsed = false;
            viewport()->setCursor(Qt::OpenHandCursor);
        }
        event->accept();
        return;
    }
    if (isDeleteKey(event)) {
        const QList<CanvasWire> wires = selectedWires();
        if (wires.isEmpty()) {
            event->ignore();  // the page deletes nodes through its own action
            return;
        }
        for (const CanvasWire& wire : wires) emit wireRemovalRequested(wire);
        event->accept();
        return;
    }
    if (event->key() == Qt::Key_Escape && m_drag == Drag::Wire) {
        delete m_looseWire;
        m_looseWire = nullptr;
        m_wireNode = nullptr;
        m_drag = Drag::None;
        setHint(QString());
        return;
    }
    QGraphicsView::keyPressEvent(event);
}

void NodeCanvas::keyReleaseEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Space && !event->isAutoRepeat() && m_spaceHeld) {
        m_spaceHeld = false;
        if (m_drag == Drag::Pan) m_drag = Drag::None;
        viewport()->unsetCursor();
        if (!m_spaceUsed && m_drag == Drag::None) emit insertRequested(cursorScenePos());
        event->accept();
        return;
    }
    QGraphicsView::keyReleaseEvent(event);
}

NodeItem* NodeCanvas::nodeAt(QPoint viewPos) const {
    for (QGraphicsItem* item : items(viewPos))
        if (item->type() == NodeItem::Type) return static_cast<NodeItem*>(item);
    return nullptr;
}

void NodeCanvas::mousePressEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    m_lastMouse = m_pressPos = pos;
    if (event->button() == Qt::MiddleButton || (event->button() == Qt::LeftButton && m_spaceHeld)) {
        m_drag = Drag::Pan;
        m_panFrom = pos;
        m_spaceUsed = m_spaceHeld;
        viewport()->setCursor(Qt::ClosedHandCursor);
        event->accept();
        return;
    }
    if (event->button() == Qt::LeftButton && beginWire(pos)) {
        event->accept();
        return;
    }
    if (event->button() == Qt::LeftButton && nodeAt(pos)) {
        m_drag = Drag::Nodes;
        m_dragStart.clear();
        for (const NodeItem* item : m_nodes) m_dragStart.insert(item->id(), item->pos());
    }
    if (auto asCtrl = shiftAsCtrl(event)) {
        QGraphicsView::mousePressEvent(asCtrl.get());
        event->setAccepted(asCtrl->isAccepted());
        return;
    }
    QGraphicsView::mousePressEvent(event);
}

void NodeCanvas::mouseMoveEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    m_lastMouse = pos;
    if (m_drag == Drag::Pan) {
        const QPoint delta = pos - m_panFrom;
        m_panFrom = pos;
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() - delta.x());
        verticalScrollBar()->setValue(verticalScrollBar()->value() - delta.y());
        event->accept();
        return;
    }
    if (m_drag == Drag::Wire) {
        moveWire(pos);
        event->accept();
        return;
    }
    if (auto asCtrl = shiftAsCtrl(event)) QGraphicsView::mouseMoveEvent(asCtrl.get());
    else QGraphicsView::mouseMoveEvent(event);
}

void NodeCanvas::mouseReleaseEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    if (m_drag == Drag::Pan && (event->button() == Qt::MiddleButton || event->button() == Qt::LeftButton)) {
        m_drag = Drag::None;
        if (m_spaceHeld) viewport()->setCursor(Qt::OpenHandCursor);
        else viewport()->unsetCursor();
        event->accept();
        return;
    }
    if (m_drag == Drag::Wire && event->button() == Qt::LeftButton) {
        endWire(pos);
        event->accept();
        return;
    }
    if (auto asCtrl = shiftAsCtrl(event)) QGraphicsView::mouseReleaseEvent(asCtrl.get());
    else QGraphicsView::mouseReleaseEvent(event);
    if (m_drag != Drag::Nodes || event->button() != Qt::LeftButton) return;
    m_drag = Drag::None;
    QHash<QString, QPointF> moved;
    for (NodeItem* item : m_nodes) {
        const auto start = m_dragStart.constFind(item->id());
        if (start == m_dragStart.cend() || *start == item->pos()) continue;
        if (m_snap && m_grid > 0)
            item->setPos(std::round(item->pos().x() / m_grid) * m_grid, std::round(item->pos().y() / m_grid) * m_grid);
        if (item->pos() != *start) moved.insert(item->id(), item->pos());
    }
    m_dragStart.clear();
    if (moved.isEmpty()) return;
    updateSceneRect();
    emit nodesMoved(moved);
}

void NodeCanvas::mouseDoubleClickEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton)
        if (const NodeItem* item = nodeAt(event->position().toPoint())) {
            emit nodeDoubleClicked(item->id());
            event->accept();
            return;
        }
    QGraphicsView::mouseDoubleClickEvent(event);
}

void NodeCanvas::wheelEvent(QWheelEvent* event) {
    if (!(event->modifiers() & Qt::ControlModifier)) return QGraphicsView::wheelEvent(event);
    const double degrees = event->angleDelta().y() / 8.0;
    zoomAt(zoom() * std::pow(kWheelZoomPerDegree, degrees * 8.0), event->position().toPoint());
    event->accept();
}

void NodeCanvas::contextMenuEvent(QContextMenuEvent* event) {
    // A right click acts on what is under it: a node not yet selected becomes the selection,
    // empty space clears it (the page then offers the canvas's own menu).
    const NodeItem* item = nodeAt(event->pos());
    if (!item) selectNodes({});
    else if (!item->isSelected()) selectNodes({item->id()});
    emit contextMenuRequested(selectedNodes(), event->globalPos());
    event->accept();
}

void NodeCanvas::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasFormat(kOpMime)) event->acceptProposedAction();
    else QGraphicsView::dragEnterEvent(event);
}

void NodeCanvas::dragMoveEvent(QDragMoveEvent* event) {
    if (event->mimeData()->hasFormat(kOpMime)) event->acceptProposedAction();
    else QGraphicsView::dragMoveEvent(event);
}

void NodeCanvas::dropEvent(QDropEvent* event) {
    if (!event->mimeData()->hasFormat(kOpMime)) return QGraphicsView::dropEvent(event);
    const QString op = QString::fromUtf8(event->mimeData()->data(kOpMime)).trimmed();
    event->acceptProposedAction();
    if (!op.isEmpty()) emit opDropped(op, mapToScene(event->position().toPoint()));
}

// ---- wires dragged from ports ----------------------------------------------------------------

bool NodeCanvas::beginWire(QPoint viewPos) {
    // Ports are small: anything within kPortReach view pixels grabs one, but never more
    // than 14 scene units, so a zoomed-out node can still be dragged by its body.
    const qreal reach = std::clamp<qreal>(kPortReach / zoom(), NodeItem::kPortRadius + 2, 14);
    const QRect around(viewPos - QPoint(kPortReach, kPortReach), QSize(2 * kPortReach + 1, 2 * kPortReach + 1));
    const QPointF scenePos = mapToScene(viewPos);
    for (QGraphicsItem* item : items(around)) {
        if (item->type() != NodeItem::Type) continue;
        auto* candidate = static_cast<NodeItem*>(item);
        const int port = candidate->portAt(candidate->mapFromScene(scenePos), reach);
        if (port == -2) continue;
        m_wireNode = candidate;
        m_wirePort = port;
        m_looseWire = new WireItem(palette());
        m_scene->addItem(m_looseWire);
        m_drag = Drag::Wire;
        moveWire(viewPos);
        return true;
    }
    return false;
}

bool NodeCanvas::targetWire(QPoint viewPos, CanvasWire& wire, QPointF& snapTo) const {
    NodeItem* target = nodeAt(viewPos);
    if (!target || !m_wireNode) return false;
    const QPointF local = target->mapFromScene(mapToScene(viewPos));
    if (m_wirePort == -1) {  // from an output: to the input port under the cursor, or the nearest one
        int port = target->portAt(local, std::clamp<qreal>(kPortReach / zoom(), NodeItem::kPortRadius + 2, 14));
        if (port < 0) port = target->nearestInputPort(local.x());
        if (port < 0) return false;
        wire = {m_wireNode->id(), target->id(), port};
        snapTo = target->mapToScene(target->inputPortPos(port));
    } else {  // from an input: to the node's output
        if (!target->look().hasOutput) return false;
        wire = {target->id(), m_wireNode->id(), m_wirePort};
        snapTo = target->mapToScene(target->outputPortPos());
    }
    return true;
}

QString NodeCanvas::refusal(const CanvasWire& wire) const {
    if (wire.from == wire.to) return tr("%1 cannot take its own output").arg(wire.from);
    return m_check ? m_check(wire) : QString();
}

void NodeCanvas::moveWire(QPoint viewPos) {
    if (!m_looseWire || !m_wireNode) return;
    CanvasWire wire;
    QPointF end = mapToScene(viewPos);
    const bool over = targetWire(viewPos, wire, end);
    if (m_wirePort == -1) m_looseWire->setEnds(m_wireNode->mapToScene(m_wireNode->outputPortPos()), end);
    else m_looseWire->setEnds(end, m_wireNode->mapToScene(m_wireNode->inputPortPos(m_wirePort)));
    if (!over) {
        m_looseWire->setRefused(false);
        setHint(m_wirePort == -1 ? tr("Release on an input port to connect, or in empty space to add a node there")
                                 : tr("Release on an output port to connect, or in empty space to add a node there"));
        return;
    }
    const QString reason = refusal(wire);
    m_looseWire->setRefused(!reason.isEmpty());
    const NodeItem* to = node(wire.to);
    const QString portName = wire.port < to->look().inputs.size() ? to->look().inputs[wire.port].name : QString();
    const QString target = portName.isEmpty() ? wire.to : wire.to + QLatin1Char('.') + portName;
    setHint(reason.isEmpty() ? tr("Release to connect %1 → %2").arg(wire.from, target) : reason);
}

void NodeCanvas::endWire(QPoint viewPos) {
    CanvasWire wire;
    QPointF snap;
    const bool over = targetWire(viewPos, wire, snap);
    NodeItem* from = m_wireNode;
    const int fromPort = m_wirePort;
    delete m_looseWire;
    m_looseWire = nullptr;
    m_wireNode = nullptr;
    m_drag = Drag::None;
    if (!from) return;
    if ((viewPos - m_pressPos).manhattanLength() <= kClickSlop) {  // a click on a port, not a drag
        setHint(QString());
        return;
    }
    if (over) {
        const QString reason = refusal(wire);
        if (!reason.isEmpty()) m_lastHint.clear();  // say why again, even when the drag already did
        setHint(reason);
        if (reason.isEmpty()) emit connectionRequested(wire);
        return;
    }
    setHint(QString());
    if (nodeAt(viewPos)) return;  // on a node that cannot take it: nothing to do
    if (fromPort == -1) emit wireDroppedOnEmpty(from->id(), mapToScene(viewPos));
    else emit inputDroppedOnEmpty(from->id(), fromPort, mapToScene(viewPos));
}

}  // namespace ts::widgets
