#include "run_comparison.h"

#include "ui/metric_names.h"

#include <QCheckBox>
#include <QClipboard>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QAbstractItemView>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QTextDocumentFragment>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <set>

#include "chart_grid.h"
#include "comparison_model.h"
#include "comparison_reads.h"
#include "live_chart.h"
#include "model_diff_view.h"
#include "parallel_coordinates.h"
#include "trade_off_chart.h"

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

QString titleOf(const QString& metric) { return MetricNames::label(metric); }

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
    m_groupBox = new QComboBox;
    m_groupBox->setObjectName(QStringLiteral("groupByBox"));
    m_groupBox->setToolTip(tr("Draw each group of runs sharing this setting as its mean with a ±1 standard deviation band"));
    // As wide as a typical label; the open list is as wide as its longest.
    m_groupBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_groupBox->setMinimumContentsLength(16);
    // A list that scrolls, however many settings there are: styles that open the popup over the
    // box as one long menu (Fusion) let it run past the window's edge.
    m_groupBox->setStyleSheet(QStringLiteral("QComboBox { combobox-popup: 0; }"));
    m_groupBox->setMaxVisibleItems(15);
    auto* groupLabel = new QLabel(tr("Group by:"));
    groupLabel->setBuddy(m_groupBox);
    m_legend = new QLabel;
    m_legend->setObjectName(QStringLiteral("comparisonLegend"));
    m_legend->setWordWrap(true);
    m_legend->setTextFormat(Qt::RichText);
    auto* groupBar = new QHBoxLayout;
    groupBar->addWidget(groupLabel);
    groupBar->addWidget(m_groupBox);
    groupBar->addSpacing(12);
    groupBar->addWidget(m_legend, 1);
    auto* chartsTab = new QWidget;
    auto* chartsLayout = new QVBoxLayout(chartsTab);
    chartsLayout->setContentsMargins(4, 4, 4, 0);
    chartsLayout->addLayout(groupBar);
    chartsLayout->addWidget(m_charts, 1);
    connect(m_groupBox, &QComboBox::activated, this, [this](int index) {
        setGroupBy(m_groupBox->itemData(index).toString());
    });
    m_tabs->addTab(chartsTab, tr("Charts"));
    m_tabs->addTab(tableTab, tr("Differences"));
    m_tradeOff = new TradeOffChart;
    m_tradeOff->setObjectName(QStringLiteral("tradeOffChart"));
    m_tabs->addTab(m_tradeOff, tr("Trade-offs"));
    connect(m_tradeOff, &TradeOffChart::runClicked, this, &RunComparison::runActivated);
    m_parallel = new ParallelCoordinates;
    m_parallel->setObjectName(QStringLiteral("parallelCoordinates"));
    m_tabs->addTab(m_parallel, tr("Parallel coordinates"));
    connect(m_parallel, &ParallelCoordinates::runClicked, this, &RunComparison::runActivated);
    m_modelDiff = new ModelDiffView;
    m_modelDiff->setObjectName(QStringLiteral("modelDiffView"));
    m_tabs->addTab(m_modelDiff, tr("Two models"));
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
    fitTableColumns();
    m_tradeOff->setModel(m_model, QVector<qint64>(runIds.begin(), runIds.end()));
    m_parallel->setRuns(m_model, runs);
    m_tabs->setTabEnabled(m_tabs->indexOf(m_modelDiff), runIds.size() == 2);
    m_modelDiff->showRuns(reader, runIds);
    m_lastReader = &reader;
    const bool changed = runIds != m_runIds;
    m_runIds = runIds;
    updateGroupBox();
    if (!m_groupKey.isEmpty()) {
        rebuildGroupCharts(reader);  // the means change with every new point: drawn afresh
        return;
    }
    if (changed) rebuildCharts(reader);
    appendNewPoints(reader);
}

