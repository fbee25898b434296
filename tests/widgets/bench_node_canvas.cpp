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
#include <QPaintEvent>
#include <QScrollBar>

#include "node_canvas.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <cstdio>
#include <functional>
#include <vector>

using namespace ts::widgets;

namespace {

// The share of the viewport that paint events covered, summed over a measurement.
class PaintedArea : public QObject {
public:
    explicit PaintedArea(QWidget* viewport) : m_viewport(viewport) { viewport->installEventFilter(this); }
    double take() {
        const double share = m_pixels / (double(m_viewport->width()) * m_viewport->height());
        m_pixels = 0;
        return share;
    }

protected:
    bool eventFilter(QObject*, QEvent* event) override {
        if (event->type() == QEvent::Paint)
            for (const QRect& r : static_cast<QPaintEvent*>(event)->region()) m_pixels += double(r.width()) * r.height();
        return false;
    }

private:
    QWidget* m_viewport;
    double m_pixels = 0;
};

// The main thread's CPU time: unlike wall time it does not grow when other processes
// share the cores (it leaves out the raster engine's helper threads for large fills).
double threadCpuMs() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

struct Stats {
    double median = 0, max = 0, cpuMedian = 0, painted = 0;  // painted: viewports per frame
};

Stats measure(int rounds, const std::function<void(int)>& change, const std::function<void()>& paint, PaintedArea& area) {
    std::vector<double> ms, cpu;
    area.take();
    for (int i = 0; i < rounds; ++i) {
        QElapsedTimer timer;
        timer.start();
        const double cpu0 = threadCpuMs();
        change(i);
        paint();
        cpu.push_back(threadCpuMs() - cpu0);
        ms.push_back(timer.nsecsElapsed() / 1e6);
    }
    std::sort(ms.begin(), ms.end());
    std::sort(cpu.begin(), cpu.end());
    return {ms[ms.size() / 2], ms.back(), cpu[cpu.size() / 2], area.take() / rounds};
}

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
        const int step = (i / 10) % 2 ? -40 : 40;
        h->setValue(h->value() + step);
        v->setValue(v->value() + step);
    };
    const double base = canvas.zoom();
    auto zoom = [&](int i) { canvas.setZoom(base * std::pow(1.1, (i / 5) % 2 ? 5 - i % 5 : i % 5 + 1)); };
    const QString dragged = canvas.nodeIds().value(canvas.nodeIds().size() / 2);
    const QPointF home = canvas.nodePos(dragged);
    auto drag = [&](int i) { canvas.setNodePos(dragged, home + QPointF((i % 10) * 4, (i % 10) * 3)); };
    auto shown = [] { QApplication::processEvents(); };
    auto full = [&] {
        canvas.viewport()->repaint();
        QApplication::processEvents();
    };

    PaintedArea area(canvas.viewport());
    const QString only = parser.value("only");
    auto run = [&](const char* name, const std::function<void(int)>& change, const std::function<void()>& paint) {
        return only.isEmpty() || only == name ? measure(rounds, change, paint, area) : Stats{};
    };
    const Stats panShown = run("pan-shown", pan, shown), panFull = run("pan-full", pan, full);
    const Stats zoomFull = run("zoom", zoom, full);
    canvas.setZoom(base);
    const Stats dragShown = run("drag", drag, shown);
    canvas.fitAll();
    const double fitZoom = canvas.zoom();
    const Stats panFit = run("pan-fit", pan, full);

    std::printf("node canvas: %d nodes, %lld wires, %s, index %s, node cache %s, background cache %s, platform %s\n", nodes,
                static_cast<long long>(canvas.wires().size()), qPrintable(update), qPrintable(parser.value("index")),
                parser.isSet("no-cache") ? "off" : "device", parser.isSet("background-cache") ? "on" : "off",
                qPrintable(QGuiApplication::platformName()));
    std::printf("  build            %8.1f ms\n", buildMs);
    auto line = [](const char* what, const Stats& s, const QString& note) {
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
