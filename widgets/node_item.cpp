#include "node_item.h"

#include "wire_item.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QGraphicsSceneHoverEvent>
#include <QPaintEngine>
#include <QPainter>
#include <QTextLayout>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <cmath>

namespace ts::widgets {

namespace {

constexpr qreal kPad = 8;
constexpr qreal kStripe = 5;
constexpr qreal kMinWidth = 150;
constexpr qreal kMaxWidth = 300;
constexpr qreal kRadius = 6;
constexpr qreal kErrorGap = kPad;                     // from the body's bottom to the error text
constexpr qreal kLevelOfDetailForText = 0.35;        // below: boxes only, text would be unreadable
const QColor kError(0xd0, 0x30, 0x30);
const QColor kCheckpoint(0xc7, 0x7c, 0x0e);

QColor mix(const QColor& a, const QColor& b, float t) {
    return QColor::fromRgbF(a.redF() * (1 - t) + b.redF() * t, a.greenF() * (1 - t) + b.greenF() * t,
                            a.blueF() * (1 - t) + b.blueF() * t);
}

QString trCanvas(const char* text) { return QCoreApplication::translate("ts::widgets::NodeCanvas", text); }

}  // namespace

ShapedText::ShapedText(const QString& text, const QFont& font) : m_text(text), m_font(font) {
    QTextLayout layout(text, font);
    layout.setCacheEnabled(true);
    layout.beginLayout();
    QTextLine line = layout.createLine();
    layout.endLayout();
    if (!line.isValid()) return;
    m_runs = layout.glyphRuns();
    m_size = QSizeF(line.naturalTextWidth(), line.height());
}

void ShapedText::draw(QPainter* painter, QPointF topLeft) const {
    const QPaintEngine::Type engine = painter->paintEngine()->type();
    if (engine == QPaintEngine::SVG || engine == QPaintEngine::Pdf || engine == QPaintEngine::Picture) {
            painter->drawText(QRectF(topLeft, m_size + QSizeF(2, 0)), Qt::AlignLeft | Qt::AlignTop | Qt::TextSingleLine, m_text);
        return;
    }
    for (const QGlyphRun& run : m_runs) painter->drawGlyphRun(topLeft, run);
}

NodeItem::NodeItem(const QString& id, const NodeLook& look, const QFont& font, const QPalette& palette) : m_id(id) {
    setFlags(ItemIsMovable | ItemIsSelectable | ItemSendsGeometryChanges);
    setAcceptHoverEvents(true);  // per-port tool tips
    setCacheMode(DeviceCoordinateCache);
    setLook(look, font, palette);
}

NodeItem::~NodeItem() {
    for (WireItem* wire : QList<WireItem*>(m_wires)) wire->detach();
    for (FrameItem* frame : QList<FrameItem*>(m_frames)) frame->detachNode(this);
}

void NodeItem::setLook(const NodeLook& look, const QFont& font, const QPalette& palette) {
    prepareGeometryChange();
    m_look = look;
    m_palette = palette;
    layoutText(font);
    setToolTip(m_look.error);
    for (WireItem* wire : m_wires) wire->adjust();  // ports may have moved
    update();
}

void NodeItem::layoutText(const QFont& font) {
    m_titleFont = font;
    m_titleFont.setBold(true);
    m_smallFont = font;
    m_smallFont.setPointSizeF(std::max(6.0, font.pointSizeF() * 0.85));
    m_badgeFont = m_smallFont;
    m_badgeFont.setBold(true);
    const QFontMetricsF titleMetrics(m_titleFont), smallMetrics(m_smallFont), badgeMetrics(m_badgeFont);
    m_titleHeight = titleMetrics.height();
    m_smallHeight = smallMetrics.height();

    const qreal textRoom = kMaxWidth - 2 * kPad - kStripe;
    const QString badge = trCanvas(QT_TRANSLATE_NOOP("ts::widgets::NodeCanvas", "ckpt"));
    const qreal badgeWidth = m_look.checkpoint ? badgeMetrics.horizontalAdvance(badge) + 10 : 0;
    const QString title = titleMetrics.elidedText(m_look.title, Qt::ElideRight, textRoom - badgeWidth);
    const QString subtitle = smallMetrics.elidedText(m_look.subtitle, Qt::ElideRight, textRoom);
    qreal textWidth = std::max(titleMetrics.horizontalAdvance(title) + badgeWidth, smallMetrics.horizontalAdvance(subtitle));
    m_title = ShapedText(title, m_titleFont);
    m_subtitle = ShapedText(subtitle, m_smallFont);
    m_badge = ShapedText(badge, m_badgeFont);
    m_details.clear();
    for (const QString& line : m_look.details) {
        const QString shown = smallMetrics.elidedText(line, Qt::ElideRight, textRoom);
        textWidth = std::max(textWidth, smallMetrics.horizontalAdvance(shown));
        m_details.append(ShapedText(shown, m_smallFont));
    }

    // Port names go in a row of their own when there is a choice to make (two or more ports).
    m_portLabels.clear();
    m_portLabelRow = 0;
    const int ports = inputPortCount();
    const bool named = std::any_of(m_look.inputs.begin(), m_look.inputs.end(), [](const CanvasPort& p) { return !p.name.isEmpty(); });
    if (ports >= 2 && named) {
        const qreal slot = kMaxWidth / ports - 4;
        qreal widest = 0;
        for (int i = 0; i < ports; ++i) {
            const QString name = i < m_look.inputs.size() ? m_look.inputs[i].name : QStringLiteral("+");
            const QString shown = smallMetrics.elidedText(name, Qt::ElideRight, slot);
            widest = std::max(widest, smallMetrics.horizontalAdvance(shown));
            m_portLabels.append(ShapedText(shown, m_smallFont));
        }
        textWidth = std::max(textWidth, (widest + 8) * ports - 2 * kPad - kStripe);
        m_portLabelRow = m_smallHeight + 2;
    }

    qreal width = std::clamp(std::ceil(textWidth + 2 * kPad + kStripe), kMinWidth, kMaxWidth);
    width = 2 * std::ceil(width / 2);  // even, so the output port sits on a whole pixel
    const qreal height = std::ceil(kPad + m_portLabelRow + m_titleHeight + 2 + m_smallHeight +
                                   m_details.size() * m_smallHeight + kPad);
    m_size = QSizeF(width, height);
    // The stripe is the left edge of the rounded body: a path intersection, so made here once.
    QPainterPath rounded;
    rounded.addRoundedRect(bodyRect().adjusted(1, 1, 0, -1), kRadius - 1, kRadius - 1);
    QPainterPath left;
    left.addRect(QRectF(0, 0, kStripe + 1, height));
    m_stripe = rounded.intersected(left);
    m_error = ShapedText(smallMetrics.elidedText(m_look.error, Qt::ElideRight, std::max<qreal>(width + 80, 240)), m_smallFont);
}

int NodeItem::inputPortCount() const { return int(m_look.inputs.size()) + (m_look.variadic ? 1 : 0); }

QPointF NodeItem::inputPortPos(int port) const {
    const int count = std::max(1, inputPortCount());
    port = std::clamp(port, 0, count - 1);
    return {m_size.width() * (port + 1) / (count + 1), 0};
}

QPointF NodeItem::outputPortPos() const { return {m_size.width() / 2, m_size.height()}; }

int NodeItem::portAt(QPointF local, qreal radius) const {
    int best = -2;
    qreal bestDistance = radius;
    auto consider = [&](QPointF at, int port) {
        const qreal d = std::hypot(local.x() - at.x(), local.y() - at.y());
        if (d <= bestDistance) {
            bestDistance = d;
            best = port;
        }
    };
    for (int i = 0; i < inputPortCount(); ++i) consider(inputPortPos(i), i);
    if (m_look.hasOutput) consider(outputPortPos(), -1);
    return best;
}

int NodeItem::nearestInputPort(qreal localX) const {
    const int count = inputPortCount();
    if (count == 0) return -1;
    int best = 0;
    for (int i = 1; i < count; ++i)
        if (std::abs(inputPortPos(i).x() - localX) < std::abs(inputPortPos(best).x() - localX)) best = i;
    return best;
}

QRectF NodeItem::boundingRect() const {
    QRectF rect = bodyRect().adjusted(-3, -kPortRadius - 2, 3, kPortRadius + 2);
    if (!m_look.error.isEmpty())
        rect |= QRectF(0, m_size.height() + kErrorGap, m_error.size().width() + 2, m_smallHeight + 2);
    return rect;
}

QPainterPath NodeItem::shape() const {
    // The body and the ports, not the error text: a click under the node selects nothing.
    QPainterPath path;
    path.addRect(bodyRect().adjusted(0, -kPortRadius, 0, kPortRadius));
    return path;
}

QVariant NodeItem::itemChange(GraphicsItemChange change, const QVariant& value) {
    if (change == ItemPositionHasChanged) {
        for (WireItem* wire : m_wires) wire->adjust();
        for (FrameItem* frame : m_frames) frame->adjust();
        if (m_moved) m_moved();
    }
    return QGraphicsItem::itemChange(change, value);
}

// The default hover handlers repaint the item (and so its cache) on every enter and leave;
// a node looks the same hovered, so they only choose the tool tip.
void NodeItem::hoverEnterEvent(QGraphicsSceneHoverEvent* event) { hoverMoveEvent(event); }
void NodeItem::hoverLeaveEvent(QGraphicsSceneHoverEvent*) {}

void NodeItem::hoverMoveEvent(QGraphicsSceneHoverEvent* event) {
    const int port = portAt(event->pos(), kPortRadius + 4);
    QString tip = m_look.error;
    if (port == -1) {
        tip = trCanvas(QT_TRANSLATE_NOOP("ts::widgets::NodeCanvas", "Output: drag to an input port to connect"));
    } else if (port >= 0) {
        if (port < m_look.inputs.size()) {
            const CanvasPort& p = m_look.inputs[port];
            tip = p.tooltip.isEmpty() ? p.name : p.name.isEmpty() ? p.tooltip : p.name + QStringLiteral(": ") + p.tooltip;
        } else {
            tip = trCanvas(QT_TRANSLATE_NOOP("ts::widgets::NodeCanvas", "Another input: drag an output here"));
        }
    }
    if (tip != toolTip()) setToolTip(tip);
}

void NodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    const bool selected = option->state & QStyle::State_Selected;
    const bool hasError = !m_look.error.isEmpty();
    const QColor base = m_palette.color(QPalette::Base);
    const QColor text = m_palette.color(QPalette::Text);
    const QColor faint = mix(text, base, 0.4f);
    const QRectF body = bodyRect();
    painter->setRenderHint(QPainter::Antialiasing);

