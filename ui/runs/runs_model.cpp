#include "runs_model.h"

#include "ui/metric_names.h"

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

void RunsModel::retranslate()
{
    for (std::size_t i = 0; i < m_rows.size(); ++i) m_keys[i] = keysOf(m_rows[i]);
    if (!m_rows.empty()) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

RunsModel::RowKeys RunsModel::keysOf(const RunListing& row)
{
    const RunInfo& run = row.run;
    RowKeys k;
    k.name = QString::fromStdString(run.name);
    k.experiment = QString::fromStdString(run.experimentName);
    k.device = run.device.empty() ? QStringLiteral("—") : QString::fromStdString(run.device);
    k.status = statusText(run.status);
    k.started = run.startTime > 0 ? run.startTime : double(run.id);  // queued runs keep id order
    const double d = activeSeconds(run, row.summaries);
    k.duration = std::isnan(d) ? -1.0 : d;
    // Higher is better throughout: accuracies above every loss-only run, losses negated.
    const HeadlineResult r = headlineResult(row.summaries);
    k.result = !r.summary ? -std::numeric_limits<double>::max()
                          : r.summary->name.ends_with("_acc") ? 1e12 + r.value : -r.value;
    k.filterText = QString::number(run.id) + QLatin1Char(' ') + k.name + QLatin1Char(' ') + k.experiment +
                   QLatin1Char(' ') + k.status + QLatin1Char(' ') + k.device;
    for (const std::string& tag : run.tags) k.filterText += QLatin1Char(' ') + QString::fromStdString(tag);
    k.filterText = k.filterText.toLower();
    return k;
}

void RunsModel::setRuns(std::vector<RunListing> fresh)
{
    std::stable_sort(fresh.begin(), fresh.end(), newerFirst);  // listRuns already is; the diff relies on it
    if (m_rows.empty()) {
        if (fresh.empty()) return;
        // The first listing: one reset, so a proxy sorts the rows once instead of placing each.
        beginResetModel();
        m_rows = std::move(fresh);
        m_keys.clear();
        m_keys.reserve(m_rows.size());
        for (const RunListing& r : m_rows) m_keys.push_back(keysOf(r));
        endResetModel();
        return;
    }
    std::unordered_set<qint64> ids;
    for (const auto& r : fresh) ids.insert(r.run.id);

    // Deleted runs first, bottom up, in contiguous blocks.
    for (int row = int(m_rows.size()) - 1; row >= 0; --row) {
        if (ids.count(m_rows[row].run.id)) continue;
        const int last = row;
        while (row > 0 && !ids.count(m_rows[row - 1].run.id)) --row;
        beginRemoveRows({}, row, last);
        m_rows.erase(m_rows.begin() + row, m_rows.begin() + last + 1);
        m_keys.erase(m_keys.begin() + row, m_keys.begin() + last + 1);
        endRemoveRows();
    }

    // What remains is a subsequence of `fresh` in the same order: walk both, inserting the
    // blocks of new runs before each known one and updating known rows that changed.
    std::size_t i = 0;
    for (int row = 0; i < fresh.size();) {
        if (row < int(m_rows.size()) && m_rows[row].run.id == fresh[i].run.id) {
            if (!sameRow(m_rows[row], fresh[i])) {
                m_rows[row] = std::move(fresh[i]);
                m_keys[row] = keysOf(m_rows[row]);
                emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
            }
            ++row, ++i;
            continue;
        }
        const qint64 nextKnown = row < int(m_rows.size()) ? m_rows[row].run.id : std::numeric_limits<qint64>::min();
        std::size_t j = i;
        while (j < fresh.size() && fresh[j].run.id != nextKnown) ++j;
        beginInsertRows({}, row, row + int(j - i) - 1);
        std::vector<RowKeys> keys;
        for (std::size_t k = i; k < j; ++k) keys.push_back(keysOf(fresh[k]));
        m_rows.insert(m_rows.begin() + row, std::make_move_iterator(fresh.begin() + i),
                      std::make_move_iterator(fresh.begin() + j));
        m_keys.insert(m_keys.begin() + row, std::make_move_iterator(keys.begin()), std::make_move_iterator(keys.end()));
        endInsertRows();
        row += int(j - i);
        i = j;
    }
}

bool RunsModel::lessThan(int left, int right, int column) const
{
    const RowKeys &a = m_keys[std::size_t(left)], &b = m_keys[std::size_t(right)];
    switch (column) {
    case Id: return m_rows[std::size_t(left)].run.id < m_rows[std::size_t(right)].run.id;
    case Name: return QString::localeAwareCompare(a.name, b.name) < 0;
    case Status: return int(m_rows[std::size_t(left)].run.status) < int(m_rows[std::size_t(right)].run.status);
    case Started: return a.started < b.started;
    case Duration: return a.duration < b.duration;
    case Device: return QString::localeAwareCompare(a.device, b.device) < 0;
    case Result: return a.result < b.result;
    case Experiment: return QString::localeAwareCompare(a.experiment, b.experiment) < 0;
    default: return false;
    }
}

bool RunsModel::matches(int row, const QStringList& words) const
{
    const QString& text = m_keys[std::size_t(row)].filterText;
    return std::all_of(words.begin(), words.end(), [&](const QString& w) { return text.contains(w); });
}

void RunsModel::clear()
{
    if (m_rows.empty()) return;
    beginResetModel();
    m_rows.clear();
    m_keys.clear();
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
                          : r.summary->name.ends_with("_bpc") ? tr("bits/char %1").arg(QLocale().toString(r.value, 'f', 3))
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
    case Qt::DisplayRole: return displayData(index.row(), column);
    case Qt::EditRole: return displayData(index.row(), column);
    case SortRole: return sortData(index.row(), column);
    case RunIdRole: return QVariant::fromValue(qint64(row.run.id));
    case StatusRole: return int(row.run.status);
    case FilterRole: return m_keys[std::size_t(index.row())].filterText;
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
                    .arg(MetricNames::label(QString::fromStdString(r.summary->name)), QLocale().toString(r.value, 'g', 6))
                    .arg(r.step);
        return {};
    default: return {};
    }
}

