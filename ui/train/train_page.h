// The Train page: choose an experiment and a device, adjust the few settings people change
// most (epochs, batch size, learning rate, optimizer, schedule), then start, pause, resume and
// stop a run while the charts, a status line and the log follow it. All training goes through
// a TrainingSession (rule 4); the page only sends commands and draws what comes back.
#pragma once

#include <QPointer>
#include <QWidget>

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
class QTimer;

namespace ts::widgets {
class LogView;
}

namespace ts::ui {

class DiagnosticCards;
class DistributedLaunch;
class TrainCharts;

class TrainPage : public QWidget {
    Q_OBJECT
public:
    // `session` is not owned (the main window owns it); it must outlive the page's runs.
    explicit TrainPage(TrainingSession* session, QWidget* parent = nullptr);
    ~TrainPage() override;

    // Where runs are recorded; empty (the default) means studioWorkspace(), the Runs page's.
    void setWorkspaceDirectory(const QString& directory) { m_workspace = directory; }
    QString workspaceDirectory() const;

    // Adds an experiment file to the chooser (once) and selects it. False, with the reason in
    // the log, when it cannot be loaded.
    bool openExperiment(const QString& path);
    // The chosen experiment with the settings editor applied: what Start would run.
    std::optional<ts::ExperimentSpec> experimentForRun() const;
    // The experiment as edited elsewhere (the Hyperparameters page): becomes the chosen
    // experiment's settings, fields included. Ignored while no experiment is loaded.
    void setExperiment(const ts::ExperimentSpec& spec);

    // Train (Ctrl+R), Pause/Resume (Ctrl+P), Stop (Ctrl+. / Shift+F5), Queue (Ctrl+Shift+R): for a menu.
    QList<QAction*> trainActions() const;
    TrainingSession* session() const { return m_session; }
    TrainCharts* charts() const { return m_charts; }
    DiagnosticCards* diagnosticCards() const { return m_cards; }

    // Experiment files opened before, newest first (QSettings), that still exist.
    static QStringList recentExperiments();

public slots:
    // File > Open Experiment: a window-modal file dialog; the chosen file is opened.
    void showOpenDialog();
    void startTraining();
    // Adds the experiment, as edited now, to the session's job queue (trains at once when idle).
    void queueTraining();
    // Continues a stopped or crashed run of the workspace from its last checkpoint (the Runs
    // page asks for it; queued behind a job in progress); the charts start where it left off.
    void resumeRun(qint64 runId);
    void togglePause();
    void stopTraining();

signals:
    // The chosen experiment with the fields applied (experimentForRun), after it was loaded
    // and after every edit of a field.
    void experimentChanged(const ts::ExperimentSpec& spec);
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
    void loadIntoEditor(const ts::ExperimentSpec& spec);
    // train_page_settings.cpp: Open Recent and the fields as edited, across sessions.
    static void rememberRecent(const QString& file);
    static QString rememberedExperiment();
    void saveEdits() const;
    void announceExperiment();
    void restoreEdits();
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
    QString m_workspace;
    std::optional<ts::ExperimentSpec> m_spec;  // the chosen experiment as loaded
    int m_lastExperimentIndex = -1;            // to go back when "Open…" is cancelled
    bool m_filling = false;  // loadIntoEditor: one experimentChanged at the end, not one per field
    bool m_restoring = false;                  // filling the fields: not an edit to remember

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

    // Status line state.
    RunStartInfo m_run;
    qint64 m_step = 0, m_epoch = 0;
    double m_memoryBytes = -1;
    double m_clipThreshold = 0;  // the run's gradient clip, drawn on the norm chart
    QString m_lastOutcome;
};

}  // namespace ts::ui
