#include "run_charts.h"

#include <QLocale>

#include "live_chart.h"
#include "ui/metric_charts.h"

namespace ts::ui {

RunCharts::RunCharts(QWidget* parent) : ChartGrid(parent)
{
    // The stored metrics the Train page charts live, in the same charts.
    for (const char* id : {"loss", "accuracy", "lr", "grad_norm"}) {
        widgets::LiveChart* c = MetricCharts::create(QString::fromLatin1(id));
        addChart(QString::fromLatin1(id), c);
        for (const QString& metric : c->seriesIds()) m_series.push_back({metric, c, -1});
    }
    m_lossChart = m_series.front().chart;
    setSettingsKey(QStringLiteral("runsPage/charts"));
}

qint64 RunCharts::update(RunReader& reader, qint64 runId)
{
    if (runId != m_runId) {
        clear();
        m_runId = runId;
    }
    if (m_runId < 0) return 0;
    if (!m_lineageJoined && !joinLineage(reader)) return 0;
    qint64 appended = 0;
    for (Series& s : m_series) {
        const MetricSeries read = reader.metric(m_runId, s.metric.toStdString(), s.lastStep);
        if (read.steps.empty()) continue;
        widgets::ChartSamples samples;
        samples.step.assign(read.steps.begin(), read.steps.end());
        samples.time = read.wallTimes;
        for (double& t : samples.time) t += m_timeOffset;  // after the ancestors' time
        samples.value = read.values;
        s.chart->append(s.metric, samples);
        s.lastStep = read.steps.back();
        appended += qint64(read.steps.size());
    }
    addMarkers(reader.checkpoints(m_runId));
    return appended;
}

// A resumed or forked run continues its ancestors' curves: each ancestor's points before the
// step where its continuation starts come first, so the charts read as one run, with a mark
// where each continuation began; wall time runs on across them. Waits (false) until the run
// has its first step, which is where it joins.
bool RunCharts::joinLineage(RunReader& reader)
{
    struct Segment {
        qint64 run = -1;
        qint64 beforeStep = 0;  // the ancestor's points before this step belong to the lineage
        std::string relation;   // how the next run continued it: "resume" or "fork"
    };
    auto firstStep = [&](qint64 run) -> std::optional<qint64> {
        const MetricSeries loss = reader.metric(run, "loss");
        if (loss.steps.empty()) return std::nullopt;
        return loss.steps.front();
    };
    std::vector<Segment> segments;  // nearest ancestor first
    std::optional<RunInfo> run = reader.run(m_runId);
    std::optional<qint64> cut = run && run->parentRunId ? firstStep(m_runId) : std::optional<qint64>(0);
    if (!cut) return false;
    std::set<qint64> seen{m_runId};
    constexpr int kMaxDepth = 64;
    while (run && run->parentRunId && *cut > 0 && int(segments.size()) < kMaxDepth &&
           seen.insert(*run->parentRunId).second) {
        segments.push_back({*run->parentRunId, *cut, run->parentRelation});
        run = reader.run(*run->parentRunId);
        cut = firstStep(segments.back().run).value_or(0);
    }
    m_lineageJoined = true;
    m_timeOffset = 0;
    for (auto it = segments.rbegin(); it != segments.rend(); ++it) {  // from the first run down
        double lastTime = 0;
        for (Series& s : m_series) {
            const MetricSeries read = reader.metric(it->run, s.metric.toStdString());
            widgets::ChartSamples samples;
            for (std::size_t i = 0; i < read.steps.size() && read.steps[i] < it->beforeStep; ++i) {
                samples.step.push_back(double(read.steps[i]));
                samples.time.push_back(read.wallTimes[i] + m_timeOffset);
                samples.value.push_back(read.values[i]);
                lastTime = std::max(lastTime, read.wallTimes[i]);
            }
            if (!samples.step.empty()) s.chart->append(s.metric, samples);
        }
        m_timeOffset += lastTime;
        const QString label = it->relation == "fork" ? tr("forked from run %1") : tr("resumed from run %1");
        m_lossChart->addMarker(double(it->beforeStep), label.arg(it->run));
    }
    return true;
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
    for (widgets::LiveChart* chart : charts()) chart->clear();
    m_markedCheckpoints.clear();
    m_runId = -1;
    m_lineageJoined = false;
    m_timeOffset = 0;
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
