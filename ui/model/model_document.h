// The model the Model page draws: the experiment it belongs to, its graph and layout, the
// undo stack of its edits and the engine's diagnosis of the current graph (re-run after every
// change). Saving writes the file losslessly (io/experiment_text.h): only the model and the
// layout are the page's; the rest of the file is taken from the disk as it is then.
#pragma once
#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

#include "graph/graph_diagnosis.h"
#include "io/yaml/experiment_yaml.h"
#include "graph_edits.h"

class QUndoStack;

namespace ts::ui {

class ModelDocument : public QObject {
    Q_OBJECT
public:
    explicit ModelDocument(QObject* parent = nullptr);
    ~ModelDocument() override;

    // Starts over with `spec` (its file, when it names one, is what Save writes); clears the undo history.
    void open(const ExperimentSpec& spec);
    // Opens a file leniently: a model that does not check is still drawn. False (and the
    // reason, with its line:column) only when there is no model to draw.
    bool openFile(const QString& path, QString* error);
    // The same experiment edited elsewhere (the Train or Hyperparameters page): takes its
    // dataset and training settings; keeps the drawing and its history.
    void adoptSettings(const ExperimentSpec& spec);

    const ModelState& state() const { return m_state; }
    ExperimentSpec experiment() const;  // the settings with the drawn model and layout
    const GraphDiagnosis& diagnosis() const { return m_diagnosis; }
    // Problems the reader found outside the model (a bad option elsewhere in the file).
    const std::vector<ExperimentIssue>& fileIssues() const { return m_fileIssues; }
    QUndoStack* undoStack() const { return m_undo.get(); }
    QString path() const { return m_path; }
    bool hasExperiment() const { return m_hasExperiment; }
    bool isModified() const;

    // Positions for a file that has none, chosen by the page when it opens: shown, not an
    // edit. While no node has moved (or been added), saving leaves the file without a layout.
    void setImpliedLayout(const ModelLayout& layout);

    // Pushes one undoable step. Steps with the same non-zero mergeKey in a row merge (typing
    // into one attribute is one step).
    void apply(const ModelState& next, const QString& what, int mergeKey = 0);
    // Writes to `path` (the file it came from when empty); false with the reason otherwise.
    bool save(const QString& path, QString* error);
    // The last diagnosis' time in milliseconds (the page's benchmark prints it).
    double lastCheckMs() const { return m_checkMs; }

signals:
    void changed();          // the drawing or its diagnosis changed
    void opened();           // another model was opened (selection and view start over)
    void modifiedChanged(bool modified);

private:
    friend class ModelEdit;
    void open(const ExperimentSpec& spec, std::vector<ExperimentIssue> fileIssues);
    void set(const ModelState& state);
    void diagnose();

    ExperimentSpec m_base;
    ModelState m_state;
    GraphDiagnosis m_diagnosis;
    std::vector<ExperimentIssue> m_fileIssues;
    std::unique_ptr<QUndoStack> m_undo;
    std::optional<ModelLayout> m_implied;  // what setImpliedLayout chose
    ModelLayout m_openedLayout;
    QString m_path;
    bool m_hasExperiment = false;
    double m_checkMs = 0;
};

}  // namespace ts::ui
