// The run details' summary of one run: its key settings (read from the experiment it ran, so
// defaults show too), its final metrics, and its lineage (the runs it was resumed or forked
// from, and those resumed or forked from it) as a tree whose rows select that run.
#pragma once

#include <QString>
#include <QVector>
#include <QWidget>

#include <utility>
#include <vector>

#include "store/run_reader.h"

class QFormLayout;
class QLabel;
class QTreeWidget;

namespace ts::ui {

class RunOverview : public QWidget {
    Q_OBJECT
public:
    explicit RunOverview(QWidget* parent = nullptr);

    // `runs`: every run of the workspace (the page's listing), for the lineage.
    void showRun(const ts::RunInfo& run, const std::vector<ts::MetricSummary>& summaries,
                 const std::vector<ts::RunListing>& runs);
    void clear();

    QTreeWidget* lineageTree() const { return m_lineage; }
    // What a row shows, by its label ("Optimizer:", "test_acc:"); empty when absent. Tests.
    QString settingText(const QString& label) const;
    QString metricText(const QString& metric) const;

    using Rows = QVector<std::pair<QString, QString>>;
    // The key settings of an experiment as (label, value) rows; one row saying why when the
    // stored experiment cannot be read.
    static Rows keySettings(const std::string& experimentYaml);
    // Final epoch metrics (test, validation, then training), with the best where it differs.
    static Rows finalMetrics(const std::vector<ts::MetricSummary>& summaries);

signals:
    void runActivated(qint64 runId);

private:
    static void fill(QFormLayout* form, Rows& shown, const Rows& rows);
    void showLineage(const ts::RunInfo& run, const std::vector<ts::RunListing>& runs);

    QFormLayout* m_settings = nullptr;
    QFormLayout* m_metrics = nullptr;
    Rows m_shownSettings, m_shownMetrics;  // rebuilt only when they change: no flicker on refresh
    QLabel* m_lineageTitle = nullptr;
    QTreeWidget* m_lineage = nullptr;
    QVector<qint64> m_shownLineage;
};

}  // namespace ts::ui
