#include "comparison_model.h"

#include <QCollator>
#include <QFont>
#include <QLocale>
#include <QRegularExpression>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "graph/cost_model.h"
#include "graph/graph.h"
#include "io/yaml/experiment_yaml.h"
#include "runs_model.h"
#include "ui/hyperparameters/option_help.h"

namespace ts::ui {

namespace {

// Parameters and forward MFLOPs a sample of the stored model; NaN when it does not read.
std::pair<double, double> modelSize(const std::string& experimentYaml)
{
    try {
        const CostReport cost = estimateCost(checkGraph(parseExperiment(experimentYaml, "stored experiment").model));
        return {double(cost.parameters), cost.flops / 1e6};
    } catch (const std::exception&) {
        return {std::nan(""), std::nan("")};
    }
}

// How many decimals the values are written with, so a mean reads like them ("91.24 ± 0.31 %");
// -1 when one is in scientific notation.
int decimalsOf(const QStringList& values)
{
    int decimals = 0;
    for (QString v : values) {
        v.remove(QLatin1String(" %"));
        if (v.contains(QLatin1Char('e'), Qt::CaseInsensitive)) return -1;
        const qsizetype point = v.indexOf(QLocale().decimalPoint());
        if (point >= 0) decimals = std::max(decimals, int(v.size() - point - 1));
    }
    return decimals;
}

QString csvField(QString text)
{
    if (text.contains(QLatin1Char(',')) || text.contains(QLatin1Char('"')) || text.contains(QLatin1Char('\n')))
        text = QLatin1Char('"') + text.replace(QLatin1String("\""), QLatin1String("\"\"")) + QLatin1Char('"');
    return text;
}

QString markdownField(QString text) { return text.replace(QLatin1Char('|'), QLatin1String("\\|")).replace(QLatin1Char('\n'), QLatin1Char(' ')); }

// Header and rows of a model as text, fields turned by `field`, joined by `join`.
QStringList tableLines(const QAbstractItemModel& model, QString (*field)(QString), const QString& separator,
                       const QString& before = {}, const QString& after = {})
{
    QStringList lines;
    QStringList header;
    for (int c = 0; c < model.columnCount(); ++c) header << field(model.headerData(c, Qt::Horizontal).toString());
    lines << before + header.join(separator) + after;
    for (int r = 0; r < model.rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < model.columnCount(); ++c) cells << field(model.index(r, c).data().toString());
        lines << before + cells.join(separator) + after;
    }
    return lines;
}

}  // namespace

ComparisonModel::ComparisonModel(QObject* parent) : QAbstractTableModel(parent) {}

void ComparisonModel::addRow(const QString& name, const QStringList& values, bool setting)
{
    Row row;
    row.name = name;
    row.values = values;
    row.setting = setting;
    for (const QString& v : values) {
        row.differs = row.differs || v != values.front();
        bool ok = false;
        const double n = QLocale().toDouble(QString(v).remove(QLatin1String(" %")).remove(QLocale().groupSeparator()), &ok);
        row.numbers << (ok ? n : std::nan(""));
    }
    m_rows.push_back(row);
}

std::function<QString(double)> ComparisonModel::rowFormat(const std::vector<double>& values)
{
    double lo = INFINITY, hi = 0;
    for (double v : values)
        if (std::isfinite(v) && v != 0) {
            lo = std::min(lo, std::abs(v));
            hi = std::max(hi, std::abs(v));
        }
    char format = 'f';
    int precision = 0;  // no nonzero value: "0"
    if (hi >= 1e6 || lo < 1e-3) {
        format = 'e';
        precision = 3;
    } else if (std::isfinite(lo)) {
        precision = std::clamp(3 - int(std::floor(std::log10(lo))), 0, 6);
    }
    return [format, precision](double v) {
        return std::isfinite(v) ? QLocale().toString(v, format, precision) : QStringLiteral("—");
    };
}

