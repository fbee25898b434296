// What the Model page draws for a model: a canvas node per graph input and per node (its
// name, op, output shape, parameters, FLOPs per sample, the activation memory it holds for
// backward, and its problem in red), a wire per input, a frame per expanded block and one
// node per collapsed block, whose ports stand for the inputs its members take from outside.
// It also maps what the user does on a collapsed block back to the member it means.
#pragma once
#include <QHash>
#include <QList>
#include <QPair>
#include <QString>

#include "graph/graph_diagnosis.h"
#include "graph_edits.h"
#include "widgets/node_canvas.h"

namespace ts::ui {

class ModelScene {
public:
    explicit ModelScene(widgets::NodeCanvas* canvas) : m_canvas(canvas) {}
    // Redraws the canvas for `state`; nodes without a position are placed below the drawing.
    void show(const ModelState& state, const GraphDiagnosis& diagnosis);

    // The node and input port a canvas port stands for (a collapsed block's port is a member's).
    QPair<QString, int> inputTarget(const QString& canvasId, int port) const;
    // The node whose output a canvas node's output port gives.
    QString outputSource(const QString& canvasId) const;
    // The model nodes a canvas selection stands for (a collapsed block: all its members).
    QStringList modelNodes(const QStringList& canvasIds) const;
    // The canvas id showing a model node (its collapsed block's, when it is in one).
    QString canvasId(const QString& node) const;
    static QString blockId(const QString& block) { return QStringLiteral("block:") + block; }
    static bool isBlockId(const QString& id) { return id.startsWith(QLatin1String("block:")); }

private:
    widgets::NodeCanvas* m_canvas;
    QHash<QString, QList<QPair<QString, int>>> m_blockInputs;  // collapsed block id -> member ports
    QHash<QString, QString> m_blockOutput;                      // collapsed block id -> member whose output leaves
    QHash<QString, QStringList> m_blockMembers;
    QHash<QString, QString> m_shownAs;                          // hidden member -> block id
};

// "[32, 14, 14]": a shape without its batch dimension.
QString sampleShapeText(const Shape& shape, bool withoutBatch = true);
// "1.23 M", "3.1 k", "512"; with a unit: "451.6 kFLOP", "512 FLOP"
QString compactCount(double value, const QString& unit = {});

}  // namespace ts::ui
