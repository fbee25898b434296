#include "model_summary_panel.h"

#include <QComboBox>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <utility>

#include "backend/backend.h"
#include "backend/select_backend.h"
#include "train/memory_advice.h"
#include "model_scene.h"

namespace ts::ui {

ModelSummaryPanel::ModelSummaryPanel(QWidget* parent) : QWidget(parent)
{
    m_parameters = new QLabel;
    m_flops = new QLabel;
    m_breakdown = new QLabel;
    m_breakdown->setWordWrap(true);
    m_breakdown->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_fits = new QLabel;
    m_fits->setWordWrap(true);
    m_confirm = new QPushButton(tr("Confirm with one step"));
    m_confirm->setObjectName(QStringLiteral("summaryConfirm"));
    m_confirm->setToolTip(tr("Runs one real training step at the largest batch on synthetic data and measures the memory it "
                             "takes. On the CPU that much RAM is in use for a moment."));
    m_confirm->setEnabled(false);
    m_confirmation = new QLabel;
    m_confirmation->setWordWrap(true);
    m_confirmation->setObjectName(QStringLiteral("summaryConfirmation"));
    m_confirmation->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_batch = new QSpinBox;
    m_batch->setRange(1, 1 << 20);
    m_batch->setObjectName(QStringLiteral("summaryBatch"));
    m_optimizer = new QComboBox;
    for (const char* o : {"sgd", "adam", "adamw", "rmsprop"}) m_optimizer->addItem(QString::fromLatin1(o), QString::fromLatin1(o));
    m_precision = new QComboBox;
    m_precision->addItem(tr("f32 (exact)"), QStringLiteral("f32"));
    m_precision->addItem(tr("tf32 (GPU)"), QStringLiteral("tf32"));
    m_precision->addItem(tr("bf16 mixed"), QStringLiteral("bf16"));
    m_precision->addItem(tr("f16 mixed"), QStringLiteral("f16"));
    m_batch->setToolTip(tr("The batch size the memory is planned for (the experiment's, until you change it here)"));
    m_optimizer->setToolTip(tr("Adam and AdamW keep two state tensors per weight, SGD with momentum one, plain SGD none"));

    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Parameters:"), m_parameters);
    form->addRow(tr("FLOPs per sample:"), m_flops);
    form->addRow(tr("Batch size:"), m_batch);
    form->addRow(tr("Optimizer:"), m_optimizer);
    form->addRow(tr("Precision:"), m_precision);
    form->addRow(tr("Training memory:"), m_breakdown);
    form->addRow(tr("Largest batch:"), m_fits);
    auto* step = new QVBoxLayout;
    step->setContentsMargins(0, 0, 0, 0);
    step->addWidget(m_confirm, 0, Qt::AlignLeft);
    step->addWidget(m_confirmation);
    form->addRow(tr("One step:"), step);
    connect(m_confirm, &QPushButton::clicked, this, [this] { confirm(m_largest); });

    connect(m_batch, &QSpinBox::valueChanged, this, &ModelSummaryPanel::replan);
    connect(m_optimizer, &QComboBox::currentIndexChanged, this, &ModelSummaryPanel::replan);
    connect(m_precision, &QComboBox::currentIndexChanged, this, &ModelSummaryPanel::replan);
}

void ModelSummaryPanel::setModel(const ExperimentSpec& spec, const GraphDiagnosis& d)
{
    const bool otherSettings = !m_synced || spec.training.batchSize != m_spec.training.batchSize ||
                               spec.optimizer.type != m_spec.optimizer.type || spec.training.precision != m_spec.training.precision;
    m_spec = spec;
    m_synced = true;
    m_ok = d.ok();
    const double batch = double(std::max<std::int64_t>(1, spec.training.batchSize));
    m_parameters->setText(QLocale().toString(qlonglong(d.parameters)));
    m_flops->setText(compactCount(d.flops / batch, QStringLiteral("FLOP")));
    if (otherSettings) {
        const QSignalBlocker b1(m_batch), b2(m_optimizer), b3(m_precision);
        m_batch->setValue(int(std::max<std::int64_t>(1, spec.training.batchSize)));
        m_optimizer->setCurrentIndex(std::max(0, m_optimizer->findData(QString::fromStdString(spec.optimizer.type))));
        m_precision->setCurrentIndex(std::max(0, m_precision->findData(QString::fromStdString(spec.training.precision))));
    }
    replan();
}

void ModelSummaryPanel::replan()
{
    if (!m_ok) {
        ++m_generation;
        m_breakdown->setText(tr("not known until the model checks (see Problems)"));
        m_fits->clear();
        m_confirm->setEnabled(false);
        m_probeBatch = 0;
        if (!m_probing) m_confirmation->clear();
        return;
    }
    if (m_running || m_probing) {  // one plan at a time, not beside a step; the newest settings are planned next
        m_pending = true;
        return;
    }
    ExperimentSpec spec = m_spec;
    spec.training.batchSize = m_batch->value();
    spec.optimizer.type = m_optimizer->currentData().toString().toStdString();
    spec.training.precision = m_precision->currentData().toString().toStdString();
    const int generation = ++m_generation;
    m_running = true;
    auto* watcher = new QFutureWatcher<Plan>(this);
    connect(watcher, &QFutureWatcher<Plan>::finished, this, [this, watcher] {
        const Plan plan = watcher->result();
        watcher->deleteLater();
        m_running = false;
        if (m_pending) {
            m_pending = false;
            replan();
            return;
        }
        if (plan.generation == m_generation) show(plan);
        if (m_probeBatch > 0 && !m_running && !m_probing) startProbe();
    });
    watcher->setFuture(QtConcurrent::run([spec, generation] {
        Plan plan;
        plan.generation = generation;
        try {
            Backend& backend = selectBackend(spec.training.device);
            plan.device = QString::fromStdString(backend.name());
            plan.gpu = backend.device().kind == DeviceKind::CUDA;
            plan.memory = planRunMemory(spec, spec.training.batchSize, backend);
            plan.available = availableTrainingBytes(backend);
            if (plan.available > 0) plan.largest = largestFittingBatch(spec, backend, plan.available);
        } catch (const std::exception& e) {
            plan.error = QString::fromStdString(e.what());
        }
        return plan;
    }));
}

void ModelSummaryPanel::show(const Plan& plan)
{
    // A step measured for the drawing before this one says nothing about this one.
    if (!m_probing && !m_runActive) m_confirmation->clear();
    m_confirm->setEnabled(false);
    if (!plan.error.isEmpty()) {
        m_breakdown->setText(tr("not known: %1").arg(plan.error));
        m_fits->clear();
        return;
    }
    const QLocale l;
    auto size = [&](std::size_t b) { return l.formattedDataSize(qint64(b)); };
    const RunMemory& m = plan.memory;
    m_memory = m;
    m_largest = plan.largest;
    m_breakdown->setText(tr("%1 in all: parameters %2, gradients %3, optimizer state %4, activations %5, workspace %6")
                             .arg(size(m.total()), size(m.parameters), size(m.gradients), size(m.optimizerState),
                                  size(m.activations), size(m.workspace)));
    if (plan.available == 0) m_fits->setText(tr("unknown: %1 does not say how much memory is free").arg(plan.device));
    else if (plan.largest == 0)
        m_fits->setText(tr("none: even batch 1 needs more than the %1 free on %2").arg(size(plan.available), plan.device));
    else
        m_fits->setText(tr("%1 on %2 (%3 free)").arg(l.toString(qlonglong(plan.largest)), plan.device, size(plan.available)));
    m_gpu = plan.gpu;
    m_confirm->setEnabled(plan.largest > 0 && !m_runActive);
    emit planned();
    // On a GPU the step is cheap and the answer matters most: confirm without being asked.
    if (m_gpu && plan.largest > 0) confirm(plan.largest);
}

void ModelSummaryPanel::setRunActive(bool active)
{
    if (active == m_runActive) return;
    m_runActive = active;
    m_confirm->setEnabled(!active && !m_probing && m_ok && m_largest > 0);
    if (active) {
        m_probeBatch = 0;
        if (!m_probing) m_confirmation->setText(tr("not while a run is training: the step would share the device with it"));
    } else {
        if (!m_probing) m_confirmation->clear();
        if (m_gpu && m_ok && m_largest > 0) confirm(m_largest);
    }
}

void ModelSummaryPanel::confirm(std::int64_t batch)
{
    if (!m_ok || batch < 1 || m_runActive) return;
    m_probeBatch = batch;
    m_confirmation->setText(tr("running one training step at batch %1…").arg(QLocale().toString(qlonglong(batch))));
    if (!m_running && !m_probing) startProbe();
}

void ModelSummaryPanel::startProbe()
{
    ExperimentSpec spec = m_spec;
    spec.optimizer.type = m_optimizer->currentData().toString().toStdString();
    spec.training.precision = m_precision->currentData().toString().toStdString();
    const std::int64_t batch = std::exchange(m_probeBatch, 0);
    const int generation = m_generation;
    m_probing = true;
    m_confirm->setEnabled(false);
    auto* watcher = new QFutureWatcher<StepProbe>(this);
    connect(watcher, &QFutureWatcher<StepProbe>::finished, this, [this, watcher, generation] {
        const StepProbe probe = watcher->result();
        watcher->deleteLater();
        m_probing = false;
        m_confirm->setEnabled(m_ok && m_largest > 0 && !m_runActive);
        showProbe(probe, generation);
        if (m_pending) {
            m_pending = false;
            replan();
        } else if (m_probeBatch > 0) {
            startProbe();
        }
    });
    watcher->setFuture(QtConcurrent::run([spec, batch] {
        try {
            return probeTrainingStep(spec, batch, selectBackend(spec.training.device));
        } catch (const std::exception& e) {  // selectBackend: no such device
            StepProbe failed;
            failed.batch = batch;
            failed.message = e.what();
            return failed;
        }
    }));
}

void ModelSummaryPanel::showProbe(const StepProbe& probe, int generation)
{
    if (generation != m_generation) {  // the model or the settings changed meanwhile
        if (m_probeBatch == 0) m_confirmation->clear();
        return;
    }
    m_probe = probe;
    m_confirmation->setText(confirmationText());
    emit confirmed();
}

QString ModelSummaryPanel::confirmationText() const
{
    const QLocale l;
    const QString batch = l.toString(qlonglong(m_probe.batch));
    switch (m_probe.outcome) {
    case StepProbe::Outcome::Ran:
        return tr("one step at batch %1: peak %2 (planned %3), %4 ms")
            .arg(batch, l.formattedDataSize(qint64(m_probe.peakBytes)), l.formattedDataSize(qint64(m_probe.planned.total())),
                 l.toString(m_probe.stepSeconds * 1e3, 'f', 0));
    case StepProbe::Outcome::OutOfMemory:
        return tr("one step at batch %1 does not fit: %2").arg(batch, QString::fromStdString(m_probe.message));
    case StepProbe::Outcome::Failed:
        break;
    }
    return tr("one step at batch %1 failed: %2").arg(batch, QString::fromStdString(m_probe.message));
}

}  // namespace ts::ui
