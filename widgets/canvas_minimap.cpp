#include "canvas_minimap.h"

#include "node_canvas.h"
#include "node_item.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace ts::widgets {

namespace {
constexpr qreal kInset = 6;  // logical pixels between the border and the drawing
}

// Why a child of the viewport, and opaque: Qt scrolls a view by moving its pixels only when
// nothing composited lies over it. A sibling overlapping the viewport, or a translucent child
// repainted or moved back into its corner after each scroll, makes every pan step repaint the
// whole viewport (bench_node_canvas: "painted 1.00 viewports/frame"). So the map paints an
// opaque background in the colour a translucent panel would show over the canvas's paper.
CanvasMinimap::CanvasMinimap(NodeCanvas* canvas) : QWidget(canvas->viewport()), m_canvas(canvas) {
    setAttribute(Qt::WA_OpaquePaintEvent);
    setFixedSize(kWidth, kHeight);
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("Overview: click or drag to move the view"));
}

QRectF CanvasMinimap::nodesRect() const {
    if (m_nodesRectStale) {
        m_nodesRect = QRectF();
        for (const NodeItem* node : m_canvas->m_nodes) m_nodesRect |= node->sceneBoundingRect();
        m_nodesRectStale = false;
    }
    return m_nodesRect;
}

QRectF CanvasMinimap::worldRect() const {
    const QRectF nodes = nodesRect();
    const QRectF world = m_canvas->visibleSceneRect() | nodes;
    // Grown in steps of an eighth of the drawing: a pan that shows a little more empty scene
    // beside it keeps the mapping (and the drawn nodes) instead of rescaling them every step.
    const qreal q = std::max({nodes.width(), nodes.height(), qreal(200)}) / 8;
    const QRectF stepped(QPointF(std::floor(world.left() / q) * q, std::floor(world.top() / q) * q),
                         QPointF(std::ceil(world.right() / q) * q, std::ceil(world.bottom() / q) * q));
    return stepped.adjusted(-40, -40, 40, 40);
}

void CanvasMinimap::contentChanged() {
    m_stale = true;
    m_nodesRectStale = true;
    update();
}

void CanvasMinimap::viewChanged() { update(); }

QRectF CanvasMinimap::mapping() const { return m_dragging ? m_frozenWorld : worldRect(); }

// The world rect scaled uniformly into the widget and centred, so shapes keep their aspect.
static QTransform worldToLocal(const QRectF& world, QSizeF size) {
    const QSizeF room(size.width() - 2 * kInset, size.height() - 2 * kInset);
    const qreal scale = std::min(room.width() / std::max<qreal>(world.width(), 1), room.height() / std::max<qreal>(world.height(), 1));
    const QPointF offset(kInset + (room.width() - world.width() * scale) / 2, kInset + (room.height() - world.height() * scale) / 2);
    return QTransform::fromTranslate(offset.x(), offset.y()).scale(scale, scale).translate(-world.left(), -world.top());
}

QPointF CanvasMinimap::toScene(QPointF local) const {
    return worldToLocal(mapping(), size()).inverted().map(local);
}

QPointF CanvasMinimap::toLocal(QPointF scene) const { return worldToLocal(mapping(), size()).map(scene); }

void CanvasMinimap::drawNodes(const QRectF& world) {
    const qreal dpr = devicePixelRatioF();
    if (m_nodes.size() != size() * dpr || m_nodes.devicePixelRatio() != dpr) {
        m_nodes = QPixmap(size() * dpr);
        m_nodes.setDevicePixelRatio(dpr);
    }
    m_nodesWorld = world;
    m_stale = false;
    QPainter painter(&m_nodes);
    // 18 % of Base over the canvas's paper (Window): a panel that reads as see-through.
    const QColor paper = m_canvas->palette().color(QPalette::Window), panel = palette().color(QPalette::Base);
    const float a = 0.18f;
    const QColor background = QColor::fromRgbF(paper.redF() * (1 - a) + panel.redF() * a, paper.greenF() * (1 - a) + panel.greenF() * a,
                                               paper.blueF() * (1 - a) + panel.blueF() * a);
    painter.fillRect(rect(), background);
    painter.setPen(QPen(palette().color(QPalette::Mid), 1));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5));

    const QTransform map = worldToLocal(world, size());
    const QColor node = palette().color(QPalette::Text);
    const QColor error(0xd0, 0x30, 0x30);
    painter.setPen(Qt::NoPen);
    for (const NodeItem* item : m_canvas->m_nodes) {
        QColor fill = item->isSelected() ? palette().color(QPalette::Highlight) : item->look().error.isEmpty() ? node : error;
        fill.setAlphaF(item->isSelected() ? 0.9f : 0.45f);
        painter.setBrush(fill);
        const QRectF r = map.mapRect(item->mapRectToScene(item->bodyRect()));
        painter.drawRect(r.width() < 1.5 || r.height() < 1.5 ? QRectF(r.topLeft(), QSizeF(1.5, 1.5)) : r);
    }
}

void CanvasMinimap::paintEvent(QPaintEvent*) {
    const QRectF world = mapping();
    if (m_stale || world != m_nodesWorld || m_nodes.size() != size() * devicePixelRatioF()) drawNodes(world);
    QPainter painter(this);
    painter.drawPixmap(0, 0, m_nodes);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(QPen(palette().color(QPalette::Highlight), 1.5));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(worldToLocal(world, size()).mapRect(m_canvas->visibleSceneRect()));
}

void CanvasMinimap::centreAt(QPointF local) {
    m_canvas->centerOn(toScene(local));
    update();
}

void CanvasMinimap::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
    m_frozenWorld = worldRect();  // so the map does not shift under the cursor while dragging
    m_dragging = true;
    centreAt(event->position());
}

void CanvasMinimap::mouseMoveEvent(QMouseEvent* event) {
    if (m_dragging) centreAt(event->position());
}

void CanvasMinimap::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && m_dragging) {
        m_dragging = false;
        update();
    }
}

}  // namespace ts::widgets
