#include "table_columns.h"

#include <QColor>
#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <unordered_map>

#include "data/data_files.h"

namespace ts::ui {

namespace {

std::string trimmed(const std::string& s)
{
    std::size_t a = 0, b = s.size();
    while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
    while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
    return s.substr(a, b - a);
}

// A whole field that is a finite number (what the CSV reader accepts as a feature).
bool number(const std::string& field, double& value)
{
    const std::string t = trimmed(field);
    if (t.empty()) return false;
    char* end = nullptr;
    value = std::strtod(t.c_str(), &end);
    return end == t.c_str() + t.size() && std::isfinite(value);
}

QString formatNumber(double v)
{
    return QLocale().toString(v, 'g', 6);
}

}  // namespace

QString columnTypeName(CsvColumn::Type type)
{
    switch (type) {
    case CsvColumn::Type::Integer: return TableColumnsModel::tr("integer");
    case CsvColumn::Type::Number: return TableColumnsModel::tr("number");
    case CsvColumn::Type::Text: return TableColumnsModel::tr("text");
    case CsvColumn::Type::Empty: return TableColumnsModel::tr("empty");
    }
    return {};
}

bool isMissingField(const std::string& field)
{
    std::string t = trimmed(field);
    std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return t.empty() || t == "na" || t == "n/a" || t == "nan" || t == "null" || t == "?";
}

CsvTable readCsvTable(const std::string& path)
{
    const std::vector<std::uint8_t> bytes = ts::readFileBytes(path);
    const std::size_t bom = bytes.size() >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0;
    return csvTable(QString::fromStdString(path), ts::parseCsv(std::string(bytes.begin() + long(bom), bytes.end()), path));
}

CsvTable csvTable(const QString& path, std::vector<ts::CsvRecord> records)
{
    CsvTable t;
    t.path = path;
    if (records.empty()) return t;
    for (const std::string& h : records.front().fields) t.header << QString::fromStdString(trimmed(h));
    records.erase(records.begin());
    t.records = std::move(records);
    const std::size_t columns = std::size_t(t.header.size());
    for (const ts::CsvRecord& r : t.records)
        if (r.fields.size() != columns && t.raggedRows++ == 0) t.firstRaggedLine = r.line;

    t.columns.resize(columns);
    for (std::size_t c = 0; c < columns; ++c) {
        CsvColumn& col = t.columns[c];
        col.name = t.header[int(c)];
        bool allNumbers = true, allIntegers = true;
        double sum = 0, value = 0;
        std::int64_t present = 0;
        std::vector<double> values;
        std::unordered_map<std::string, std::int64_t> counts;
        for (const ts::CsvRecord& r : t.records) {
            if (c >= r.fields.size() || isMissingField(r.fields[c])) {
                ++col.missing;
                continue;
            }
            ++present;
            const std::string& f = r.fields[c];
            const std::string key = trimmed(f);
            if (std::int64_t(counts.size()) < CsvTable::kDistinctCap || counts.count(key)) ++counts[key];
            if (allNumbers && number(f, value)) {
                values.push_back(value);
                sum += value;
                allIntegers = allIntegers && value == std::floor(value);
            } else {
                allNumbers = false;
            }
        }
        col.distinct = std::int64_t(counts.size());
        if (present == 0) {
            col.type = CsvColumn::Type::Empty;
            continue;
        }
        if (allNumbers) {
            col.type = allIntegers ? CsvColumn::Type::Integer : CsvColumn::Type::Number;
            const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
            col.min = *lo;
            col.max = *hi;
            col.mean = sum / double(values.size());
            col.histogram.assign(CsvTable::kHistogramBins, 0);
            const double width = (col.max - col.min) / CsvTable::kHistogramBins;
            for (double v : values) {
                const int bin = width > 0 ? std::min(CsvTable::kHistogramBins - 1, int((v - col.min) / width)) : 0;
                ++col.histogram[std::size_t(bin)];
            }
        } else {
            col.type = CsvColumn::Type::Text;
            std::vector<std::int64_t> top;
            top.reserve(counts.size());
            for (const auto& [value, n] : counts) top.push_back(n);
            std::sort(top.begin(), top.end(), std::greater<>());
            top.resize(std::min<std::size_t>(top.size(), CsvTable::kHistogramBins));
            col.histogram = std::move(top);
        }
    }
    return t;
}

QString guessLabelColumn(const QStringList& header)
{
    for (const char* name : {"label", "class", "target", "y"})
        for (const QString& h : header)
            if (h.compare(QLatin1String(name), Qt::CaseInsensitive) == 0) return h;
    return header.isEmpty() ? QString() : header.back();
}

// --- TableColumnsModel ---

TableColumnsModel::TableColumnsModel(QObject* parent) : QAbstractTableModel(parent) {}

void TableColumnsModel::setTable(std::shared_ptr<const CsvTable> table, const ts::DatasetSpec& spec, const QStringList& readFeatures)
{
    beginResetModel();
    m_table = std::move(table);
    m_label = QString::fromStdString(spec.labelColumn);
    m_group = QString::fromStdString(spec.groupColumn);
    m_feature.assign(m_table ? m_table->columns.size() : 0, false);
    if (m_table) {
        for (std::size_t c = 0; c < m_table->columns.size(); ++c) {
            const CsvColumn& col = m_table->columns[c];
            if (col.name == m_label || col.name == m_group) continue;
            if (spec.featureColumns.empty() && !readFeatures.isEmpty())
                m_feature[c] = readFeatures.contains(col.name);
            else if (spec.featureColumns.empty())  // about the reader's default: the numeric columns
                m_feature[c] = col.type == CsvColumn::Type::Integer || col.type == CsvColumn::Type::Number;
            else
                m_feature[c] = std::find(spec.featureColumns.begin(), spec.featureColumns.end(), col.name.toStdString()) !=
                               spec.featureColumns.end();
        }
    }
    endResetModel();
}

QStringList TableColumnsModel::featureColumns() const
{
    QStringList out;
    for (std::size_t c = 0; c < m_feature.size(); ++c)
        if (m_feature[c]) out << m_table->columns[c].name;
    return out;
}

ts::DatasetSpec TableColumnsModel::applyTo(ts::DatasetSpec spec) const
{
    spec.labelColumn = m_label.toStdString();
    spec.groupColumn = m_group.toStdString();
    spec.featureColumns.clear();
    for (const QString& f : featureColumns()) spec.featureColumns.push_back(f.toStdString());
    return spec;
}

void TableColumnsModel::setLabelColumn(const QString& name)
{
    if (name == m_label) return;
    m_label = name;
    for (std::size_t c = 0; c < m_feature.size(); ++c)
        if (m_table->columns[c].name == name) m_feature[c] = false;  // a label is never its own feature
    if (rowCount() > 0) emit dataChanged(index(0, UseColumn), index(rowCount() - 1, UseColumn));
    emit choiceEdited();
}

void TableColumnsModel::setGroupColumn(const QString& name)
{
    if (name == m_group) return;
    m_group = name;
    for (std::size_t c = 0; c < m_feature.size(); ++c)
        if (!name.isEmpty() && m_table->columns[c].name == name) m_feature[c] = false;
    if (rowCount() > 0) emit dataChanged(index(0, UseColumn), index(rowCount() - 1, UseColumn));
    emit choiceEdited();
}

int TableColumnsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_table ? 0 : int(m_table->columns.size());
}

int TableColumnsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString TableColumnsModel::useText(int row) const
{
    const QString& name = m_table->columns[std::size_t(row)].name;
    if (name == m_label) return tr("label");
    if (!m_group.isEmpty() && name == m_group) return tr("group");
    return m_feature[std::size_t(row)] ? tr("feature") : tr("not used");
}

QVariant TableColumnsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const CsvColumn& col = m_table->columns[std::size_t(index.row())];
    const bool numeric = col.type == CsvColumn::Type::Integer || col.type == CsvColumn::Type::Number;
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case NameColumn: return col.name;
        case UseColumn: return useText(index.row());
        case TypeColumn: return columnTypeName(col.type);
        case MissingColumn: return QLocale().toString(qint64(col.missing));
        case MinColumn: return numeric ? formatNumber(col.min) : QString();
        case MaxColumn: return numeric ? formatNumber(col.max) : QString();
        case MeanColumn: return numeric ? formatNumber(col.mean) : QString();
        case HistogramColumn: return QString();
        default: return {};
        }
    }
    if (role == Qt::CheckStateRole && index.column() == UseColumn && col.name != m_label && col.name != m_group)
        return m_feature[std::size_t(index.row())] ? Qt::Checked : Qt::Unchecked;
    if (role == Qt::TextAlignmentRole && index.column() >= MissingColumn && index.column() <= MeanColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        if (index.column() == HistogramColumn)
            return numeric ? tr("%1 equal bins from %2 to %3").arg(CsvTable::kHistogramBins).arg(formatNumber(col.min), formatNumber(col.max))
                           : tr("Counts of the most frequent values (%1 distinct)").arg(col.distinct);
        if (index.column() == UseColumn) return tr("Checked columns are the model's input features");
    }
    if (role == HistogramRole) {
        QList<double> bars;
        const std::int64_t top = col.histogram.empty() ? 0 : *std::max_element(col.histogram.begin(), col.histogram.end());
        for (std::int64_t n : col.histogram) bars << (top > 0 ? double(n) / double(top) : 0.0);
        return QVariant::fromValue(bars);
    }
    return {};
}

