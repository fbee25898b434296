// A CSV file as the Datasets page shows it: its rows as read by the engine's CSV parser
// (ts::parseCsv, data/csv_dataset.h), and per column its type, missing count, min / max /
// mean and a small histogram; a table model of the columns (one row per column, the feature
// columns checkable) and of the rows, and a delegate that draws a histogram as bars (one
// paint per cell, no widget per cell).
#pragma once

#include <QAbstractTableModel>
#include <QStringList>
#include <QStyledItemDelegate>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "data/csv_dataset.h"
#include "types/experiment_spec.h"

namespace ts::ui {

struct CsvColumn {
    enum class Type { Integer, Number, Text, Empty };
    QString name;
    Type type = Type::Empty;
    std::int64_t missing = 0;   // empty fields and NA, N/A, NaN, null, ?
    std::int64_t distinct = 0;  // distinct present values (counted up to kDistinctCap)
    double min = 0, max = 0, mean = 0;  // numbers only
    // Numbers: counts in kHistogramBins equal bins over [min, max]. Text: the counts of the most
    // frequent values, largest first (at most kHistogramBins).
    std::vector<std::int64_t> histogram;
};

struct CsvTable {
    static constexpr int kHistogramBins = 12;
    static constexpr std::int64_t kDistinctCap = 100000;
    QString path;
    QStringList header;
    std::vector<ts::CsvRecord> records;  // data rows only (the header is not among them)
    std::vector<CsvColumn> columns;
    std::int64_t raggedRows = 0;   // rows whose field count differs from the header's
    std::int64_t firstRaggedLine = 0;
};

QString columnTypeName(CsvColumn::Type type);
bool isMissingField(const std::string& field);
// The file read (plain or gzip) and parsed by the engine, the statistics computed. Throws
// ts::DataError (file and line) when it cannot be read or a quote is never closed.
CsvTable readCsvTable(const std::string& path);
// Column statistics of already parsed rows (the first record is the header).
CsvTable csvTable(const QString& path, std::vector<ts::CsvRecord> records);
// The label column guessed for a header: label, class, target or y (any case), else the last.
QString guessLabelColumn(const QStringList& header);

// One row per CSV column: name, use (checkable: a feature), type, missing, min, max, mean, histogram.
class TableColumnsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { NameColumn, UseColumn, TypeColumn, MissingColumn, MinColumn, MaxColumn, MeanColumn, HistogramColumn, ColumnCount };
    enum Role { HistogramRole = Qt::UserRole + 1 };  // QList<double>: bar heights in [0, 1]

    explicit TableColumnsModel(QObject* parent = nullptr);

    // The table and the spec's column choice (label, group, features). With no features named,
    // the checked ones are `readFeatures` (what the reader took: CsvDataset::featureNames), or
    // without those every numeric column.
    void setTable(std::shared_ptr<const CsvTable> table, const ts::DatasetSpec& spec, const QStringList& readFeatures = {});
    const CsvTable* table() const { return m_table.get(); }
    // The spec with the choice made here: label, group and the checked feature columns.
    ts::DatasetSpec applyTo(ts::DatasetSpec spec) const;
    QStringList featureColumns() const;  // checked, in file order
    QString labelColumn() const { return m_label; }
    QString groupColumn() const { return m_group; }
    void setLabelColumn(const QString& name);
    void setGroupColumn(const QString& name);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    void choiceEdited();  // the user changed the label, group or a feature

private:
    QString useText(int row) const;

    std::shared_ptr<const CsvTable> m_table;
    QString m_label, m_group;
    std::vector<bool> m_feature;
};

// The rows themselves, as read (virtualised by the view: 100,000 rows cost a screenful).
class TableRowsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit TableRowsModel(QObject* parent = nullptr);
    void setTable(std::shared_ptr<const CsvTable> table);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const CsvTable> m_table;
};

// Draws TableColumnsModel::HistogramRole as bars filling the cell.
class HistogramDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

}  // namespace ts::ui
