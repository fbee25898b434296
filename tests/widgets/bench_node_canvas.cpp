// The node canvas at the size of issue 13: a layered grid of 300 nodes (detail lines, some
// with errors, two-input nodes fed by skip wires, ~330 wires in all) in a 1400x900 canvas,
// then frame times for panning (40 px right and down, back and forth), zooming (x1.1 steps
// in and out around the centre) and dragging one node (its wires follow). Each frame is the
// change plus a synchronous paint: "shown" lets Qt paint what the change exposed (what a
// user sees), "full" repaints the whole viewport (the worst case). Prints median and max.
//
//   bench_node_canvas [--nodes 300] [--rounds 60] [--zoom 1.0] [--update minimal|smart|full|bounding]
//                     [--index bsp|none] [--no-cache] [--background-cache] [--wire-cache]
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QScrollBar>

#include "bench_timing.h"
#include "node_canvas.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

using namespace ts::widgets;

namespace {

void build(NodeCanvas* canvas, int nodes) {
    const int columns = 15;
    const QList<QColor> accents = {QColor(0x3d, 0x7e, 0xd8), QColor(0x2e, 0xa0, 0x6b), QColor(0xe0, 0x8a, 0x1e), QColor(0x8e, 0x5b, 0xc9)};
    auto id = [](int i) { return QStringLiteral("n%1").arg(i); };
    QList<CanvasWire> wires;
    for (int i = 0; i < nodes; ++i) {
        const int row = i / columns, column = i % columns;
        const bool add = row >= 2 && i % 6 == 0;  // fed by the row above and a skip wire
        NodeLook look;
        look.title = add ? QStringLiteral("add%1").arg(i) : QStringLiteral("conv%1").arg(i);
        look.subtitle = add ? QStringLiteral("Add") : QStringLiteral("Conv2d");
        look.details = {QStringLiteral("[64, %1, %1]").arg(28 - row % 20), QStringLiteral("%1 params · %2 MFLOP").arg(36928 + i).arg(0.6 + i * 0.01, 0, 'f', 1),
                        QStringLiteral("act %1 MiB").arg(3.1 + row * 0.1, 0, 'f', 1)};
        look.inputs = {{QStringLiteral("x"), QString()}};
        if (add) look.inputs.append({QStringLiteral("skip"), QString()});
        look.accent = accents[row % accents.size()];
        if (i % 37 == 5) look.error = QStringLiteral("in_channels 32 does not match the input's 64 channels");
        look.checkpoint = i % 50 == 7;
        canvas->setNode(id(i), look);
        canvas->setNodePos(id(i), QPointF(column * 240, row * 180));
        if (row >= 1) wires.append({id(i - columns), id(i), 0});
        if (add) wires.append({id(i - 2 * columns + (column + 1 < columns ? 1 : -1)), id(i), 1});
    }
    canvas->setWires(wires);
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOption({"nodes", "Nodes in the graph.", "n", "300"});
    parser.addOption({"rounds", "Frames per measurement.", "n", "60"});
    parser.addOption({"zoom", "Zoom while panning.", "factor", "1.0"});
    parser.addOption({"update", "Viewport update mode: minimal, smart, full, bounding.", "mode", "minimal"});
    parser.addOption({"index", "Scene index: bsp or none.", "kind", "bsp"});
    parser.addOption({"no-cache", "Paint nodes directly instead of from a device-coordinate cache."});
    parser.addOption({"background-cache", "Cache the grid (QGraphicsView::CacheBackground)."});
    parser.addOption({"wire-cache", "Paint wires from a device-coordinate cache too."});
    parser.addOption({"only", "Run one measurement: pan-shown, pan-full, zoom, drag, pan-fit (for profiling).", "name"});
    parser.process(app);
    const int nodes = parser.value("nodes").toInt(), rounds = std::max(1, parser.value("rounds").toInt());

    NodeCanvas canvas;
    const QString update = parser.value("update");
    canvas.setViewportUpdateMode(update == "smart"  ? QGraphicsView::SmartViewportUpdate
                                 : update == "full" ? QGraphicsView::FullViewportUpdate
                                 : update == "bounding" ? QGraphicsView::BoundingRectViewportUpdate
                                                        : QGraphicsView::MinimalViewportUpdate);
    canvas.scene()->setItemIndexMethod(parser.value("index") == "none" ? QGraphicsScene::NoIndex : QGraphicsScene::BspTreeIndex);
    if (parser.isSet("background-cache")) canvas.setCacheMode(QGraphicsView::CacheBackground);

    QElapsedTimer buildTimer;
    buildTimer.start();
    build(&canvas, nodes);
    const double buildMs = buildTimer.nsecsElapsed() / 1e6;
    if (parser.isSet("no-cache"))
        for (QGraphicsItem* item : canvas.scene()->items()) item->setCacheMode(QGraphicsItem::NoCache);
    if (parser.isSet("wire-cache"))
        for (QGraphicsItem* item : canvas.scene()->items())
            if (item->type() == WireItem::Type) item->setCacheMode(QGraphicsItem::DeviceCoordinateCache);
    canvas.resize(1400, 900);
    canvas.show();
    QApplication::processEvents();
    canvas.setZoom(parser.value("zoom").toDouble());
    canvas.centerOn(canvas.scene()->itemsBoundingRect().center());
    canvas.viewport()->repaint();
    QApplication::processEvents();

    QScrollBar* h = canvas.horizontalScrollBar();
    QScrollBar* v = canvas.verticalScrollBar();
    // Ten steps one way, ten back, so the view stays inside the graph however many rounds.
    auto pan = [&](int i) {
        h->setValue(h->value() + bench::panStep(i));
        v->setValue(v->value() + bench::panStep(i));
    };
    const double base = canvas.zoom();
    auto zoom = [&](int i) { canvas.setZoom(base * bench::zoomStep(i)); };
    const QString dragged = canvas.nodeIds().value(canvas.nodeIds().size() / 2);
    const QPointF home = canvas.nodePos(dragged);
    auto drag = [&](int i) { canvas.setNodePos(dragged, home + QPointF((i % 10) * 4, (i % 10) * 3)); };
    auto shown = [] { QApplication::processEvents(); };
    auto full = [&] {
        canvas.viewport()->repaint();
        QApplication::processEvents();
    };

    bench::PaintedArea area(canvas.viewport());
    const QString only = parser.value("only");
    auto run = [&](const char* name, const std::function<void(int)>& change, const std::function<void()>& paint) {
        return only.isEmpty() || only == name ? bench::measureFrames(rounds, change, paint, area) : bench::FrameStats{};
    };
    const bench::FrameStats panShown = run("pan-shown", pan, shown), panFull = run("pan-full", pan, full);
    const bench::FrameStats zoomFull = run("zoom", zoom, full);
    canvas.setZoom(base);
    const bench::FrameStats dragShown = run("drag", drag, shown);
    canvas.fitAll();
    const double fitZoom = canvas.zoom();
    const bench::FrameStats panFit = run("pan-fit", pan, full);

    std::printf("node canvas: %d nodes, %lld wires, %s, index %s, node cache %s, background cache %s, platform %s\n", nodes,
                static_cast<long long>(canvas.wires().size()), qPrintable(update), qPrintable(parser.value("index")),
                parser.isSet("no-cache") ? "off" : "device", parser.isSet("background-cache") ? "on" : "off",
                qPrintable(QGuiApplication::platformName()));
    std::printf("  build            %8.1f ms\n", buildMs);
    auto line = [](const char* what, const bench::FrameStats& s, const QString& note) {
        std::printf("  %-16s median %6.2f ms  max %6.2f ms  main-thread CPU median %6.2f ms  painted %4.2f viewports/frame  %s\n", what,
                    s.median, s.max, s.cpuMedian, s.painted, qPrintable(note));
    };
    line("pan, shown", panShown, QStringLiteral("(zoom %1)").arg(base));
    line("pan, full", panFull, QStringLiteral("(zoom %1)").arg(base));
    line("zoom steps, full", zoomFull, QStringLiteral("(x1.1 steps from %1)").arg(base));
    line("drag one node", dragShown, QString());
    line("pan all in view", panFit, QStringLiteral("(fitAll, zoom %1)").arg(fitZoom, 0, 'f', 2));
    std::printf("  target: every frame under 16 ms\n");
    return 0;
}
