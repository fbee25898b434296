#include "run_charts.h"

#include <QColor>
#include <QGridLayout>
#include <QLocale>

#include "live_chart.h"

namespace ts::ui {

namespace {
// The Train page's palette, so a run looks the same live and afterwards.
const QColor kTrain(31, 119, 180), kVal(255, 127, 14), kThird(44, 160, 44);
constexpr double kLossSmoothing = 0.9;
}  // namespace

RunCharts::RunCharts(QWidget* parent) : QWidget(parent)
{
    using widgets::LiveChart;
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    auto chart = [&](const QString& id, const QString& title, const QString& yLabel) {
        auto* c = new LiveChart;
        c->setObjectName(QStringLiteral("runChart_") + id);
        c->setTitle(title);
        c->setYLabel(yLabel);
        c->setMinimumSize(220, 160);
        const int n = grid->count();
        grid->addWidget(c, n / 2, n % 2);
        return c;
    };
    auto series = [&](LiveChart* c, const QString& metric, const QString& label, const QColor& color,
                      LiveChart::Style style = LiveChart::Style::Line) {
        c->addSeries(metric, label, color, style);
        m_series.push_back({metric, c, -1});
    };

    m_lossChart = chart(QStringLiteral("loss"), tr("Loss"), tr("loss"));
    series(m_lossChart, QStringLiteral("loss"), tr("train (per step)"), kTrain);
    m_lossChart->setSmoothing(QStringLiteral("loss"), kLossSmoothing);  // raw stays, drawn faint
    series(m_lossChart, QStringLiteral("train_loss"), tr("train (epoch)"), kThird, LiveChart::Style::Points);
    series(m_lossChart, QStringLiteral("val_loss"), tr("validation"), kVal, LiveChart::Style::Points);

    LiveChart* acc = chart(QStringLiteral("accuracy"), tr("Accuracy"), tr("accuracy"));
    series(acc, QStringLiteral("train_acc"), tr("train"), kTrain, LiveChart::Style::Points);
    series(acc, QStringLiteral("val_acc"), tr("validation"), kVal, LiveChart::Style::Points);

    LiveChart* lr = chart(QStringLiteral("lr"), tr("Learning rate"), tr("learning rate"));
    series(lr, QStringLiteral("lr"), tr("learning rate"), kTrain);

    LiveChart* grad = chart(QStringLiteral("grad_norm"), tr("Gradient norm"), tr("global norm"));
    series(grad, QStringLiteral("grad_norm"), tr("before clipping"), kTrain);
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
