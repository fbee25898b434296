// The comparison's "Two models" tab: two runs' evaluations on a split both have, compared
// sample by sample (train/evaluation_comparison.h): the difference of their row-normalised
// confusion matrices as a diverging heat map (ConfusionPlot::setDifference: blue where B does
// better, red where it does worse), per-class recall and F1 of both with the deltas, and the
// samples one run gets right and the other wrong.
//
// Classes are named as the dataset names them ("Shirt"): the compared split is opened from
// run A's stored experiment off the UI thread (evaluated_split_loader.h); class numbers until
// it is open, or, with a one-line note saying why, when it cannot be opened.
//
// Run A is the first of the two runs given (the older: the Runs page passes them oldest first).
// Both evaluations' predictions are read on the UI thread through the page's reader (RunReader
// is one thread's; 10,000 rows read in a few milliseconds, measured in tst_run_comparison) and
// compared on a worker thread (two classification reports sort every class's scores); the
// result is drawn when it arrives.
#pragma once

#include <QFutureWatcher>
#include <QList>
#include <QWidget>

#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "evaluated_split_loader.h"
#include "store/run_reader.h"
#include "train/evaluation_comparison.h"

class QComboBox;
class QDialog;
class QLabel;
class QPushButton;
class QStackedWidget;
class QStandardItemModel;
class QTableView;

namespace ts::ui {

class ConfusionPlot;
class SampleGallery;

class ModelDiffView : public QWidget {
    Q_OBJECT
public:
    explicit ModelDiffView(QWidget* parent = nullptr);
    ~ModelDiffView() override;

    // Compares runIds[0] (A) with runIds[1] (B); any other count clears the view. The same
    // pair and evaluations again do nothing, so a poll can call this freely. Throws StoreError.
    void showRuns(ts::RunReader& reader, const QList<qint64>& runIds);
    void clear();

    // What is shown (for tests): the comparison once computed, the split compared, the
    // message instead of a comparison ("" while one is shown), and the parts.
    const std::optional<ts::EvaluationComparison>& comparison() const { return m_comparison; }
    bool isLoading() const { return m_watcher.isRunning(); }
    QString split() const;
    QString messageText() const;
    QString countsText() const;
    QComboBox* splitBox() const { return m_splitBox; }
    ConfusionPlot* differencePlot() const { return m_heatMap; }
    // The dataset's class names (empty until the split is open, or when it cannot be), and
    // why not ("" while opening or once open).
    const QStringList& classNames() const { return m_classNames; }
    bool isOpeningClassNames() const { return m_namesWatcher != nullptr; }
    QString classNamesNote() const;
    QStandardItemModel* perClass() const { return m_perClass; }
    QStandardItemModel* samples() const { return m_samples; }  // the list chosen by listBox()
    QComboBox* listBox() const { return m_listBox; }            // 0: A right, B wrong; 1: B right, A wrong
    QTableView* samplesView() const { return m_samplesView; }
    QPushButton* viewImagesButton() const { return m_viewImages; }
    SampleGallery* gallery() const { return m_gallery; }  // null until samples were asked for

signals:
    // The user asked to see samples as images: those of `split` at `sampleIndices`, with the
    // predictions of `runId`, the run that gets them wrong (its mistakes are what to look at).
    void samplesRequested(qint64 runId, QString split, QList<qint64> sampleIndices, QString title);
    void comparisonShown();  // a comparison (or its failure message) has just been drawn

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;  // the names note's resizes: elided anew

private:
    struct Evaluations {
        ts::EvaluationRecord a, b;
    };
    struct Outcome {
        std::pair<std::int64_t, std::int64_t> evaluations;  // what was compared
        std::optional<ts::EvaluationComparison> comparison;
        QString error;
    };
    void showMessage(const QString& text);
    void chooseSplit(const QString& split);
    void finished();
    void openClassNames(const std::string& split);
    void applyClassNames();  // to the axes and both tables, in place (selection and sorting kept)
    QString className(std::int64_t c) const;
    void fillPerClass();
    void fillSamples();
    void requestSamples(bool selectedOnly);
    void showSamplesWindow(qint64 runId, const QList<qint64>& sampleIndices, const QString& title);

    ts::RunReader* m_reader = nullptr;  // the page's, for a change of split
    qint64 m_runA = -1, m_runB = -1;
    QString m_nameA, m_nameB;
    std::string m_experimentA;  // run A's stored experiment YAML: where the class names come from
    std::vector<ts::EvaluationRecord> m_evaluationsA, m_evaluationsB;
    std::optional<Evaluations> m_shown;  // the pair compared (or being compared)
    std::optional<ts::EvaluationComparison> m_comparison;
    QFutureWatcher<Outcome> m_watcher;

    QStackedWidget* m_stack = nullptr;  // 0: message, 1: comparison
    QLabel* m_message = nullptr;
    QComboBox* m_splitBox = nullptr;
    QLabel* m_header = nullptr;
    QLabel* m_namesNote = nullptr;
    ConfusionPlot* m_heatMap = nullptr;
    std::pair<std::string, std::string> m_namesFrom;  // (experiment, split) opened or opening
    QStringList m_classNames;
    QString m_namesError;
    QString m_namesNoteText;  // whole; the label shows it elided to one line
    QFutureWatcher<OpenedSplit>* m_namesWatcher = nullptr;  // the newest opening; older ones are dropped
    QStandardItemModel* m_perClass = nullptr;
    QTableView* m_perClassView = nullptr;
    QComboBox* m_listBox = nullptr;
    QStandardItemModel* m_samples = nullptr;
    QTableView* m_samplesView = nullptr;
    QPushButton* m_viewImages = nullptr;
    QDialog* m_samplesWindow = nullptr;  // made on first use, then reused
    SampleGallery* m_gallery = nullptr;
};

}  // namespace ts::ui