// The settings the runs differ on, by their labels in natural order; below them, greyed out,
// those all runs share (nothing to group by, but a user looking for one sees why). A choice
// that no longer differs falls back to none.
void RunComparison::updateGroupBox()
{
    const QStringList keys = ComparisonModel::sortedByLabel(m_model->differingSettings());
    if (!keys.contains(m_groupKey)) m_groupKey.clear();
    const QSignalBlocker block(m_groupBox);
    m_groupBox->clear();
    m_groupBox->addItem(tr("(none)"), QString());
    auto add = [this](const QString& key, const QString& tip) {
        m_groupBox->addItem(ComparisonModel::settingLabel(key), key);
        m_groupBox->setItemData(m_groupBox->count() - 1, tip.arg(key), Qt::ToolTipRole);
    };
    for (const QString& key : keys) add(key, tr("%1: the runs differ on it"));
    const QStringList shared = ComparisonModel::sortedByLabel(m_model->sharedSettings());
    if (!shared.isEmpty()) m_groupBox->insertSeparator(m_groupBox->count());
    auto* items = qobject_cast<QStandardItemModel*>(m_groupBox->model());
    for (const QString& key : shared) {
        add(key, tr("%1: every run has the same value, so there is nothing to group"));
        if (items) items->item(m_groupBox->count() - 1)->setEnabled(false);
    }
    m_groupBox->setCurrentIndex(std::max(0, m_groupBox->findData(m_groupKey)));
    QAbstractItemView* list = m_groupBox->view();
    list->setMinimumWidth(list->sizeHintForColumn(0) + list->style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 8);
}

void RunComparison::setGroupBy(const QString& key)
{
    if (key == m_groupKey) return;
    m_groupKey = m_model->differingSettings().contains(key) ? key : QString();
    m_groupBox->setCurrentIndex(std::max(0, m_groupBox->findData(m_groupKey)));
    m_model->setGroupBy(m_groupKey);  // the table shows each group's mean ± std too
    fitTableColumns();
    if (!m_lastReader) return;
    if (m_groupKey.isEmpty()) {
        rebuildCharts(*m_lastReader);
        appendNewPoints(*m_lastReader);
    } else {
        rebuildGroupCharts(*m_lastReader);
    }
}

// To their contents, but no wider than 30 characters: a long value (a description) is
// elided with its whole text in the tooltip, so every run's column stays in view.
void RunComparison::fitTableColumns()
{
    m_view->resizeColumnsToContents();
    const int widest = m_view->fontMetrics().horizontalAdvance(QLatin1Char('x')) * 30;
    for (int c = 0; c < m_model->columnCount(); ++c) m_view->setColumnWidth(c, std::min(m_view->columnWidth(c), widest));
}

void RunComparison::setLegend(const QStringList& names)
{
    QStringList items;
    for (int i = 0; i < names.size(); ++i)
        items << QStringLiteral("<span style=\"color:%1\">■</span>&nbsp;%2")
                     .arg(kRunColors[std::size_t(i) % std::size(kRunColors)].name(),
                          names[i].toHtmlEscaped().replace(QLatin1Char(' '), QStringLiteral("&nbsp;")));  // wrap between entries only
    m_legend->setText(items.join(QStringLiteral(" &nbsp; ")));
}

QString RunComparison::legendText() const { return QTextDocumentFragment::fromHtml(m_legend->text()).toPlainText(); }

RunComparison::Band RunComparison::meanAndSpread(const std::vector<MetricSeries>& runs)
{
    std::map<std::int64_t, std::vector<double>> byStep;
    for (const MetricSeries& r : runs)
        for (std::size_t i = 0; i < r.steps.size(); ++i)
            if (std::isfinite(r.values[i])) byStep[r.steps[i]].push_back(r.values[i]);
    Band band;
    for (const auto& [step, values] : byStep) {
        double sum = 0;
        for (double v : values) sum += v;
        const double mean = sum / double(values.size());
        double squares = 0;
        for (double v : values) squares += (v - mean) * (v - mean);
        band.steps.push_back(double(step));
        band.mean.push_back(mean);
        band.std.push_back(values.size() > 1 ? std::sqrt(squares / double(values.size() - 1)) : 0.0);
    }
    return band;
}

