// The bridge between the studio and the engine's Trainer (ARCHITECTURE.md, rule 4): commands
// flow in (start, pause, resume, stop), events flow out as coalesced Qt signals. The UI never
// touches engine state; it sees plain structs, copied.
//
// One trainer thread lives as long as the session and runs run after run (CUDA keeps
// per-thread resources; a thread per run leaks them). Its listener copies each event into a
// mutex-protected buffer and pings the UI thread with a payload-free queued call; the UI side
// drains the buffer at most every ~33 ms, so 10,000 steps a second still cost ~30 signals.
#pragma once

#include <QMap>
#include <QMetaType>
#include <QObject>
#include <QString>
#include <QTimer>
#include <QVector>

#include <memory>

#include "io/experiment_spec.h"
#include "store/store_types.h"

namespace ts::ui {

// One optimizer step, as the charts need it (StepEvent without the per-layer norms).
struct StepPoint {
    qint64 step = 0, epoch = 0;
    double loss = 0, lr = 0, gradNorm = 0;
    double samplesPerSecond = 0, dataWaitSeconds = 0, wallTime = 0;
};

struct EpochSummary {
    qint64 epoch = 0, step = 0;
    QMap<QString, double> metrics;  // train_loss, train_acc, val_loss, val_acc, ...
    double seconds = 0, dataWaitFraction = 0;
};

// What start() learnt once the run is set up: where it runs and how long it will take.
struct RunStartInfo {
    qint64 runId = -1;         // -1: not recorded (no workspace)
    QString device;            // the backend's name ("cpu", "cuda:0")
    QString dataset;           // the training split's description
    qint64 totalSteps = 0, stepsPerEpoch = 0, epochs = 0;
};

class TrainingSession : public QObject {
    Q_OBJECT
public:
    enum class State { Idle, Starting, Running, Paused, Stopping };
    Q_ENUM(State)
    enum class Outcome { Finished, Stopped, EarlyStopped, Failed };
    Q_ENUM(Outcome)
    enum class LogLevel { Info, Warning, Error };
    Q_ENUM(LogLevel)

    explicit TrainingSession(QObject* parent = nullptr);
    // Stops a run in progress and joins the trainer thread (the current step finishes first).
    ~TrainingSession() override;

    // Queues a run on the trainer thread: selects the backend for `device` ("auto", "cpu",
    // "cuda:N"), loads the dataset, records the run in the workspace's store (empty
    // `workspaceDir`: not recorded) and trains. Returns false, doing nothing, unless Idle.
    // Every failure from here on arrives as finished(Failed, message).
    bool start(const ts::ExperimentSpec& spec, const QString& device, const QString& workspaceDir);
    // The same for a stopped or crashed run of the workspace: a new run, linked to it, continues
    // from its last checkpoint with the experiment as it was (exact resume).
    bool resumeRun(qint64 runId, const QString& device, const QString& workspaceDir);
    void pause();
    void resume();
    void stop();

    State state() const { return m_state; }
    bool isActive() const { return m_state != State::Idle; }
    const RunStartInfo& currentRun() const { return m_run; }

    // The drain period: the most often signals are emitted while events arrive.
    static constexpr int kDrainIntervalMs = 33;

signals:
    void stateChanged(ts::ui::TrainingSession::State state);
    void runStarted(const ts::ui::RunStartInfo& info);
    void stepsArrived(const QVector<ts::ui::StepPoint>& steps);  // in step order, coalesced
    void epochFinished(const ts::ui::EpochSummary& epoch);
    void logLine(ts::ui::TrainingSession::LogLevel level, const QString& message);
    void checkpointSaved(const QString& path, qint64 step, qint64 epoch, bool best);
    void systemSample(const ts::SystemSample& sample, qint64 step);  // about once a second
    // Last signal of a run, after the store has committed it.
    void finished(ts::ui::TrainingSession::Outcome outcome, const QString& message);

private:
    bool enqueue(const ts::ExperimentSpec& spec, const QString& device, const QString& workspaceDir, qint64 resumeRun);

    struct Shared;
    class Listener;

    void onDataReady();  // UI thread: arms the drain timer unless one is pending
    void drain();        // UI thread: emits what the trainer thread buffered
    void setState(State state);

    std::shared_ptr<Shared> m_shared;  // the buffer, control hand-off and job queue
    QTimer m_drainTimer;
    State m_state = State::Idle;
    RunStartInfo m_run;
};

}  // namespace ts::ui

Q_DECLARE_METATYPE(ts::ui::StepPoint)
Q_DECLARE_METATYPE(ts::ui::EpochSummary)
Q_DECLARE_METATYPE(ts::ui::RunStartInfo)
Q_DECLARE_METATYPE(ts::SystemSample)
