// The runs of a workspace as a table (Runs page): one row per run, newest first, read from the
// store's maintained summaries (RunReader::listRuns never scans metric points). refresh()
// updates rows in place — changed rows get dataChanged, new and deleted runs are inserted and
// removed — so selections, scroll position and open editors survive a live update.
// Sorting and filtering are a proxy's job (RunsProxyModel, below); this model keeps store order.
// At 10,000 runs, each row's sort keys and filter text are made once when the row changes
// (RowKeys), so a sort or a filter compares ready numbers and strings instead of formatting
// every row again for each comparison.
#pragma once

#include <QAbstractTableModel>
#include <QColor>
#include <QIcon>
#include <QSortFilterProxyModel>
#include <QStringList>

#include <vector>

#include "store/run_reader.h"

namespace ts::ui {

class RunsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // Result: the headline (best validation metric, else the final test metric), labelled which.
    enum Column { Id, Name, Status, Started, Duration, Device, Result, Experiment, ColumnCount };
    enum Role {
        RunIdRole = Qt::UserRole + 1,  // qint64
        SortRole,                      // numbers for numeric columns, so sorting is not by text
        StatusRole,                    // int(ts::RunStatus)
        FilterRole,                    // what the page's filter matches: id, name, experiment, status, device, tags
    };

    explicit RunsModel(QObject* parent = nullptr);

    // Re-reads the run list and updates rows in place. Throws StoreError (the caller shows it).
    void refresh(ts::RunReader& reader);
    // What refresh() does with the list it read; public for tests and for callers that already
    // have a listing. Rows are matched by run id.
    void setRuns(std::vector<ts::RunListing> runs);
    void clear();
    // The rows' texts again, in the language now in use (statuses and devices are kept as text).
    void retranslate();

    // Sorting and filtering by the rows' ready keys (RunsProxyModel uses them).
    bool lessThan(int leftRow, int rightRow, int column) const;
    // Whether the row's id, name, experiment, status, device or a tag holds every word
    // (lower case) of `words`.
    bool matches(int row, const QStringList& words) const;

    const ts::RunListing* listing(int row) const;
    const std::vector<ts::RunListing>& runs() const { return m_rows; }
    const ts::RunListing* findRun(qint64 runId) const;
    int rowOf(qint64 runId) const;  // -1 when not listed
    QModelIndex indexOf(qint64 runId, int column = Name) const;

    static QString statusText(ts::RunStatus status);
    static QColor statusColor(ts::RunStatus status);
    static QIcon statusIcon(ts::RunStatus status);
    static QString durationText(double seconds);
    static QString timeText(double unixSeconds);  // local, short format; "—" for 0
    static QString resultText(const ts::HeadlineResult& result);
    // A metric's value as people read it: accuracy (a fraction) in percent, others to 4 digits.
    static QString metricText(const std::string& metric, double value);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    // Editing the name column shows the new name at once and asks for it to be stored
    // (renameRequested); the page writes it and refreshes, which reverts it if the write failed.
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

signals:
    void renameRequested(qint64 runId, const QString& name);

private:
    // What sorting and filtering read, per row, made by keysOf() whenever the row changes.
    struct RowKeys {
        QString name, experiment, device, status;
        double started = 0, duration = -1, result = 0;
        QString filterText;  // lower case: id, name, experiment, status, device, tags
    };
    static RowKeys keysOf(const ts::RunListing& row);
    QVariant displayData(int row, int column) const;
    QVariant sortData(int row, int column) const;

    std::vector<ts::RunListing> m_rows;  // id descending (newest first), as listRuns returns them
    std::vector<RowKeys> m_keys;         // one per row of m_rows
};

// The page's proxy: sorts by RunsModel::lessThan and filters by RunsModel::matches, so a sort
// or a filter over 10,000 runs makes no QVariant and formats nothing.
class RunsProxyModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit RunsProxyModel(RunsModel* source, QObject* parent = nullptr);
    // Keeps the runs holding every word of `text` (any case); empty keeps all.
    void setFilterText(const QString& text);
    QString filterText() const { return m_text; }

protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    RunsModel* m_model;
    QString m_text;
    QStringList m_words;
};

}  // namespace ts::ui
