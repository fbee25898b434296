#include "train_charts.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "live_chart.h"
#include "ui/metric_charts.h"
#include "ui/studio_settings.h"

namespace ts::ui {

using widgets::ChartSamples;

TrainCharts::TrainCharts(QWidget* parent) : ChartGrid(parent)
{
    for (const char* id : {"loss", "accuracy", "lr", "grad_norm", "throughput", "data_wait", "load", "memory"})
        addChart(QString::fromLatin1(id), MetricCharts::create(QString::fromLatin1(id)));
    StudioSettings::keepChartGridChoices(this, StudioSettings::ChartGridId::TrainPage);
}

QWidget* TrainCharts::chartWidget(const QString& id) const { return chart(id); }

qint64 TrainCharts::pointCount(const QString& id, const QString& series) const
{
    widgets::LiveChart* c = chart(id);
    return c && c->hasSeries(series) ? qint64(c->pointCount(series)) : -1;
}

void TrainCharts::reset(qint64 stepsPerEpoch, double clipThreshold)
{
    for (widgets::LiveChart* c : charts()) {
        c->clear();
        c->setEmptyNote({});  // a note about the run before (one on several processes) goes too
    }
    m_stepsPerEpoch = stepsPerEpoch;
    m_lastWall = 0;
    m_lastStep = 0;
    chart("grad_norm")->setThreshold(clipThreshold > 0 ? clipThreshold : std::nan(""), tr("clip"));
}

void TrainCharts::addSteps(const QVector<StepPoint>& steps)
{
    if (steps.isEmpty()) return;
    ChartSamples base;
    std::vector<double> loss, lr, grad, speed, wait;
    for (const StepPoint& s : steps) {
        base.step.push_back(double(s.step));
        base.time.push_back(s.wallTime);
        // Steps sit inside their epoch: epoch 2, halfway = 1.5 on the epoch axis.
        if (m_stepsPerEpoch > 0)
            base.epoch.push_back(double(s.epoch - 1) +
                                 double(s.step - (s.epoch - 1) * m_stepsPerEpoch) / double(m_stepsPerEpoch));
        loss.push_back(s.loss);
        lr.push_back(s.lr);
        grad.push_back(s.gradNorm);
        speed.push_back(s.samplesPerSecond);
        // The share of the step spent waiting for the loader (several steps per event when
        // logging is sparse, hence the step difference).
        const double duration = s.wallTime - m_lastWall;
        wait.push_back(duration > 0 ? 100.0 * std::clamp(s.dataWaitSeconds / duration, 0.0, 1.0) : 0.0);
        m_lastWall = s.wallTime;
        m_lastStep = s.step;
    }
    auto with = [&](std::vector<double> values) {
        ChartSamples out = base;
        out.value = std::move(values);
        return out;
    };
    chart("loss")->append("loss", with(std::move(loss)));
    chart("lr")->append("lr", with(std::move(lr)));
    chart("grad_norm")->append("grad_norm", with(std::move(grad)));
    chart("throughput")->append("samples_per_s", with(std::move(speed)));
    chart("data_wait")->append("data_wait", with(std::move(wait)));
}

void TrainCharts::addEpoch(const EpochSummary& e)
{
    auto point = [&](double value) {
        return ChartSamples{{double(e.step)}, {double(e.epoch)}, {m_lastWall}, {value}};
    };
    for (const char* name : {"train_loss", "val_loss", "test_loss"})
        if (e.metrics.contains(name)) chart("loss")->append(name, point(e.metrics.value(name)));
    for (const char* name : {"train_acc", "val_acc", "test_acc"})
        if (e.metrics.contains(name)) chart("accuracy")->append(name, point(e.metrics.value(name)));
}

void TrainCharts::addSystem(const ts::SystemSample& s, qint64 step)
{
    const double at = double(step > 0 ? step : m_lastStep);
    auto point = [&](double value) { return ChartSamples{{at}, {}, {s.wallTime}, {value}}; };
    constexpr double GiB = 1024.0 * 1024.0 * 1024.0;
    if (s.cpuPercent >= 0) chart("load")->append("cpu", point(s.cpuPercent));
    if (s.gpuPercent >= 0) chart("load")->append("gpu", point(s.gpuPercent));
    if (s.ramBytes >= 0) chart("memory")->append("ram", point(s.ramBytes / GiB));
    if (s.gpuMemoryUsed >= 0) chart("memory")->append("gpu_memory", point(s.gpuMemoryUsed / GiB));
}

void TrainCharts::addCheckpoint(qint64 step, qint64 epoch, bool best)
{
    const QString label = best ? tr("best (epoch %1)").arg(epoch) : tr("epoch %1").arg(epoch);
    chart("loss")->addMarker(double(step), label);
}

}  // namespace ts::ui
