#include "run_comparison.h"

#include <QCheckBox>
#include <QClipboard>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

#include "chart_grid.h"
#include "comparison_model.h"
#include "live_chart.h"

namespace ts::ui {

namespace {

// Tableau 10: distinct, and readable on light and dark backgrounds.
const QColor kRunColors[] = {{31, 119, 180}, {255, 127, 14}, {44, 160, 44},  {214, 39, 40},  {148, 103, 189},
                             {140, 86, 75},  {227, 119, 194}, {127, 127, 127}, {188, 189, 34}, {23, 190, 207}};

struct ComparedMetric {
    const char* id;
    bool perStep;  // smoothed, as on a run's own charts
};
// The order the charts take; a metric none of the runs has gets no chart.
const ComparedMetric kMetrics[] = {{"loss", true},      {"val_loss", false}, {"test_loss", false},
                                   {"train_loss", false}, {"val_acc", false}, {"test_acc", false},
                                   {"train_acc", false}, {"lr", true},       {"grad_norm", true}};

QString titleOf(const QString& metric)
{
    if (metric == QLatin1String("loss")) return RunComparison::tr("Loss (per step)");
    if (metric == QLatin1String("val_loss")) return RunComparison::tr("Validation loss");
    if (metric == QLatin1String("test_loss")) return RunComparison::tr("Test loss");
    if (metric == QLatin1String("train_loss")) return RunComparison::tr("Training loss (epoch)");
    if (metric == QLatin1String("val_acc")) return RunComparison::tr("Validation accuracy");
    if (metric == QLatin1String("test_acc")) return RunComparison::tr("Test accuracy");
    if (metric == QLatin1String("train_acc")) return RunComparison::tr("Training accuracy");
    if (metric == QLatin1String("lr")) return RunComparison::tr("Learning rate");
    return RunComparison::tr("Gradient norm");
}

}  // namespace

RunComparison::RunComparison(QWidget* parent) : QWidget(parent)
{
    m_charts = new widgets::ChartGrid;
    m_charts->setObjectName(QStringLiteral("comparisonCharts"));

    m_model = new ComparisonModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ComparisonModel::SortRole);
    m_proxy->setFilterRole(ComparisonModel::DiffersRole);
    m_proxy->setFilterKeyColumn(0);
    m_view = new QTableView;
    m_view->setObjectName(QStringLiteral("comparisonTable"));
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder);  // the model's order until a header is clicked
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);

    m_differencesOnly = new QCheckBox(tr("Differences only"));
    m_differencesOnly->setObjectName(QStringLiteral("differencesOnlyBox"));
    m_differencesOnly->setToolTip(tr("Hide the rows where every run has the same value"));
    auto* copyCsv = new QPushButton(tr("Copy as CSV"));
    auto* copyMarkdown = new QPushButton(tr("Copy as Markdown"));
    copyCsv->setObjectName(QStringLiteral("copyCsvButton"));
    copyMarkdown->setObjectName(QStringLiteral("copyMarkdownButton"));
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_differencesOnly);
    bar->addStretch(1);
    bar->addWidget(copyCsv);
    bar->addWidget(copyMarkdown);
    auto* tableTab = new QWidget;
    auto* tableLayout = new QVBoxLayout(tableTab);
    tableLayout->addLayout(bar);
    tableLayout->addWidget(m_view, 1);

    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("comparisonTabs"));
    m_tabs->addTab(m_charts, tr("Charts"));
    m_tabs->addTab(tableTab, tr("Differences"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);

    connect(m_differencesOnly, &QCheckBox::toggled, this, [this](bool on) {
        m_proxy->setFilterFixedString(on ? QStringLiteral("true") : QString());
    });
    connect(copyCsv, &QPushButton::clicked, this, [this] { copy(false); });
    connect(copyMarkdown, &QPushButton::clicked, this, [this] { copy(true); });
}

void RunComparison::showRuns(RunReader& reader, const QList<qint64>& runIds)
{
    std::vector<ComparisonModel::Run> runs;
    for (qint64 id : runIds)
        if (std::optional<RunInfo> info = reader.run(id)) runs.push_back({*info, reader.summaries(id), reader.parameters(id)});
    m_model->setRuns(runs);
    m_view->resizeColumnsToContents();
    if (runIds != m_runIds) {
        m_runIds = runIds;
        rebuildCharts(reader);
    }
    appendNewPoints(reader);
}

void RunComparison::clear()
{
    m_runIds.clear();
    m_lastStep.clear();
    m_charts->removeAllCharts();
    m_model->setRuns({});
}

// One chart per metric that any of the runs has, one series per run.
void RunComparison::rebuildCharts(RunReader& reader)
{
    m_charts->removeAllCharts();
    m_lastStep.clear();
    std::set<std::string> present;
    for (qint64 id : m_runIds)
        for (const std::string& name : reader.metricNames(id)) present.insert(name);
    for (const ComparedMetric& m : kMetrics) {
        if (!present.count(m.id)) continue;
        const QString metric = QString::fromLatin1(m.id);
        auto* chart = new widgets::LiveChart;
        chart->setObjectName(QStringLiteral("compare_") + metric);
        chart->setTitle(titleOf(metric));
        chart->setHoverReadout(true);
        int colour = 0;
        for (qint64 id : m_runIds) {
            const std::optional<RunInfo> info = reader.run(id);
            const QString key = QString::number(id);
            chart->addSeries(key, tr("%1 · %2").arg(id).arg(info ? QString::fromStdString(info->name) : QString()),
                             kRunColors[colour++ % std::size(kRunColors)]);
            if (m.perStep && metric != QLatin1String("lr")) chart->setSmoothing(key, 0.6);
            m_lastStep[{id, metric}] = -1;
        }
        m_charts->addChart(metric, chart);
    }
}

qint64 RunComparison::appendNewPoints(RunReader& reader)
{
    qint64 appended = 0;
    for (auto& [key, lastStep] : m_lastStep) {
        const auto& [runId, metric] = key;
        const MetricSeries read = reader.metric(runId, metric.toStdString(), lastStep);
        if (read.steps.empty()) continue;
        widgets::ChartSamples samples;
        samples.step.assign(read.steps.begin(), read.steps.end());
        samples.time = read.wallTimes;
        samples.value = read.values;
        chart(metric)->append(QString::number(runId), samples);
        lastStep = read.steps.back();
        appended += qint64(read.steps.size());
    }
    return appended;
}

widgets::LiveChart* RunComparison::chart(const QString& metric) const { return m_charts->chart(metric); }

qint64 RunComparison::pointCount(const QString& metric, qint64 runId) const
{
    widgets::LiveChart* c = chart(metric);
    const QString key = QString::number(runId);
    return c && c->hasSeries(key) ? qint64(c->pointCount(key)) : -1;
}

void RunComparison::copy(bool markdown) const
{
    QGuiApplication::clipboard()->setText(markdown ? ComparisonModel::toMarkdown(*m_proxy) : ComparisonModel::toCsv(*m_proxy));
}

}  // namespace ts::ui
