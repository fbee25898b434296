// The Hyperparameters page: every option of the experiment (OptionEditor, generated from the
// engine's one description of the options), the learning rate of every step as configured
// (SchedulePreviewChart), the learning-rate range test (LrFinderPanel) and the sweep
// (SweepPanel), side by side.
// It edits the same experiment as the Train page: the window hands it the Train page's
// experiment and every edit back (experimentEdited), so Start trains what is shown here.
// Edits can be undone (Ctrl+Z) and saved to the experiment file (Ctrl+S).
#pragma once

#include <QWidget>

#include <optional>

#include "types/experiment_spec.h"

class QAction;
class QLabel;
class QScrollArea;
class QSplitter;
class QUndoStack;

namespace ts::ui {

class LrFinderPanel;
class OptionEditor;
class SchedulePreviewChart;
class SweepPanel;
class TrainingSession;

class HyperparametersPage : public QWidget {
    Q_OBJECT
public:
    HyperparametersPage(TrainingSession* session, const QString& workspaceDir, QWidget* parent = nullptr);

    // The experiment from elsewhere (the Train page): shown, with a fresh undo history.
    void setExperiment(const ts::ExperimentSpec& spec);
    const std::optional<ts::ExperimentSpec>& experiment() const { return m_spec; }
    bool isModified() const;  // differs from the file as last loaded or saved

    QUndoStack* undoStack() const { return m_undo; }
    OptionEditor* editor() const { return m_editor; }
    SchedulePreviewChart* preview() const { return m_preview; }
    LrFinderPanel* finder() const { return m_finder; }
    SweepPanel* sweep() const { return m_sweep; }

    // Writes the experiment to its file; false (with the reason shown) when it cannot.
    bool save();
    bool saveAs(const QString& file);

signals:
    void experimentEdited(const ts::ExperimentSpec& spec);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    friend class ExperimentEdit;
    // An edit made here: undoable, then shown everywhere and sent out. `fromEditor`: the
    // option editor made it and shows it already (refilling would move its focus).
    void edit(const ts::ExperimentSpec& spec, const QString& what, bool fromEditor = false);
    void show(const ts::ExperimentSpec& spec, bool fromEditor);
    void applyLearningRate(double lr, bool asOneCycle);
    void updateTitle();

    QUndoStack* m_undo;
    QSplitter* m_split = nullptr;
    QScrollArea* m_editorScroll = nullptr;
    bool m_sized = false;
    std::optional<ts::ExperimentSpec> m_spec, m_saved;
    QLabel* m_title;
    QLabel* m_message;
    OptionEditor* m_editor;
    SchedulePreviewChart* m_preview;
    LrFinderPanel* m_finder;
    SweepPanel* m_sweep;
};

}  // namespace ts::ui