// One mean line and one shaded band per group, per chart, on the charts' x axis. Drawn anew
// when the runs, the grouping or the axis changed, or while one of the runs still trains.
void RunComparison::rebuildGroupCharts(RunReader& reader)
{
    ComparisonLoads& l = loads();
    const bool sameGroups = l.groupedBy == m_groupKey && l.groupedRuns == m_runIds;
    const bool live = std::any_of(m_runIds.begin(), m_runIds.end(), [&](qint64 id) {
        const std::optional<RunInfo> info = reader.run(id);
        return info && info->status == RunStatus::Running;
    });
    if (sameGroups && l.groupedMode == l.mode && !live) return;
    if (!sameGroups) {
        rebuildCharts(reader);  // the charts of the metrics present, with a series per run ...
        for (widgets::LiveChart* chart : m_charts->charts())
            for (const QString& id : chart->seriesIds()) chart->removeSeries(id);  // ... to be the groups'
        m_lastStep.clear();  // nothing is read incrementally while grouped
        std::map<QString, int> sizes;  // value -> runs, in the order the groups take
        for (int i = 0; i < m_runIds.size(); ++i) ++sizes[m_model->settingValue(m_groupKey, i)];
        l.groupNames.clear();
        for (const auto& [value, n] : sizes) l.groupNames << tr("%1 = %2 (n = %3)").arg(ComparisonModel::settingLabel(m_groupKey), value).arg(n);
        setLegend(l.groupNames);
        l.groupedBy = m_groupKey;
        l.groupedRuns = m_runIds;
    }
    l.groupedMode = l.mode;
    requestGroupBands(&reader);
}

void RunComparison::clear()
{
    if (m_loads) {  // reads still running are for runs no longer shown
        ++m_loads->generation;
        m_loads->reading = m_loads->pointsAgain = false;
        m_loads->groupedBy.clear();
        m_loads->groupedRuns.clear();
    }
    m_runIds.clear();
    m_lastStep.clear();
    m_charts->removeAllCharts();
    m_model->setRuns({});
    m_tradeOff->setModel(m_model, {});
    m_parallel->setRuns(m_model, {});
    m_modelDiff->clear();
}

// One chart per metric that any of the runs has, one series per run; their points come
// with appendNewPoints().
void RunComparison::rebuildCharts(RunReader& reader)
{
    ComparisonLoads& l = loads();
    ++l.generation;  // reads for the charts removed here are ignored
    l.reading = l.pointsAgain = false;
    l.groupedBy.clear();
    l.groupedRuns.clear();
    m_charts->removeAllCharts();
    m_lastStep.clear();
    QStringList names;
    for (qint64 id : m_runIds) {
        const std::optional<RunInfo> info = reader.run(id);
        names << tr("%1 · %2").arg(id).arg(info ? QString::fromStdString(info->name) : QString());
    }
    setLegend(names);
    std::set<std::string> present;
    for (qint64 id : m_runIds)
        for (const std::string& name : reader.metricNames(id)) present.insert(name);
    const bool background = !l.workspace.directory.empty();
    for (const ComparedMetric& m : kMetrics) {
        if (!present.count(m.id)) continue;
        const QString metric = QString::fromLatin1(m.id);
        auto* chart = new widgets::LiveChart;
        chart->setObjectName(QStringLiteral("compare_") + metric);
        chart->setTitle(titleOf(metric));
        chart->setHoverReadout(true);
        chart->setLegendShown(false);  // one legend above all charts
        chart->setXAxisMode(l.mode);   // what the grid's x axis box says
        if (background) chart->setEmptyNote(tr("Loading…"));
        for (int i = 0; i < m_runIds.size(); ++i) {
            const qint64 id = m_runIds[i];
            const QString key = QString::number(id);
            chart->addSeries(key, names[i], kRunColors[std::size_t(i) % std::size(kRunColors)]);  // the legend's names
            if (m.perStep && metric != QLatin1String("lr")) chart->setSmoothing(key, 0.6);
            m_lastStep[{id, metric}] = -1;
        }
        // Group bands are computed for one x axis: another axis needs them again. Queued: the
        // grid is still setting its other charts' axis.
        connect(chart, &widgets::LiveChart::xAxisModeChanged, this, [this](widgets::XAxisMode mode) {
            if (mode == loads().mode) return;
            loads().mode = mode;
            QMetaObject::invokeMethod(this, [this] {
                if (m_groupKey.isEmpty() || loads().groupedBy != m_groupKey) return;
                loads().groupedMode = loads().mode;
                requestGroupBands(m_lastReader);
            }, Qt::QueuedConnection);
        });
        m_charts->addChart(metric, chart);
    }
}

