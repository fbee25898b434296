// NodeCanvas: its content (nodes, wires, frames), the view (zoom, grid, fit) and exports. The
// mouse and keys are in node_canvas_input.cpp.
#include "node_canvas.h"

#include "canvas_minimap.h"

#include <QBuffer>
#include <QEvent>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QPainter>
#include <QPixmapCache>
#include <QScrollBar>
#include <QSet>
#ifdef TS_WIDGETS_HAVE_SVG
#include <QSvgGenerator>
#endif

#include <algorithm>
#include <cmath>

namespace ts::widgets {

namespace {

constexpr qreal kSceneMargin = 1500;  // room to pan past the outermost node
constexpr qreal kFitMargin = 40;
constexpr qreal kMinGridSpacing = 6;  // view pixels: denser grid lines are not drawn
constexpr int kMinimapGap = 8;

QColor mix(const QColor& a, const QColor& b, float t) {
    return QColor::fromRgbF(a.redF() * (1 - t) + b.redF() * t, a.greenF() * (1 - t) + b.greenF() * t,
                            a.blueF() * (1 - t) + b.blueF() * t);
}

}  // namespace

NodeCanvas::NodeCanvas(QWidget* parent) : QGraphicsView(parent), m_scene(new QGraphicsScene(this)) {
    // Chosen with bench_node_canvas (300 nodes, 330 wires): BSP and no index, Minimal and
    // Smart updates measured within noise of each other; a cached background (CacheBackground)
    // made full frames slower (its pixmap is scrolled and copied on every pan), so the grid
    // is drawn directly, cheaply (drawBackground).
    m_scene->setItemIndexMethod(QGraphicsScene::BspTreeIndex);
    setScene(m_scene);
    setViewportUpdateMode(MinimalViewportUpdate);
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(RubberBandDrag);
    setRubberBandSelectionMode(Qt::IntersectsItemShape);
    setTransformationAnchor(NoAnchor);  // zooming keeps its own anchor (zoomAt)
    setResizeAnchor(AnchorViewCenter);
    setFocusPolicy(Qt::StrongFocus);
    setAcceptDrops(true);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);  // drawBackground covers it all
    // The nodes' device-coordinate caches live in QPixmapCache, 10 MiB by default: at 1.5x
    // scale the nodes in view alone came near it, and an evicted node is painted again on the
    // next frame. 64 MiB holds every node in view at any zoom on a large screen.
    QPixmapCache::setCacheLimit(std::max(QPixmapCache::cacheLimit(), 64 * 1024));
    m_minimap = new CanvasMinimap(this);
    m_zoomSettle.setSingleShot(true);
    m_zoomSettle.setInterval(300);
    connect(&m_zoomSettle, &QTimer::timeout, this, [this] { setNodeCaching(true); });
    connect(m_scene, &QGraphicsScene::selectionChanged, this, &NodeCanvas::emitSelection);
    updateSceneRect();
}

NodeCanvas::~NodeCanvas() {
    blockSignals(true);  // its listeners may already be gone (siblings are destroyed first)
    disconnect(m_scene, nullptr, this, nullptr);
    clear();
}

// ---- content -------------------------------------------------------------------------------

void NodeCanvas::setNode(const QString& id, const NodeLook& look) {
    if (NodeItem* existing = node(id)) {
        if (existing->look() == look) return;  // a redraw after an edit restyles every node: lay out only the changed
        existing->setLook(look, font(), palette());
        for (FrameItem* frame : m_frames) frame->adjust();
        m_minimap->contentChanged();
        return;
    }
    auto* item = new NodeItem(id, look, font(), palette());
    item->setMovedHook([this] { m_minimap->contentChanged(); });
    m_scene->addItem(item);
    m_nodes.insert(id, item);
    m_order.append(id);
    updateSceneRect();
    m_minimap->contentChanged();
}

void NodeCanvas::setNodePos(const QString& id, QPointF scenePos) {
    NodeItem* item = node(id);
    if (!item || item->pos() == scenePos) return;
    item->setPos(scenePos);
    updateSceneRect();
}

