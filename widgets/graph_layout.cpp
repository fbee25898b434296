#include "graph_layout.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <QtGlobal>
#include <QMutex>
#include <algorithm>
#include <vector>

namespace ts::widgets {

namespace {

// Gaps between boxes side by side and between layers, in pixels.
constexpr double kNodeGap = 24, kRankGap = 36;

// Older Graphviz (Debian 12's 2.42) takes char* where newer takes const char*.
char* cstr(const char* s) { return const_cast<char*>(s); }

// One context for the process: creating one loads the plugins. Graphviz keeps global state,
// so layouts take turns under the mutex.
struct Graphviz {
    GVC_t* context = gvContext();
    QMutex mutex;
    ~Graphviz() { gvFreeContext(context); }
};
Graphviz& graphviz()
{
    static Graphviz g;
    return g;
}

struct Indexed {
    QList<QPair<int, int>> edges;  // indices into the boxes; unknown ids and self-loops dropped
};

Indexed indexEdges(const QList<LayoutBox>& boxes, const QList<LayoutEdge>& edges)
{
    QHash<QString, int> index;
    for (int i = 0; i < boxes.size(); ++i) index.insert(boxes[i].id, i);
    Indexed out;
    for (const LayoutEdge& e : edges) {
        const int a = index.value(e.from, -1), b = index.value(e.to, -1);
        if (a >= 0 && b >= 0 && a != b) out.edges.append({a, b});
    }
    return out;
}

// Graphviz's `dot`; false when it cannot lay out (no layout plugin, say).
bool dotLayout(const QList<LayoutBox>& boxes, const Indexed& in, QHash<QString, QPointF>& out)
{
    Graphviz& gv = graphviz();
    if (!gv.context) return false;
    QMutexLocker lock(&gv.mutex);
    Agraph_t* g = agopen(cstr("layout"), Agdirected, nullptr);
    agattr(g, AGRAPH, cstr("rankdir"), cstr("TB"));
    agattr(g, AGRAPH, cstr("nodesep"), cstr(QByteArray::number(kNodeGap / 72.0).constData()));
    agattr(g, AGRAPH, cstr("ranksep"), cstr(QByteArray::number(kRankGap / 72.0).constData()));
    agattr(g, AGRAPH, cstr("splines"), cstr("line"));  // only the boxes' places are wanted: skip curve fitting
    agattr(g, AGNODE, cstr("shape"), cstr("box"));
    agattr(g, AGNODE, cstr("fixedsize"), cstr("true"));
    agattr(g, AGNODE, cstr("label"), cstr(""));  // no text to measure: the size is given
    agattr(g, AGNODE, cstr("margin"), cstr("0"));
    Agsym_t* width = agattr(g, AGNODE, cstr("width"), cstr("1"));
    Agsym_t* height = agattr(g, AGNODE, cstr("height"), cstr("1"));

    std::vector<Agnode_t*> nodes;
    nodes.reserve(static_cast<std::size_t>(boxes.size()));
    for (int i = 0; i < boxes.size(); ++i) {
        Agnode_t* n = agnode(g, cstr(QByteArray::number(i).constData()), 1);  // ids may hold any text: name by index
        agxset(n, width, cstr(QByteArray::number(boxes[i].size.width() / 72.0, 'g', 12).constData()));
        agxset(n, height, cstr(QByteArray::number(boxes[i].size.height() / 72.0, 'g', 12).constData()));
        nodes.push_back(n);
    }
    for (const auto& [a, b] : in.edges) agedge(g, nodes[static_cast<std::size_t>(a)], nodes[static_cast<std::size_t>(b)], nullptr, 1);

    const bool laidOut = gvLayout(gv.context, g, "dot") == 0;
    if (laidOut) {
        // Points (1/72 inch, the pixels we gave), centres, y growing upwards from the bounding box.
        const boxf bb = GD_bb(g);
        for (int i = 0; i < boxes.size(); ++i) {
            const pointf c = ND_coord(nodes[static_cast<std::size_t>(i)]);
            const QSizeF s = boxes[i].size;
            out.insert(boxes[i].id, QPointF(c.x - bb.LL.x - s.width() / 2, bb.UR.y - c.y - s.height() / 2));
        }
        gvFreeLayout(gv.context, g);
    }
    agclose(g);
    return laidOut;
}

void placeByLongestPath(const QList<LayoutBox>& boxes, const Indexed& in, QHash<QString, QPointF>& out)
{
    const int n = int(boxes.size());
    std::vector<std::vector<int>> next(n);
    std::vector<int> indegree(n, 0), layer(n, 0);
    for (const auto& [a, b] : in.edges) next[a].push_back(b), ++indegree[b];
    std::vector<int> ready;
    for (int i = 0; i < n; ++i)
        if (indegree[i] == 0) ready.push_back(i);
    std::vector<bool> done(n, false);
    for (int placed = 0; placed < n;) {
        if (ready.empty())  // a cycle: go on from the first box not placed yet
            ready.push_back(int(std::find(done.begin(), done.end(), false) - done.begin()));
        const int v = ready.back();
        ready.pop_back();
        if (done[v]) continue;
        done[v] = true;
        ++placed;
        for (int w : next[v])
            if (!done[w]) {
                layer[w] = std::max(layer[w], layer[v] + 1);
                if (--indegree[w] == 0) ready.push_back(w);
            }
    }
    const int layers = *std::max_element(layer.begin(), layer.end()) + 1;
    std::vector<double> height(layers, 0), top(layers, 0), x(layers, 0);
    for (int i = 0; i < n; ++i) height[layer[i]] = std::max(height[layer[i]], boxes[i].size.height());
    for (int l = 1; l < layers; ++l) top[l] = top[l - 1] + height[l - 1] + kRankGap;
    for (int i = 0; i < n; ++i) {
        out.insert(boxes[i].id, QPointF(x[layer[i]], top[layer[i]]));
        x[layer[i]] += boxes[i].size.width() + kNodeGap;
    }
}

}  // namespace

QHash<QString, QPointF> layeredLayout(const QList<LayoutBox>& boxes, const QList<LayoutEdge>& edges)
{
    QHash<QString, QPointF> out;
    if (boxes.isEmpty()) return out;
    const Indexed indexed = indexEdges(boxes, edges);
    if (dotLayout(boxes, indexed, out)) return out;
    qWarning("layeredLayout: Graphviz's dot layout is not available (is libgvc6 installed and its plugin "
             "configuration written by 'dot -c'?); boxes are placed by longest path instead");
    out.clear();
    placeByLongestPath(boxes, indexed, out);
    return out;
}

QHash<QString, QPointF> longestPathLayout(const QList<LayoutBox>& boxes, const QList<LayoutEdge>& edges)
{
    QHash<QString, QPointF> out;
    if (!boxes.isEmpty()) placeByLongestPath(boxes, indexEdges(boxes, edges), out);
    return out;
}

}  // namespace ts::widgets
