// The Hyperparameters page: every option of the experiment (OptionEditor, generated from the
// engine's one description of the options), the learning rate of every step as configured
// (SchedulePreviewChart), the learning-rate range test (LrFinderPanel) and the sweep
// (SweepPanel), side by side.
// It edits the open experiment (ExperimentDocument), as every page does: each edit is one step
// of the experiment's undo history (Ctrl+Z from any page); saving is the File menu's (Ctrl+S).
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

class ExperimentDocument;
class LrFinderPanel;
class OptionEditor;
class SchedulePreviewChart;
class SweepPanel;
class TrainingSession;

class HyperparametersPage : public QWidget {
    Q_OBJECT
public:
    HyperparametersPage(TrainingSession* session, ExperimentDocument* document, const QString& workspaceDir,
                        QWidget* parent = nullptr);

    OptionEditor* editor() const { return m_editor; }
    SchedulePreviewChart* preview() const { return m_preview; }
    LrFinderPanel* finder() const { return m_finder; }
    SweepPanel* sweep() const { return m_sweep; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void showDocument();
    void applyLearningRate(double lr, bool asOneCycle);
    void updateTitle();

    ExperimentDocument* m_doc;
    QSplitter* m_split = nullptr;
    QScrollArea* m_editorScroll = nullptr;
    bool m_sized = false;
    QLabel* m_title;
    QLabel* m_message;
    OptionEditor* m_editor;
    SchedulePreviewChart* m_preview;
    LrFinderPanel* m_finder;
    SweepPanel* m_sweep;
};

}  // namespace ts::ui
