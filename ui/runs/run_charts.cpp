#include "run_charts.h"

#include <QLocale>

#include <algorithm>

#include "live_chart.h"
#include "ui/metric_charts.h"
#include "ui/studio_settings.h"

namespace ts::ui {

namespace {

widgets::ChartSamples samplesOf(const MetricSeries& read, double timeOffset)
{
    widgets::ChartSamples samples;
    samples.step.assign(read.steps.begin(), read.steps.end());
    samples.time = read.wallTimes;
    for (double& t : samples.time) t += timeOffset;  // after the ancestors' time
    samples.value = read.values;
    return samples;
}

}  // namespace

RunCharts::RunCharts(QWidget* parent) : ChartGrid(parent)
{
    // The stored metrics the Train page charts live, in the same charts.
    for (const char* id : {"loss", "accuracy", "lr", "grad_norm", "throughput"}) {
        widgets::LiveChart* c = MetricCharts::create(QString::fromLatin1(id));
        addChart(QString::fromLatin1(id), c);
        for (const QString& metric : c->seriesIds()) m_series.push_back({metric, c, -1});
    }
    m_lossChart = m_series.front().chart;
    m_throughputChart = m_series.back().chart;
    StudioSettings::keepChartGridChoices(this, StudioSettings::ChartGridId::RunsPage);
    connect(&m_watcher, &QFutureWatcher<ReadResult>::finished, this, &RunCharts::onReadFinished);
}

RunCharts::~RunCharts() { m_watcher.disconnect(this); }

void RunCharts::load(const Workspace& workspace, qint64 runId)
{
    m_workspace = workspace;
    if (runId != m_runId) {
        clear();
        m_runId = runId;
        if (runId < 0) return;
        setLoading(true);
        startRead();
        return;
    }
    if (m_runId < 0) return;
    if (m_loading) {
        m_readAgain = true;  // after the running read, from where it ends
        return;
    }
    startRead();
}

void RunCharts::startRead()
{
    m_loading = true;
    m_readAgain = false;
    const quint64 generation = m_generation;
    m_watcher.setFuture(m_background.run(
        m_workspace, [state = readState(), generation](RunReader& reader, const std::atomic<bool>& cancelled) {
            ReadResult result = read(reader, state, cancelled);
            result.generation = generation;
            return result;
        }));
}

void RunCharts::onReadFinished()
{
    ReadResult result = m_watcher.future().takeResult();  // moved, not copied: it may hold millions of points
    if (result.generation != m_generation) return;  // for a run no longer shown
    m_loading = false;
    setLoading(false);
    if (!result.error.isEmpty()) {
        for (widgets::LiveChart* chart : charts()) chart->setEmptyNote(tr("Cannot read the points: %1").arg(result.error));
        emit readFailed(result.error);
        return;
    }
    const qint64 appended = apply(result);
    emit loaded(m_runId, appended);
    if (m_readAgain) startRead();
}

void RunCharts::setLoading(bool on)
{
    for (widgets::LiveChart* chart : charts()) chart->setEmptyNote(on ? tr("Loading…") : QString());
}

RunCharts::ReadState RunCharts::readState() const
{
    ReadState state{m_runId, m_lineageJoined, m_timeOffset, {}};
    for (const Series& s : m_series)
        state.series.push_back({s.metric.toStdString(), s.lastStep, s.chart->pointCount(s.metric) == 0,
                                s.chart->smoothing(s.metric)});
    return state;
}

qint64 RunCharts::update(RunReader& reader, qint64 runId)
{
    if (runId != m_runId) {
        clear();
        m_runId = runId;
    }
    if (m_runId < 0) return 0;
    ++m_generation;  // a read running meanwhile started from what this one appends to: dropped
    m_loading = m_readAgain = false;
    setLoading(false);
    const std::atomic<bool> never{false};
    ReadResult result = read(reader, readState(), never);
    return apply(result);
}

// Runs on the worker (or the caller's thread for update()): the store only, no widget.
RunCharts::ReadResult RunCharts::read(RunReader& reader, const ReadState& given, const std::atomic<bool>& cancelled)
{
    ReadResult out;
    // A distributed run's per-rank throughput: series the charts do not hold yet are read
    // whole and added (addedSeries) beside the fixed ones.
    ReadState state = given;
    const double rankSmoothing = state.series.empty() ? 0.0 : state.series.back().smoothing;
    for (const std::string& name : reader.metricNames(state.runId)) {
        const bool charted = std::any_of(state.series.begin(), state.series.end(),
                                         [&](const SeriesState& s) { return s.metric == name; });
        if (charted || !MetricCharts::isRankThroughput(QString::fromStdString(name))) continue;
        state.series.push_back({name, -1, true, rankSmoothing});
        out.addedSeries.push_back(QString::fromStdString(name));
    }
    out.timeOffset = state.timeOffset;
    if (!state.lineageJoined) {
        if (!joinLineage(reader, state, out)) return out;  // waits for the run's first step
        out.lineageJoined = true;
    }
    out.lineage.resize(state.series.size());
    out.whole.resize(state.series.size());
    for (std::size_t k = 0; k < state.series.size(); ++k) {
        if (cancelled) {
            out.cancelled = true;
            return out;
        }
        const SeriesState& s = state.series[k];
        widgets::ChartSamples fresh = samplesOf(reader.metric(state.runId, s.metric, s.lastStep), out.timeOffset);
        out.lastSteps.push_back(fresh.step.empty() ? s.lastStep : qint64(fresh.step.back()));
        if (s.empty && out.lineage[k].step.size() + fresh.step.size() > 0) {
            widgets::SeriesData& data = out.whole[k].emplace();
            data.setSmoothing(s.smoothing);
            data.append(out.lineage[k]);
            data.append(fresh);
            out.lineage[k] = {};
            fresh = {};
        }
        out.fresh.push_back(std::move(fresh));
    }
    out.checkpoints = reader.checkpoints(state.runId);
    return out;
}

// A resumed or forked run continues its ancestors' curves: each ancestor's points before the
// step where its continuation starts come first, so the charts read as one run, with a mark
// where each continuation began; wall time runs on across them. Waits (false) until the run
// has its first step, which is where it joins.
bool RunCharts::joinLineage(RunReader& reader, const ReadState& state, ReadResult& out)
{
    auto firstStep = [&](qint64 run) -> std::optional<qint64> {
        const MetricSeries loss = reader.metric(run, "loss");
        if (loss.steps.empty()) return std::nullopt;
        return loss.steps.front();
    };
    std::vector<Ancestor> segments;  // nearest ancestor first
    std::optional<RunInfo> run = reader.run(state.runId);
    std::optional<qint64> cut = run && run->parentRunId ? firstStep(state.runId) : std::optional<qint64>(0);
    if (!cut) return false;
    std::set<qint64> seen{state.runId};
    constexpr int kMaxDepth = 64;
    while (run && run->parentRunId && *cut > 0 && int(segments.size()) < kMaxDepth &&
           seen.insert(*run->parentRunId).second) {
        segments.push_back({*run->parentRunId, *cut, run->parentRelation});
        run = reader.run(*run->parentRunId);
        cut = firstStep(segments.back().run).value_or(0);
    }
    out.ancestors.assign(segments.rbegin(), segments.rend());  // from the first run down
    out.lineage.resize(state.series.size());
    out.timeOffset = 0;
    for (const Ancestor& a : out.ancestors) {
        double lastTime = 0;
        for (std::size_t k = 0; k < state.series.size(); ++k) {
            const MetricSeries read = reader.metric(a.run, state.series[k].metric);
            widgets::ChartSamples& samples = out.lineage[k];
            for (std::size_t i = 0; i < read.steps.size() && read.steps[i] < a.beforeStep; ++i) {
                samples.step.push_back(double(read.steps[i]));
                samples.time.push_back(read.wallTimes[i] + out.timeOffset);
                samples.value.push_back(read.values[i]);
                lastTime = std::max(lastTime, read.wallTimes[i]);
            }
        }
        out.timeOffset += lastTime;
    }
    return true;
}

// On the UI thread: what a read brought, into the charts.
qint64 RunCharts::apply(ReadResult& result)
{
    if (result.cancelled) return 0;
    qint64 appended = 0;
    for (const QString& metric : result.addedSeries) {
        MetricCharts::addRankSeries(m_throughputChart, metric);
        m_series.push_back({metric, m_throughputChart, -1});
    }
    if (result.lineageJoined) {
        m_lineageJoined = true;
        m_timeOffset = result.timeOffset;
        for (const Ancestor& a : result.ancestors) {
            const QString label = a.relation == "fork" ? tr("forked from run %1") : tr("resumed from run %1");
            m_lossChart->addMarker(double(a.beforeStep), label.arg(a.run));
        }
    }
    for (std::size_t k = 0; k < m_series.size() && k < result.fresh.size(); ++k) {
        Series& s = m_series[k];
        if (k < result.whole.size() && result.whole[k]) {
            appended += qint64(result.whole[k]->size());
            s.chart->setData(s.metric, std::move(*result.whole[k]));
        }
        if (k < result.lineage.size() && !result.lineage[k].step.empty()) s.chart->append(s.metric, result.lineage[k]);
        if (!result.fresh[k].step.empty()) {
            s.chart->append(s.metric, result.fresh[k]);
            appended += qint64(result.fresh[k].step.size());
        }
        s.lastStep = result.lastSteps[k];
    }
    addMarkers(result.checkpoints);
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
    ++m_generation;  // a read still running belongs to the run shown before
    m_loading = false;
    m_readAgain = false;
    setLoading(false);
    // A distributed run's rank series belong to it: the next run brings its own.
    for (const Series& s : m_series)
        if (MetricCharts::isRankThroughput(s.metric)) m_throughputChart->removeSeries(s.metric);
    std::erase_if(m_series, [](const Series& s) { return MetricCharts::isRankThroughput(s.metric); });
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
