// The node canvas, driven like a user drives it: QTest mouse and key events on the real
// viewport (offscreen platform). Ports are found from the node rects the canvas reports
// (inputs spread evenly along the top edge, the output at the bottom centre), so the tests
// check the geometry too. Screenshots go to $TS_SCREENSHOT_DIR when it is set.
#include <QtTest>
#include <QtWidgets>

#include "canvas_minimap.h"
#include "node_canvas.h"

using namespace ts::widgets;

namespace {

NodeLook look(const QString& title, const QString& op, int inputs = 1, QStringList details = {}) {
    NodeLook l;
    l.title = title;
    l.subtitle = op;
    l.details = std::move(details);
    for (int i = 0; i < inputs; ++i) l.inputs.append({QStringLiteral("in%1").arg(i), QString()});
    l.accent = QColor(0x3d, 0x7e, 0xd8);
    return l;
}

// The canvas in a window of its own, shown, at zoom 1, with a few nodes in a column.
struct Fixture {
    QWidget window;
    NodeCanvas* canvas;
    QLineEdit* after;  // a focus neighbour, so Tab has somewhere to go if the canvas lets it

    Fixture() {
        auto* layout = new QVBoxLayout(&window);
        canvas = new NodeCanvas;
        after = new QLineEdit;
        layout->addWidget(canvas);
        layout->addWidget(after);
        window.resize(900, 650);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        canvas->setFocus();
    }
    QWidget* port() const { return canvas->viewport(); }
    QPoint view(QPointF scene) const { return canvas->mapFromScene(scene); }
    QPointF inputPort(const QString& id, int port) const {
        const QRectF r = canvas->nodeRect(id);
        const int count = canvas->nodeRect(id).isNull() ? 1 : portCount(id);
        return {r.left() + r.width() * (port + 1) / (count + 1), r.top()};
    }
    QPointF outputPort(const QString& id) const {
        const QRectF r = canvas->nodeRect(id);
        return {r.center().x(), r.bottom()};
    }
    int portCount(const QString& id) const { return counts.value(id, 1); }
    QHash<QString, int> counts;  // input ports per node, as the tests built them

    void add(const QString& id, QPointF at, int inputs = 1) {
        canvas->setNode(id, look(id, QStringLiteral("Linear"), inputs, {QStringLiteral("[128]")}));
        canvas->setNodePos(id, at);
        counts.insert(id, inputs);
    }
    // A press, moves in small steps (past the drag distance), a release.
    void drag(QPoint from, QPoint to, Qt::KeyboardModifiers modifiers = {}, Qt::MouseButton button = Qt::LeftButton) {
        QTest::mousePress(port(), button, modifiers, from);
        const int steps = 6;
        for (int i = 1; i <= steps; ++i) QTest::mouseMove(port(), from + (to - from) * i / steps);
        QTest::mouseRelease(port(), button, modifiers, to);
    }
};

void sendWheel(QWidget* target, QPoint at, int delta, Qt::KeyboardModifiers modifiers) {
    QWheelEvent wheel(at, target->mapToGlobal(at), QPoint(), QPoint(0, delta), Qt::NoButton, modifiers, Qt::NoScrollPhase, false);
    QApplication::sendEvent(target, &wheel);
}

WireItem* wireItem(NodeCanvas* canvas, const CanvasWire& wire) {
    for (QGraphicsItem* item : canvas->scene()->items())
        if (item->type() == WireItem::Type && static_cast<WireItem*>(item)->wire() == wire) return static_cast<WireItem*>(item);
    return nullptr;
}

bool near(QPointF a, QPointF b, qreal tolerance) { return QLineF(a, b).length() <= tolerance; }

int reddish(const QImage& image, const QRect& area) {
    int count = 0;
    for (int y = std::max(0, area.top()); y <= std::min(image.height() - 1, area.bottom()); ++y)
        for (int x = std::max(0, area.left()); x <= std::min(image.width() - 1, area.right()); ++x) {
            const QColor c = image.pixelColor(x, y);
            count += c.red() > 170 && c.green() < 110 && c.blue() < 110;
        }
    return count;
}

QString screenshotPath(const QString& name) {
    const QString dir = qEnvironmentVariable("TS_SCREENSHOT_DIR", QDir::tempPath());
    QDir().mkpath(dir);
    return QDir(dir).filePath(name);
}

}  // namespace

