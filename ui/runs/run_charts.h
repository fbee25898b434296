// The Runs page's charts of one stored run: loss (raw per step under a smoothed line, train
// and validation per epoch), accuracy, learning rate, gradient norm and throughput (each
// rank's too in a distributed run), with checkpoints marked on the loss chart. A resumed or forked run's charts continue its ancestors' curves.
//
// Reading is incremental: each series remembers the last step it holds and a read asks the
// store only for later points (RunReader::metric's afterStep), so a run that is training
// costs only its new points per refresh, however long it has run. load() reads on a worker
// thread (BackgroundReader: a long run has millions of points) and applies what it read on
// the UI thread; the charts say "Loading…" meanwhile, and loaded() tells when they are drawn.
#pragma once

#include <QFutureWatcher>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <atomic>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "background_reader.h"
#include "chart_grid.h"
#include "chart_series.h"
#include "store/run_reader.h"

namespace ts::widgets {
class LiveChart;
}

namespace ts::ui {

class RunCharts : public widgets::ChartGrid {
    Q_OBJECT
public:
    explicit RunCharts(QWidget* parent = nullptr);
    ~RunCharts() override;

    // Shows `runId`, read off the UI thread: a different run than before drops every point at
    // once (and a read still running for the old one is cancelled and ignored); the same run
    // reads only the points stored since the last read. A call while a read of the same run
    // runs is remembered and read right after it, so nothing is read twice.
    void load(const ts::Workspace& workspace, qint64 runId);
    bool isLoading() const { return m_loading; }
    // The same, synchronously with the caller's reader: returns how many points it appended.
    // Throws StoreError.
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

signals:
    // The points of a load() are in the charts (`appended` of them new).
    void loaded(qint64 runId, qint64 appended);
    // A load() could not read the store (the message names the database and the reason).
    void readFailed(const QString& message);

private:
    struct Series {
        QString metric;
        widgets::LiveChart* chart = nullptr;
        qint64 lastStep = -1;
    };
    // What a read starts from, copied for the worker.
    struct SeriesState {
        std::string metric;
        qint64 lastStep = -1;  // of the points read so far
        bool empty = true;     // the chart holds none of its points yet: the worker builds them whole
        double smoothing = 0;  // the chart's weight, for building them
    };
    struct ReadState {
        qint64 runId = -1;
        bool lineageJoined = false;
        double timeOffset = 0;
        std::vector<SeriesState> series;
    };
    // What a read brings back; plain data, made on the worker.
    struct Ancestor {
        qint64 run = -1;
        qint64 beforeStep = 0;  // the ancestor's points before this step belong to the lineage
        std::string relation;   // how the next run continued it: "resume" or "fork"
    };
    struct ReadResult {
        QString error;
        quint64 generation = 0;
        bool cancelled = false;
        bool lineageJoined = false;  // this read joined the lineage (or there is none)
        double timeOffset = 0;       // the ancestors' wall time, added to this run's
        std::vector<Ancestor> ancestors;              // the first run first
        std::vector<widgets::ChartSamples> lineage;   // per series: the ancestors' points
        std::vector<widgets::ChartSamples> fresh;     // per series: the run's new points
        // Per series that was empty: lineage and fresh points as the chart will hold them, made
        // on the worker (a long run's series would otherwise cost the UI thread every point).
        std::vector<std::optional<widgets::SeriesData>> whole;
        std::vector<qint64> lastSteps;  // per series: the run's own last step read (-1: none)
        std::vector<ts::CheckpointRecord> checkpoints;
        QStringList addedSeries;  // rank throughputs found in the store, after the charted series
    };
    static ReadResult read(ts::RunReader& reader, const ReadState& state, const std::atomic<bool>& cancelled);
    static bool joinLineage(ts::RunReader& reader, const ReadState& state, ReadResult& out);
    ReadState readState() const;
    qint64 apply(ReadResult& result);
    void startRead();
    void onReadFinished();
    void setLoading(bool on);

    const Series* find(const QString& metric) const;
    void addMarkers(const std::vector<ts::CheckpointRecord>& checkpoints);

    std::vector<Series> m_series;
    widgets::LiveChart* m_lossChart = nullptr;
    widgets::LiveChart* m_throughputChart = nullptr;  // samples/s, and per rank in a distributed run
    std::set<qint64> m_markedCheckpoints;  // checkpoint ids already drawn
    qint64 m_runId = -1;
    bool m_lineageJoined = false;  // the ancestors' points are drawn (or there are none)
    double m_timeOffset = 0;       // the ancestors' wall time, added to this run's

    ts::Workspace m_workspace;
    BackgroundReader m_background;
    QFutureWatcher<ReadResult> m_watcher;
    quint64 m_generation = 0;  // bumped when the run changes: older reads are ignored
    bool m_loading = false;
    bool m_readAgain = false;  // load() came during a read of the same run
};

}  // namespace ts::ui