QVariant RunsModel::displayData(int index, int column) const
{
    const RunListing& row = m_rows[std::size_t(index)];
    const RowKeys& keys = m_keys[std::size_t(index)];
    switch (column) {
    case Id: return QString::number(row.run.id);  // what `trainstudio-cli runs show N` takes
    case Name: return keys.name;
    case Status: return keys.status;
    case Started: return timeText(row.run.startTime);
    case Duration: return durationText(activeSeconds(row.run, row.summaries));  // pauses left out
    case Device: return keys.device;
    case Result: return resultText(headlineResult(row.summaries));
    case Experiment: return keys.experiment;
    default: return {};
    }
}

// What a plain QSortFilterProxyModel sorts by (sortRole = SortRole); RunsProxyModel uses lessThan().
QVariant RunsModel::sortData(int index, int column) const
{
    const RowKeys& keys = m_keys[std::size_t(index)];
    switch (column) {
    case Started: return keys.started;
    case Duration: return keys.duration;
    case Id: return double(m_rows[std::size_t(index)].run.id);
    case Result: return keys.result;
    case Status: return int(m_rows[std::size_t(index)].run.status);
    default: return displayData(index, column);
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
    m_keys[std::size_t(index.row())] = keysOf(row);
    emit dataChanged(index, index);
    emit renameRequested(row.run.id, name);
    return true;
}

RunsProxyModel::RunsProxyModel(RunsModel* source, QObject* parent) : QSortFilterProxyModel(parent), m_model(source)
{
    setSourceModel(source);
    setSortRole(RunsModel::SortRole);  // for sort() callers that read roles; lessThan() does not
}

void RunsProxyModel::setFilterText(const QString& text)
{
    if (text == m_text) return;
    m_text = text;
    m_words = text.toLower().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    // One layout change for the view, not one insertion per block of rows coming back: with
    // 10,000 runs, thousands of blocks each made the table update its rows.
    invalidate();
}

bool RunsProxyModel::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    return m_model->lessThan(left.row(), right.row(), left.column());
}

bool RunsProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex&) const
{
    return m_words.isEmpty() || m_model->matches(sourceRow, m_words);
}

}  // namespace ts::ui