void NodeCanvas::removeNode(const QString& id) {
    NodeItem* item = node(id);
    if (!item) return;
    if (m_wireNode == item) {  // the wire being dragged starts here
        delete m_looseWire;
        m_looseWire = nullptr;
        m_wireNode = nullptr;
        m_drag = Drag::None;
    }
    for (WireItem* wire : QList<WireItem*>(item->wires())) removeWire(wire);
    m_nodes.remove(id);
    m_order.removeOne(id);
    m_dragStart.remove(id);
    delete item;  // detaches it from its frames, which then shrink
    m_minimap->contentChanged();
    emitSelection();
}

void NodeCanvas::clear() {
    delete m_looseWire;
    m_looseWire = nullptr;
    m_wireNode = nullptr;
    m_drag = Drag::None;
    qDeleteAll(m_wires);
    m_wires.clear();
    qDeleteAll(m_frames);
    m_frames.clear();
    m_frameList.clear();
    for (const QString& id : m_order) delete m_nodes.value(id);
    m_nodes.clear();
    m_order.clear();
    m_dragStart.clear();
    setSceneRect(QRectF());
    updateSceneRect();
    m_minimap->contentChanged();
    emitSelection();
}

void NodeCanvas::addWire(NodeItem* from, NodeItem* to, int port) {
    auto* wire = new WireItem(from, to, port, palette());
    m_scene->addItem(wire);
    m_wires.append(wire);
}

void NodeCanvas::removeWire(WireItem* wire) {
    m_wires.removeOne(wire);
    delete wire;  // detaches from both nodes
}

void NodeCanvas::setWires(const QList<CanvasWire>& wires) {
    // Keep the wires that stay (and so their selection); add and remove the difference.
    QList<CanvasWire> wanted;
    for (const CanvasWire& w : wires) {
        NodeItem* to = node(w.to);
        if (!node(w.from) || !to || w.port < 0 || w.port >= to->inputPortCount() || wanted.contains(w)) continue;
        wanted.append(w);
    }
    for (WireItem* wire : QList<WireItem*>(m_wires)) {
        const qsizetype at = wanted.indexOf(wire->wire());
        if (at < 0) removeWire(wire);
        else wanted.removeAt(at);
    }
    for (const CanvasWire& w : wanted) addWire(node(w.from), node(w.to), w.port);
}

QList<CanvasWire> NodeCanvas::wires() const {
    QList<CanvasWire> out;
    for (const WireItem* wire : m_wires) out.append(wire->wire());
    return out;
}

void NodeCanvas::setFrames(const QList<CanvasFrame>& frames) {
    qDeleteAll(m_frames);
    m_frames.clear();
    m_frameList = frames;
    for (const CanvasFrame& spec : frames) {
        QList<NodeItem*> members;
        for (const QString& id : spec.nodes)
            if (NodeItem* item = node(id)) members.append(item);
        auto* frame = new FrameItem(spec.id, spec.label, spec.checkpoint, font(), palette());
        m_scene->addItem(frame);
        frame->setNodes(members);
        m_frames.append(frame);
    }
}

QStringList NodeCanvas::nodeIds() const { return m_order; }

QPointF NodeCanvas::nodePos(const QString& id) const {
    const NodeItem* item = node(id);
    return item ? item->pos() : QPointF();
}

QRectF NodeCanvas::nodeRect(const QString& id) const {
    const NodeItem* item = node(id);
    return item ? QRectF(item->pos(), item->size()) : QRectF();
}

QSizeF NodeCanvas::nodeSize(const QString& id) const {
    const NodeItem* item = node(id);
    return item ? item->size() : QSizeF();
}

QPointF NodeCanvas::outputPortScenePos(const QString& id) const {
    const NodeItem* item = node(id);
    return item ? item->mapToScene(item->outputPortPos()) : QPointF();
}

QPointF NodeCanvas::inputPortScenePos(const QString& id, int port) const {
    const NodeItem* item = node(id);
    return item ? item->mapToScene(item->inputPortPos(port)) : QPointF();
}

QStringList NodeCanvas::selectedNodes() const {
    QStringList out;
    for (const QString& id : m_order)
        if (m_nodes.value(id)->isSelected()) out.append(id);
    return out;
}

QList<CanvasWire> NodeCanvas::selectedWires() const {
    QList<CanvasWire> out;
    for (const WireItem* wire : m_wires)
        if (wire->isSelected()) out.append(wire->wire());
    return out;
}

