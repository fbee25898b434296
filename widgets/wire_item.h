// A wire of the node canvas: a cubic Bézier curve from a node's output port (bottom centre)
// to another node's input port (top edge). Its path and its generous hit area (12 px wide)
// are computed when an end moves, never while painting.
#pragma once

#include <QGraphicsItem>
#include <QPainterPath>
#include <QPalette>
#include <QString>

namespace ts::widgets {

class NodeItem;

struct CanvasWire {
    QString from;
    QString to;
    int port = 0;
    bool operator==(const CanvasWire&) const = default;
};

class WireItem : public QGraphicsItem {
public:
    enum { Type = UserType + 0x4e32 };

    // A wire between two nodes; it attaches itself to both so it follows them.
    WireItem(NodeItem* from, NodeItem* to, int port, const QPalette& palette);
    // A loose wire being dragged (no nodes): its ends set by setEnds().
    explicit WireItem(const QPalette& palette);
    ~WireItem() override;

    int type() const override { return Type; }
    CanvasWire wire() const;
    NodeItem* fromNode() const { return m_from; }
    NodeItem* toNode() const { return m_to; }
    int port() const { return m_port; }
    void detach();  // forget both nodes (before one of them is deleted)

    void adjust();  // recompute the curve from the nodes' ports
    const QPainterPath& path() const { return m_path; }  // scene coordinates
    void setEnds(QPointF output, QPointF input);
    void setRefused(bool refused);  // drawn red: a dragged wire the connection check rejects
    void setPalette(const QPalette& palette);

    // The curve from an output port down to an input port, both in scene coordinates.
    static QPainterPath curve(QPointF output, QPointF input);

    QRectF boundingRect() const override;
    QPainterPath shape() const override { return m_hitArea; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

protected:
    QVariant itemChange(GraphicsItemChange change, const QVariant& value) override;

private:
    void setPath(const QPainterPath& path);

    NodeItem* m_from = nullptr;
    NodeItem* m_to = nullptr;
    int m_port = 0;
    bool m_loose = false;
    bool m_refused = false;
    QPalette m_palette;
    QPainterPath m_path;
    QPainterPath m_hitArea;
    QRectF m_bounds;
};

}  // namespace ts::widgets
