// The run details' Evaluation tab: the run's latest evaluation (an evaluate job's), rebuilt from
// its stored predictions with the engine's report. A summary line (accuracy, macro F1, ECE
// before and after temperature scaling) over four tabs:
//   Confusion   the matrix as a heat map (counts or row percentages written in) beside the
//               samples: a click on a cell lists that cell's samples, "Worst samples" all of
//               them by loss, as images with true label, prediction and confidence;
//   Per class   precision, recall, F1, support, ROC-AUC and AP per class;
//   Curves      one-vs-rest ROC and precision-recall curves with their areas;
//   Calibration the reliability diagram before and after temperature scaling.
// Class names come from the evaluated split's dataset, opened in the background (class
// numbers until then, or for good when it cannot be opened: the samples' note says why).
#pragma once

#include <QWidget>

#include <optional>
#include <utility>
#include <vector>

#include "confusion_plot.h"
#include "store/run_reader.h"
#include "train/evaluation_report.h"

class QComboBox;
class QCustomPlot;
class QLabel;
class QStandardItemModel;
class QStackedWidget;
class QTabWidget;
class QTableView;

namespace ts::ui {

class EvaluationCurves;
class SampleGallery;

class EvaluationView : public QWidget {
    Q_OBJECT
public:
    explicit EvaluationView(QWidget* parent = nullptr);

    // Shows the newest evaluation of `runId`; reads predictions only when it is new. Throws StoreError.
    void showRun(ts::RunReader& reader, qint64 runId);
    void clear();

    // Lists the samples of true class `truth` predicted as `predicted` (what a click on that
    // cell of the confusion matrix does).
    void showConfusionCell(int truth, int predicted);
    // Lists every sample, highest loss -log p(true class) first (shown at first).
    void showWorstSamples();

    const std::optional<ts::EvaluationReport>& report() const { return m_report; }
    const std::vector<ts::Prediction>& predictions() const { return m_predictions; }
    QStringList classNames() const;  // the dataset's once open; empty before or without it
    QString summaryText() const;
    ConfusionPlot* confusionPlot() const { return m_confusion; }
    QComboBox* cellTextBox() const { return m_cellText; }
    QCustomPlot* reliabilityPlot() const { return m_reliability; }
    QStandardItemModel* perClass() const { return m_perClass; }
    EvaluationCurves* curves() const { return m_curves; }
    SampleGallery* samples() const { return m_samples; }
    QTabWidget* tabs() const { return m_tabs; }

private:
    void showRegression(const ts::EvaluationRecord& record);  // its numbers; no class plots
    void showReport(const ts::EvaluationRecord& record);
    void fillPerClass();
    void drawReliability();
    void applyClassNames();
    void listSamples();
    QString className(int c) const;

    qint64 m_evaluationId = -1;
    std::optional<ts::EvaluationReport> m_report;
    std::vector<ts::Prediction> m_predictions;
    std::optional<std::pair<int, int>> m_listedCell;  // none: the worst samples are listed
    QStackedWidget* m_stack = nullptr;  // "no evaluation yet" or the report
    QLabel* m_summary = nullptr;
    QTabWidget* m_tabs = nullptr;
    ConfusionPlot* m_confusion = nullptr;
    QComboBox* m_cellText = nullptr;
    SampleGallery* m_samples = nullptr;
    QCustomPlot* m_reliability = nullptr;
    EvaluationCurves* m_curves = nullptr;
    QStandardItemModel* m_perClass = nullptr;
    QTableView* m_table = nullptr;
};

}  // namespace ts::ui
