// The Train page's chart area: loss (raw, smoothed, validation), accuracy (train, validation),
// learning rate, gradient norm with the clip threshold, throughput, data-wait share, CPU/GPU
// load and memory. It turns the session's plain structs into chart series.
// The charts themselves are defined in metric_charts.h, shared with the Runs page.
#pragma once

#include <QString>
#include <QVector>
#include <QWidget>

#include "chart_grid.h"
#include "training_session.h"

namespace ts::widgets {
class LiveChart;
}

namespace ts::ui {


class TrainCharts : public widgets::ChartGrid {
    Q_OBJECT
public:
    explicit TrainCharts(QWidget* parent = nullptr);

    // A new run: drops every point. stepsPerEpoch places steps on the epoch axis (0: unknown).
    void reset(qint64 stepsPerEpoch, double clipThreshold);

    void addSteps(const QVector<StepPoint>& steps);
    void addEpoch(const EpochSummary& epoch);
    void addSystem(const ts::SystemSample& sample, qint64 step);
    void addCheckpoint(qint64 step, qint64 epoch, bool best);

    // Points a chart holds for one series ("loss"/"train_loss", "accuracy"/"val_acc", ...);
    // -1 when there is no such chart or series. For tests.
    qint64 pointCount(const QString& chart, const QString& series) const;
    QWidget* chartWidget(const QString& chart) const;

private:
    qint64 m_stepsPerEpoch = 0;
    double m_lastWall = 0;  // wall time of the previous step: the step's duration for the wait share
    qint64 m_lastStep = 0;
};

}  // namespace ts::ui
