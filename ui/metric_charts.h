// The charts of a training run, defined once so a run looks the same live (Train page) and
// afterwards (Runs page): titles, axis labels, colours, smoothing, and series named as the
// store's metrics ("loss", "train_loss", "val_loss", "train_acc", "val_acc", "lr",
// "grad_norm", "samples_per_s"), plus the Train page's own "data_wait", "cpu", "gpu", "ram",
// "gpu_memory".
#pragma once

#include <QCoreApplication>
#include <QString>

namespace ts::widgets {
class LiveChart;
}

namespace ts::ui {

class MetricCharts {
    Q_DECLARE_TR_FUNCTIONS(MetricCharts)
public:
    // A new chart with its series: "loss", "accuracy", "lr", "grad_norm", "throughput",
    // "data_wait", "load" or "memory". Its object name is "chart_" + id.
    static widgets::LiveChart* create(const QString& id);
    // A distributed run's per-rank throughput ("samples_per_s/rankN", the store's names) on a
    // "throughput" chart: the metric names, and the series for one of them. False: not one.
    static bool isRankThroughput(const QString& metric);
    static void addRankSeries(widgets::LiveChart* throughput, const QString& metric);
};

}  // namespace ts::ui
