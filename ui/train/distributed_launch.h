// A run on N local processes (data parallel, engine/dist): the studio starts
//   mpirun -np N trainstudio-cli train EXPERIMENT.yaml --workspace WS --device D --json
// as a child process, so the training is the CLI's, exactly as a user or a cluster would
// launch it. Rank 0 records the run in the studio's workspace, where the Jobs panel and the
// Runs page follow it like any other process's run (each rank's throughput included). This
// object only starts, stops (SIGTERM: every rank stops at the same step with a checkpoint) and
// reports what rank 0's JSON lines say: the run's id and how it ended.
#pragma once
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

#include "types/experiment_spec.h"

namespace ts::ui {

class DistributedLaunch : public QObject {
    Q_OBJECT
public:
    explicit DistributedLaunch(QObject* parent = nullptr);
    ~DistributedLaunch() override;  // stops a running launch and waits for it

    // mpirun on the PATH, and the CLI (TRAINSTUDIO_CLI, else beside the studio, installed or in
    // the build tree, else on the PATH); empty when missing.
    static QString mpirun();
    static QString cli();
    // Why a launch cannot start here (translated), or empty.
    static QString unavailableReason();

    // The mpirun arguments for `processes` ranks of `experimentFile`: each rank gets an equal
    // share of the cores unless the experiment fixes its threads.
    static QStringList arguments(const QString& experimentFile, int processes, int threadsPerProcess,
                                 const QString& device, const QString& workspaceDir);

    // Writes the experiment beside the workspace's runs (launches/NAME-TIME.yaml, kept with the
    // run's record) and starts the processes. False with `error` set when it cannot start.
    bool start(const ts::ExperimentSpec& spec, int processes, const QString& device, const QString& workspaceDir,
               QString* error);
    void stop();  // SIGTERM to mpirun, which passes it to every rank
    bool isRunning() const { return m_process.state() != QProcess::NotRunning; }
    qint64 runId() const { return m_runId; }
    int processes() const { return m_processes; }

signals:
    void runRecorded(qint64 runId);
    // The launch ended: `ok` when the run finished or was stopped cleanly; `details` is what the
    // processes said on failure (their last lines).
    void ended(bool ok, const QString& outcome, const QString& details);

private:
    void readOutput();
    void onFinished(int exitCode, QProcess::ExitStatus status);

    QProcess m_process;
    QByteArray m_pending;      // a partial stdout line
    QStringList m_errorLines;  // the last lines of stderr
    qint64 m_runId = -1;
    int m_processes = 0;
    QString m_outcome;  // rank 0's "done" event: finished, stopped, early_stopped, failed
};

}  // namespace ts::ui
