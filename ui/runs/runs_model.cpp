#include "runs_model.h"

#include <QDateTime>
#include <QHash>
#include <QLocale>
#include <QPainter>
#include <QPixmap>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <unordered_set>

#include "ui/engine_messages.h"

namespace ts::ui {

namespace {

bool newerFirst(const RunListing& a, const RunListing& b) { return a.run.id > b.run.id; }

bool sameSummary(const MetricSummary* a, const MetricSummary* b)
{
    if (!a || !b) return a == b;
    return a->name == b->name && a->bestStep == b->bestStep && (a->best == b->best || (a->best != a->best && b->best != b->best));
}

// Whether a row shows anything different (a running run's duration always does).
bool sameRow(const RunListing& a, const RunListing& b)
{
    const RunInfo &x = a.run, &y = b.run;
    return x.status != RunStatus::Running && x.name == y.name && x.status == y.status && x.startTime == y.startTime &&
           x.endTime == y.endTime && x.heartbeat == y.heartbeat && x.device == y.device &&
           x.experimentName == y.experimentName && x.notes == y.notes && x.message == y.message &&
           sameSummary(bestValidation(a.summaries), bestValidation(b.summaries));
}

}  // namespace

RunsModel::RunsModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunsModel::refresh(RunReader& reader) { setRuns(reader.listRuns()); }

void RunsModel::setRuns(std::vector<RunListing> fresh)
{
    std::stable_sort(fresh.begin(), fresh.end(), newerFirst);  // listRuns already is; the diff relies on it
    std::unordered_set<qint64> ids;
    for (const auto& r : fresh) ids.insert(r.run.id);

    // Deleted runs first, bottom up, in contiguous blocks.
    for (int row = int(m_rows.size()) - 1; row >= 0; --row) {
        if (ids.count(m_rows[row].run.id)) continue;
        const int last = row;
        while (row > 0 && !ids.count(m_rows[row - 1].run.id)) --row;
        beginRemoveRows({}, row, last);
        m_rows.erase(m_rows.begin() + row, m_rows.begin() + last + 1);
        endRemoveRows();
    }

    // What remains is a subsequence of `fresh` in the same order: walk both, inserting the
    // blocks of new runs before each known one and updating known rows that changed.
    std::size_t i = 0;
    for (int row = 0; i < fresh.size();) {
        if (row < int(m_rows.size()) && m_rows[row].run.id == fresh[i].run.id) {
            if (!sameRow(m_rows[row], fresh[i])) {
                m_rows[row] = std::move(fresh[i]);
                emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
            }
            ++row, ++i;
            continue;
        }
        const qint64 nextKnown = row < int(m_rows.size()) ? m_rows[row].run.id : std::numeric_limits<qint64>::min();
        std::size_t j = i;
        while (j < fresh.size() && fresh[j].run.id != nextKnown) ++j;
        beginInsertRows({}, row, row + int(j - i) - 1);
        m_rows.insert(m_rows.begin() + row, std::make_move_iterator(fresh.begin() + i),
                      std::make_move_iterator(fresh.begin() + j));
        endInsertRows();
        row += int(j - i);
        i = j;
    }
}

void RunsModel::clear()
{
    if (m_rows.empty()) return;
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

const RunListing* RunsModel::listing(int row) const
{
    return row >= 0 && row < int(m_rows.size()) ? &m_rows[row] : nullptr;
}

int RunsModel::rowOf(qint64 runId) const
{
    // Rows are sorted by id descending: a binary search, not a scan of 10,000 rows.
    const auto it = std::lower_bound(m_rows.begin(), m_rows.end(), runId,
                                     [](const RunListing& r, qint64 id) { return r.run.id > id; });
    return it != m_rows.end() && it->run.id == runId ? int(it - m_rows.begin()) : -1;
}

const RunListing* RunsModel::findRun(qint64 runId) const { return listing(rowOf(runId)); }

QModelIndex RunsModel::indexOf(qint64 runId, int column) const
{
    const int row = rowOf(runId);
    return row < 0 ? QModelIndex() : index(row, column);
}

QString RunsModel::statusText(RunStatus status)
{
    switch (status) {
    case RunStatus::Queued: return tr("Queued");
    case RunStatus::Running: return tr("Running");
    case RunStatus::Finished: return tr("Finished");
    case RunStatus::Failed: return tr("Failed");
    case RunStatus::Stopped: return tr("Stopped");
    case RunStatus::Crashed: return tr("Crashed");
    }
    return {};
}

QColor RunsModel::statusColor(RunStatus status)
{
    // Mid tones: readable on light and dark palettes alike.
    switch (status) {
    case RunStatus::Queued: return QColor(148, 103, 189);
    case RunStatus::Running: return QColor(31, 119, 180);
    case RunStatus::Finished: return QColor(44, 160, 44);
    case RunStatus::Failed: return QColor(214, 39, 40);
    case RunStatus::Stopped: return QColor(127, 127, 127);
    case RunStatus::Crashed: return QColor(230, 120, 10);
    }
    return {};
}

QIcon RunsModel::statusIcon(RunStatus status)
{
    // A dot in the status colour, drawn once per status: colour reads faster than words in a long list.
    static QHash<int, QIcon> cache;
    QIcon& icon = cache[int(status)];
    if (icon.isNull()) {
        QPixmap pixmap(32, 32);
        pixmap.fill(Qt::transparent);
        QPainter p(&pixmap);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(Qt::NoPen);
        p.setBrush(statusColor(status));
        p.drawEllipse(QRectF(6, 6, 20, 20));
        icon = QIcon(pixmap);
    }
    return icon;
}

QString RunsModel::durationText(double seconds)
{
    if (!std::isfinite(seconds) || seconds < 0) return QStringLiteral("—");
    const qint64 s = qint64(seconds + 0.5);
    if (s < 60) return tr("%1 s").arg(s);
    if (s < 3600) return tr("%1 min %2 s").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
    return tr("%1 h %2 min").arg(s / 3600).arg(s % 3600 / 60, 2, 10, QLatin1Char('0'));
}

QString RunsModel::timeText(double unixSeconds)
{
    if (unixSeconds <= 0) return QStringLiteral("—");
    const QDateTime t = QDateTime::fromMSecsSinceEpoch(qint64(unixSeconds * 1000.0)).toLocalTime();
    return QLocale().toString(t, QLocale::ShortFormat);
}

QString RunsModel::metricText(const std::string& metric, double value)
{
    return metric.ends_with("_acc") ? tr("%1 %").arg(QLocale().toString(value * 100.0, 'f', 2))
                                    : QLocale().toString(value, 'g', 4);
}

QString RunsModel::resultText(const HeadlineResult& r)
{
    if (!r.summary) return QStringLiteral("—");
    // Accuracy is stored as a fraction; people read it as a percentage.
    const bool accuracy = r.summary->name.ends_with("_acc");
    const QString value = accuracy ? tr("acc %1 %").arg(QLocale().toString(r.value * 100.0, 'f', 2))
                                   : tr("loss %1").arg(QLocale().toString(r.value, 'g', 4));
    return r.finalTest ? tr("test %1").arg(value) : tr("val %1").arg(value);
}

int RunsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_rows.size()); }
int RunsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RunsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const RunListing& row = m_rows[index.row()];
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole: return displayData(row, column);
    case Qt::EditRole: return column == Name ? QVariant(QString::fromStdString(row.run.name)) : displayData(row, column);
    case SortRole: return sortData(row, column);
    case RunIdRole: return QVariant::fromValue(qint64(row.run.id));
    case StatusRole: return int(row.run.status);
    case Qt::DecorationRole:
        return column == Status ? QVariant(statusIcon(row.run.status)) : QVariant();
    case Qt::ForegroundRole:
        return column == Status ? QVariant(statusColor(row.run.status)) : QVariant();
    case Qt::TextAlignmentRole:
        return column == Id || column == Duration || column == Result ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter))
                                                                      : QVariant();
    case Qt::ToolTipRole:
        if (column == Status && !row.run.message.text.empty()) return renderMessage(row.run.message);
        if (column == Name && !row.run.notes.empty()) return QString::fromStdString(row.run.notes);
        if (column == Result)
            if (const HeadlineResult r = headlineResult(row.summaries); r.summary)
                return (r.finalTest ? tr("%1: final %2 at step %3 (no validation split)") : tr("%1: best %2 at step %3"))
                    .arg(QString::fromStdString(r.summary->name), QLocale().toString(r.value, 'g', 6))
                    .arg(r.step);
        return {};
    default: return {};
    }
}