void NodeCanvas::selectNodes(const QStringList& ids) {
    m_selecting = true;
    const QSet<QString> wanted(ids.begin(), ids.end());
    for (QGraphicsItem* item : m_scene->selectedItems())
        if (item->type() != NodeItem::Type || !wanted.contains(static_cast<NodeItem*>(item)->id())) item->setSelected(false);
    for (const QString& id : ids)
        if (NodeItem* item = node(id)) item->setSelected(true);
    m_selecting = false;
    emitSelection();
}

void NodeCanvas::emitSelection() {
    if (m_selecting) return;
    const QStringList ids = selectedNodes();
    if (ids.isEmpty()) {
        const QList<CanvasWire> wires = selectedWires();
        if (wires.size() == 1)
            setHint(tr("Wire %1 → %2 selected: Delete removes it").arg(wires[0].from, wires[0].to));
        else if (!wires.isEmpty())
            setHint(tr("%n wire(s) selected: Delete removes them", nullptr, int(wires.size())));
    }
    m_minimap->contentChanged();
    if (ids == m_lastSelection) return;
    m_lastSelection = ids;
    emit selectionChanged(ids);
}

void NodeCanvas::setHint(const QString& text) {
    if (text == m_lastHint) return;
    m_lastHint = text;
    emit hint(text);
}

void NodeCanvas::ensureNodeVisible(const QString& id) {
    if (const NodeItem* item = node(id)) ensureVisible(item->sceneBoundingRect(), 40, 40);
}

void NodeCanvas::setConnectionCheck(std::function<QString(const CanvasWire&)> check) { m_check = std::move(check); }

// ---- view ----------------------------------------------------------------------------------

void NodeCanvas::updateSceneRect() {
    // Grows only (until clear()): a scene rect that shrinks under the user shifts the view.
    QRectF around;
    for (const NodeItem* item : m_nodes) around |= item->sceneBoundingRect();
    if (around.isNull()) around = QRectF(0, 0, 1, 1);
    around.adjust(-kSceneMargin, -kSceneMargin, kSceneMargin, kSceneMargin);
    const QRectF now = sceneRect();
    if (!now.contains(around)) setSceneRect(now.isEmpty() ? around : now | around);
}

double NodeCanvas::zoom() const { return transform().m11(); }

QRectF NodeCanvas::visibleSceneRect() const { return mapToScene(viewport()->rect()).boundingRect(); }

void NodeCanvas::setZoom(double factor) { zoomAt(factor, viewport()->rect().center()); }

void NodeCanvas::zoomAt(double factor, QPoint viewPos) {
    factor = std::clamp(factor, kMinZoom, kMaxZoom);
    if (std::abs(factor - zoom()) < 1e-9) return;
    const QPointF anchor = mapToScene(viewPos);
    if (!m_zoomSettle.isActive()) setNodeCaching(false);
    m_zoomSettle.start();
    setTransform(QTransform::fromScale(factor, factor));
    // Scroll so the scene point that was under viewPos is there again.
    const QPointF drift = (anchor - mapToScene(viewPos)) * factor;
    horizontalScrollBar()->setValue(horizontalScrollBar()->value() + int(std::lround(drift.x())));
    verticalScrollBar()->setValue(verticalScrollBar()->value() + int(std::lround(drift.y())));
    m_minimap->viewChanged();
    emit zoomChanged(factor);
}

void NodeCanvas::setNodeCaching(bool cached) {
    const auto mode = cached ? QGraphicsItem::DeviceCoordinateCache : QGraphicsItem::NoCache;
    for (NodeItem* item : std::as_const(m_nodes)) item->setCacheMode(mode);
}

void NodeCanvas::fitAll() {
    QRectF around;
    for (const NodeItem* item : m_nodes) around |= item->sceneBoundingRect();
    for (const FrameItem* frame : m_frames) around |= frame->sceneBoundingRect();
    if (around.isNull()) {
        setZoom(1);
        centerOn(0, 0);
        return;
    }
    around.adjust(-kFitMargin, -kFitMargin, kFitMargin, kFitMargin);
    updateSceneRect();
    const QSizeF view = viewport()->size();
    // Not above 1: a small graph is shown at its natural size, not blown up.
    const double factor = std::clamp(std::min(view.width() / around.width(), view.height() / around.height()), kMinZoom, 1.0);
    if (std::abs(factor - zoom()) > 1e-9) {
        setTransform(QTransform::fromScale(factor, factor));
        emit zoomChanged(factor);
    }
    centerOn(around.center());
    m_minimap->viewChanged();
}

