// The runs of a workspace as a table (Runs page): one row per run, newest first, read from the
// store's maintained summaries (RunReader::listRuns never scans metric points). refresh()
// updates rows in place — changed rows get dataChanged, new and deleted runs are inserted and
// removed — so selections, scroll position and open editors survive a live update.
// Sorting is a QSortFilterProxyModel's job (sortRole = SortRole); this model keeps store order.
#pragma once

#include <QAbstractTableModel>
#include <QColor>
#include <QIcon>

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
    };

    explicit RunsModel(QObject* parent = nullptr);

    // Re-reads the run list and updates rows in place. Throws StoreError (the caller shows it).
    void refresh(ts::RunReader& reader);
    // What refresh() does with the list it read; public for tests and for callers that already
    // have a listing. Rows are matched by run id.
    void setRuns(std::vector<ts::RunListing> runs);
    void clear();

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
    QVariant displayData(const ts::RunListing& row, int column) const;
    QVariant sortData(const ts::RunListing& row, int column) const;

    std::vector<ts::RunListing> m_rows;  // id descending (newest first), as listRuns returns them
};

}  // namespace ts::ui
