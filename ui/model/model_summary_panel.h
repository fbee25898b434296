// The Model page's cost and memory summary: total parameters, FLOPs per sample, and the
// training memory the executor will plan (parameters, gradients, optimizer state, activations,
// workspace) for the batch size, optimizer and precision chosen here, plus the largest batch
// that fits the device (the GPU's free memory, or the RAM available on the CPU). Planning runs
// off the UI thread; a newer request supersedes an older one.
//
// The largest batch is then confirmed by one real training step at that batch (the engine's
// probeTrainingStep, off the UI thread): automatically when the device is a GPU, on request
// ("Confirm with one step") on the CPU, where it takes that much of the machine's RAM. Planning
// and the step take turns on the backend, never both at once.
#pragma once
#include <QWidget>

#include "graph/graph_diagnosis.h"
#include "train/step_probe.h"
#include "types/experiment_spec.h"
#include "types/run_memory.h"

class QComboBox;
class QLabel;
class QSpinBox;
class QPushButton;

namespace ts::ui {

class ModelSummaryPanel : public QWidget {
    Q_OBJECT
public:
    explicit ModelSummaryPanel(QWidget* parent = nullptr);
    void setModel(const ExperimentSpec& spec, const GraphDiagnosis& diagnosis);
    // The planned memory last shown (tests compare it with the engine's plan).
    RunMemory plannedMemory() const { return m_memory; }
    std::int64_t largestBatch() const { return m_largest; }
    bool planning() const { return m_running; }
    // Runs one real training step at `batch` (the button: at the largest batch) and shows
    // its peak beside the plan. Ignored while the model does not check.
    void confirm(std::int64_t batch);
    bool confirming() const { return m_probing; }
    // A run trains (on any device): the step would share the backend's stream, handles and
    // allocator with it, so none is started, by hand or by itself, until this is false again.
    void setRunActive(bool active);
    const StepProbe& lastProbe() const { return m_probe; }
    QString confirmationText() const;

signals:
    void planned();    // a plan and the largest batch arrived
    void confirmed();  // a step's result arrived (lastProbe)

private:
    struct Plan {
        int generation = 0;
        RunMemory memory;
        std::int64_t largest = 0;
        std::size_t available = 0;
        QString device, error;
        bool gpu = false;
    };
    void replan();
    void show(const Plan& plan);
    void startProbe();
    void showProbe(const StepProbe& probe, int generation);

    ExperimentSpec m_spec;
    bool m_ok = false, m_synced = false;
    QLabel *m_parameters, *m_flops, *m_breakdown, *m_fits, *m_confirmation;
    QPushButton* m_confirm;
    QSpinBox* m_batch;
    QComboBox *m_optimizer, *m_precision;
    RunMemory m_memory;
    std::int64_t m_largest = 0;
    int m_generation = 0;
    bool m_running = false, m_pending = false;
    // The step: one at a time; asked for while planning, it starts when the plan is shown.
    bool m_probing = false, m_gpu = false, m_runActive = false;
    std::int64_t m_probeBatch = 0;  // wanted next (0: none)
    StepProbe m_probe;
};

}  // namespace ts::ui
