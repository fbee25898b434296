// The Model page's view of the open experiment (ExperimentDocument): its graph and layout as
// one ModelState, and the engine's diagnosis of the graph, re-run when the model or the batch
// size changes. Edits go to the experiment's one undo history; this keeps no copy of its own.
#pragma once
#include <QObject>
#include <QString>

#include <optional>
#include <vector>

#include "graph/graph_diagnosis.h"
#include "io/yaml/experiment_yaml.h"
#include "graph_edits.h"

class QUndoStack;

namespace ts::ui {

class ExperimentDocument;

class ModelDocument : public QObject {
    Q_OBJECT
public:
    explicit ModelDocument(ExperimentDocument* experiment, QObject* parent = nullptr);

    ExperimentDocument* experimentDocument() const { return m_experiment; }
    const ModelState& state() const { return m_state; }
    ExperimentSpec experiment() const;  // the open experiment with the drawn model and layout
    const GraphDiagnosis& diagnosis() const { return m_diagnosis; }
    const std::vector<ExperimentIssue>& fileIssues() const;
    QUndoStack* undoStack() const;
    QString path() const;
    bool hasExperiment() const;
    bool isModified() const;

    // Positions for a file that has none, chosen by the page when it opens: shown, not an
    // edit. While no node has moved (or been added), the experiment keeps no layout.
    void setImpliedLayout(const ModelLayout& layout);

    // One undoable step of the experiment. Steps with the same non-zero mergeKey in a row merge
    // (typing into one attribute is one step).
    void apply(const ModelState& next, const QString& what, int mergeKey = 0);
    // The last diagnosis' time in milliseconds (the page's benchmark prints it).
    double lastCheckMs() const { return m_checkMs; }

signals:
    void changed();  // the drawing or its diagnosis changed
    void opened();   // another experiment was opened (selection and view start over)
    void modifiedChanged(bool modified);

private:
    bool follow();  // the experiment changed: the drawing and, when needed, the diagnosis; false: neither did
    void diagnose();

    ExperimentDocument* m_experiment;
    ModelState m_state;
    std::optional<ModelLayout> m_implied;  // what setImpliedLayout chose, while no node has moved
    GraphDiagnosis m_diagnosis;
    std::int64_t m_diagnosedBatch = -1;
    double m_checkMs = 0;
};

}  // namespace ts::ui
