#include "wire_item.h"

#include "node_item.h"

#include <QPainter>
#include <QPainterPathStroker>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <cmath>

namespace ts::widgets {

namespace {
constexpr qreal kHitWidth = 12;  // the click target, wider than the 1.6 px line
const QColor kRefused(0xd0, 0x30, 0x30);
}  // namespace

WireItem::WireItem(NodeItem* from, NodeItem* to, int port, const QPalette& palette)
    : m_from(from), m_to(to), m_port(port), m_palette(palette) {
    setFlag(ItemIsSelectable);
    setZValue(-1);  // under the nodes, so a wire never hides a port
    m_from->attachWire(this);
    if (m_to != m_from) m_to->attachWire(this);
    adjust();
}

WireItem::WireItem(const QPalette& palette) : m_loose(true), m_palette(palette) {
    setZValue(5);  // a dragged wire is drawn over everything
}

WireItem::~WireItem() { detach(); }

void WireItem::detach() {
    if (m_from) m_from->detachWire(this);
    if (m_to) m_to->detachWire(this);
    m_from = m_to = nullptr;
}

CanvasWire WireItem::wire() const {
    if (!m_from || !m_to) return {};
    return {m_from->id(), m_to->id(), m_port};
}

QPainterPath WireItem::curve(QPointF output, QPointF input) {
    const qreal dy = input.y() - output.y();
    // Leave the output downwards and enter the input from above; a wire that goes back up
    // needs longer handles to make a readable loop instead of a kink.
    const qreal handle = dy >= 0 ? std::max<qreal>(30, dy * 0.5) : 60 + std::abs(dy) * 0.25;
    QPainterPath path(output);
    path.cubicTo(output + QPointF(0, handle), input - QPointF(0, handle), input);
    return path;
}

void WireItem::adjust() {
    if (!m_from || !m_to) return;
    setPath(curve(m_from->mapToScene(m_from->outputPortPos()), m_to->mapToScene(m_to->inputPortPos(m_port))));
}

void WireItem::setEnds(QPointF output, QPointF input) { setPath(curve(output, input)); }

void WireItem::setPath(const QPainterPath& path) {
    prepareGeometryChange();
    m_path = path;
    QPainterPathStroker stroker;
    stroker.setWidth(kHitWidth);
    m_hitArea = stroker.createStroke(m_path);
    m_bounds = m_hitArea.boundingRect();
}

void WireItem::setRefused(bool refused) {
    if (refused == m_refused) return;
    m_refused = refused;
    update();
}

void WireItem::setPalette(const QPalette& palette) {
    m_palette = palette;
    update();
}

QRectF WireItem::boundingRect() const { return m_bounds; }

QVariant WireItem::itemChange(GraphicsItemChange change, const QVariant& value) {
    if (change == ItemSelectedHasChanged) setZValue(value.toBool() ? -0.5 : -1);  // above its peers
    return QGraphicsItem::itemChange(change, value);
}

void WireItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    const bool selected = option->state & QStyle::State_Selected;
    QColor color = m_palette.color(QPalette::Text);
    color.setAlphaF(0.55f);
    qreal width = 1.6;
    Qt::PenStyle style = Qt::SolidLine;
    if (m_loose) {
        color = m_refused ? kRefused : m_palette.color(QPalette::Highlight);
        width = 2;
        style = m_refused ? Qt::DashLine : Qt::SolidLine;
    } else if (selected) {
        color = m_palette.color(QPalette::Highlight);
        width = 3;
    }
    painter->setRenderHint(QPainter::Antialiasing);
    QPen pen(color, width, style, Qt::RoundCap);
    // Zoomed out, a wire would be under 1.3 px wide anyway: a one-pixel cosmetic pen takes the
    // raster engine's fast line path instead of stroking an outline (bench: pan all in view).
    if (width * QStyleOptionGraphicsItem::levelOfDetailFromTransform(painter->worldTransform()) < 1.3) {
        pen.setWidthF(1);
        pen.setCosmetic(true);
    }
    painter->setPen(pen);
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(m_path);
}

}  // namespace ts::widgets
