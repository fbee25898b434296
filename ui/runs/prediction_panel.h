// The Runs page's "Predict" tab: drop a PNG or JPEG image on it (or choose one) to see what
// the selected run's best checkpoint makes of it: the image and the top five classes as bars
// with their probabilities. A text classifier's run gets a text box instead (Classify, or
// Ctrl+Return). The engine's Predictor (jobs/predictor.h) does the work, with the
// experiment's own preprocessing, on a one-thread pool (loading the checkpoint and the run's
// dataset statistics takes about a second; later images reuse the loaded model), and the
// result is applied on the UI thread. It runs on the CPU, leaving a GPU to training.
#pragma once

#include <QFutureWatcher>
#include <QStringList>
#include <QThreadPool>
#include <QVector>
#include <QWidget>

#include <functional>
#include <memory>
#include <vector>

#include "store/workspace.h"

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;

namespace ts {
class Predictor;
struct SamplePrediction;
}

namespace ts::ui {

class PredictionPanel : public QWidget {
    Q_OBJECT
public:
    explicit PredictionPanel(QWidget* parent = nullptr);
    ~PredictionPanel() override;  // waits for a prediction in flight

    // The run whose checkpoint predicts; another run forgets the loaded model and the result.
    // `readsText`: a text classifier (readsText(experiment YAML)), which takes typed texts.
    void showRun(const ts::Workspace& workspace, qint64 runId, bool readsText = false);
    void clear();
    // What a drop does: predicts `path` in the background (predicted() when shown).
    void predictFile(const QString& path);
    // What Classify does for a text classifier's run: predicts `text` in the background.
    void predictText(const QString& text);
    QPlainTextEdit* textEditor() const { return m_text; }
    // Whether an experiment classifies texts (format text_folder, or csv with a text column).
    static bool readsText(const std::string& experimentYaml);

    bool isBusy() const { return m_busy; }
    // What is shown (tests): the top classes, most probable first, and their probabilities.
    QStringList shownClasses() const { return m_shownClasses; }
    QVector<double> shownProbabilities() const { return m_shownProbabilities; }
    QString message() const;  // the status line: what to do, what was used, or the error

signals:
    void predicted();  // a prediction, or the error that prevented it, is on show

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    struct Outcome;
    using Predict = std::function<std::vector<ts::SamplePrediction>(ts::Predictor&)>;
    // Runs `predict` on the pool with the run's predictor (loaded there the first time).
    void start(const QString& what, Predict predict);
    void showOutcome(const Outcome& outcome);

    ts::Workspace m_workspace;
    qint64 m_runId = -1;
    std::shared_ptr<ts::Predictor> m_predictor;  // loaded on the pool, kept for the next image
    QThreadPool m_pool;                          // one thread: predictions one after another
    QFutureWatcher<Outcome>* m_watcher = nullptr;
    bool m_busy = false;
    QString m_file;
    QStringList m_shownClasses;
    QVector<double> m_shownProbabilities;

    QLabel* m_image = nullptr;
    QLabel* m_status = nullptr;
    QPushButton* m_choose = nullptr;
    QPlainTextEdit* m_text = nullptr;  // a text classifier's input
    QPushButton* m_classify = nullptr;
    QVector<QLabel*> m_names;
    QVector<QProgressBar*> m_bars;
};

}  // namespace ts::ui
