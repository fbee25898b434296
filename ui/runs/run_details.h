// The Runs page's panel for the selected run: its fields (status, result, times, device,
// seed, parent, message), settings, final metrics and lineage (RunOverview), and tabs with
// its charts from the store, its checkpoints, its log and its notes.
// It only reads, through the page's RunReader; saving notes is a request (saveNotesRequested)
// that the page carries out with its writer, so this panel never touches the database itself.
#pragma once

#include <QHash>
#include <QWidget>

#include "store/run_reader.h"

class QAction;
class QFormLayout;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSplitter;
class QTabWidget;
class QTreeWidget;

namespace ts::ui {

class RunCharts;
class RunOverview;
class EvaluationView;
class PredictionPanel;
class GeneratePanel;
class AttentionPanel;

class RunDetails : public QWidget {
    Q_OBJECT
public:
    explicit RunDetails(const ts::Workspace& workspace, QWidget* parent = nullptr);

    // Shows `runId`. Another run than the one shown starts afresh; the same run reads only
    // what is new (chart points, log lines) and keeps notes being edited. Throws StoreError.
    // `runs`: the workspace's run listing, for the lineage tree. The fields, log and
    // checkpoints are read here; the chart points on a worker thread (chartsLoaded()).
    void showRun(ts::RunReader& reader, qint64 runId, const std::vector<ts::RunListing>& runs);
    void clear();  // nothing selected

    qint64 runId() const { return m_runId; }
    int checkpointCount() const { return m_checkpointCount; }
    RunCharts* charts() const { return m_charts; }
    RunOverview* overview() const { return m_overview; }
    EvaluationView* evaluation() const { return m_evaluation; }
    PredictionPanel* prediction() const { return m_prediction; }
    GeneratePanel* generation() const { return m_generation; }
    AttentionPanel* attention() const { return m_attention; }
    QTabWidget* tabs() const { return m_tabs; }
    QPlainTextEdit* notesEditor() const { return m_notes; }
    QTreeWidget* checkpointList() const { return m_checkpoints; }
    QPlainTextEdit* logView() const { return m_log; }
    QSplitter* splitter() const { return m_splitter; }
    QString fieldText(const QString& field) const;  // "status", "started", "seed", ... (tests)

    bool notesModified() const;
    // The page stored the notes: they are now the saved text.
    void notesSaved(const QString& notes);

signals:
    void saveNotesRequested(qint64 runId, const QString& notes);
    void runActivated(qint64 runId);  // a run of the lineage tree was activated
    void chartsLoaded(qint64 runId);  // the run's chart points read by showRun() are drawn
    void readFailed(const QString& message);  // reading them failed

private:
    void showFields(const ts::RunInfo& run, const std::vector<ts::MetricSummary>& summaries);
    void showCheckpoints(const std::vector<ts::CheckpointRecord>& checkpoints);
    void appendLogs(const std::vector<ts::LogLine>& lines);
    void updateSaveButton();
    void addField(const QString& key, const QString& label);

    ts::Workspace m_workspace;
    qint64 m_runId = -1;
    QString m_savedNotes;  // what the store holds: the editor differs from it while edited
    std::size_t m_logCount = 0;
    int m_checkpointCount = 0;
    std::int64_t m_lastCheckpointId = -1;

    QLabel* m_title = nullptr;
    QHash<QString, QLabel*> m_fields;
    QFormLayout* m_form = nullptr;
    QPlainTextEdit* m_notes = nullptr;
    QPushButton* m_saveNotes = nullptr;
    QTabWidget* m_tabs = nullptr;
    RunCharts* m_charts = nullptr;
    RunOverview* m_overview = nullptr;
    EvaluationView* m_evaluation = nullptr;
    PredictionPanel* m_prediction = nullptr;
    GeneratePanel* m_generation = nullptr;  // in place of Predict for a language model
    AttentionPanel* m_attention = nullptr;
    QTreeWidget* m_checkpoints = nullptr;
    QPlainTextEdit* m_log = nullptr;
    QSplitter* m_splitter = nullptr;
};

}  // namespace ts::ui