class TestNodeCanvas : public QObject {
    Q_OBJECT

private slots:
    void nodesAndWires() {
        Fixture f;
        f.add("a", {0, 0});
        f.add("b", {0, 200});
        f.add("c", {300, 200}, 2);
        QCOMPARE(f.canvas->nodeIds(), QStringList({"a", "b", "c"}));
        QCOMPARE(f.canvas->nodePos("c"), QPointF(300, 200));
        QVERIFY(f.canvas->nodeSize("a").width() >= 150);
        QCOMPARE(f.canvas->nodeRect("c"), QRectF(QPointF(300, 200), f.canvas->nodeSize("c")));

        // Unknown ids, a port the node does not have and a duplicate are ignored.
        f.canvas->setWires({{"a", "b", 0}, {"a", "c", 1}, {"a", "nope", 0}, {"a", "b", 3}, {"a", "b", 0}});
        QCOMPARE(f.canvas->wires(), QList<CanvasWire>({{"a", "b", 0}, {"a", "c", 1}}));

        // Restyling keeps the position; a longer detail line widens the node.
        const QSizeF before = f.canvas->nodeSize("a");
        f.canvas->setNode("a", look("a", "Linear", 1, {QStringLiteral("a much longer detail line than before, really")}));
        QCOMPARE(f.canvas->nodePos("a"), QPointF(0, 0));
        QVERIFY(f.canvas->nodeSize("a").width() > before.width());

        // Removing a node removes its wires; a variadic node offers one more port.
        f.canvas->removeNode("b");
        QCOMPARE(f.canvas->nodeIds(), QStringList({"a", "c"}));
        QCOMPARE(f.canvas->wires(), QList<CanvasWire>({{"a", "c", 1}}));
        NodeLook cat = look("cat", "Concat", 2);
        cat.variadic = true;
        f.canvas->setNode("cat", cat);
        f.canvas->setWires({{"a", "cat", 2}});
        QCOMPARE(f.canvas->wires().size(), 1);  // the spare third port is a real port

        f.canvas->clear();
        QVERIFY(f.canvas->nodeIds().isEmpty());
        QVERIFY(f.canvas->scene()->items().isEmpty());
    }

    void dragFromOutputToInputConnects() {
        Fixture f;
        f.add("a", {0, 0});
        f.add("loss", {0, 220}, 2);
        f.canvas->centerOn(f.canvas->nodeRect("a").united(f.canvas->nodeRect("loss")).center());
        QSignalSpy connect(f.canvas, &NodeCanvas::connectionRequested);

        f.drag(f.view(f.outputPort("a")), f.view(f.inputPort("loss", 1)));
        QCOMPARE(connect.size(), 1);
        QCOMPARE(connect[0][0].value<CanvasWire>(), CanvasWire({"a", "loss", 1}));

        // The other way round: from an input port to an output port.
        f.drag(f.view(f.inputPort("loss", 0)), f.view(f.outputPort("a")));
        QCOMPARE(connect.size(), 2);
        QCOMPARE(connect[1][0].value<CanvasWire>(), CanvasWire({"a", "loss", 0}));

        // A drop on a node's body picks the input port nearest the cursor (the left one here).
        const QRectF body = f.canvas->nodeRect("loss");
        f.drag(f.view(f.outputPort("a")), f.view(QPointF(body.left() + 10, body.center().y())));
        QCOMPARE(connect.size(), 3);
        QCOMPARE(connect[2][0].value<CanvasWire>(), CanvasWire({"a", "loss", 0}));

        // A node's output back into itself is refused by the canvas itself.
        f.drag(f.view(f.outputPort("a")), f.view(f.inputPort("a", 0)));
        QCOMPARE(connect.size(), 3);
    }

