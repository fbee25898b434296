// Automatic layout of a box-and-arrow drawing (the model canvas's "Arrange"), by Graphviz's
// `dot`: layered, top to bottom. Plain ids and sizes in, positions out; no engine types.
#pragma once
#include <QHash>
#include <QList>
#include <QPointF>
#include <QSizeF>
#include <QString>

namespace ts::widgets {

struct LayoutBox {
    QString id;
    QSizeF size;  // pixels
};
struct LayoutEdge {
    QString from, to;
};

// A layered top-to-bottom drawing: every edge of an acyclic graph points downwards (the
// target's top below the source's bottom), boxes do not overlap, and each box's top-left is
// returned, the drawing's top-left corner at (0, 0). Boxes not in `edges` are laid out too;
// edges naming unknown ids, and self-loops, are ignored. Thread-safe (Graphviz is not: calls
// take turns). Should Graphviz fail, boxes are placed by longest path instead, with a warning.
QHash<QString, QPointF> layeredLayout(const QList<LayoutBox>& boxes, const QList<LayoutEdge>& edges);
// The fallback: each box on the layer of its longest path from a source, a layer's boxes
// left to right in the given order. Same guarantees, but an edge that skips layers may pass
// behind the boxes between (dot routes it beside them); edges that close a cycle are cut.
QHash<QString, QPointF> longestPathLayout(const QList<LayoutBox>& boxes, const QList<LayoutEdge>& edges);

}  // namespace ts::widgets