namespace {

// The Hyperparameters page's label of an option, or of one value of a list option
// ("Normalisation mean [0]"); empty for a key that is not an option there.
QString optionLabelOf(const QString& key)
{
    const QString own = optionLabel(key.toStdString());
    if (own != key) return own;
    static const QRegularExpression item(QStringLiteral("^(.+)\\.(\\d+)$"));  // one value of a list: mean.0
    if (const QRegularExpressionMatch m = item.match(key); m.hasMatch()) {
        const QString list = optionLabel(m.captured(1).toStdString());
        if (list != m.captured(1)) return ComparisonModel::tr("%1 [%2]").arg(list, m.captured(2));
    }
    return {};
}

}  // namespace

QString ComparisonModel::settingLabel(const QString& key)
{
    static const QRegularExpression layer(QStringLiteral("^model\\.layers\\.(\\d+)(?:\\.([^.]+)\\.(.+))?$"));
    if (const QRegularExpressionMatch m = layer.match(key); m.hasMatch())
        return m.captured(2).isEmpty() ? tr("Layer %1").arg(m.captured(1))
                                       : tr("Layer %1 (%2): %3").arg(m.captured(1), m.captured(2), m.captured(3));
    if (const QString option = optionLabelOf(key); !option.isEmpty()) return option;
    if (key == QLatin1String("name")) return tr("Experiment name");
    if (key == QLatin1String("description")) return tr("Description");
    if (key == QLatin1String("sweep")) return tr("Sweep");
    return key;
}

QStringList ComparisonModel::sortedByLabel(QStringList keys)
{
    // The C locale's collator compares code points only (no numeric mode): English rules then.
    const QLocale locale = QLocale().language() == QLocale::C ? QLocale(QLocale::English) : QLocale();
    QCollator collator(locale);
    collator.setNumericMode(true);
    collator.setCaseSensitivity(Qt::CaseInsensitive);
    // Each key's label once (they are looked up in the option table), not once per comparison.
    struct Keyed {
        QString key, label;
        bool option;
    };
    std::vector<Keyed> keyed;
    for (const QString& key : keys) keyed.push_back({key, settingLabel(key), !optionLabelOf(key).isEmpty()});
    std::stable_sort(keyed.begin(), keyed.end(), [&](const Keyed& a, const Keyed& b) {
        if (a.option != b.option) return a.option;  // what people tune before the model's layers and names
        const int byLabel = collator.compare(a.label, b.label);
        return byLabel != 0 ? byLabel < 0 : collator.compare(a.key, b.key) < 0;
    });
    QStringList sorted;
    for (const Keyed& k : keyed) sorted << k.key;
    return sorted;
}

void ComparisonModel::addNumberRow(const QString& name, const std::vector<double>& values)
{
    const auto format = rowFormat(values);
    QStringList texts;
    for (double v : values) texts << format(v);
    addRow(name, texts);
    Row& row = m_rows.back();
    row.numbers = QVector<double>(values.begin(), values.end());
    row.format = format;
}

