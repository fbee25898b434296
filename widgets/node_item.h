// The node canvas's items: a node (title, op type, detail lines, ports along the top edge and
// one output at the bottom) and a frame (an expanded block drawn behind its nodes). Their text
// is shaped once, when the look changes (ShapedText), so painting a frame of a 300-node graph
// lays out nothing, at any zoom; nodes paint through QGraphicsItem::DeviceCoordinateCache.
#pragma once

#include <QColor>
#include <QFont>
#include <QGraphicsItem>
#include <QList>
#include <QPainterPath>
#include <QPalette>
#include <QGlyphRun>
#include <QString>
#include <QStringList>

#include <functional>

namespace ts::widgets {

class WireItem;
class FrameItem;

// One line of text shaped once and drawn from its glyph runs: a new zoom factor only scales
// glyph positions (ShapedText lays the text out again for every new transform, which made
// each zoom step 30 % slower). Vector exports (SVG, PDF) get the string, so text stays text.
class ShapedText {
public:
    ShapedText() = default;
    ShapedText(const QString& text, const QFont& font);
    QSizeF size() const { return m_size; }
    void draw(QPainter* painter, QPointF topLeft) const;

private:
    QString m_text;
    QFont m_font;
    QList<QGlyphRun> m_runs;
    QSizeF m_size;
};

struct CanvasPort {
    QString name;
    QString tooltip;
    bool operator==(const CanvasPort&) const = default;
};

struct NodeLook {
    QString title;             // node name, bold: "conv1"
    QString subtitle;          // op type: "Conv2d"
    QStringList details;       // small lines: "[32, 28, 28]", "320 params · 0.6 MFLOP"
    QList<CanvasPort> inputs;  // input ports along the top edge, in order
    bool variadic = false;     // takes any number of inputs: one extra empty port after the used ones
    bool hasOutput = true;     // one output port at the bottom centre
    QColor accent;             // category colour: a stripe on the left
    QString error;             // non-empty: red outline, the text (elided) under the node, full text as tool tip
    bool checkpoint = false;   // marked for activation checkpointing: a small badge
    bool collapsedBlock = false;  // drawn as a block (double border)
    bool operator==(const NodeLook&) const = default;
};

class NodeItem : public QGraphicsItem {
public:
    enum { Type = UserType + 0x4e31 };
    static constexpr qreal kPortRadius = 5;

    NodeItem(const QString& id, const NodeLook& look, const QFont& font, const QPalette& palette);
    ~NodeItem() override;  // lets go of its wires and frames

    int type() const override { return Type; }
    const QString& id() const { return m_id; }
    const NodeLook& look() const { return m_look; }
    void setLook(const NodeLook& look, const QFont& font, const QPalette& palette);

    QSizeF size() const { return m_size; }
    QRectF bodyRect() const { return QRectF(QPointF(0, 0), m_size); }  // item coordinates
    int inputPortCount() const;  // the used ports plus the empty one of a variadic node
    QPointF inputPortPos(int port) const;  // item coordinates; clamped to the drawn ports
    QPointF outputPortPos() const;
    // The port within `radius` of `local` (item coordinates): -1 the output, >= 0 an input,
    // -2 none. The output wins over an input only by distance.
    int portAt(QPointF local, qreal radius) const;
    int nearestInputPort(qreal localX) const;

    // Wires and frames that must follow this node when it moves.
    void attachWire(WireItem* wire) { m_wires.append(wire); update(); }  // the port's fill changes
    void detachWire(WireItem* wire) { m_wires.removeAll(wire); update(); }
    const QList<WireItem*>& wires() const { return m_wires; }
    void attachFrame(FrameItem* frame) { m_frames.append(frame); }
    void detachFrame(FrameItem* frame) { m_frames.removeAll(frame); }
    void setMovedHook(std::function<void()> hook) { m_moved = std::move(hook); }

    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

protected:
    QVariant itemChange(GraphicsItemChange change, const QVariant& value) override;
    void hoverEnterEvent(QGraphicsSceneHoverEvent* event) override;
    void hoverMoveEvent(QGraphicsSceneHoverEvent* event) override;
    void hoverLeaveEvent(QGraphicsSceneHoverEvent* event) override;

private:
    void layoutText(const QFont& font);
    void paintPorts(QPainter* painter) const;

    QString m_id;
    NodeLook m_look;
    QPalette m_palette;
    QSizeF m_size;
    QFont m_titleFont, m_smallFont, m_badgeFont;
    ShapedText m_title, m_subtitle, m_error, m_badge;
    QPainterPath m_stripe;
    QList<ShapedText> m_details, m_portLabels;
    qreal m_portLabelRow = 0;  // height of the port-name row under the top edge (0: none)
    qreal m_titleHeight = 0, m_smallHeight = 0;
    QList<WireItem*> m_wires;
    QList<FrameItem*> m_frames;
    std::function<void()> m_moved;
};

// An expanded block: a labelled rounded frame around its nodes, behind them, recomputed when
// one of them moves.
class FrameItem : public QGraphicsItem {
public:
    enum { Type = UserType + 0x4e33 };
    static constexpr qreal kMargin = 14;

    FrameItem(const QString& id, const QString& label, bool checkpoint, const QFont& font, const QPalette& palette);
    ~FrameItem() override;

    int type() const override { return Type; }
    const QString& id() const { return m_id; }
    void setNodes(const QList<NodeItem*>& nodes);
    void detachNode(NodeItem* node);
    void adjust();  // follow the nodes

    QRectF boundingRect() const override { return m_rect; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QString m_id;
    bool m_checkpoint;
    QPalette m_palette;
    QFont m_font;
    ShapedText m_label;
    qreal m_labelHeight = 0;
    QList<NodeItem*> m_nodes;
    QRectF m_rect;
};

}  // namespace ts::widgets