void NodeCanvas::setGridSize(int scenePixels) {
    m_grid = std::max(0, scenePixels);
    resetCachedContent();
    viewport()->update();
}

void NodeCanvas::setSnapToGrid(bool on) { m_snap = on; }

void NodeCanvas::drawBackground(QPainter* painter, const QRectF& rect) {
    // In view coordinates, on whole pixels. The paper and the vertical grid lines are one strip
    // a few rows tall, tiled down the exposed rect: a row copy each, where a 1-pixel-wide
    // column filled as a rectangle costs a call per row and a fill through the scene transform
    // goes through the rasterizer (together most of a full frame, perf at 1.5x scale).
    // Horizontal lines stay rectangle fills: one long span each.
    const QColor paper = palette().color(QPalette::Window);
    const QTransform toView = painter->worldTransform();
    const QRect view = toView.mapRect(rect).toAlignedRect();
    painter->save();
    painter->resetTransform();
    const qreal spacing = m_grid * zoom();
    const int majorEvery = 5;
    if (m_grid <= 0 || spacing * majorEvery < kMinGridSpacing || view.isEmpty()) {
        painter->fillRect(view, paper);
        painter->restore();
        return;
    }
    const QColor ink = palette().color(QPalette::Text);
    const QColor minorInk = mix(paper, ink, 0.06f), majorInk = mix(paper, ink, 0.13f);
    // Only the lines crossing the exposed rect, minor ones only while far enough apart.
    const qreal step = spacing >= kMinGridSpacing ? m_grid : m_grid * majorEvery;
    const qreal dpr = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
    const int stripRows = 16, lineWidth = std::max(1, int(std::lround(dpr)));
    QImage strip(int(std::ceil(view.width() * dpr)), stripRows, QImage::Format_RGB32);
    strip.fill(paper);
    for (qreal x = std::floor(rect.left() / step) * step; x <= rect.right(); x += step) {
        const int at = int(std::lround((toView.map(QPointF(x, 0)).x() - view.left()) * dpr));
        const QRgb color = (std::lround(x / m_grid) % majorEvery ? minorInk : majorInk).rgb();
        for (int c = std::max(0, at); c < std::min(int(strip.width()), at + lineWidth); ++c)
            for (int r = 0; r < stripRows; ++r) reinterpret_cast<QRgb*>(strip.scanLine(r))[c] = color;
    }
    strip.setDevicePixelRatio(dpr);
    painter->drawTiledPixmap(QRectF(view), QPixmap::fromImage(std::move(strip)));
    for (qreal y = std::floor(rect.top() / step) * step; y <= rect.bottom(); y += step) {
        const int at = int(std::lround(toView.map(QPointF(0, y)).y()));
        painter->fillRect(QRect(view.left(), at, view.width(), 1), std::lround(y / m_grid) % majorEvery ? minorInk : majorInk);
    }
    painter->restore();
}

void NodeCanvas::placeMinimap() {
    const QSize port = viewport()->size();
    // On a small canvas the minimap would hide a good part of the drawing itself.
    m_minimap->setVisible(port.width() >= 5 * m_minimap->width() / 2 && port.height() >= 5 * m_minimap->height() / 2);
    m_minimap->move(port.width() - m_minimap->width() - kMinimapGap, port.height() - m_minimap->height() - kMinimapGap);
}

void NodeCanvas::resizeEvent(QResizeEvent* event) {
    QGraphicsView::resizeEvent(event);
    placeMinimap();
}

void NodeCanvas::scrollContentsBy(int dx, int dy) {
    QGraphicsView::scrollContentsBy(dx, dy);
    placeMinimap();  // the viewport's scroll moved its child along
    m_minimap->viewChanged();
}

void NodeCanvas::changeEvent(QEvent* event) {
    QGraphicsView::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange) relayoutAll();
}

