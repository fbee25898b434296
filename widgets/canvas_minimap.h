// The node canvas's overview: a small semi-transparent overlay in the bottom-right corner of
// the canvas that draws every node as a rectangle (not a render of the scene, so it stays
// cheap for 300 nodes) and the part in view as a frame. Clicking or dragging in it moves the
// view there.
#pragma once

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

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    QRectF mapping() const;  // the world rect in use (frozen while dragging)
    void centreAt(QPointF local);

    NodeCanvas* m_canvas;
    bool m_dragging = false;
    QRectF m_frozenWorld;
};

}  // namespace ts::widgets