QVariant RunsModel::displayData(const RunListing& row, int column) const
{
    const RunInfo& run = row.run;
    switch (column) {
    case Id: return QString::number(run.id);  // what `trainstudio-cli runs show N` takes
    case Name: return QString::fromStdString(run.name);
    case Status: return statusText(run.status);
    case Started: return timeText(run.startTime);
    case Duration: return durationText(activeSeconds(run, row.summaries));  // pauses left out
    case Device: return run.device.empty() ? QStringLiteral("—") : QString::fromStdString(run.device);
    case Result: return resultText(headlineResult(row.summaries));
    case Experiment: return QString::fromStdString(run.experimentName);
    default: return {};
    }
}

QVariant RunsModel::sortData(const RunListing& row, int column) const
{
    const RunInfo& run = row.run;
    switch (column) {
    case Started: return run.startTime > 0 ? run.startTime : double(run.id);  // queued runs keep id order
    case Duration: {
        const double d = activeSeconds(run, row.summaries);
        return std::isnan(d) ? -1.0 : d;
    }
    case Id: return double(run.id);
    case Result: {
        // Higher is better throughout: accuracies above every loss-only run, losses negated.
        const HeadlineResult r = headlineResult(row.summaries);
        if (!r.summary) return -std::numeric_limits<double>::max();
        return r.summary->name.ends_with("_acc") ? 1e12 + r.value : -r.value;
    }
    case Status: return int(run.status);
    default: return displayData(row, column);
    }
}

QVariant RunsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Id: return tr("ID");
    case Name: return tr("Name");
    case Status: return tr("Status");
    case Started: return tr("Started");
    case Duration: return tr("Duration");
    case Device: return tr("Device");
    case Result: return tr("Result");
    case Experiment: return tr("Experiment");
    default: return {};
    }
}

Qt::ItemFlags RunsModel::flags(const QModelIndex& index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && index.column() == Name) f |= Qt::ItemIsEditable;
    return f;
}

bool RunsModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::EditRole || index.column() != Name ||
        !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    const QString name = value.toString().trimmed();
    RunListing& row = m_rows[index.row()];
    if (name.isEmpty() || name.toStdString() == row.run.name) return false;
    row.run.name = name.toStdString();
    emit dataChanged(index, index);
    emit renameRequested(row.run.id, name);
    return true;
}

}  // namespace ts::ui