    void aRefusedConnectionOnlyHints() {
        Fixture f;
        f.add("a", {0, 0});
        f.add("b", {0, 220});
        f.canvas->centerOn(QPointF(80, 150));
        QList<CanvasWire> asked;
        f.canvas->setConnectionCheck([&](const CanvasWire& w) {
            asked.append(w);
            return QStringLiteral("Shapes differ: [128] into [784]");
        });
        QSignalSpy connect(f.canvas, &NodeCanvas::connectionRequested);
        QSignalSpy hints(f.canvas, &NodeCanvas::hint);
        f.drag(f.view(f.outputPort("a")), f.view(f.inputPort("b", 0)));
        QCOMPARE(connect.size(), 0);
        QVERIFY(!asked.isEmpty());
        QCOMPARE(asked.last(), CanvasWire({"a", "b", 0}));
        QVERIFY(!hints.isEmpty());
        QCOMPARE(hints.last()[0].toString(), QStringLiteral("Shapes differ: [128] into [784]"));
    }

    void draggingANodeEmitsOneSnappedMove() {
        Fixture f;
        f.add("a", {0, 0});
        f.add("b", {400, 0});
        f.canvas->centerOn(QPointF(300, 150));
        QSignalSpy moved(f.canvas, &NodeCanvas::nodesMoved);
        const QPoint grab = f.view(f.canvas->nodeRect("a").center() + QPointF(0, 4));
        f.drag(grab, grab + QPoint(37, 52));  // at zoom 1, view pixels are scene units
        QCOMPARE(moved.size(), 1);
        const auto positions = moved[0][0].value<QHash<QString, QPointF>>();
        const QPointF expected(std::round(37 / 20.0) * 20, std::round(52 / 20.0) * 20);  // (40, 60)
        QCOMPARE(positions.keys(), QStringList({"a"}));
        QCOMPARE(positions.value("a"), expected);
        QCOMPARE(f.canvas->nodePos("a"), expected);
        QCOMPARE(f.canvas->nodePos("b"), QPointF(400, 0));

        // A click without a move emits nothing; without snapping the position is exact.
        QTest::mouseClick(f.port(), Qt::LeftButton, {}, f.view(f.canvas->nodeRect("a").center()));
        QCOMPARE(moved.size(), 1);
        f.canvas->setSnapToGrid(false);
        const QPoint again = f.view(f.canvas->nodeRect("a").center());
        f.drag(again, again + QPoint(13, 7));
        QCOMPARE(moved.size(), 2);
        const auto unsnapped = moved[1][0].value<QHash<QString, QPointF>>();
        QCOMPARE(unsnapped.value("a"), expected + QPointF(13, 7));
    }

    void aWireFollowsItsNode() {
        Fixture f;
        f.add("a", {0, 0});
        f.add("b", {0, 220});
        f.canvas->setWires({{"a", "b", 0}});
        f.canvas->centerOn(QPointF(80, 150));
        WireItem* wire = wireItem(f.canvas, {"a", "b", 0});
        QVERIFY(wire);
        auto end = [&] { return wire->path().pointAtPercent(1); };
        auto start = [&] { return wire->path().pointAtPercent(0); };
        QVERIFY(near(end(), f.inputPort("b", 0), 0.01));
        QVERIFY(near(start(), f.outputPort("a"), 0.01));

        f.canvas->setNodePos("b", {200, 300});
        QVERIFY(near(end(), f.inputPort("b", 0), 0.01));

        // Live, while the mouse is still down.
        const QPoint grab = f.view(f.canvas->nodeRect("b").center());
        QTest::mousePress(f.port(), Qt::LeftButton, {}, grab);
        for (int i = 1; i <= 5; ++i) QTest::mouseMove(f.port(), grab + QPoint(-10 * i, 6 * i));
        QCOMPARE(f.canvas->nodePos("b"), QPointF(150, 330));
        QVERIFY(near(end(), f.inputPort("b", 0), 0.01));
        QTest::mouseRelease(f.port(), Qt::LeftButton, {}, grab + QPoint(-50, 30));
        QVERIFY(near(end(), f.inputPort("b", 0), 0.01));
    }