void NodeCanvas::relayoutAll() {
    for (NodeItem* item : m_nodes) item->setLook(item->look(), font(), palette());
    for (WireItem* wire : m_wires) wire->setPalette(palette());
    setFrames(QList<CanvasFrame>(m_frameList));
    m_minimap->contentChanged();
}

// ---- export --------------------------------------------------------------------------------

namespace {

// While exporting: nothing selected (without telling anyone) and every item painted directly,
// not from a pixmap cache, so an SVG gets real text and a PNG the export's resolution.
class ExportLook {
public:
    explicit ExportLook(QGraphicsScene* scene) : m_scene(scene), m_blocker(scene) {
        m_selected = scene->selectedItems();
        for (QGraphicsItem* item : m_selected) item->setSelected(false);
        for (QGraphicsItem* item : scene->items()) {
            if (item->type() == WireItem::Type && !item->flags().testFlag(QGraphicsItem::ItemIsSelectable)) {
                item->hide();  // the wire being dragged
                m_hidden.append(item);
            }
            if (item->cacheMode() != QGraphicsItem::NoCache) {
                m_cached.append(item);
                item->setCacheMode(QGraphicsItem::NoCache);
            }
        }
    }
    ~ExportLook() {
        for (QGraphicsItem* item : m_cached) item->setCacheMode(QGraphicsItem::DeviceCoordinateCache);
        for (QGraphicsItem* item : m_hidden) item->show();
        for (QGraphicsItem* item : m_selected) item->setSelected(true);
    }

private:
    QGraphicsScene* m_scene;
    QSignalBlocker m_blocker;
    QList<QGraphicsItem*> m_selected, m_cached, m_hidden;
};

}  // namespace

// The export's scene area: every node (with its error text), frame and wire, with a margin.
static QRectF exportRect(const QHash<QString, NodeItem*>& nodes, const QList<FrameItem*>& frames, const QList<WireItem*>& wires) {
    QRectF around;
    for (const NodeItem* item : nodes) around |= item->sceneBoundingRect();
    for (const FrameItem* frame : frames) around |= frame->sceneBoundingRect();
    for (const WireItem* wire : wires) around |= wire->sceneBoundingRect();
    if (around.isNull()) around = QRectF(0, 0, 160, 80);
    return around.adjusted(-24, -24, 24, 24);
}

QImage NodeCanvas::renderImage(double scale) const {
    scale = std::clamp(scale, 0.1, 8.0);
    const QRectF source = exportRect(m_nodes, m_frames, m_wires);
    QImage image((source.size() * scale).toSize(), QImage::Format_RGB32);
    image.fill(Qt::white);
    ExportLook look(m_scene);
    QPainter painter(&image);
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing | QPainter::SmoothPixmapTransform);
    m_scene->render(&painter, QRectF(QPointF(0, 0), image.size()), source);
    return image;
}

WriteResult NodeCanvas::exportPng(const QString& path) const {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    if (!buffer.open(QIODevice::WriteOnly) || !renderImage(2.0).save(&buffer, "PNG")) return {false, tr("Could not encode the image.")};
    return writeFile(path, bytes);
}

WriteResult NodeCanvas::exportSvg(const QString& path, const QString& title) const {
#ifdef TS_WIDGETS_HAVE_SVG
    const QRectF source = exportRect(m_nodes, m_frames, m_wires);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setTitle(title);
    svg.setDescription(tr("Model graph exported from TrainStudio"));
    svg.setSize(source.size().toSize());
    svg.setViewBox(QRectF(QPointF(0, 0), source.size()));
    {
        ExportLook look(m_scene);
        QPainter painter;
        if (!painter.begin(&svg)) return {false, tr("Could not draw the model as SVG.")};
        painter.fillRect(QRectF(QPointF(0, 0), source.size()), Qt::white);
        m_scene->render(&painter, QRectF(QPointF(0, 0), source.size()), source);
        if (!painter.end()) return {false, tr("Could not draw the model as SVG.")};
    }
    return writeFile(path, bytes);
#else
    Q_UNUSED(path);
    Q_UNUSED(title);
    return {false, tr("This build has no SVG support (qt6-svg).")};
#endif
}

}  // namespace ts::widgets
