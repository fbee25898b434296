#include "jobs_model.h"

#include <QFileInfo>

#include <algorithm>
#include <cmath>

#include "ui/runs/runs_model.h"
#include "store/run_reader.h"
#include "store/workspace.h"

namespace ts::ui {

JobsModel::JobsModel(TrainingSession* session, QString workspaceDir, QObject* parent)
    : QAbstractTableModel(parent), m_session(session), m_workspace(std::move(workspaceDir))
{
    connect(m_session, &TrainingSession::jobsChanged, this, &JobsModel::rebuild);
    m_poll.setInterval(2000);
    connect(&m_poll, &QTimer::timeout, this, &JobsModel::pollStore);
    m_poll.start();
    pollStore();
    rebuild();
}

JobsModel::~JobsModel() = default;

int JobsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_rows.size()); }
int JobsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

const JobRow* JobsModel::rowAt(int row) const { return row >= 0 && row < m_rows.size() ? &m_rows[row] : nullptr; }

int JobsModel::activeCount() const
{
    return int(std::count_if(m_rows.begin(), m_rows.end(), [](const JobRow& j) { return !j.isDone(); }));
}

QString JobsModel::stateText(JobRow::State state)
{
    switch (state) {
    case JobRow::State::Queued: return tr("Queued");
    case JobRow::State::Running: return tr("Running");
    case JobRow::State::Paused: return tr("Paused");
    case JobRow::State::Stopping: return tr("Stopping");
    case JobRow::State::Finished: return tr("Finished");
    case JobRow::State::Stopped: return tr("Stopped");
    case JobRow::State::Failed: return tr("Failed");
    case JobRow::State::Cancelled: return tr("Cancelled");
    }
    return {};
}

QVariant JobsModel::data(const QModelIndex& index, int role) const
{
    const JobRow* j = rowAt(index.row());
    if (!j) return {};
    const bool external = j->id <= 0;
    if (role == Qt::UserRole) {
        if (index.column() == Job) return j->id;
        if (index.column() == Progress) return j->state == JobRow::State::Queued ? -1.0 : j->progress;
        return {};
    }
    if (role == Qt::ToolTipRole && index.column() == Message) return j->message;
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
    case Job: {
        const QString kind = j->kind == QLatin1String("resume")     ? tr("resume")
                             : j->kind == QLatin1String("fork")     ? tr("fork")
                             : j->kind == QLatin1String("evaluate") ? tr("evaluate")
                             : j->kind == QLatin1String("lr_find")  ? tr("learning-rate finder")
                             : j->kind == QLatin1String("sweep")    ? tr("sweep")
                             : j->kind == QLatin1String("data_check")  ? tr("data check")
                             : j->kind == QLatin1String("label_check") ? tr("label check")
                             : j->kind == QLatin1String("step_probe")  ? tr("one-step memory check")
                                                                    : tr("train");
        return external ? tr("%1 (another process)").arg(j->title) : tr("#%1 %2 · %3").arg(j->id).arg(j->title, kind);
    }
    case State: return stateText(j->state);
    case Progress: return j->state == JobRow::State::Queued ? QString() : QStringLiteral("%1%").arg(int(j->progress * 100));
    case Eta: return j->etaSeconds >= 0 ? RunsModel::durationText(j->etaSeconds) : QStringLiteral("—");
    case Run: return j->runId >= 0 ? QString::number(j->runId) : QStringLiteral("—");
    case Message: return (j->isDone() || j->what.isEmpty() ? j->message : j->what).section(QLatin1Char('\n'), 0, 0);
    }
    return {};
}

QVariant JobsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Job: return tr("Job");
    case State: return tr("State");
    case Progress: return tr("Progress");
    case Eta: return tr("ETA");
    case Run: return tr("Run");
    case Message: return tr("Result");
    }
    return {};
}

void JobsModel::pollStore()
{
    if (m_workspace.isEmpty()) return;
    const Workspace workspace{m_workspace.toStdString()};
    if (!QFileInfo::exists(QString::fromStdString(workspace.databasePath()))) return;
    QVector<JobRow> external;
    try {
        if (!m_reader) m_reader = std::make_unique<RunReader>(workspace);
        RunReader& reader = *m_reader;
        const qint64 version = reader.dataVersion();
        if (version == m_dataVersion) return;  // nothing committed since the last look
        m_dataVersion = version;
        QSet<qint64> ours;
        for (const JobRow& j : m_session->jobs())
            if (j.runId >= 0) ours.insert(j.runId);
        for (const RunListing& listing : reader.listRuns()) {
            if (listing.run.status != RunStatus::Running || ours.contains(listing.run.id)) continue;
            JobRow row;
            row.id = -listing.run.id;
            row.kind = QStringLiteral("train");
            row.title = tr("run %1 (%2)").arg(listing.run.id).arg(QString::fromStdString(listing.run.experimentName));
            row.state = JobRow::State::Running;
            row.runId = listing.run.id;
            // Epochs done of the epochs planned: the store has both without reading points.
            double epochs = 10;  // training.epochs' default, left out of the parameters when unchanged
            for (const auto& [key, value] : reader.parameters(listing.run.id))
                if (key == "training.epochs") epochs = std::atof(value.c_str());
            for (const MetricSummary& s : listing.summaries)
                if (s.name == "epoch" && epochs > 0) row.progress = std::clamp(s.last / epochs, 0.0, 1.0);
            row.message = QString::fromStdString(listing.run.host);
            external.push_back(row);
        }
    } catch (const std::exception&) {
        m_reader.reset();  // a store being created or migrated: open it again at the next tick
        return;
    }
    m_external = external;
    rebuild();
}

void JobsModel::rebuild()
{
    QVector<JobRow> rows;
    const QVector<JobRow>& ours = m_session->jobs();
    for (auto it = ours.crbegin(); it != ours.crend(); ++it) rows.push_back(*it);
    for (const JobRow& e : std::as_const(m_external))
        if (std::none_of(ours.begin(), ours.end(), [&](const JobRow& j) { return j.runId == e.runId; })) rows.push_back(e);
    // Progress arrives up to 10 times a second: the same jobs in the same order are updated in
    // place, so the view keeps its selection and scroll position.
    const bool sameJobs = rows.size() == m_rows.size() &&
                          std::equal(rows.begin(), rows.end(), m_rows.begin(), [](const JobRow& a, const JobRow& b) { return a.id == b.id; });
    if (sameJobs) {
        m_rows = rows;
        if (!m_rows.isEmpty()) emit dataChanged(index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1));
    } else {
        beginResetModel();
        m_rows = rows;
        endResetModel();
    }
    emit countsChanged();
}

}  // namespace ts::ui