    void droppingAPortOnEmptySpaceAsksForANode() {
        Fixture f;
        f.add("a", {0, 0});
        f.add("b", {0, 220});
        f.canvas->centerOn(QPointF(200, 150));
        QSignalSpy fromOutput(f.canvas, &NodeCanvas::wireDroppedOnEmpty);
        QSignalSpy fromInput(f.canvas, &NodeCanvas::inputDroppedOnEmpty);
        const QPoint empty = f.view(QPointF(420, 120));
        f.drag(f.view(f.outputPort("a")), empty);
        QCOMPARE(fromOutput.size(), 1);
        QCOMPARE(fromOutput[0][0].toString(), QStringLiteral("a"));
        QVERIFY(near(fromOutput[0][1].toPointF(), f.canvas->mapToScene(empty), 0.5));

        f.drag(f.view(f.inputPort("b", 0)), empty);
        QCOMPARE(fromInput.size(), 1);
        QCOMPARE(fromInput[0][0].toString(), QStringLiteral("b"));
        QCOMPARE(fromInput[0][1].toInt(), 0);
        QCOMPARE(fromOutput.size(), 1);
        // No dragged wire is left behind.
        QCOMPARE(f.canvas->scene()->items().size(), 2);
    }

    void rubberBandSelects() {
        Fixture f;
        f.add("a", {0, 0});
        f.add("b", {200, 0});
        f.add("c", {0, 300});
        f.canvas->centerOn(QPointF(200, 200));
        QSignalSpy selection(f.canvas, &NodeCanvas::selectionChanged);
        f.drag(f.view(QPointF(-40, -40)), f.view(QPointF(420, 120)));
        QCOMPARE(f.canvas->selectedNodes(), QStringList({"a", "b"}));
        QVERIFY(!selection.isEmpty());
        QCOMPARE(selection.last()[0].toStringList(), QStringList({"a", "b"}));
    }

    void ctrlAndShiftClickAddToTheSelection() {
        Fixture f;
        f.add("a", {0, 0});
        f.add("b", {200, 0});
        f.add("c", {0, 300});
        f.canvas->centerOn(QPointF(200, 200));
        auto centre = [&](const QString& id) { return f.view(f.canvas->nodeRect(id).center()); };
        QTest::mouseClick(f.port(), Qt::LeftButton, {}, centre("b"));
        QCOMPARE(f.canvas->selectedNodes(), QStringList({"b"}));
        QTest::mouseClick(f.port(), Qt::LeftButton, Qt::ControlModifier, centre("a"));
        QCOMPARE(f.canvas->selectedNodes(), QStringList({"a", "b"}));  // insertion order, not click order
        QTest::mouseClick(f.port(), Qt::LeftButton, Qt::ShiftModifier, centre("c"));
        QCOMPARE(f.canvas->selectedNodes(), QStringList({"a", "b", "c"}));
        QTest::mouseClick(f.port(), Qt::LeftButton, {}, centre("c"));
        QCOMPARE(f.canvas->selectedNodes(), QStringList({"c"}));

        QSignalSpy selection(f.canvas, &NodeCanvas::selectionChanged);
        f.canvas->selectNodes({"c", "a"});
        QCOMPARE(selection.size(), 1);  // one signal for the whole replacement
        QCOMPARE(selection[0][0].toStringList(), QStringList({"a", "c"}));
    }

    void ctrlWheelZoomsAroundTheCursorWithinLimits() {
        Fixture f;
        f.add("a", {0, 0});
        f.add("b", {600, 500});
        f.canvas->centerOn(QPointF(300, 250));
        QSignalSpy zoomed(f.canvas, &NodeCanvas::zoomChanged);
        const QPoint at(200, 150);
        const QPointF under = f.canvas->mapToScene(at);
        sendWheel(f.port(), at, 120, Qt::ControlModifier);
        QVERIFY(qAbs(f.canvas->zoom() - std::pow(1.0015, 120)) < 1e-9);  // one notch ≈ ×1.197
        QCOMPARE(zoomed.size(), 1);
        // The scene point under the cursor stays there (to a view pixel, the scroll bar's step).
        QVERIFY2(near(f.canvas->mapFromScene(under), at, 1.5), qPrintable(QString::number(QLineF(f.canvas->mapFromScene(under), at).length())));

        for (int i = 0; i < 40; ++i) sendWheel(f.port(), at, 120, Qt::ControlModifier);
        QCOMPARE(f.canvas->zoom(), NodeCanvas::kMaxZoom);
        for (int i = 0; i < 80; ++i) sendWheel(f.port(), at, -120, Qt::ControlModifier);
        QCOMPARE(f.canvas->zoom(), NodeCanvas::kMinZoom);
        f.canvas->setZoom(20);
        QCOMPARE(f.canvas->zoom(), 4.0);

        // A plain wheel scrolls and leaves the zoom alone.
        f.canvas->setZoom(1);
        const int scrolled = f.canvas->verticalScrollBar()->value();
        sendWheel(f.port(), at, -120, {});
        QCOMPARE(f.canvas->zoom(), 1.0);
        QVERIFY(f.canvas->verticalScrollBar()->value() > scrolled);
    }

