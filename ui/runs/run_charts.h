// The Runs page's charts of one stored run: loss (raw per step under a smoothed line, train
// and validation per epoch), accuracy, learning rate and gradient norm, with checkpoints
// marked on the loss chart. A resumed or forked run's charts continue its ancestors' curves.
//
// Reading is incremental: each series remembers the last step it holds and update() asks the
// store only for later points (RunReader::metric's afterStep), so a run that is training
// costs only its new points per refresh, however long it has run.
#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

#include <set>
#include <vector>

#include "chart_grid.h"
#include "store/run_reader.h"

namespace ts::widgets {
class LiveChart;
}

namespace ts::ui {

class RunCharts : public widgets::ChartGrid {
    Q_OBJECT
public:
    explicit RunCharts(QWidget* parent = nullptr);

    // Shows `runId`: a different run than before drops every point first. Appends the points
    // stored since the last call and marks new checkpoints; returns how many points it
    // appended. Throws StoreError.
    qint64 update(ts::RunReader& reader, qint64 runId);
    // No run: empty charts.
    void clear();

    qint64 runId() const { return m_runId; }
    // The metrics charted ("loss", "val_loss", "val_acc", "lr", "grad_norm", ...).
    QStringList metrics() const;
    // Points held for a metric; -1 when it is not charted.
    qint64 pointCount(const QString& metric) const;
    // The last step read for a metric (-1: none yet).
    qint64 lastStep(const QString& metric) const;
    widgets::LiveChart* chartOf(const QString& metric) const;

private:
    struct Series {
        QString metric;
        widgets::LiveChart* chart = nullptr;
        qint64 lastStep = -1;
    };
    const Series* find(const QString& metric) const;
    void addMarkers(const std::vector<ts::CheckpointRecord>& checkpoints);
    bool joinLineage(ts::RunReader& reader);

    std::vector<Series> m_series;
    widgets::LiveChart* m_lossChart = nullptr;
    std::set<qint64> m_markedCheckpoints;  // checkpoint ids already drawn
    qint64 m_runId = -1;
    bool m_lineageJoined = false;  // the ancestors' points are drawn (or there are none)
    double m_timeOffset = 0;       // the ancestors' wall time, added to this run's
};

}  // namespace ts::ui
