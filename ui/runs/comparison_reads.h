// The comparison's chart reads (RunComparison), done on a worker thread (BackgroundReader):
// plain data in, plain data out, no widget touched, so the UI thread only appends what came.
// Also the group bands on any x axis: for wall time (and epochs) each run's series is put on
// its own elapsed x and interpolated onto one grid shared by the group.
#pragma once

#include <QFutureWatcher>
#include <QList>
#include <QString>
#include <QStringList>

#include <atomic>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "background_reader.h"
#include "chart_series.h"
#include "store/run_reader.h"

namespace ts::ui {

// One (run, metric) series to read after its last step, and what came.
struct ComparedSeries {
    qint64 runId = -1;
    QString metric;
    qint64 lastStep = -1;  // asked: after this; read: the new last step
    double smoothing = 0;  // the chart's weight for the series
    widgets::ChartSamples samples;
    // The whole series as the chart holds it, made on the worker, when nothing was read yet
    // (lastStep -1): 20 runs of 100,000 points would otherwise cost the UI thread every point.
    std::optional<widgets::SeriesData> whole;
};
struct ComparedPointsRead {
    QString error;
    quint64 generation = 0;
    bool cancelled = false;
    std::vector<ComparedSeries> series;  // only those with new points
};
ComparedPointsRead readComparedPoints(ts::RunReader& reader, std::vector<ComparedSeries> wanted,
                                      const std::atomic<bool>& cancelled);

// A group's mean and ±1 sample standard deviation on one x axis.
struct GroupBand {
    QString metric;
    int group = 0;
    std::vector<double> x, mean, low, high;
};
struct GroupBandsRead {
    QString error;
    quint64 generation = 0;
    bool cancelled = false;
    std::vector<GroupBand> bands;
};
// Every group's band for every metric. Step: the mean at each step any run logged
// (RunComparison::meanAndSpread). Wall time: each run's own elapsed seconds. Epoch: each
// point's fractional epoch, from the run's "epoch" metric (a run without one is left out).
GroupBandsRead readGroupBands(ts::RunReader& reader, const std::vector<QString>& metrics,
                              const std::vector<std::vector<qint64>>& groups, widgets::XAxisMode mode,
                              const std::atomic<bool>& cancelled);

// Series on their own x (sorted, as a chart holds them) onto `gridPoints` evenly spaced x
// from the smallest first x to the largest last x: at each grid x, every series that spans
// it contributes its linear interpolation; mean and sample standard deviation (n - 1; 0 for
// one series) over those. Non-finite values are skipped; a grid x no series spans is left out.
struct XYSeries {
    std::vector<double> x, y;
};
GroupBand meanAndSpreadOnGrid(const std::vector<XYSeries>& series, int gridPoints);
// Fractional epochs for `steps` from an "epoch" metric (epoch e ended at step s): 0 at step
// 0, linear between the epoch ends, and on at the last epoch's pace after it.
std::vector<double> epochsAt(const std::vector<std::int64_t>& steps, const ts::MetricSeries& epochEnds);

// What RunComparison keeps for reading its chart points off the UI thread.
struct ComparisonLoads {
    ts::Workspace workspace;
    BackgroundReader background;
    QFutureWatcher<ComparedPointsRead> points;
    QFutureWatcher<GroupBandsRead> bands;
    quint64 generation = 0;  // bumped whenever the charts are rebuilt: older reads are ignored
    bool pointsAgain = false;  // new points were asked for while a read ran
    bool reading = false;
    widgets::XAxisMode mode = widgets::XAxisMode::Step;  // the charts' x axis
    // What the group charts show, so a refresh with nothing new rebuilds nothing.
    QString groupedBy;
    QList<qint64> groupedRuns;
    QStringList groupNames;  // "key = value (n = size)", in group order
    widgets::XAxisMode groupedMode = widgets::XAxisMode::Step;
    widgets::XAxisMode bandsMode = widgets::XAxisMode::Step;  // of the band read running
};

}  // namespace ts::ui