    void fitAllShowsEveryNode() {
        Fixture f;
        f.add("a", {-500, -300});
        f.add("b", {2500, 1800});
        f.add("c", {900, 40});
        f.canvas->setZoom(3);
        f.canvas->centerOn(QPointF(-2000, -2000));
        f.canvas->fitAll();
        const QRect viewport = f.port()->rect();
        for (const QString& id : f.canvas->nodeIds()) {
            const QRect shown = f.canvas->mapFromScene(f.canvas->nodeRect(id)).boundingRect();
            QVERIFY2(viewport.contains(shown), qPrintable(id));
        }
        QVERIFY(f.canvas->zoom() >= NodeCanvas::kMinZoom && f.canvas->zoom() < 1);
        // A small graph is not blown up past its natural size.
        f.canvas->clear();
        f.add("a", {0, 0});
        f.canvas->fitAll();
        QCOMPARE(f.canvas->zoom(), 1.0);
        QVERIFY(viewport.contains(f.canvas->mapFromScene(f.canvas->nodeRect("a")).boundingRect()));
    }

    void tabAndSpaceAskForThePopupAtTheCursor() {
        Fixture f;
        f.add("a", {0, 0});
        QSignalSpy insert(f.canvas, &NodeCanvas::insertRequested);
        const QPoint at(300, 220);
        QTest::mouseMove(f.port(), at);
        QTest::keyClick(f.canvas, Qt::Key_Tab);
        QCOMPARE(insert.size(), 1);
        // To a pixel: at QT_SCALE_FACTOR=1.5 the logical mouse position is rounded.
        QVERIFY(near(insert[0][0].toPointF(), f.canvas->mapToScene(at), 1.5));
        QVERIFY(f.canvas->hasFocus());  // Tab did not move on to the line edit

        QTest::keyClick(f.canvas, Qt::Key_Space);
        QCOMPARE(insert.size(), 2);

        // Space held while dragging pans instead, and asks for nothing.
        const int h = f.canvas->horizontalScrollBar()->value();
        QTest::keyPress(f.canvas, Qt::Key_Space);
        f.drag(at, at + QPoint(-120, 0));
        QTest::keyRelease(f.canvas, Qt::Key_Space);
        QCOMPARE(insert.size(), 2);
        QCOMPARE(f.canvas->horizontalScrollBar()->value(), h + 120);
        // The middle button pans too.
        f.drag(at, at + QPoint(0, -50), {}, Qt::MiddleButton);
        QCOMPARE(f.canvas->horizontalScrollBar()->value(), h + 120);
    }

    void deleteRemovesASelectedWireOnly() {
        Fixture f;
        f.add("a", {0, 0});
        f.add("b", {300, 300});
        f.canvas->setWires({{"a", "b", 0}});
        f.canvas->centerOn(QPointF(200, 200));
        QSignalSpy removal(f.canvas, &NodeCanvas::wireRemovalRequested);

        QKeyEvent unused(QEvent::KeyPress, Qt::Key_Delete, Qt::NoModifier);
        QApplication::sendEvent(f.canvas, &unused);
        QVERIFY(!unused.isAccepted());  // no wire selected: the key is left to the page
        QCOMPARE(removal.size(), 0);

        // Clicking a few pixels beside the middle of the curve still hits it.
        WireItem* wire = wireItem(f.canvas, {"a", "b", 0});
        const QPointF middle = wire->path().pointAtPercent(0.5);
        QTest::mouseClick(f.port(), Qt::LeftButton, {}, f.view(middle) + QPoint(4, 0));
        QCOMPARE(f.canvas->selectedWires(), QList<CanvasWire>({{"a", "b", 0}}));
        QVERIFY(f.canvas->selectedNodes().isEmpty());
        QTest::keyClick(f.canvas, Qt::Key_Delete);
        QCOMPARE(removal.size(), 1);
        QCOMPARE(removal[0][0].value<CanvasWire>(), CanvasWire({"a", "b", 0}));
    }

