// The learning rate at every optimizer step of the run as configured, before it runs: the
// engine's own step plan and schedule code (optim/schedule_preview.h, what the Trainer calls),
// so the curve is the one the run will log. The x axis counts steps (as the store does: step
// k is the rate the k-th update used), the top axis epochs, with a faint line at each epoch's
// end; a hover shows step, epoch and rate. The plateau schedule is drawn as its upper bound,
// and the chart says so.
//
// How many steps an epoch has depends on the training split's size, which needs the dataset
// opened: that runs on a worker (QtConcurrent) and is cached per dataset, validation fraction
// and split seed, so editing any other option redraws at once. The learning rates past runs of
// the same experiment logged (the workspace's store, read on a worker by BackgroundReader) can
// be overlaid as faint lines named by their runs.
#pragma once

#include <QFutureWatcher>
#include <QHash>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

#include "optim/schedule_preview.h"
#include "types/experiment_spec.h"
#include "ui/runs/background_reader.h"

class QCheckBox;
class QLabel;

namespace ts::widgets {
class LiveChart;
}

namespace ts::ui {

class SchedulePreviewChart : public QWidget {
    Q_OBJECT
public:
    explicit SchedulePreviewChart(QWidget* parent = nullptr);
    ~SchedulePreviewChart() override;

    // Redraws for `spec`: at once when its training split's size is known, else once a worker
    // has counted it. Settings the trainer would refuse are shown as the reason, not drawn.
    void setExperiment(const ts::ExperimentSpec& spec);
    // The workspace whose past runs of this experiment are overlaid; empty: none.
    void setWorkspace(const QString& directory);
    // Reads the past runs again (say, after a run of this experiment finished).
    void refreshOverlay();

    // What is drawn, for the page and tests.
    bool hasPreview() const { return m_preview.has_value(); }
    const ts::SchedulePreview& preview() const { return *m_preview; }
    bool isBusy() const { return !m_counting.isEmpty() || m_overlayReading; }
    QString summaryText() const;
    bool upperBoundNoteShown() const;
    QStringList overlaidRuns() const;  // the runs' names, newest first
    widgets::LiveChart* chart() const { return m_chart; }
    QCheckBox* overlayBox() const { return m_overlayBox; }
    QCheckBox* logScaleBox() const { return m_logBox; }
    // The hover text at step x: the step, its epoch and every curve's rate there.
    QString readoutAt(double step) const;

signals:
    void previewDrawn();   // the curve for the current experiment is in the chart (or why it is not)
    void overlayLoaded();  // the past runs' rates are in the chart (or could not be read)

protected:
    void changeEvent(QEvent* event) override;

private:
    struct LoggedRun {
        qint64 id = -1;
        QString name;
        std::vector<double> steps, values;
    };
    struct OverlayRead {
        QString error;
        quint64 generation = 0;
        QString experiment;
        std::vector<LoggedRun> runs;
    };
    struct SplitCount {
        QString key;
        qint64 trainSamples = -1;
        QString error;
    };

    void redraw();
    void showProblem(const QString& text);
    void onCounted(const SplitCount& count);
    void startOverlayRead();
    void applyOverlay();
    void removeOverlay();
    void syncEpochAxis();
    void retranslate();
    QString splitKey(const ts::ExperimentSpec& spec) const;

    widgets::LiveChart* m_chart = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_upperBound = nullptr;
    QCheckBox* m_logBox = nullptr;
    QCheckBox* m_overlayBox = nullptr;

    std::optional<ts::ExperimentSpec> m_spec;
    std::optional<ts::SchedulePreview> m_preview;
    QString m_problem;                   // why nothing is drawn; empty when the curve is
    QHash<QString, qint64> m_trainSizes;  // by splitKey
    QHash<QString, QString> m_sizeErrors;
    QSet<QString> m_counting;            // keys a worker is counting now

    QString m_workspace;
    QString m_overlayExperiment;  // the experiment name m_logged was read for
    std::vector<LoggedRun> m_logged;
    QStringList m_overlayIds;     // series now in the chart
    bool m_overlayReading = false;
    bool m_overlayAgain = false;  // a refresh came during a read
    quint64 m_overlayGeneration = 0;  // bumped when the workspace or experiment changes
    std::unique_ptr<BackgroundReader> m_reader;
    QFutureWatcher<OverlayRead> m_overlayWatcher;
};

}  // namespace ts::ui