bool TableColumnsModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!index.isValid() || role != Qt::CheckStateRole || index.column() != UseColumn) return false;
    const std::size_t row = std::size_t(index.row());
    const bool on = value.toInt() == Qt::Checked;
    if (m_feature[row] == on) return true;
    m_feature[row] = on;
    emit dataChanged(index, index);
    emit choiceEdited();
    return true;
}

Qt::ItemFlags TableColumnsModel::flags(const QModelIndex& index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && index.column() == UseColumn) {
        const QString& name = m_table->columns[std::size_t(index.row())].name;
        if (name != m_label && name != m_group) f |= Qt::ItemIsUserCheckable;
    }
    return f;
}

QVariant TableColumnsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case NameColumn: return tr("Column");
    case UseColumn: return tr("Use");
    case TypeColumn: return tr("Type");
    case MissingColumn: return tr("Missing");
    case MinColumn: return tr("Min");
    case MaxColumn: return tr("Max");
    case MeanColumn: return tr("Mean");
    case HistogramColumn: return tr("Distribution");
    default: return {};
    }
}

// --- TableRowsModel ---

TableRowsModel::TableRowsModel(QObject* parent) : QAbstractTableModel(parent) {}

void TableRowsModel::setTable(std::shared_ptr<const CsvTable> table)
{
    beginResetModel();
    m_table = std::move(table);
    endResetModel();
}

int TableRowsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_table ? 0 : int(m_table->records.size());
}

int TableRowsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_table ? 0 : int(m_table->header.size());
}

QVariant TableRowsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const ts::CsvRecord& r = m_table->records[std::size_t(index.row())];
    const std::size_t c = std::size_t(index.column());
    if (role == Qt::DisplayRole) return c < r.fields.size() ? QString::fromStdString(r.fields[c]) : QString();
    if (role == Qt::BackgroundRole && r.fields.size() != std::size_t(m_table->header.size()))
        return QColor(255, 220, 220);  // a ragged row: the reader refuses it
    if (role == Qt::ToolTipRole && r.fields.size() != std::size_t(m_table->header.size()))
        return tr("Line %1 has %2 fields, the header %3").arg(r.line).arg(r.fields.size()).arg(m_table->header.size());
    return {};
}

QVariant TableRowsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole || !m_table) return QAbstractTableModel::headerData(section, orientation, role);
    if (orientation == Qt::Horizontal) return section < m_table->header.size() ? m_table->header[section] : QString();
    return section < rowCount() ? QVariant(qint64(m_table->records[std::size_t(section)].line)) : QVariant();  // the file's line
}

// --- HistogramDelegate ---

void HistogramDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QStyledItemDelegate::paint(painter, option, index);  // background, selection
    const QList<double> bars = index.data(TableColumnsModel::HistogramRole).value<QList<double>>();
    if (bars.isEmpty()) return;
    const QRectF r = QRectF(option.rect).adjusted(3, 3, -3, -3);
    const double w = r.width() / bars.size();
    painter->save();
    painter->setPen(Qt::NoPen);
    painter->setBrush(option.palette.color(option.state & QStyle::State_Selected ? QPalette::HighlightedText : QPalette::Highlight));
    for (int i = 0; i < bars.size(); ++i) {
        const double h = std::max(bars[i] > 0 ? 1.0 : 0.0, bars[i] * r.height());  // a non-empty bin stays visible
        painter->drawRect(QRectF(r.x() + i * w + 0.5, r.bottom() - h, std::max(1.0, w - 1), h));
    }
    painter->restore();
}

QSize HistogramDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    const QSize s = QStyledItemDelegate::sizeHint(option, index);
    return {std::max(s.width(), option.fontMetrics.averageCharWidth() * 14), s.height()};
}

}  // namespace ts::ui
