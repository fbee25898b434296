// The node-graph canvas of the Model page: nodes with input ports along the top and one output
// at the bottom, Bézier wires between them, frames around expanded blocks, a grid, a minimap.
// It knows no graph: the page says what to draw (setNode, setWires, setFrames) and hears what
// the user asks for (connectionRequested, nodesMoved, insertRequested, ...), then redraws.
//
// Mouse and keys: drag from an output port to an input port (or back) to connect; drag a port
// into empty space to ask for a new node there; rubber band or Ctrl/Shift-click to select;
// Ctrl+wheel zooms around the cursor, the wheel scrolls; the middle button, or Space held with
// the left button, pans; Tab (or Space tapped) asks for the op popup at the cursor; Delete or
// Backspace on a selected wire asks to remove it (otherwise the key is left to the page).
//
// Speed: nodes paint from a device-coordinate cache with text laid out once per look (in a
// QPixmapCache large enough for every node in view); the paper and the grid are drawn in view
// pixels (a tiled strip for the vertical lines), and the grid skips itself when its lines
// would be under 6 px apart; the minimap redraws its nodes only when they change.
// bench_node_canvas and bench_model_page measure it.
#pragma once

#include "file_writer.h"
#include "node_item.h"
#include "wire_item.h"

#include <QGraphicsView>
#include <QHash>
#include <QImage>
#include <QList>
#include <QPointF>
#include <QStringList>
#include <QTimer>

#include <functional>

namespace ts::widgets {

class CanvasMinimap;

// An expanded block: a labelled rounded frame drawn behind its nodes, following them as they move.
struct CanvasFrame {
    QString id;
    QString label;
    QStringList nodes;
    bool checkpoint = false;
};

class NodeCanvas : public QGraphicsView {
    Q_OBJECT
public:
    static constexpr double kMinZoom = 0.1;
    static constexpr double kMaxZoom = 4.0;

    explicit NodeCanvas(QWidget* parent = nullptr);
    ~NodeCanvas() override;

    void setNode(const QString& id, const NodeLook& look);  // add (at 0,0 until setNodePos) or restyle; keeps position
    void setNodePos(const QString& id, QPointF scenePos);    // top-left of the node
    void removeNode(const QString& id);                      // and its wires
    void clear();
    void setWires(const QList<CanvasWire>& wires);  // replaces every wire; unknown ids ignored
    void setFrames(const QList<CanvasFrame>& frames);
    QStringList nodeIds() const;  // in insertion order
    QPointF nodePos(const QString& id) const;
    QRectF nodeRect(const QString& id) const;  // scene rect of the body
    QSizeF nodeSize(const QString& id) const;
    // Scene positions of a node's ports (where a wire starts or ends); null when there is no such node.
    QPointF outputPortScenePos(const QString& id) const;
    QPointF inputPortScenePos(const QString& id, int port) const;  // port clamped to the drawn ones
    QList<CanvasWire> wires() const;
    QStringList selectedNodes() const;  // in a stable order (by id insertion)
    void selectNodes(const QStringList& ids);  // replaces the selection
    QList<CanvasWire> selectedWires() const;
    void ensureNodeVisible(const QString& id);
    // Where a new node of `size` goes near `scenePos` (its centre there when the spot is free):
    // the top-left of the nearest spot on the grid that overlaps no node (with a gap) and is
    // not under the minimap, inside the visible part of the scene when there is room there
    // (`preferVisible`; otherwise simply the nearest: the caller scrolls to it).
    QPointF freeSpotNear(QPointF scenePos, QSizeF size, bool preferVisible = true) const;
    // A node of the size the drawn nodes have (the largest), for freeSpotNear before one exists.
    QSizeF typicalNodeSize() const;