qint64 RunComparison::appendNewPoints(RunReader& reader)
{
    ComparisonLoads& l = loads();
    if (!l.groupedBy.isEmpty()) rebuildCharts(reader);  // the groups are gone: the runs' own series again
    if (!l.workspace.directory.empty()) {
        if (l.reading) l.pointsAgain = true;  // read from where the running read ends
        else requestPoints();
        return 0;
    }
    const std::atomic<bool> never{false};
    ComparedPointsRead read = readComparedPoints(reader, wantedPoints(), never);
    return applyPoints(read);
}

ComparisonLoads& RunComparison::loads()
{
    if (!m_loads) {
        m_loads = std::make_unique<ComparisonLoads>();
        connect(&m_loads->points, &QFutureWatcherBase::finished, this, &RunComparison::pointsRead);
        connect(&m_loads->bands, &QFutureWatcherBase::finished, this, &RunComparison::bandsRead);
    }
    return *m_loads;
}

RunComparison::~RunComparison() = default;

void RunComparison::setWorkspace(const Workspace& workspace) { loads().workspace = workspace; }

bool RunComparison::isLoading() const { return m_loads && m_loads->reading; }

void RunComparison::requestPoints()
{
    ComparisonLoads& l = loads();
    std::vector<ComparedSeries> wanted = wantedPoints();
    l.reading = true;
    l.pointsAgain = false;
    l.points.setFuture(l.background.run(
        l.workspace, [wanted = std::move(wanted), generation = l.generation](RunReader& reader, const std::atomic<bool>& cancelled) {
            ComparedPointsRead read = readComparedPoints(reader, wanted, cancelled);
            read.generation = generation;
            return read;
        }));
}

void RunComparison::pointsRead()
{
    ComparisonLoads& l = loads();
    ComparedPointsRead read = l.points.future().takeResult();  // moved: it may hold millions of points
    if (read.generation != l.generation || read.cancelled) return;  // for charts no longer shown
    l.reading = false;
    for (widgets::LiveChart* c : m_charts->charts()) c->setEmptyNote(read.error.isEmpty() ? QString() : read.error);
    if (!read.error.isEmpty()) {
        emit readFailed(read.error);
        return;
    }
    applyPoints(read);
    emit chartsLoaded();
    if (l.pointsAgain) requestPoints();
}

// Every charted (run, metric) after its last step read, with the chart's smoothing weight.
std::vector<ComparedSeries> RunComparison::wantedPoints() const
{
    std::vector<ComparedSeries> wanted;
    for (const auto& [key, lastStep] : m_lastStep) {
        const widgets::LiveChart* c = chart(key.second);
        wanted.push_back({key.first, key.second, lastStep, c ? c->smoothing(QString::number(key.first)) : 0.0, {}, {}});
    }
    return wanted;
}

