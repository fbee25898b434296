// The job list: the studio's own jobs (TrainingSession::jobs(): queued, running, finished)
// and the runs that other processes are training in the same workspace (a CLI run shows
// here live), polled from the store every two seconds while it changes.
#pragma once
#include <QAbstractTableModel>
#include <QTimer>
#include <QVector>

#include <memory>

#include "training_session.h"

namespace ts {
class RunReader;
}

namespace ts::ui {

class JobsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Job, State, Progress, Eta, Run, Message, ColumnCount };
    // Qt::UserRole on Progress: the fraction done (ProgressDelegate); on Job: the job id
    // (0 for another process's run, which the studio cannot cancel).
    JobsModel(TrainingSession* session, QString workspaceDir, QObject* parent = nullptr);
    ~JobsModel() override;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    const JobRow* rowAt(int row) const;
    int activeCount() const;  // queued, running (here or elsewhere)
    static QString stateText(JobRow::State state);

    // Reads the store for runs of other processes now (the timer does it every 2 s).
    void pollStore();

signals:
    void countsChanged();

private:
    void rebuild();

    TrainingSession* m_session;
    QString m_workspace;
    QVector<JobRow> m_external;  // running runs of other processes
    QVector<JobRow> m_rows;      // what the view shows: ours, newest first, then the external ones
    std::unique_ptr<ts::RunReader> m_reader;  // one connection: data_version compares within it
    qint64 m_dataVersion = -1;
    QTimer m_poll;
};

}  // namespace ts::ui
