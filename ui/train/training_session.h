// The bridge between the studio and the engine's jobs (engine/jobs, ARCHITECTURE.md rule 4):
// the studio's job queue. Commands flow in (queue a job, pause, resume, stop, cancel), events
// flow out as coalesced Qt signals. The UI never touches engine state; it sees plain structs,
// copied.
//
// One trainer thread lives as long as the session and runs the queued jobs one after another
// (CUDA keeps per-thread resources; a thread per run leaks them). Each job has its own
// RunControl. The job's listener copies each event into a mutex-protected buffer and pings the
// UI thread with a payload-free queued call; the UI side drains the buffer at most every
// 100 ms, so 10,000 steps a second still cost ~10 signals. Ten a second is live to the eye, and
// everything a drain sets off (charts, status line, Jobs panel) takes its CPU from the
// trainer's cores: draining 30 times a second, the UI thread took 7-11% of a core during an
// epoch of the shipped CNN under Xvfb, 10 times about 4% (tests/ui/bench_studio_epoch).
// The signals below describe the current job (the one running); jobs() lists them all.
#pragma once

#include <QHash>
#include <QMap>
#include <QMetaType>
#include <QObject>
#include <QString>
#include <QTimer>
#include <QVector>

#include <memory>

#include "jobs/job.h"
#include "jobs/job_progress.h"
#include "types/experiment_spec.h"
#include "types/run_records.h"

namespace ts {
class RunControl;
}

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

// The current job's plan once it is set up (the engine's StartedEvent): where it runs and how
// long it will take. Steps are optimizer steps, counted from the run's start (a resumed run
// starts at firstStep).
struct RunStartInfo {
    qint64 runId = -1;         // -1: not recorded (no workspace)
    QString device;            // the backend's name ("cpu", "cuda:0")
    QString dataset;           // the training split's description
    qint64 totalSteps = 0, stepsPerEpoch = 0, epochs = 0, firstStep = 0;
    double plannedBytes = -1;  // the planned memory in all
};

// One job of the queue, as the Jobs panel lists it.
struct JobRow {
    enum class State { Queued, Running, Paused, Stopping, Finished, Stopped, Failed, Cancelled };
    qint64 id = 0;
    QString kind;   // train | resume | fork | evaluate | lr_find
    QString title;  // the experiment's name, "run 12", ...
    State state = State::Queued;
    double progress = 0;    // 0..1
    double etaSeconds = -1; // -1: not known
    qint64 runId = -1;
    QString message;        // how it ended
    QString what;           // what a non-training job is doing now ("reading train"); empty: nothing said
    QMap<QString, double> metrics;  // the FinishedEvent's (a job's result: test_acc, a step probe's peak_bytes, ...)
    bool isDone() const { return state >= State::Finished; }
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
    // Cancels queued jobs, stops the running one and joins the trainer thread (the current
    // step finishes first).
    ~TrainingSession() override;

    // Queues a training job: on its turn the trainer thread selects the backend for `device`
    // ("auto", "cpu", "cuda:N"), loads the dataset, records the run in the workspace's store
    // (empty `workspaceDir`: not recorded) and trains. Returns the job's id (> 0). Every
    // failure from here on arrives as finished(Failed, message).
    qint64 start(const ts::ExperimentSpec& spec, const QString& device, const QString& workspaceDir);
    // The same for a stopped or crashed run of the workspace: a new run, linked to it, continues
    // from its last checkpoint with the experiment as it was (exact resume). 0 without a run.
    qint64 resumeRun(qint64 runId, const QString& device, const QString& workspaceDir);
    // Any engine job (evaluate, lr_find, fork, ...), titled `title` in the list.
    qint64 enqueue(const ts::Job& job, const QString& title, const QString& workspaceDir);
    // The current job.
    void pause();
    void resume();
    void stop();
    // A queued job is dropped; the running one is stopped (with a final checkpoint).
    void cancel(qint64 jobId);
    // Every queued job, then the running one.
    void stopAll();

    State state() const { return m_state; }
    bool isActive() const { return m_state != State::Idle; }
    const RunStartInfo& currentRun() const { return m_run; }
    qint64 currentJob() const { return m_currentJob; }
    // The current job's progress and ETA (engine/jobs/job_progress.h): the one rule for the
    // Train page's status line and the Jobs panel.
    const ts::JobProgress& progress() const { return m_progress; }
    const QVector<JobRow>& jobs() const { return m_jobs; }
    int queuedCount() const;

    // The drain period: the most often signals are emitted while events arrive.
    static constexpr int kDrainIntervalMs = 100;

signals:
    void stateChanged(ts::ui::TrainingSession::State state);
    void runStarted(const ts::ui::RunStartInfo& info);
    void stepsArrived(const QVector<ts::ui::StepPoint>& steps);  // in step order, coalesced
    void epochFinished(const ts::ui::EpochSummary& epoch);
    void logLine(ts::ui::TrainingSession::LogLevel level, const QString& message);
    // A training diagnostic (train/diagnostics.h), also a logLine: the current run's (-1: not recorded).
    void diagnosticRaised(const ts::Message& message, qint64 runId);
    // A language model's text after an epoch (train.text_sample), also a logLine.
    void textSampled(const ts::Message& message);
    void checkpointSaved(const QString& path, qint64 step, qint64 epoch, bool best);
    void systemSample(const ts::SystemSample& sample, qint64 step);  // about once a second
    // Last signal of a run, after the store has committed it.
    void finished(ts::ui::TrainingSession::Outcome outcome, const QString& message);
    // The job list changed: a job was queued, began, progressed, ended or was cancelled.
    void jobsChanged();

private:
    struct Shared;
    class Listener;

    void onDataReady();  // UI thread: arms the drain timer unless one is pending
    void drain();        // UI thread: emits what the trainer thread buffered
    void setState(State state);

    JobRow* findJob(qint64 id);
    void beginJob(qint64 id);

    std::shared_ptr<Shared> m_shared;  // the buffer, the job queue and the current job's control
    QTimer m_drainTimer;
    State m_state = State::Idle;
    RunStartInfo m_run;
    qint64 m_currentJob = 0, m_nextJobId = 1;
    QVector<JobRow> m_jobs;       // every job of the session, oldest first
    ts::JobProgress m_progress;   // the current job's
    QHash<qint64, std::shared_ptr<ts::RunControl>> m_controls;  // every unfinished job's
};

}  // namespace ts::ui

Q_DECLARE_METATYPE(ts::ui::StepPoint)
Q_DECLARE_METATYPE(ts::ui::EpochSummary)
Q_DECLARE_METATYPE(ts::ui::RunStartInfo)
Q_DECLARE_METATYPE(ts::ui::JobRow)
Q_DECLARE_METATYPE(ts::SystemSample)