    void setGridSize(int scenePixels);  // default 20; 0: no grid
    int gridSize() const { return m_grid; }
    void setSnapToGrid(bool on);        // default on: a dragged node's top-left snaps on release
    bool snapToGrid() const { return m_snap; }
    void fitAll();                // every node with a margin, zoom in [kMinZoom, 1]
    void setZoom(double factor);  // clamped to [kMinZoom, kMaxZoom], around the view's centre
    double zoom() const;
    QRectF visibleSceneRect() const;
    // Asked while a wire is dragged over an input port (and before connectionRequested):
    // empty = allowed; otherwise the reason, shown through hint() with the wire drawn red; a
    // refused drop emits nothing but the hint.
    void setConnectionCheck(std::function<QString(const CanvasWire&)> check);
    QImage renderImage(double scale = 2.0) const;  // every node and wire on white, unselected
    // Written through writeFile (file_writer.h); the result says why when one fails.
    WriteResult exportPng(const QString& path) const;
    WriteResult exportSvg(const QString& path, const QString& title) const;
    CanvasMinimap* minimap() const { return m_minimap; }

signals:
    void nodesMoved(const QHash<QString, QPointF>& newPositions);  // once per drag, on release, only when something moved
    void connectionRequested(const CanvasWire& wire);
    void wireDroppedOnEmpty(const QString& fromNode, QPointF scenePos);           // from an output port into empty space
    void inputDroppedOnEmpty(const QString& toNode, int port, QPointF scenePos);  // from an input port into empty space
    void wireRemovalRequested(const CanvasWire& wire);  // a selected wire + Delete/Backspace
    void insertRequested(QPointF scenePos);             // Tab, or Space tapped: open the op popup there
    void selectionChanged(const QStringList& ids);
    void nodeDoubleClicked(const QString& id);
    void opDropped(const QString& opType, QPointF scenePos);  // a palette drag ("application/x-trainstudio-op", the op type in UTF-8)
    void contextMenuRequested(const QStringList& selectedIds, QPoint globalPos);
    void hint(const QString& text);  // status-bar text; empty clears
    void zoomChanged(double factor);

protected:
    bool event(QEvent* event) override;
    bool focusNextPrevChild(bool next) override;
    void keyPressEvent(QKeyEvent* event) override;
    void keyReleaseEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dragMoveEvent(QDragMoveEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void drawBackground(QPainter* painter, const QRectF& rect) override;
    void resizeEvent(QResizeEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;
    void changeEvent(QEvent* event) override;

private:
    friend class CanvasMinimap;
    enum class Drag { None, Pan, Wire, Nodes };

    NodeItem* node(const QString& id) const { return m_nodes.value(id); }
    NodeItem* nodeAt(QPoint viewPos) const;
    void addWire(NodeItem* from, NodeItem* to, int port);
    void removeWire(WireItem* wire);
    void zoomAt(double factor, QPoint viewPos);
    // Nodes paint from device-coordinate pixmaps, which pan for free but must be redrawn at
    // every new zoom: while a zoom gesture goes on they paint directly (cheaper than a pixmap
    // redrawn each frame), and cache again once it has settled.
    void setNodeCaching(bool cached);
    void updateSceneRect();
    void placeMinimap();  // the viewport's bottom-right corner
    void relayoutAll();  // after a font or palette change
    QPointF cursorScenePos() const;
    void emitSelection();
    void setHint(const QString& text);  // emits hint() when the text changes

    // Dragging a wire from a port.
    bool beginWire(QPoint viewPos);
    void moveWire(QPoint viewPos);
    void endWire(QPoint viewPos);
    // The wire the loose end would make at viewPos (from the dragged port to the port under it).
    bool targetWire(QPoint viewPos, CanvasWire& wire, QPointF& snapTo) const;
    QString refusal(const CanvasWire& wire) const;

    QGraphicsScene* m_scene;
    CanvasMinimap* m_minimap;
    QHash<QString, NodeItem*> m_nodes;
    QStringList m_order;  // ids in insertion order
    QList<WireItem*> m_wires;
    QList<FrameItem*> m_frames;
    QList<CanvasFrame> m_frameList;  // rebuilt from this when the font or palette changes
    std::function<QString(const CanvasWire&)> m_check;
    int m_grid = 20;
    bool m_snap = true;

    Drag m_drag = Drag::None;
    QPoint m_panFrom;
    bool m_spaceHeld = false;
    bool m_spaceUsed = false;  // the held Space panned, so its release opens no popup
    QPoint m_lastMouse{-1, -1};
    NodeItem* m_wireNode = nullptr;
    int m_wirePort = -2;  // -1: dragged from the output; >= 0: from that input
    WireItem* m_looseWire = nullptr;
    QHash<QString, QPointF> m_dragStart;
    QStringList m_lastSelection;
    bool m_selecting = false;  // selectNodes() in progress: one selectionChanged at its end
    QString m_lastHint;
    QPoint m_pressPos;
    QTimer m_zoomSettle;  // restarted by each zoom step; caching resumes when it fires
};

}  // namespace ts::widgets
