#include "run_charts.h"

#include <QGridLayout>
#include <QLocale>

#include "live_chart.h"
#include "metric_charts.h"

namespace ts::ui {

RunCharts::RunCharts(QWidget* parent) : QWidget(parent)
{
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    // The stored metrics the Train page charts live, in the same charts.
    for (const char* id : {"loss", "accuracy", "lr", "grad_norm"}) {
        widgets::LiveChart* c = MetricCharts::create(QString::fromLatin1(id));
        grid->addWidget(c, grid->count() / 2, grid->count() % 2);
        for (const QString& metric : c->seriesIds()) m_series.push_back({metric, c, -1});
    }
    m_lossChart = m_series.front().chart;
}

qint64 RunCharts::update(RunReader& reader, qint64 runId)
{
    if (runId != m_runId) {
        clear();
        m_runId = runId;
    }
    if (m_runId < 0) return 0;
    qint64 appended = 0;
    for (Series& s : m_series) {
        const MetricSeries read = reader.metric(m_runId, s.metric.toStdString(), s.lastStep);
        if (read.steps.empty()) continue;
        widgets::ChartSamples samples;
        samples.step.assign(read.steps.begin(), read.steps.end());
        samples.time = read.wallTimes;
        samples.value = read.values;
        s.chart->append(s.metric, samples);
        s.lastStep = read.steps.back();
        appended += qint64(read.steps.size());
    }
    addMarkers(reader.checkpoints(m_runId));
    return appended;
}

void RunCharts::addMarkers(const std::vector<CheckpointRecord>& checkpoints)
{
    for (const CheckpointRecord& c : checkpoints) {
        if (!m_markedCheckpoints.insert(c.id).second) continue;
        m_lossChart->addMarker(double(c.step), c.best ? tr("best") : tr("epoch %1").arg(c.epoch));
    }
}

void RunCharts::clear()
{
    for (Series& s : m_series) s.lastStep = -1;
    for (auto* chart : findChildren<widgets::LiveChart*>()) chart->clear();
    m_markedCheckpoints.clear();
    m_runId = -1;
}

QStringList RunCharts::metrics() const
{
    QStringList out;
    for (const Series& s : m_series) out << s.metric;
    return out;
}

const RunCharts::Series* RunCharts::find(const QString& metric) const
{
    for (const Series& s : m_series)
        if (s.metric == metric) return &s;
    return nullptr;
}

qint64 RunCharts::pointCount(const QString& metric) const
{
    const Series* s = find(metric);
    return s ? qint64(s->chart->pointCount(metric)) : -1;
}

qint64 RunCharts::lastStep(const QString& metric) const
{
    const Series* s = find(metric);
    return s ? s->lastStep : -1;
}

widgets::LiveChart* RunCharts::chartOf(const QString& metric) const
{
    const Series* s = find(metric);
    return s ? s->chart : nullptr;
}

}  // namespace ts::ui
