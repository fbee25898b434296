// The run details' Evaluation tab: the run's latest evaluation (an evaluate job's), rebuilt from
// its stored predictions with the engine's report: a summary (accuracy, macro F1, ECE before
// and after temperature scaling), the confusion matrix as a row-normalised heat map with the
// counts written in, the reliability diagram before and after scaling, and per-class scores.
#pragma once

#include <QWidget>

#include <optional>

#include "store/run_reader.h"
#include "train/evaluation_report.h"

class QCustomPlot;
class QLabel;
class QStandardItemModel;
class QStackedWidget;
class QTableView;

namespace ts::ui {

class EvaluationView : public QWidget {
    Q_OBJECT
public:
    explicit EvaluationView(QWidget* parent = nullptr);

    // Shows the newest evaluation of `runId`; reads predictions only when it is new. Throws StoreError.
    void showRun(ts::RunReader& reader, qint64 runId);
    void clear();

    const std::optional<ts::EvaluationReport>& report() const { return m_report; }
    QString summaryText() const;
    QCustomPlot* confusionPlot() const { return m_confusion; }
    QCustomPlot* reliabilityPlot() const { return m_reliability; }
    QStandardItemModel* perClass() const { return m_perClass; }

private:
    void showReport(const ts::EvaluationRecord& record);
    void drawConfusion();
    void drawReliability();

    qint64 m_evaluationId = -1;
    std::optional<ts::EvaluationReport> m_report;
    QStackedWidget* m_stack = nullptr;  // "no evaluation yet" or the report
    QLabel* m_summary = nullptr;
    QCustomPlot* m_confusion = nullptr;
    QCustomPlot* m_reliability = nullptr;
    QStandardItemModel* m_perClass = nullptr;
    QTableView* m_table = nullptr;
};

}  // namespace ts::ui