    void doubleClickContextMenuAndPaletteDrop() {
        Fixture f;
        f.add("a", {0, 0});
        f.add("b", {300, 0});
        f.canvas->centerOn(QPointF(200, 100));
        QSignalSpy doubled(f.canvas, &NodeCanvas::nodeDoubleClicked);
        QTest::mouseDClick(f.port(), Qt::LeftButton, {}, f.view(f.canvas->nodeRect("b").center()));
        QCOMPARE(doubled.size(), 1);
        QCOMPARE(doubled[0][0].toString(), QStringLiteral("b"));

        QSignalSpy menu(f.canvas, &NodeCanvas::contextMenuRequested);
        const QPoint onA = f.view(f.canvas->nodeRect("a").center());
        QContextMenuEvent right(QContextMenuEvent::Mouse, onA, f.port()->mapToGlobal(onA));
        QApplication::sendEvent(f.port(), &right);
        QCOMPARE(menu.size(), 1);
        QCOMPARE(menu[0][0].toStringList(), QStringList({"a"}));

        QSignalSpy dropped(f.canvas, &NodeCanvas::opDropped);
        QMimeData mime;
        mime.setData("application/x-trainstudio-op", QByteArray("Conv2d"));
        const QPoint at(120, 300);
        QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, {});
        QApplication::sendEvent(f.port(), &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(at, Qt::CopyAction, &mime, Qt::LeftButton, {});
        QApplication::sendEvent(f.port(), &drop);
        QCOMPARE(dropped.size(), 1);
        QCOMPARE(dropped[0][0].toString(), QStringLiteral("Conv2d"));
        QVERIFY(near(dropped[0][1].toPointF(), f.canvas->mapToScene(at), 0.5));
    }

    void minimapMovesTheView() {
        Fixture f;
        f.add("a", {0, 0});
        f.add("b", {3000, 2000});
        f.canvas->centerOn(QPointF(0, 0));
        CanvasMinimap* map = f.canvas->minimap();
        QVERIFY(map->isVisible());
        QCOMPARE(map->size(), QSize(CanvasMinimap::kWidth, CanvasMinimap::kHeight));
        // In the viewport's bottom-right corner (a child of the viewport).
        const QRect portRect = f.port()->rect();
        QVERIFY(portRect.contains(map->geometry()));
        QVERIFY(map->geometry().right() > portRect.right() - 20 && map->geometry().bottom() > portRect.bottom() - 20);

        const QPointF target(2500, 1500);
        QTest::mouseClick(map, Qt::LeftButton, {}, map->toLocal(target).toPoint());
        // Within the map's resolution: one minimap pixel is worldWidth / ~170 scene units.
        const qreal pixel = map->worldRect().width() / (CanvasMinimap::kWidth - 12);
        QVERIFY2(near(f.canvas->visibleSceneRect().center(), target, 2 * pixel), qPrintable(QString::number(pixel)));
    }

