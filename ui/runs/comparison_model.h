// The runs being compared as a table: one row per result (duration, device, model size, the
// best and last of each metric) and per setting (every stored experiment parameter of any of
// the runs; one a run does not list is at its default), one column per run. Rows know whether
// the runs differ, so a proxy can show the differences only; the table copies as CSV or
// Markdown for notes and reports. A row's numbers share one format (rowFormat). Grouped by a
// setting, it has one column per group instead:
// results as the group's mean ± standard deviation, settings as the value the group shares.
#pragma once

#include <QAbstractTableModel>
#include <QStringList>
#include <QVector>

#include <cmath>

#include <functional>
#include <vector>

#include "store/run_reader.h"

namespace ts::ui {

class ComparisonModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role { DiffersRole = Qt::UserRole + 1, SortRole };
    struct Run {
        ts::RunInfo info;
        std::vector<ts::MetricSummary> summaries;
        std::vector<std::pair<std::string, std::string>> parameters;  // RunReader::parameters
    };

    explicit ComparisonModel(QObject* parent = nullptr);
    void setRuns(const std::vector<Run>& runs);  // keeps the grouping while its setting still differs

    // One column per value of the setting `key` (ordered as the comparison's group charts),
    // named "key = value (n = size)"; empty or a setting the runs share: one column per run.
    // A result cell of a group is "mean ± s" with s the sample standard deviation (n - 1, as
    // the charts' bands; 0 for a group of one) in the row's own format, or the value itself
    // when the group agrees; a setting cell is the shared value, or the distinct values.
    void setGroupBy(const QString& key);
    QString groupKey() const { return m_groupKey; }
    int columnRunCount(int column) const { return m_columns.value(column - 1).runs.size(); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    bool rowDiffers(int row) const { return m_rows[row].shownDiffers; }  // between the columns shown
    // The experiment settings (not results) on which the runs differ, in row order; and those
    // every run has the same value of.
    QStringList differingSettings() const;
    QStringList sharedSettings() const;
    // One way to write every number of a row, chosen from all of them, so a row never mixes
    // "2,788" and "2.785e+04": fixed with the decimals that keep 4 significant digits of the
    // smallest (at most 6), or scientific (4 digits) when a value is 1e6 or more or below 1e-3.
    static std::function<QString(double)> rowFormat(const std::vector<double>& values);
    // A setting's name for people: the Hyperparameters page's label ("Learning rate"), a list
    // item's label with its index ("Normalisation mean [0]"), a layer's number, type and
    // attribute ("Layer 12 (Linear): out_features"); the key itself otherwise.
    static QString settingLabel(const QString& key);
    // `keys` by their labels in natural order (numbers compared as numbers: "Layer 3" before
    // "Layer 10"; letters without regard to case), the Hyperparameters page's options first.
    static QStringList sortedByLabel(QStringList keys);
    // A setting's value for the run at `runIndex` (the order given to setRuns).
    QString settingValue(const QString& key, int runIndex) const;
    // A row's value as a number for the run at `runIndex` (NaN when it is not one): accuracy
    // in percent, active time in seconds.
    double number(int row, int runIndex) const { return m_rows[row].numbers.value(runIndex, std::nan("")); }
    // The metric a "best ..." or "last ..." row shows; empty for other rows.
    QString metricOf(int row) const { return m_rows[row].metric; }
    QString rowName(int row) const { return m_rows[row].name; }

    // The rows of `model` (a proxy over this, or this) in its order, with its headers.
    static QString toCsv(const QAbstractItemModel& model);
    static QString toMarkdown(const QAbstractItemModel& model);

private:
    struct Row {
        QString name;
        QStringList values;  // one per run
        bool differs = false;  // between the runs
        bool setting = false;  // an experiment parameter, not a result
        QString metric;        // the best or last value of this metric
        QVector<double> numbers;  // per run; NaN where the value is not a number
        std::function<QString(double)> format;  // how the row's numbers (and a mean) are written; null: as the values are
        QStringList shown;        // one per column
        QVector<double> shownNumbers;  // what a column sorts by
        bool shownDiffers = false;
    };
    struct Column {
        QString name;
        QVector<int> runs;  // indices into the runs given to setRuns
    };
    void addRow(const QString& name, const QStringList& values, bool setting = false);
    // A row of numbers (NaN: none, written "—") in the row's one format.
    void addNumberRow(const QString& name, const std::vector<double>& values);
    void rebuildColumns();  // m_columns and each row's shown cells, from m_groupKey
    void cell(Row& row, const Column& column) const;

    QStringList m_runNames;
    QVector<Row> m_rows;
    QString m_groupKey;
    QVector<Column> m_columns;
};

}  // namespace ts::ui
