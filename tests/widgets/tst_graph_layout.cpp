// The layered layout (Graphviz's dot, and the longest-path fallback): a chain is one column
// going down, a residual block is a diamond, no two boxes overlap, every edge points down,
// boxes without edges are placed, and 300 boxes lay out well under a second.
#include <QtTest>

#include <QElapsedTimer>
#include <QImage>
#include <QPainter>

#include "graph_layout.h"

using namespace ts::widgets;

namespace {

using Layout = QHash<QString, QPointF>;
using LayoutFn = Layout (*)(const QList<LayoutBox>&, const QList<LayoutEdge>&);

QRectF rectOf(const Layout& layout, const LayoutBox& box) { return QRectF(layout.value(box.id), box.size); }

QString overlapping(const Layout& layout, const QList<LayoutBox>& boxes)
{
    for (int i = 0; i < boxes.size(); ++i)
        for (int j = i + 1; j < boxes.size(); ++j)
            if (rectOf(layout, boxes[i]).intersects(rectOf(layout, boxes[j]))) return boxes[i].id + " and " + boxes[j].id;
    return {};
}

// The first edge whose target's top is above its source's bottom.
QString upwardEdge(const Layout& layout, const QList<LayoutBox>& boxes, const QList<LayoutEdge>& edges)
{
    QHash<QString, LayoutBox> byId;
    for (const LayoutBox& b : boxes) byId.insert(b.id, b);
    for (const LayoutEdge& e : edges)
        if (rectOf(layout, byId[e.to]).top() < rectOf(layout, byId[e.from]).bottom()) return e.from + " -> " + e.to;
    return {};
}

QList<LayoutBox> chainBoxes(int n)
{
    QList<LayoutBox> boxes;
    for (int i = 0; i < n; ++i) boxes.append({QString("layer %1").arg(i), QSizeF(120 + 10 * (i % 3), 40)});
    return boxes;
}
QList<LayoutEdge> chainEdges(const QList<LayoutBox>& boxes)
{
    QList<LayoutEdge> edges;
    for (int i = 1; i < boxes.size(); ++i) edges.append({boxes[i - 1].id, boxes[i].id});
    return edges;
}

// A residual block: in -> conv1 -> conv2 -> add, and in -> add (the skip), then out.
QList<LayoutBox> diamondBoxes()
{
    return {{"in", {100, 40}}, {"conv1", {100, 40}}, {"conv2", {100, 40}}, {"add", {80, 30}}, {"out", {100, 40}}};
}
QList<LayoutEdge> diamondEdges() { return {{"in", "conv1"}, {"conv1", "conv2"}, {"conv2", "add"}, {"in", "add"}, {"add", "out"}}; }

void saveDrawing(const Layout& layout, const QList<LayoutBox>& boxes, const QList<LayoutEdge>& edges, const QString& file)
{
    QRectF all;
    for (const LayoutBox& b : boxes) all |= rectOf(layout, b);
    QImage image((all.size() + QSizeF(20, 20)).toSize(), QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter p(&image);
    p.translate(10 - all.left(), 10 - all.top());
    QHash<QString, QRectF> rects;
    for (const LayoutBox& b : boxes) rects.insert(b.id, rectOf(layout, b));
    for (const LayoutEdge& e : edges) p.drawLine(QPointF(rects[e.from].center().x(), rects[e.from].bottom()),
                                                 QPointF(rects[e.to].center().x(), rects[e.to].top()));
    for (const LayoutBox& b : boxes) {
        p.fillRect(rects[b.id], QColor(220, 230, 250));
        p.drawRect(rects[b.id]);
        p.drawText(rects[b.id], Qt::AlignCenter, b.id);
    }
    p.end();
    image.save(file);
}

}  // namespace

Q_DECLARE_METATYPE(LayoutFn)

class TestGraphLayout : public QObject {
    Q_OBJECT
private slots:
    void initTestCase_data()
    {
        QTest::addColumn<LayoutFn>("layout");
        QTest::newRow("dot") << LayoutFn(&layeredLayout);
        QTest::newRow("longest path") << LayoutFn(&longestPathLayout);
    }

    void chainIsOneColumnGoingDown()
    {
        QFETCH_GLOBAL(LayoutFn, layout);
        const QList<LayoutBox> boxes = chainBoxes(14);
        const Layout l = layout(boxes, chainEdges(boxes));
        QCOMPARE(l.size(), 14);
        for (int i = 1; i < boxes.size(); ++i) {
            const QRectF above = rectOf(l, boxes[i - 1]), below = rectOf(l, boxes[i]);
            QVERIFY2(below.top() >= above.bottom() + 1, qPrintable(boxes[i].id));
            // One column: every box spans the narrowest box's middle.
            const double middle = rectOf(l, boxes[0]).center().x();
            QVERIFY2(below.left() < middle && middle < below.right(), qPrintable(boxes[i].id));
        }
        QCOMPARE(upwardEdge(l, boxes, chainEdges(boxes)), QString());
    }