void ComparisonModel::setRuns(const std::vector<Run>& runs)
{
    beginResetModel();
    m_runNames.clear();
    m_rows.clear();
    for (const Run& r : runs) m_runNames << tr("%1 · %2").arg(r.info.id).arg(QString::fromStdString(r.info.name));
    auto each = [&](auto&& value) {
        QStringList values;
        for (const Run& r : runs) values << value(r);
        return values;
    };

    addRow(tr("Result"), each([](const Run& r) { return RunsModel::resultText(headlineResult(r.summaries)); }));
    addRow(tr("Status"), each([](const Run& r) { return RunsModel::statusText(r.info.status); }));
    addRow(tr("Active time"), each([](const Run& r) { return RunsModel::durationText(activeSeconds(r.info, r.summaries)); }));
    m_rows.back().numbers.clear();
    for (const Run& r : runs) m_rows.back().numbers << activeSeconds(r.info, r.summaries);
    m_rows.back().format = &RunsModel::durationText;
    addRow(tr("Device"), each([](const Run& r) { return QString::fromStdString(r.info.device); }));
    std::vector<double> parameters, flops;
    for (const Run& r : runs) {
        const auto [p, f] = modelSize(r.info.experimentYaml);
        parameters.push_back(p);
        flops.push_back(f);
    }
    QStringList parameterTexts;  // whole numbers: one format already
    for (double p : parameters) parameterTexts << (std::isfinite(p) ? QLocale().toString(qint64(p)) : QStringLiteral("—"));
    addRow(tr("Parameters"), parameterTexts);
    addNumberRow(tr("MFLOPs a sample"), flops);

    // The best and last of each metric that has a direction, in name order.
    std::set<std::string> goalMetrics;
    for (const Run& r : runs)
        for (const MetricSummary& s : r.summaries)
            if (metricGoal(s.name) != MetricGoal::None) goalMetrics.insert(s.name);
    for (const std::string& metric : goalMetrics) {
        auto find = [&](const Run& r) -> const MetricSummary* {
            for (const MetricSummary& s : r.summaries)
                if (s.name == metric) return &s;
            return nullptr;
        };
        const QString name = QString::fromStdString(metric);
        const bool accuracy = metric.ends_with("_acc");  // "91.24 %" in every run already
        for (const bool best : {true, false}) {
            const QString rowName = best ? tr("best %1").arg(name) : tr("last %1").arg(name);
            if (accuracy) {
                addRow(rowName, each([&](const Run& r) {
                           const MetricSummary* s = find(r);
                           return s ? RunsModel::metricText(metric, best ? s->best : s->last) : QStringLiteral("—");
                       }));
            } else {
                std::vector<double> values;
                for (const Run& r : runs) {
                    const MetricSummary* s = find(r);
                    values.push_back(s ? (best ? s->best : s->last) : std::nan(""));
                }
                addNumberRow(rowName, values);
            }
            m_rows.back().metric = name;
        }
    }

    // Settings: the store keeps only values that differ from the defaults, so a key one run
    // lacks is that run's default.
    std::map<std::string, std::vector<QString>> settings;
    for (std::size_t i = 0; i < runs.size(); ++i)
        for (const auto& [key, value] : runs[i].parameters) {
            auto& values = settings[key];
            values.resize(runs.size(), tr("(default)"));
            values[i] = QString::fromStdString(value);
        }
    for (auto& [key, values] : settings) {
        values.resize(runs.size(), tr("(default)"));
        addRow(QString::fromStdString(key), QStringList(values.begin(), values.end()), true);
    }
    // The sweep a run is a trial of (its "sweep:<id>" tag) is a setting too: runs of several
    // sweeps group by it.
    QStringList sweeps;
    for (const Run& r : runs) {
        const auto tag = std::find_if(r.info.tags.begin(), r.info.tags.end(), [](const std::string& t) { return t.rfind("sweep:", 0) == 0; });
        sweeps << (tag == r.info.tags.end() ? tr("(none)") : QString::fromStdString(tag->substr(6)));
    }
    if (sweeps.count(tr("(none)")) < sweeps.size()) addRow(QStringLiteral("sweep"), sweeps, true);
    if (!differingSettings().contains(m_groupKey)) m_groupKey.clear();
    rebuildColumns();
    endResetModel();
}

void ComparisonModel::setGroupBy(const QString& key)
{
    beginResetModel();
    m_groupKey = differingSettings().contains(key) ? key : QString();
    rebuildColumns();
    endResetModel();
}

void ComparisonModel::rebuildColumns()
{
    m_columns.clear();
    if (m_groupKey.isEmpty()) {
        for (int i = 0; i < m_runNames.size(); ++i) m_columns.push_back({m_runNames[i], {i}});
    } else {
        std::map<QString, QVector<int>> groups;  // ordered by value, as the group charts are
        for (int i = 0; i < m_runNames.size(); ++i) groups[settingValue(m_groupKey, i)].push_back(i);
        for (const auto& [value, runs] : groups)
            m_columns.push_back({tr("%1 = %2 (n = %3)").arg(settingLabel(m_groupKey), value).arg(runs.size()), runs});
    }
    for (Row& row : m_rows) {
        row.shown.clear();
        row.shownNumbers.clear();
        for (const Column& column : m_columns) cell(row, column);
        row.shownDiffers = false;
        for (const QString& v : row.shown) row.shownDiffers = row.shownDiffers || v != row.shown.front();
    }
}

