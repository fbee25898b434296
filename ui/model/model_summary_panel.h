// The Model page's cost and memory summary: total parameters, FLOPs per sample, and the
// training memory the executor will plan (parameters, gradients, optimizer state, activations,
// workspace) for the batch size, optimizer and precision chosen here, plus the largest batch
// that fits the device's memory budget (the GPU's free memory, or the RAM available on the
// CPU, less the margin the machine keeps: train/memory_advice.h). Planning runs off the UI
// thread; a newer request supersedes an older one.
//
// "Confirm with one step" checks that batch with one real training step (the engine's
// StepProbeJob) on the studio's job queue: after any run, never beside one, listed in the Jobs
// panel, cancellable here, and refused with the numbers before it allocates when the batch
// no longer fits the budget. It runs on request only, on every device.
#pragma once
#include <QWidget>

#include "graph/graph_diagnosis.h"
#include "train/memory_advice.h"
#include "types/experiment_spec.h"
#include "types/run_memory.h"

class QComboBox;
class QLabel;
class QSpinBox;
class QPushButton;

namespace ts::ui {

class TrainingSession;

// What the last one-step check said (the job's result).
struct StepCheck {
    enum class Outcome { Ran, Refused, Stopped, Failed } outcome = Outcome::Failed;
    std::int64_t batch = 0;
    double peakBytes = 0, plannedBytes = 0, stepSeconds = 0;
    QString message;  // the job's, translated (why it was refused, stopped or failed)
};

class ModelSummaryPanel : public QWidget {
    Q_OBJECT
public:
    explicit ModelSummaryPanel(QWidget* parent = nullptr);
    void setModel(const ExperimentSpec& spec, const GraphDiagnosis& diagnosis);
    // The planned memory last shown (tests compare it with the engine's plan).
    RunMemory plannedMemory() const { return m_memory; }
    std::int64_t largestBatch() const { return m_largest; }
    std::size_t marginBytes() const { return m_margin; }  // kept free below the free memory the figure was sized to
    bool planning() const { return m_running; }
    // The job queue the one-step check runs on (none: the button stays disabled). Not owned.
    void setSession(TrainingSession* session);
    // Queues one real training step at `batch` (0: the largest batch that fits the budget when
    // the job runs; the button's choice) and shows its peak beside the plan. Ignored while the
    // model does not check or a check is already queued or running.
    void confirm(std::int64_t batch);
    void cancelConfirmation();
    bool confirming() const { return m_jobId != 0; }
    const StepCheck& lastCheck() const { return m_check; }
    QString confirmationText() const;

signals:
    void planned();    // a plan and the largest batch arrived
    void confirmed();  // a check ended (lastCheck)

private:
    struct Plan {
        int generation = 0;
        RunMemory memory;
        std::int64_t largest = 0;
        ts::MemoryBudget budget;  // what the largest batch was sized to
        QString device, error;
    };
    void replan();
    void show(const Plan& plan);
    void followJob();  // the session's jobs changed: our check's state, or its result
    void updateButtons();

    ExperimentSpec m_spec;
    bool m_ok = false, m_synced = false;
    QLabel *m_parameters, *m_flops, *m_breakdown, *m_fits, *m_confirmation;
    QPushButton *m_confirm, *m_cancel;
    QSpinBox* m_batch;
    QComboBox *m_optimizer, *m_precision;
    RunMemory m_memory;
    std::int64_t m_largest = 0;
    std::size_t m_margin = 0;
    int m_generation = 0;
    bool m_running = false, m_pending = false;
    TrainingSession* m_session = nullptr;
    qint64 m_jobId = 0;           // the queued or running check (0: none)
    int m_jobGeneration = 0;      // the drawing it checks: a result for an older one is not shown
    StepCheck m_check;
};

}  // namespace ts::ui
