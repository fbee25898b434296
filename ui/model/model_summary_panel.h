// The Model page's cost and memory summary: total parameters, FLOPs per sample, and the
// training memory the executor will plan (parameters, gradients, optimizer state, activations,
// workspace) for the batch size, optimizer and precision chosen here, plus the largest batch
// that fits the device (the GPU's free memory, or the RAM available on the CPU). Planning runs
// off the UI thread; a newer request supersedes an older one.
#pragma once
#include <QWidget>

#include "graph/graph_diagnosis.h"
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

signals:
    void planned();  // a plan and the largest batch arrived

private:
    struct Plan {
        int generation = 0;
        RunMemory memory;
        std::int64_t largest = 0;
        std::size_t available = 0;
        QString device, error;
    };
    void replan();
    void show(const Plan& plan);

    ExperimentSpec m_spec;
    bool m_ok = false, m_synced = false;
    QLabel *m_parameters, *m_flops, *m_breakdown, *m_fits;
    QSpinBox* m_batch;
    QComboBox *m_optimizer, *m_precision;
    RunMemory m_memory;
    std::int64_t m_largest = 0;
    int m_generation = 0;
    bool m_running = false, m_pending = false;
};

}  // namespace ts::ui