void ComparisonModel::cell(Row& row, const Column& column) const
{
    QStringList values;
    QVector<double> numbers;
    for (int run : column.runs) {
        values << row.values.value(run);
        numbers << row.numbers.value(run, std::nan(""));
    }
    const bool agree = std::all_of(values.begin(), values.end(), [&](const QString& v) { return v == values.front(); });
    const bool numeric = std::all_of(numbers.begin(), numbers.end(), [](double v) { return std::isfinite(v); });
    double mean = std::nan("");
    if (numeric && !numbers.isEmpty()) {
        mean = std::accumulate(numbers.begin(), numbers.end(), 0.0) / double(numbers.size());
    }
    row.shownNumbers << mean;
    if (agree) {
        row.shown << values.value(0);
        return;
    }
    if (row.setting || !numeric) {  // a setting is not averaged: it is the group's values
        QStringList distinct = values;
        distinct.removeDuplicates();
        row.shown << (distinct.size() <= 3 ? distinct.join(QLatin1String(", ")) : tr("%n values", nullptr, int(distinct.size())));
        return;
    }
    double squares = 0;
    for (double v : numbers) squares += (v - mean) * (v - mean);
    const double spread = numbers.size() > 1 ? std::sqrt(squares / double(numbers.size() - 1)) : 0.0;
    if (row.format) {
        row.shown << tr("%1 ± %2").arg(row.format(mean), row.format(spread));
        return;
    }
    const int decimals = decimalsOf(values);
    const bool percent = values.front().endsWith(QLatin1String(" %"));
    // In scientific notation: the mean to 4 digits as the runs' values are, the spread to 2.
    const QString meanText = decimals < 0 ? QLocale().toString(mean, 'g', 4) : QLocale().toString(mean, 'f', decimals);
    const QString spreadText = decimals < 0 ? QLocale().toString(spread, 'g', 2) : QLocale().toString(spread, 'f', decimals);
    row.shown << tr("%1 ± %2").arg(meanText, spreadText) + (percent ? QStringLiteral(" %") : QString());
}

QStringList ComparisonModel::differingSettings() const
{
    QStringList keys;
    for (const Row& r : m_rows)
        if (r.setting && r.differs) keys << r.name;
    return keys;
}

QStringList ComparisonModel::sharedSettings() const
{
    QStringList keys;
    for (const Row& r : m_rows)
        if (r.setting && !r.differs) keys << r.name;
    return keys;
}

QString ComparisonModel::settingValue(const QString& key, int runIndex) const
{
    for (const Row& r : m_rows)
        if (r.setting && r.name == key) return r.values.value(runIndex);
    return tr("(default)");
}

int ComparisonModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_rows.size()); }
int ComparisonModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_columns.size()) + 1;
}

QVariant ComparisonModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const Row& row = m_rows[index.row()];
    const QString text = index.column() == 0 ? row.name : row.shown.value(index.column() - 1);
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole: return text;
    case DiffersRole: return row.shownDiffers;
    case SortRole: {  // numbers as numbers, so 10 sorts after 9; a group by its mean
        const double v = index.column() == 0 ? std::nan("") : row.shownNumbers.value(index.column() - 1, std::nan(""));
        return std::isfinite(v) ? QVariant(v) : QVariant(text);
    }
    case Qt::FontRole:
        if (row.shownDiffers && index.column() > 0) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    default: return {};
    }
}

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    return section == 0 ? tr("Setting or result") : m_columns.value(section - 1).name;
}

QString ComparisonModel::toCsv(const QAbstractItemModel& model)
{
    return tableLines(model, csvField, QStringLiteral(",")).join(QLatin1Char('\n')) + QLatin1Char('\n');
}

QString ComparisonModel::toMarkdown(const QAbstractItemModel& model)
{
    QStringList lines = tableLines(model, markdownField, QStringLiteral(" | "), QStringLiteral("| "), QStringLiteral(" |"));
    QStringList rule;
    for (int c = 0; c < model.columnCount(); ++c) rule << QStringLiteral("---");
    lines.insert(1, QStringLiteral("| ") + rule.join(QStringLiteral(" | ")) + QStringLiteral(" |"));
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

}  // namespace ts::ui
