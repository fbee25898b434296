// The node canvas's overview: a small panel in the bottom-right corner of the canvas that
// draws every node as a rectangle (not a render of the scene, so it stays cheap for 300 nodes)
// and the part in view as a frame. Clicking or dragging in it moves the view there.
//
// Two layers: the nodes are drawn into a pixmap that is redrawn only when the content changes
// (contentChanged: a node added, moved, restyled or selected) or the mapped area does; a pan
// or zoom step (viewChanged) only draws that pixmap and the frame again.
#pragma once

#include <QPixmap>
#include <QRectF>
#include <QWidget>

namespace ts::widgets {

class NodeCanvas;

class CanvasMinimap : public QWidget {
    Q_OBJECT
public:
    static constexpr int kWidth = 180;
    static constexpr int kHeight = 120;

    explicit CanvasMinimap(NodeCanvas* canvas);

    // The scene area the minimap shows: every node and the visible area, with a margin.
    QRectF worldRect() const;
    QPointF toScene(QPointF local) const;  // under the current world rect
    QPointF toLocal(QPointF scene) const;

    void contentChanged();  // the nodes' look, place or selection changed
    void viewChanged();     // only the part in view moved

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    QRectF mapping() const;  // the world rect in use (frozen while dragging)
    QRectF nodesRect() const;  // every node's scene rect, united (cached until contentChanged)
    void centreAt(QPointF local);
    void drawNodes(const QRectF& world);

    NodeCanvas* m_canvas;
    bool m_dragging = false;
    QRectF m_frozenWorld;
    QPixmap m_nodes;         // background, border and nodes for m_nodesWorld
    QRectF m_nodesWorld;     // the mapping m_nodes was drawn for
    bool m_stale = true;     // m_nodes must be drawn again
    mutable QRectF m_nodesRect;
    mutable bool m_nodesRectStale = true;
};

}  // namespace ts::widgets
