// The learning-rate range test on the Hyperparameters page: one lr_find job per seed, queued
// on the studio's job queue like any other job (so it never competes with a training run for
// the device), its curves drawn live; when the last one ends, the seeds' band and the rules'
// suggestions (the median of three rules, engine/train/lr_range_test.h, the same analysis as `trainstudio-cli lr-find`)
// with Apply buttons, and a warning when the rules or the seeds disagree by more than 3x.
#pragma once

#include <QHash>
#include <QWidget>

#include <optional>
#include <vector>

#include "train/lr_range_test.h"
#include "types/experiment_spec.h"

class QLabel;
class QCheckBox;
class QPushButton;
class QSpinBox;

namespace ts::widgets {
class RangeTestChart;
class ScientificSpinBox;
}  // namespace ts::widgets

namespace ts::ui {

class TrainingSession;
struct StepPoint;

// The experiment with a found rate applied where it belongs: one-cycle's peak (schedule.max_lr),
// every other schedule's optimizer.lr. asOneCycle: a schedule without a peak is replaced by
// one-cycle peaking at the rate (its own warm-up; the old schedule's settings go).
ts::ExperimentSpec withFinderRate(const ts::ExperimentSpec& spec, double lr, bool asOneCycle);
// What applying did, as its undo step's text: "Apply finder: one-cycle peak 0.003, warm-up 0".
QString finderEditText(const ts::ExperimentSpec& applied);
// What applying changes besides the rate, said before it happens; empty when nothing else changes.
QString finderSideEffect(const ts::ExperimentSpec& before, const ts::ExperimentSpec& after);

class LrFinderPanel : public QWidget {
    Q_OBJECT
public:
    LrFinderPanel(TrainingSession* session, QWidget* parent = nullptr);

    void setExperiment(const ts::ExperimentSpec& spec);
    void setSeeds(int seeds);
    void setSteps(int steps);
    bool isRunning() const { return !m_pending.isEmpty(); }
    // The last finished test over every seed that ran to the end.
    const std::optional<ts::LrRangeBand>& result() const { return m_result; }
    ts::widgets::RangeTestChart* chart() const { return m_chart; }

public slots:
    void start();
    void cancel();

protected:
    void resizeEvent(QResizeEvent* event) override;

signals:
    // The user chose a rate (to 3 significant digits): the page writes it where it applies (optimizer.lr, or
    // schedule.max_lr for one-cycle); asOneCycle: as the peak of a one-cycle schedule that replaces a
    // schedule without a peak (the range test's pairing: Smith 2015, fastai's fit_one_cycle).
    void applyRequested(double lr, bool asOneCycle);
    void finished();

private:
    bool offersOneCycle() const;
    void updateSideEffect();
    // Word-wrapped texts come and go under the chart: the panel's minimum height follows their
    // height at the panel's width (splitters and scroll areas ask only for minimum sizes, so a
    // minimum taken at another width let the texts overlap the chart).
    void fitHeight();
    struct Curve {
        std::uint64_t seed = 0;
        std::vector<double> lrs, losses;  // raw, as the steps came
        bool failed = false;
    };
    void onSteps(const QVector<ts::ui::StepPoint>& steps);
    void onJobsChanged();
    void redraw();
    void showResult();
    void updateControls();

    TrainingSession* m_session;
    std::optional<ts::ExperimentSpec> m_spec;
    QHash<qint64, int> m_pending;  // job id -> index into m_curves, while not ended
    std::vector<Curve> m_curves;
    std::optional<ts::LrRangeBand> m_result;

    QSpinBox* m_seeds;
    QSpinBox* m_steps;
    ts::widgets::ScientificSpinBox* m_minLr;
    ts::widgets::ScientificSpinBox* m_maxLr;
    QPushButton* m_run;
    QPushButton* m_stop;
    QLabel* m_status;
    ts::widgets::RangeTestChart* m_chart;
    QLabel* m_summary;
    QLabel* m_warning;
    QCheckBox* m_asOneCycle;
    QLabel* m_sideEffect;  // what Apply would replace besides the rate, shown before it is pressed
    QPushButton* m_applyValley;
    QPushButton* m_applySteepest;
    QPushButton* m_applyMinimum;
};

}  // namespace ts::ui
