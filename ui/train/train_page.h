// The Train page: choose an experiment and a device, adjust the few settings people change
// most (epochs, batch size, learning rate, optimizer, schedule), then start, pause, resume and
// stop a run while the charts, a status line and the log follow it. All training goes through
// a TrainingSession (rule 4); the page only sends commands and draws what comes back. It shows
// the runs it started (or resumed), never another kind of job (a finder, an evaluation): those
// show their progress in the Jobs dock and their result on their own page.
// The fields edit the open experiment (ExperimentDocument): each change is one undoable step.
#pragma once

#include <QPointer>
#include <QWidget>

#include <QSet>

#include <functional>
#include <memory>
#include <optional>

#include "types/experiment_spec.h"
#include "ui/pages.h"
#include "run_follower.h"
#include "training_session.h"

class QAction;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPlainTextEdit;
class QSpinBox;
class QSplitter;
class QTimer;

namespace ts::widgets {
class LogView;
}

namespace ts::ui {

class DiagnosticCards;
class DistributedLaunch;
class ExperimentDocument;
class TrainCharts;
class TextSamplesBox;

class TrainPage : public QWidget {
    Q_OBJECT
public:
    // Neither is owned (the main window owns them); the session must outlive the page's runs.
    TrainPage(TrainingSession* session, ExperimentDocument* document, QWidget* parent = nullptr);
    ~TrainPage() override;

    // Where runs are recorded; empty (the default) means studioWorkspace(), the Runs page's.
    void setWorkspaceDirectory(const QString& directory) { m_workspace = directory; }
    QString workspaceDirectory() const;

    // The open experiment: what Start would run; none while no experiment is open.
    std::optional<ts::ExperimentSpec> experimentForRun() const;
    // The job the page follows (its charts and status line); 0: none yet.
    qint64 followedJob() const { return m_followedJob; }

    // Train (Ctrl+R), Pause/Resume (Ctrl+P), Stop (Ctrl+. / Shift+F5), Queue (Ctrl+Shift+R): for a menu.
    QList<QAction*> trainActions() const;
    TrainingSession* session() const { return m_session; }
    TrainCharts* charts() const { return m_charts; }
    DiagnosticCards* diagnosticCards() const { return m_cards; }
    TextSamplesBox* textSamples() const { return m_samples; }

public slots:
    void startTraining();
    // Adds the experiment, as edited now, to the session's job queue (trains at once when idle).
    void queueTraining();
    // Continues a stopped or crashed run of the workspace from its last checkpoint (the Runs
    // page asks for it; queued behind a job in progress); the charts start where it left off.
    void resumeRun(qint64 runId);
    void togglePause();
    void stopTraining();

signals:
    // The chooser picked another file, or "Open…" (an empty path): the window asks about
    // unsaved changes and opens it; the chooser follows the document either way.
    void openRequested(const QString& path);
    // A diagnostic card's action opens another page (the main window shows it).
    void pageRequested(ts::ui::Page page);

private:
    void resetRunView(double clipThreshold);
    QWidget* createControls();
    void createActions();
    void populateExperiments();
    // Each experiment named by its file; a name that two files share gets its folder
    // ("fashion_mnist_cnn — experiments/"), and every item its full path as tool tip.
    void labelExperiments();
    void populateDevices();
    void onExperimentChosen(int index);
    void showDocument();  // the fields and the chooser from the open experiment
    void selectDocumentInChooser();
    // One field's change as one undoable step of the experiment (nothing when it equals it).
    void editField(const QString& what, int field, const std::function<void(ts::ExperimentSpec&)>& change);
    bool follows();  // whether the session's current job is one of this page's runs
    void own(qint64 job);  // a run this page started or resumed: followed once it begins
    void updateMemoryEstimate();
    void updateActions();
    void updateStatus();
    void appendLog(const QString& text, bool error = false);

    void onRunStarted(const RunStartInfo& info);
    void onSteps(const QVector<StepPoint>& steps);
    void onEpoch(const EpochSummary& epoch);
    void onLog(TrainingSession::LogLevel level, const QString& message);
    void onFinished(TrainingSession::Outcome outcome, const QString& message);
    // train_page_launch.cpp: a run on several local processes (mpirun), followed in the store.
    QWidget* createProcessesField();
    void startDistributed(const ts::ExperimentSpec& spec);
    void onLaunchEnded(bool ok, const QString& outcome, const QString& details);
    void followLaunchedRun();  // the launched run's new points, from the store
    bool launchRunning() const;
    // train_page_diagnostics.cpp: what a diagnostic card's button does.
    void onDiagnosticAction(const QString& rule, const QString& action, qint64 runId);

    QPointer<TrainingSession> m_session;
    ExperimentDocument* m_doc;
    QString m_workspace;
    QSet<qint64> m_ownJobs;    // the runs this page started or resumed
    qint64 m_followedJob = 0;  // the one the charts show

    QComboBox* m_experiment = nullptr;
    QComboBox* m_device = nullptr;
    QSpinBox* m_threads = nullptr;  // training.threads; 0: automatic
    QSpinBox* m_processes = nullptr;  // local processes (ranks); 1: this one, in the session
    DistributedLaunch* m_launch = nullptr;
    std::unique_ptr<RunFollower> m_follower;  // the launched run, while it trains
    QTimer* m_followTimer = nullptr;
    QSpinBox* m_epochs = nullptr;
    QSpinBox* m_batchSize = nullptr;
    QDoubleSpinBox* m_lr = nullptr;
    QComboBox* m_optimizer = nullptr;
    QComboBox* m_schedule = nullptr;
    QComboBox* m_precision = nullptr;
    QLabel* m_memory = nullptr;  // the run's planned memory, before it starts
    QList<QWidget*> m_editors;  // edit what the next queued job trains; the running one has its copy

    QAction* m_queueAction = nullptr;
    QAction* m_trainAction = nullptr;
    QAction* m_pauseAction = nullptr;
    QAction* m_stopAction = nullptr;

    QLabel* m_status = nullptr;
    widgets::LogView* m_log = nullptr;
    TrainCharts* m_charts = nullptr;
    DiagnosticCards* m_cards = nullptr;
    TextSamplesBox* m_samples = nullptr;  // a language model's text after each epoch, beside the log
    QSplitter* m_splitter = nullptr;      // the charts above, the status, cards, log and samples below

    // Status line state.
    RunStartInfo m_run;
    qint64 m_step = 0, m_epoch = 0;
    double m_memoryBytes = -1;
    double m_clipThreshold = 0;  // the run's gradient clip, drawn on the norm chart
    QString m_lastOutcome;
};

}  // namespace ts::ui