    QColor outline = selected ? m_palette.color(QPalette::Highlight) : hasError ? kError : mix(text, base, 0.6f);
    const qreal outlineWidth = selected || hasError ? 2.2 : 1;
    painter->setPen(QPen(outline, outlineWidth));
    painter->setBrush(base);
    painter->drawRoundedRect(body, kRadius, kRadius);
    if (selected && hasError) {  // keep the error visible on a selected node
        painter->setPen(QPen(kError, 1.2));
        painter->setBrush(Qt::NoBrush);
        painter->drawRoundedRect(body.adjusted(2.5, 2.5, -2.5, -2.5), kRadius - 2, kRadius - 2);
    }
    if (m_look.collapsedBlock) {  // a block: a second border inside the first
        painter->setPen(QPen(outline, 1));
        painter->setBrush(Qt::NoBrush);
        painter->drawRoundedRect(body.adjusted(3.5, 3.5, -3.5, -3.5), kRadius - 2, kRadius - 2);
    }
    if (m_look.accent.isValid()) {  // the category stripe, inside the outline
        painter->setPen(Qt::NoPen);
        painter->setBrush(m_look.accent);
        painter->drawPath(m_stripe);
    }

    const qreal lod = QStyleOptionGraphicsItem::levelOfDetailFromTransform(painter->worldTransform());
    if (lod >= kLevelOfDetailForText) {
        const qreal x = kStripe + kPad;
        qreal y = kPad;
        painter->setPen(faint);
        for (int i = 0; i < m_portLabels.size(); ++i) {
            const qreal cx = inputPortPos(i).x();
            m_portLabels[i].draw(painter, QPointF(cx - m_portLabels[i].size().width() / 2, y - 3));
        }
        y += m_portLabelRow;
        painter->setPen(text);
        m_title.draw(painter, QPointF(x, y));
        if (m_look.checkpoint) {
            const QSizeF badgeSize = m_badge.size() + QSizeF(8, 2);
            const QRectF badge(QPointF(body.right() - kPad - badgeSize.width(), y + (m_titleHeight - badgeSize.height()) / 2), badgeSize);
            painter->setPen(Qt::NoPen);
            painter->setBrush(kCheckpoint);
            painter->drawRoundedRect(badge, 3, 3);
            painter->setPen(Qt::white);
            m_badge.draw(painter, badge.topLeft() + QPointF(4, 1));
        }
        y += m_titleHeight + 2;
        painter->setPen(faint);
        m_subtitle.draw(painter, QPointF(x, y));
        y += m_smallHeight;
        painter->setPen(text);
        for (const ShapedText& line : m_details) {
            line.draw(painter, QPointF(x, y));
            y += m_smallHeight;
        }
        if (hasError) {
            painter->setPen(kError);
            m_error.draw(painter, QPointF(0, m_size.height() + kErrorGap));
        }
    }
    paintPorts(painter);
}

