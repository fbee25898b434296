// Where a new node goes: free space near a point, never on another node or under the minimap.
#include "canvas_minimap.h"
#include "node_canvas.h"

#include <QGraphicsItem>

#include <algorithm>
#include <cmath>

namespace ts::widgets {

namespace {
constexpr qreal kGap = 20;    // kept clear around every node
constexpr int kRings = 80;    // searched around the point, one grid step apart
}  // namespace

QSizeF NodeCanvas::typicalNodeSize() const
{
    QSizeF size(160, 70);  // a node with a title, an op and two detail lines, before any is drawn
    for (const NodeItem* item : m_nodes) size = size.expandedTo(item->sceneBoundingRect().size());
    return size;
}

QPointF NodeCanvas::freeSpotNear(QPointF scenePos, QSizeF size, bool preferVisible) const
{
    QList<QRectF> taken;
    for (const NodeItem* item : m_nodes) taken << item->sceneBoundingRect().adjusted(-kGap, -kGap, kGap, kGap);
    if (m_minimap->isVisible())
        taken << mapToScene(m_minimap->geometry().adjusted(-8, -8, 8, 8)).boundingRect();
    const QRectF visible = visibleSceneRect();
    const qreal step = m_grid > 0 ? m_grid : 20;
    auto snap = [step](qreal v) { return std::round(v / step) * step; };
    const QPointF start(snap(scenePos.x() - size.width() / 2), snap(scenePos.y() - size.height() / 2));
    auto free = [&](const QRectF& r) {
        return std::none_of(taken.begin(), taken.end(), [&](const QRectF& t) { return t.intersects(r); });
    };
    // Ring by ring (the square of Chebyshev radius r), each ring's spots nearest first.
    for (const bool inView : {true, false}) {
        if (inView && !preferVisible) continue;
        for (int r = 0; r <= kRings; ++r) {
            QList<QPoint> ring;
            for (int dx = -r; dx <= r; ++dx)
                for (int dy = -r; dy <= r; ++dy)
                    if (std::max(std::abs(dx), std::abs(dy)) == r) ring << QPoint(dx, dy);
            std::stable_sort(ring.begin(), ring.end(), [](QPoint a, QPoint b) {
                return a.x() * a.x() + a.y() * a.y() < b.x() * b.x() + b.y() * b.y();
            });
            for (const QPoint d : ring) {
                const QRectF r2(start + QPointF(d.x() * step, d.y() * step), size);
                if (inView && !visible.contains(r2)) continue;
                if (free(r2)) return r2.topLeft();
            }
        }
    }
    return start;  // a crowded canvas: where it was asked for
}

}  // namespace ts::widgets