    void errorsDrawRedAndExportsWork() {
        Fixture f;
        f.add("conv1", {0, 0});
        f.add("fc_out", {0, 300});
        NodeLook bad = look("fc_out", "Linear");
        bad.error = QStringLiteral("in_features is 3136, but the input has 3200 values per sample");
        f.canvas->setNode("fc_out", bad);
        f.canvas->setWires({{"conv1", "fc_out", 0}});

        // At scale 1 an image row is a scene unit: conv1 lies in the top 150 rows (its body
        // is under 100 high, the margin 24 + 7), fc_out with its error text below row 250.
        const QImage image = f.canvas->renderImage(1.0);
        QVERIFY(!image.isNull());
        QVERIFY(f.canvas->nodeRect("conv1").height() < 100);
        QCOMPARE(image.pixelColor(2, 2), QColor(Qt::white));
        QCOMPARE(reddish(image, QRect(0, 0, image.width(), 150)), 0);
        QVERIFY(reddish(image, QRect(0, 250, image.width(), image.height() - 250)) > 100);

        QTemporaryDir dir;
        const QString png = dir.filePath("graph.png"), svg = dir.filePath("graph.svg");
        QVERIFY(f.canvas->exportPng(png));
        QImage read(png);
        QVERIFY(!read.isNull());
        QCOMPARE(read.size(), f.canvas->renderImage(2.0).size());
        QVERIFY(f.canvas->exportSvg(svg, QStringLiteral("My model")));
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains("conv1"));
        QVERIFY(text.contains("fc_out"));
        QVERIFY(text.contains("My model"));
        // Exporting leaves the selection as it was and says nothing about it.
        f.canvas->selectNodes({"conv1"});
        QSignalSpy selection(f.canvas, &NodeCanvas::selectionChanged);
        f.canvas->renderImage();
        QCOMPARE(selection.size(), 0);
        QCOMPARE(f.canvas->selectedNodes(), QStringList({"conv1"}));
    }

    // Not a check of pixels: a picture to look at (12 nodes, errors, a frame, a badge).
    void screenshot() {
        Fixture f;
        f.window.resize(1100, 760);
        const QStringList ids = {"input", "conv1", "bn1", "relu1", "pool1", "conv2", "bn2", "relu2", "flatten", "fc1", "dropout", "loss"};
        const QStringList ops = {"Input", "Conv2d", "BatchNorm2d", "ReLU", "MaxPool2d", "Conv2d", "BatchNorm2d", "ReLU", "Flatten", "Linear", "Dropout", "CrossEntropy"};
        const QList<QColor> accents = {QColor(0x88, 0x88, 0x88), QColor(0x3d, 0x7e, 0xd8), QColor(0x2e, 0xa0, 0x6b), QColor(0xe0, 0x8a, 0x1e)};
        for (int i = 0; i < ids.size(); ++i) {
            NodeLook l = look(ids[i], ops[i], i == 0 ? 0 : 1, {QStringLiteral("[32, 28, 28]"), QStringLiteral("320 params · 0.6 MFLOP")});
            l.accent = accents[i % accents.size()];
            if (ids[i] == "loss") {
                l.inputs = {{"logits", "class scores [N, 10]"}, {"target", "labels [N]"}};
                l.hasOutput = false;
            }
            if (ids[i] == "fc1") l.error = QStringLiteral("in_features is 3136, but the input has 3200 values per sample");
            if (ids[i] == "relu2") l.checkpoint = true;
            if (ids[i] == "bn2") l.collapsedBlock = true;
            f.canvas->setNode(ids[i], l);
        }
        // Two columns read top-down (input..pool1, conv2..dropout) and the loss beside them.
        for (int i = 0; i < 11; ++i) f.canvas->setNodePos(ids[i], QPointF(i < 5 ? 0 : 260, (i < 5 ? i : i - 5) * 120));
        f.canvas->setNodePos("loss", QPointF(520, 5 * 120 + 40));
        QList<CanvasWire> wires;
        for (int i = 1; i < ids.size(); ++i) wires.append({ids[i - 1], ids[i], 0});
        wires.append({"input", "loss", 1});
        f.canvas->setWires(wires);
        f.canvas->setFrames({{"block", QStringLiteral("Block conv2"), {"conv2", "bn2", "relu2"}, true}});
        f.canvas->selectNodes({"pool1"});
        f.canvas->fitAll();
        QTest::qWait(50);
        const QString scale = qEnvironmentVariable("QT_SCALE_FACTOR", "1");
        const QString path = screenshotPath(QStringLiteral("node_canvas_scale%1.png").arg(scale));
        QVERIFY(f.window.grab().save(path));
        QVERIFY(f.canvas->exportPng(screenshotPath(QStringLiteral("node_canvas_export.png"))));
        qInfo("screenshot: %s", qPrintable(path));
    }
};

QTEST_MAIN(TestNodeCanvas)
#include "tst_node_canvas.moc"