void NodeItem::paintPorts(QPainter* painter) const {
    const QColor base = m_palette.color(QPalette::Base);
    const QColor ring = mix(m_palette.color(QPalette::Text), base, 0.35f);
    QList<bool> connected(inputPortCount(), false);
    for (const WireItem* wire : m_wires)
        if (wire->toNode() == this && wire->port() >= 0 && wire->port() < connected.size()) connected[wire->port()] = true;
    for (int i = 0; i < inputPortCount(); ++i) {
        const bool spare = i >= m_look.inputs.size();  // a variadic node's empty port
        painter->setPen(QPen(ring, 1.2, spare ? Qt::DotLine : Qt::SolidLine));
        painter->setBrush(connected[i] ? ring : base);
        painter->drawEllipse(inputPortPos(i), kPortRadius, kPortRadius);
    }
    if (m_look.hasOutput) {
        painter->setPen(QPen(ring, 1.2));
        painter->setBrush(m_look.accent.isValid() ? m_look.accent : ring);
        painter->drawEllipse(outputPortPos(), kPortRadius, kPortRadius);
    }
}

// ---- FrameItem ---------------------------------------------------------------------------

FrameItem::FrameItem(const QString& id, const QString& label, bool checkpoint, const QFont& font, const QPalette& palette)
    : m_id(id), m_checkpoint(checkpoint), m_palette(palette), m_font(font) {
    m_font.setBold(true);
    QString shown = label;
    if (checkpoint) shown += QStringLiteral("  ·  ") + trCanvas(QT_TRANSLATE_NOOP("ts::widgets::NodeCanvas", "checkpointed"));
    m_label = ShapedText(shown, m_font);
    m_labelHeight = QFontMetricsF(m_font).height() + 4;
    setZValue(-10);  // behind wires and nodes
}

