// The Model page: draw a network on a canvas (palette, ports and wires, blocks), see every
// node's shape, cost and problem as you draw (the engine's diagnoseGraph after each edit),
// the training memory it will need and the largest batch that fits, then train it. It edits
// the open experiment's one Graph (rule 2, through ModelDocument, its view of the experiment
// document); the file keeps the drawing in a `layout:` section. Every change is one undoable
// step of the experiment's history; saving is the File menu's.
#pragma once
#include <QPointF>
#include <QWidget>

#include "graph/graph.h"
#include "types/experiment_spec.h"

class QAction;
class QLabel;
class QListWidget;
class QMenu;
class QPushButton;
class QSplitter;
class QToolBar;

namespace ts::widgets {
class NodeCanvas;
}

namespace ts::ui {

class ExperimentDocument;
class ModelDocument;
class ModelScene;
class ModelSummaryPanel;
struct ModelState;
class NodeProperties;
class OpPalette;
class OpPopup;

class ModelPage : public QWidget {
    Q_OBJECT
public:
    explicit ModelPage(ExperimentDocument* document, QWidget* parent = nullptr);
    ~ModelPage() override;

    // The page's actions, also reached from its toolbar, menus and shortcuts.
    QString addOp(const QString& op, QPointF scenePos);  // the new node's name
    bool connectNodes(const QString& from, const QString& to, int port);  // false: refused (the reason in the status line)
    // The palette's Transformer block (graph/transformer_block.h) fed by `from` (a node or a
    // model input; empty: unwired at `scenePos`), as one undoable step: its width is `from`'s,
    // its heads 4 or the largest count below that divides the width, causal when the model
    // already has causal attention. Returns the block's name; empty when refused (the reason
    // in the status line: `from` gives no sequence of vectors).
    QString addTransformerBlock(QPointF scenePos, const QString& from);
    // A new experiment (untitled, the same data and settings) with a template's model: a
    // template name, or "experiment:<file>" for a shipped model. The window opens it (newExperimentRequested).
    void newFromTemplate(const QString& name);
    void autoLayout();  // the selection (two or more nodes) or the whole graph; one undoable step
    void groupSelection();
    void copySelection();
    void cutSelection();
    void paste();
    void duplicateSelection();
    void deleteSelection();
    bool exportImage(const QString& path);  // .png or .svg
    // The loss that fits the output and the labels (graph/training_check.h: CrossEntropy for
    // class scores against class indices, MSE for regression), added below the output and
    // wired, as one undoable step: the fix offered when the model has no loss. Empty when
    // there is none to add (the model has a loss, or neither fits).
    QString addFittingLoss();
    QString fittingLossOp() const;  // what addFittingLoss would add ("CrossEntropy"); empty: nothing

    ModelDocument* document() const { return m_doc; }
    widgets::NodeCanvas* canvas() const { return m_canvas; }
    OpPalette* palette() const { return m_palette; }
    NodeProperties* properties() const { return m_properties; }
    ModelSummaryPanel* summary() const { return m_summary; }
    QListWidget* problems() const { return m_problems; }
    QAction* trainAction() const { return m_train; }
    QString statusText() const;

protected:
    void showEvent(QShowEvent* event) override;

signals:
    void newExperimentRequested(const ExperimentSpec& spec);  // New: the window asks about unsaved changes, then opens it
    void trainRequested();  // "Train this model": the Train page trains the open experiment

private:
    void createActions(QToolBar* bar);
    void connectCanvas();
    void refresh();
    void showSelection();
    void showProblems();
    void openPopup(QPointF scenePos, const QString& fromNode, const QString& toNode, int toPort);
    void addFromPopup(const QString& op);
    void updateTitle();
    void showStart();  // the view on a model just opened
    void setStatus(const QString& text);
    QStringList selectedModelNodes() const;
    // The drawing with `block` open, what sits below it moved down where its members need the room.
    ModelState withBlockOpened(const QString& block) const;
    QString selectedSource() const;                 // the output of the one node (or block) selected; else empty
    QString sourceAt(QPointF scenePos) const;       // the output of the node (or block) drawn there; else empty
    ModelLayout arrangedLayout(const QStringList& only = {}) const;  // the layout autoLayout applies
    QPointF viewCentre() const;
    QPointF freeSpot(QPointF near) const;  // a new node's top-left: free space near `near` (its centre)
    QString problemText(const GraphError& problem) const;  // the engine's, or the page's own words for one it explains

    ModelDocument* m_doc;
    widgets::NodeCanvas* m_canvas;
    ModelScene* m_scene;
    OpPalette* m_palette;
    OpPopup* m_popup;
    NodeProperties* m_properties;
    ModelSummaryPanel* m_summary;
    QListWidget* m_problems;
    QPushButton* m_addLoss;  // the fix for a model without a loss, shown beside the problems
    QLabel *m_title, *m_status;
    QAction *m_train = nullptr, *m_group = nullptr, *m_ungroup = nullptr, *m_collapse = nullptr;
    QMenu* m_templates = nullptr;
    // Where the op popup puts its pick: the scene position and the wire being completed.
    QPointF m_popupPos;
    QString m_popupFrom, m_popupTo;
    int m_popupPort = -1;
    int m_pasteCount = 0;
    bool m_startPending = false;  // opened while hidden: showStart when shown
    bool m_sized = false;         // the right column's split is set once, when first shown
    QSplitter* m_right = nullptr;
    QSplitter* m_split = nullptr;  // palette | canvas | inspector
};

}  // namespace ts::ui