    void residualBlockIsADiamond()
    {
        QFETCH_GLOBAL(LayoutFn, layout);
        const Layout l = layout(diamondBoxes(), diamondEdges());
        const auto r = [&](const char* id) {
            for (const LayoutBox& b : diamondBoxes())
                if (b.id == id) return rectOf(l, b);
            return QRectF();
        };
        QCOMPARE(upwardEdge(l, diamondBoxes(), diamondEdges()), QString());
        QCOMPARE(overlapping(l, diamondBoxes()), QString());
        // conv1 and conv2 on the path, add below both; the skip makes the drawing wider than a box.
        QVERIFY(r("add").top() >= r("conv2").bottom());
        QVERIFY(r("out").top() >= r("add").bottom());
        QVERIFY(r("conv2").top() >= r("conv1").bottom());
        if (layout != &layeredLayout) return;  // the fallback stacks the block in one column
        saveDrawing(l, diamondBoxes(), diamondEdges(), QDir::temp().filePath("tst_graph_layout_diamond.png"));
        // A diamond: 'in' and 'add' on one axis, the convolutions in a column of their own beside
        // it by at least a quarter box, leaving the skip's path room on the other side.
        QVERIFY(std::abs(r("in").center().x() - r("add").center().x()) < 1);
        QVERIFY(std::abs(r("conv1").center().x() - r("conv2").center().x()) < 1);
        QVERIFY2(std::abs(r("conv1").center().x() - r("in").center().x()) >= 25,
                 qPrintable(QString("conv1 at %1, in at %2").arg(r("conv1").center().x()).arg(r("in").center().x())));
    }

    // Mixed sizes, branches, joins and loose boxes: nothing overlaps, every edge goes down,
    // every box is placed, the drawing starts at (0, 0).
    void branchedGraphHasNoOverlapAndEdgesGoDown()
    {
        QFETCH_GLOBAL(LayoutFn, layout);
        QList<LayoutBox> boxes;
        QList<LayoutEdge> edges;
        for (int i = 0; i < 40; ++i) boxes.append({QString("n%1").arg(i), QSizeF(60 + (i * 37) % 90, 24 + (i * 13) % 40)});
        for (int i = 1; i < 34; ++i) {
            edges.append({QString("n%1").arg(i * 37 % 53 % i), QString("n%1").arg(i)});
            if (i % 4 == 0) edges.append({QString("n%1").arg(i / 2), QString("n%1").arg(i)});
        }
        edges.append(LayoutEdge{"n3", "missing"});  // ignored
        edges.append(LayoutEdge{"n5", "n5"});       // ignored
        const Layout l = layout(boxes, edges);
        QCOMPARE(l.size(), boxes.size());  // n34..n39 have no edges and are placed too
        QCOMPARE(overlapping(l, boxes), QString());
        edges.removeLast();
        edges.removeLast();
        QCOMPARE(upwardEdge(l, boxes, edges), QString());
        QRectF all;
        for (const LayoutBox& b : boxes) all |= rectOf(l, b);
        QVERIFY2(std::abs(all.left()) < 1 && std::abs(all.top()) < 1, qPrintable(QString("%1, %2").arg(all.left()).arg(all.top())));
        if (layout == &layeredLayout)
            saveDrawing(l, boxes, edges, QDir::temp().filePath("tst_graph_layout_branched.png"));
    }

    void largeGraphIsFast()
    {
        QFETCH_GLOBAL(LayoutFn, layout);
        QList<LayoutBox> boxes;
        QList<LayoutEdge> edges;
        // 300 boxes: 60 residual-like blocks of 5 (the ResNet-sized models a canvas shows, many times over).
        for (int b = 0; b < 60; ++b) {
            const QString p = QString("b%1_").arg(b);
            for (const char* n : {"conv1", "bn1", "relu", "conv2", "add"}) boxes.append({p + n, QSizeF(140, 44)});
            const QString prev = b ? QString("b%1_add").arg(b - 1) : QString();
            if (!prev.isEmpty()) edges.append({prev, p + "conv1"}), edges.append({prev, p + "add"});
            edges.append({p + "conv1", p + "bn1"});
            edges.append({p + "bn1", p + "relu"});
            edges.append({p + "relu", p + "conv2"});
            edges.append({p + "conv2", p + "add"});
        }
        QElapsedTimer timer;
        timer.start();
        const Layout l = layout(boxes, edges);
        const qint64 ms = timer.elapsed();
        qInfo("%s: 300 boxes, %lld edges laid out in %lld ms", layout == &layeredLayout ? "dot" : "longest path",
              qint64(edges.size()), ms);
        QCOMPARE(l.size(), 300);
        QCOMPARE(overlapping(l, boxes), QString());
        QCOMPARE(upwardEdge(l, boxes, edges), QString());
        QVERIFY2(ms < 1000, qPrintable(QString("%1 ms").arg(ms)));
    }

    void emptyInputGivesEmptyLayout()
    {
        QFETCH_GLOBAL(LayoutFn, layout);
        QVERIFY(layout({}, {}).isEmpty());
        QVERIFY(layout({}, {{"a", "b"}}).isEmpty());
        const Layout one = layout({{"only", QSizeF(50, 20)}}, {});
        QCOMPARE(one.size(), 1);
        QCOMPARE(one.value("only"), QPointF(0, 0));
    }

    // The fallback cuts a cycle instead of looping; dot reverses an edge of it. Either way
    // every box is placed once, without overlap.
    void cycleIsLaidOut()
    {
        QFETCH_GLOBAL(LayoutFn, layout);
        const QList<LayoutBox> boxes = chainBoxes(4);
        QList<LayoutEdge> edges = chainEdges(boxes);
        edges.append({boxes.last().id, boxes.first().id});
        const Layout l = layout(boxes, edges);
        QCOMPARE(l.size(), 4);
        QCOMPARE(overlapping(l, boxes), QString());
    }
};

QTEST_MAIN(TestGraphLayout)
#include "tst_graph_layout.moc"