FrameItem::~FrameItem() {
    for (NodeItem* node : m_nodes) node->detachFrame(this);
}

void FrameItem::setNodes(const QList<NodeItem*>& nodes) {
    for (NodeItem* node : m_nodes) node->detachFrame(this);
    m_nodes = nodes;
    for (NodeItem* node : m_nodes) node->attachFrame(this);
    adjust();
}

void FrameItem::detachNode(NodeItem* node) {
    node->detachFrame(this);
    m_nodes.removeAll(node);
    adjust();
}

void FrameItem::adjust() {
    QRectF around;
    for (const NodeItem* node : m_nodes) around |= node->mapRectToScene(node->bodyRect());
    prepareGeometryChange();
    m_rect = around.isNull() ? QRectF() : around.adjusted(-kMargin, -kMargin - m_labelHeight, kMargin, kMargin);
    // As wide as its title ("transformer1 · checkpointed" over one column of nodes).
    if (!m_rect.isNull()) m_rect.setWidth(std::max(m_rect.width(), m_label.size().width() + 20));
    setVisible(!m_nodes.isEmpty());
}

void FrameItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    const QColor text = m_palette.color(QPalette::Text);
    QColor fill = m_checkpoint ? QColor(0xc7, 0x7c, 0x0e) : m_palette.color(QPalette::Highlight);
    fill.setAlphaF(0.07f);
    QColor border = m_checkpoint ? QColor(0xc7, 0x7c, 0x0e) : mix(text, m_palette.color(QPalette::Base), 0.55f);
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(QPen(border, 1.2, Qt::DashLine));
    painter->setBrush(fill);
    painter->drawRoundedRect(m_rect.adjusted(0.5, 0.5, -0.5, -0.5), 10, 10);
    painter->setPen(border.darker(m_palette.color(QPalette::Base).lightnessF() > 0.5 ? 130 : 70));
    m_label.draw(painter, m_rect.topLeft() + QPointF(10, 3));
}

}  // namespace ts::widgets
