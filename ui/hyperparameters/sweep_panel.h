// The experiment's sweep on the Hyperparameters page: its `sweep:` section as YAML, checked as
// it is typed by the same reader as the file (so a problem is named at its line and column
// of this text), the plan it makes (trials, rungs), and Run Sweep, which queues it on the
// studio's job queue as one sweep job whose trials are runs of the workspace, tagged with the
// sweep (the Runs page's filter and "Select Runs Sharing a Tag" find them).
#pragma once

#include <QTimer>
#include <QWidget>

#include <optional>

#include "types/experiment_spec.h"

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace ts::ui {

class TrainingSession;

class SweepPanel : public QWidget {
    Q_OBJECT
public:
    SweepPanel(TrainingSession* session, const QString& workspaceDir, QWidget* parent = nullptr);

    void setExperiment(const ts::ExperimentSpec& spec);
    QPlainTextEdit* editor() const { return m_text; }
    // The text checked now (tests): the experiment with this sweep, or the problems.
    void checkNow();
    const std::optional<ts::ExperimentSpec>& checked() const { return m_checked; }
    QString problems() const;
    qint64 lastJob() const { return m_lastJob; }

public slots:
    void runSweep();

signals:
    // The sweep as typed, once it reads without a problem: the page makes it the experiment's.
    void sweepEdited(const ts::ExperimentSpec& spec);

private:
    QString sweepText(const ts::ExperimentSpec& spec) const;

    TrainingSession* m_session;
    QString m_workspace;
    std::optional<ts::ExperimentSpec> m_spec, m_checked;
    QTimer m_checkTimer;
    QPlainTextEdit* m_text;
    QLabel* m_plan;
    QLabel* m_problems;
    QPushButton* m_example;
    QPushButton* m_run;
    qint64 m_lastJob = 0;
};

}  // namespace ts::ui