qint64 RunComparison::applyPoints(ComparedPointsRead& read)
{
    qint64 appended = 0;
    for (ComparedSeries& s : read.series) {
        const auto known = m_lastStep.find({s.runId, s.metric});
        widgets::LiveChart* c = chart(s.metric);
        if (known == m_lastStep.end() || !c) continue;
        const QString id = QString::number(s.runId);
        if (s.whole) {
            appended += qint64(s.whole->size());
            c->setData(id, std::move(*s.whole));
        } else {
            c->append(id, s.samples);
            appended += qint64(s.samples.value.size());
        }
        known->second = s.lastStep;
    }
    return appended;
}

// `reader` is read only without a workspace (at once, on the caller's thread).
void RunComparison::requestGroupBands(RunReader* reader)
{
    ComparisonLoads& l = loads();
    const bool background = !l.workspace.directory.empty();
    if (background && l.reading && l.bandsMode == l.mode) {
        l.pointsAgain = true;  // the same bands with newer points, once the running read is done
        return;
    }
    if (!background && !reader) return;
    std::map<QString, std::vector<qint64>> byValue;  // value -> runs: the groups, in legend order
    for (int i = 0; i < m_runIds.size(); ++i) byValue[m_model->settingValue(m_groupKey, i)].push_back(m_runIds[i]);
    std::vector<std::vector<qint64>> groups;
    for (auto& [value, runs] : byValue) groups.push_back(std::move(runs));
    std::vector<QString> metrics;
    for (const QString& id : m_charts->chartIds()) metrics.push_back(id);
    if (!background) {
        const std::atomic<bool> never{false};
        applyGroupBands(readGroupBands(*reader, metrics, groups, l.mode, never));
        return;
    }
    ++l.generation;  // a band read still running is for another axis
    l.reading = true;
    l.pointsAgain = false;
    l.bandsMode = l.mode;
    l.bands.setFuture(l.background.run(
        l.workspace, [metrics, groups, mode = l.mode, generation = l.generation](RunReader& r, const std::atomic<bool>& cancelled) {
            GroupBandsRead read = readGroupBands(r, metrics, groups, mode, cancelled);
            read.generation = generation;
            return read;
        }));
}

void RunComparison::bandsRead()
{
    ComparisonLoads& l = loads();
    const GroupBandsRead read = l.bands.future().takeResult();
    if (read.generation != l.generation || read.cancelled) return;
    l.reading = false;
    for (widgets::LiveChart* c : m_charts->charts()) c->setEmptyNote(read.error.isEmpty() ? QString() : read.error);
    if (!read.error.isEmpty()) {
        emit readFailed(read.error);
        return;
    }
    applyGroupBands(read);
    emit chartsLoaded();
    if (l.pointsAgain) requestGroupBands(nullptr);
}

// Each group's series are replaced, not cleared: a user's zoom survives a live refresh.
void RunComparison::applyGroupBands(const GroupBandsRead& read)
{
    const QStringList& names = loads().groupNames;
    for (const GroupBand& band : read.bands) {
        widgets::LiveChart* c = chart(band.metric);
        if (!c || band.group >= names.size()) continue;
        const QColor colour = kRunColors[std::size_t(band.group) % std::size(kRunColors)];
        const QString id = QStringLiteral("group%1").arg(band.group);
        const QString low = id + QStringLiteral("_low"), high = id + QStringLiteral("_high");
        for (const QString& s : {low, high, id}) c->removeSeries(s);
        c->addSeries(low, QString(), colour, widgets::LiveChart::Style::Band);
        c->addSeries(high, QString(), colour, widgets::LiveChart::Style::Band);
        c->addSeries(id, names[band.group], colour);
        c->fillBetween(low, high, colour);
        // The band's x in every mode: it was computed for the one shown (the others rebuild it).
        auto samples = [&](const std::vector<double>& y) {
            return widgets::ChartSamples{band.x, band.x, band.x, y};
        };
        c->append(id, samples(band.mean));
        c->append(low, samples(band.low));
        c->append(high, samples(band.high));
    }
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
