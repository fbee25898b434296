// The Jobs panel (a dock of the main window): every job of the studio's queue and the runs
// other processes train in the workspace, with progress and ETA; Cancel (Del) drops a queued
// job or stops the running one with a final checkpoint.
#pragma once
#include <QWidget>

class QPushButton;
class QTableView;

namespace ts::ui {

class JobsModel;
class TrainingSession;

class JobsPanel : public QWidget {
    Q_OBJECT
public:
    JobsPanel(TrainingSession* session, const QString& workspaceDir, QWidget* parent = nullptr);
    JobsModel* model() const { return m_model; }
    // "2 jobs: 1 running, 1 queued" for the status bar; empty when nothing waits or runs.
    QString summary() const;

signals:
    void summaryChanged(const QString& summary);

private:
    void cancelSelected();
    void updateButtons();

    TrainingSession* m_session;
    JobsModel* m_model;
    QTableView* m_view;
    QPushButton* m_cancel;
};

}  // namespace ts::ui
