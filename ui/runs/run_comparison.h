// The Runs page's view of several selected runs: their curves overlaid on shared charts (one
// colour per run, hover reads every run's value at that step; or grouped by a setting), a
// table of their results and settings with a "differences only" switch and copies as CSV or
// Markdown, and a trade-off chart of a result against a cost with its Pareto front.
//
// Reading is incremental as in RunCharts: each (run, metric) remembers its last step, so runs
// still training keep updating inside the comparison at the cost of their new points only.
#pragma once

#include <QList>
#include <QWidget>

#include <map>
#include <memory>
#include <vector>
#include <utility>

#include "store/run_reader.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QTableView;
class QTabWidget;

namespace ts::widgets {
class ChartGrid;
class LiveChart;
}

namespace ts::ui {

class ComparisonModel;
struct ComparisonLoads;
struct ComparedPointsRead;
struct ComparedSeries;
struct GroupBandsRead;
class TradeOffChart;
class ModelDiffView;
class ParallelCoordinates;

class RunComparison : public QWidget {
    Q_OBJECT
public:
    explicit RunComparison(QWidget* parent = nullptr);
    ~RunComparison() override;
    // Where the charts' points are read from off the UI thread (the page's workspace). Until
    // it is set, showRuns() reads them on the caller's reader, at once.
    void setWorkspace(const ts::Workspace& workspace);
    bool isLoading() const;  // chart points are being read

    // Shows `runIds`; the same set again reads only new points. Throws StoreError.
    void showRuns(ts::RunReader& reader, const QList<qint64>& runIds);
    void clear();

    QList<qint64> runIds() const { return m_runIds; }
    widgets::ChartGrid* charts() const { return m_charts; }
    widgets::LiveChart* chart(const QString& metric) const;
    qint64 pointCount(const QString& metric, qint64 runId) const;  // -1: not charted
    ComparisonModel* model() const { return m_model; }
    QSortFilterProxyModel* table() const { return m_proxy; }  // what the table view shows
    QCheckBox* differencesOnlyBox() const { return m_differencesOnly; }
    // Group by a setting on which the runs differ (empty: no grouping): each group is drawn as
    // its mean (series "group<i>") with a +-1 standard deviation band, its size in the legend.
    void setGroupBy(const QString& key);
    QString groupBy() const { return m_groupKey; }
    QComboBox* groupByBox() const { return m_groupBox; }
    QString legendText() const;  // tests
    TradeOffChart* tradeOff() const { return m_tradeOff; }
    ModelDiffView* modelDiff() const { return m_modelDiff; }              // "Two models": exactly two runs
    ParallelCoordinates* parallelCoordinates() const { return m_parallel; }

    // Mean and sample standard deviation (n - 1; 0 for one run) per step over the runs' series.
    struct Band {
        std::vector<double> steps, mean, std;
    };
    static Band meanAndSpread(const std::vector<ts::MetricSeries>& runs);

signals:
    void runActivated(qint64 runId);  // a run's point on the trade-off chart was clicked
    void chartsLoaded();  // the points read for the charts (a showRuns, a regrouping) are drawn
    void readFailed(const QString& message);  // reading them failed

private:
    void rebuildCharts(ts::RunReader& reader);
    void rebuildGroupCharts(ts::RunReader& reader);
    void updateGroupBox();
    void fitTableColumns();
    void setLegend(const QStringList& names);  // in the series colours, in order
    qint64 appendNewPoints(ts::RunReader& reader);
    // The chart reads (run_comparison.cpp, comparison_reads.h): on the worker once a
    // workspace is set, applied here when they come.
    ComparisonLoads& loads();
    void requestPoints();
    std::vector<ComparedSeries> wantedPoints() const;
    qint64 applyPoints(ComparedPointsRead& read);
    void requestGroupBands(ts::RunReader* reader);
    void applyGroupBands(const GroupBandsRead& read);
    void pointsRead();
    void bandsRead();
    void copy(bool markdown) const;

    QList<qint64> m_runIds;
    std::map<std::pair<qint64, QString>, qint64> m_lastStep;  // (run, metric) -> last step read
    QTabWidget* m_tabs = nullptr;
    widgets::ChartGrid* m_charts = nullptr;
    ComparisonModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_view = nullptr;
    QCheckBox* m_differencesOnly = nullptr;
    QComboBox* m_groupBox = nullptr;
    QLabel* m_legend = nullptr;  // the runs' (or groups') colours, once for all charts
    TradeOffChart* m_tradeOff = nullptr;
    ModelDiffView* m_modelDiff = nullptr;
    ParallelCoordinates* m_parallel = nullptr;
    QString m_groupKey;
    ts::RunReader* m_lastReader = nullptr;  // for regrouping when the choice changes
    std::unique_ptr<ComparisonLoads> m_loads;  // reading off the UI thread (comparison_reads.h)
};

}  // namespace ts::ui
