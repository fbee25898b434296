// The Model page's edits, as pure functions from one drawing to the next: a model (the one
// Graph, rule 2) plus where its nodes sit. The page pushes each result onto its undo stack
// as one step, so a paste of ten nodes or a drag of five is undone at once.
#pragma once
#include <QHash>
#include <QPointF>
#include <QString>
#include <QStringList>

#include "graph/transformer_block.h"
#include "types/model_graph.h"
#include "types/model_layout.h"

namespace ts::ui {

struct ModelState {
    Graph model;
    ModelLayout layout;
    bool operator==(const ModelState&) const = default;
};

// A node added with no inputs, named after its op (conv3), placed at `pos`.
ModelState addNode(ModelState s, const QString& op, QPointF pos, QString* name = nullptr);
// Graph inputs are not nodes here: removing one is refused (the dataset defines them).
ModelState removeNodes(ModelState s, const QStringList& names);
ModelState moveNodes(ModelState s, const QHash<QString, QPointF>& positions);

// Why `from` may not feed input `port` of `to` (empty: it may): a cycle, an occupied port of
// an op that takes a fixed number of inputs, a port the op does not have, a node feeding itself.
QString connectionRefusal(const ModelState& s, const QString& from, const QString& to, int port);
// Feeds input `port` of `to` from `from` (port == the current count appends).
ModelState connectNodes(ModelState s, const QString& from, const QString& to, int port);
ModelState disconnect(ModelState s, const QString& to, int port);

// Why `name` cannot be the new name of `node` (empty: it can): empty, not a plain
// identifier, or taken. Renaming updates every reference, the layout and the blocks.
QString renameRefusal(const ModelState& s, const QString& node, const QString& name);
ModelState renameNode(ModelState s, const QString& node, const QString& name);

// Copy and paste through the clipboard as JSON (nodes with attributes, inputs, positions,
// and the blocks wholly inside the selection).
QByteArray copyNodes(const ModelState& s, const QStringList& names);
// Pasted nodes get fresh names (their internal wires follow; inputs from outside the copy
// stay when the target has such a node), shifted by `offset`; `pasted` receives their names.
// Returns s unchanged when `clip` is not a copy.
ModelState pasteNodes(ModelState s, const QByteArray& clip, QPointF offset, QStringList* pasted = nullptr);

// Blocks: a named group of nodes drawn as one. A node belongs to one block at most.
QString freshBlockName(const ModelState& s);
ModelState groupBlock(ModelState s, const QStringList& names, const QString& block);
ModelState ungroupBlock(ModelState s, const QString& block);
ModelState setBlockCollapsed(ModelState s, const QString& block, bool collapsed);
const ModelBlock* blockOf(const ModelState& s, const QString& node);
// Activation checkpointing for these nodes (a block's nodes: one segment when consecutive).
ModelState setCheckpoint(ModelState s, const QStringList& names, bool on);

// A pre-norm Transformer block (graph/transformer_block.h, the engine's recipe) fed by `from`,
// grouped as a collapsed block ("transformer1") with fresh node names (b1_ln1, ...), its
// members in a column from `pos`, `row` apart. What read `from` reads the block's output
// instead (a block inserted into a stack), and then what stood below `pos` moves down a row
// to make room. With no `from` the block is unwired and expanded, so its two inputs (ln1 and the
// residual add1) can be wired. `block` receives its name. Throws std::invalid_argument as
// the recipe does.
ModelState insertTransformerBlock(ModelState s, const QString& from, const TransformerBlockOptions& options, QPointF pos, double row,
                                  QString* block = nullptr);

ModelState setAttribute(ModelState s, const QString& node, const QString& attr, const AttrValue& value);
ModelState resetAttribute(ModelState s, const QString& node, const QString& attr);

Node* findNode(Graph& g, const QString& name);
const Node* findNode(const Graph& g, const QString& name);
bool isGraphInput(const Graph& g, const QString& name);
// A graph input whose values are integers (class labels, token ids): it can only feed a port
// that takes no gradient.
bool isIntegerInput(const Graph& g, const QString& name);

}  // namespace ts::ui
