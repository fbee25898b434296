#include "model_summary_panel.h"

#include <QComboBox>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtConcurrent>

#include "backend/backend.h"
#include "backend/select_backend.h"
#include "jobs/job.h"
#include "train/memory_advice.h"
#include "full_height_label.h"
#include "model_scene.h"
#include "ui/train/training_session.h"

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
    m_fits->setObjectName(QStringLiteral("summaryLargest"));
    m_fits->setToolTip(tr("The largest batch whose planned training memory fits in the free memory less a margin the "
                          "machine keeps for itself: the larger of 1 GiB and 20% of the available RAM, or of 512 MiB and "
                          "10% of a GPU's free memory. Past the free RAM the system swaps, then kills the program."));
    m_confirm = new QPushButton(tr("Confirm with one step"));
    m_confirm->setObjectName(QStringLiteral("summaryConfirm"));
    m_confirm->setEnabled(false);
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setObjectName(QStringLiteral("summaryCancelStep"));
    m_cancel->setToolTip(tr("Stop the one-step check (a step under way stops at its next phase)"));
    m_cancel->hide();
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
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_confirm);
    buttons->addWidget(m_cancel);
    buttons->addStretch(1);
    step->addLayout(buttons);
    step->addWidget(m_confirmation);
    form->addRow(tr("One step:"), step);
    for (QLabel* wrapped : {m_breakdown, m_fits, m_confirmation}) {
        FullHeightLabel::keep(wrapped);
        wrapped->setAlignment(Qt::AlignLeft | Qt::AlignTop);  // beside its row's label, however tall the row
    }
    connect(m_confirm, &QPushButton::clicked, this, [this] { confirm(0); });
    connect(m_cancel, &QPushButton::clicked, this, &ModelSummaryPanel::cancelConfirmation);

    connect(m_batch, &QSpinBox::valueChanged, this, &ModelSummaryPanel::replan);
    connect(m_optimizer, &QComboBox::currentIndexChanged, this, &ModelSummaryPanel::replan);
    connect(m_precision, &QComboBox::currentIndexChanged, this, &ModelSummaryPanel::replan);
}

void ModelSummaryPanel::setSession(TrainingSession* session)
{
    if (m_session) disconnect(m_session, nullptr, this, nullptr);
    m_session = session;
    if (m_session) connect(m_session, &TrainingSession::jobsChanged, this, &ModelSummaryPanel::followJob);
    updateButtons();
}

void ModelSummaryPanel::setModel(const ExperimentSpec& spec, const GraphDiagnosis& d)
{
    const bool otherSettings = !m_synced || spec.training.batchSize != m_spec.training.batchSize ||
                               spec.optimizer.type != m_spec.optimizer.type || spec.training.precision != m_spec.training.precision;
    m_spec = spec;
    m_synced = true;
    m_ok = d.ok();
    m_parameters->setText(QLocale().toString(qlonglong(d.parameters)));
    m_flops->setText(compactCount(d.flops / double(d.batch), QStringLiteral("FLOP")));
    if (otherSettings) {
        const QSignalBlocker b1(m_batch), b2(m_optimizer), b3(m_precision);
        m_batch->setValue(int(std::max<std::int64_t>(1, spec.training.batchSize)));
        m_optimizer->setCurrentIndex(std::max(0, m_optimizer->findData(QString::fromStdString(spec.optimizer.type))));
        m_precision->setCurrentIndex(std::max(0, m_precision->findData(QString::fromStdString(spec.training.precision))));
    }
    replan();
}

void ModelSummaryPanel::updateButtons()
{
    const bool checking = m_jobId != 0;
    m_confirm->setEnabled(m_session && m_ok && m_largest > 0 && !checking);
    m_cancel->setVisible(checking);
    m_confirm->setToolTip(m_session ? tr("Runs one real training step on synthetic data, as a job, at the largest batch that "
                                         "fits with the margin, and measures the memory it takes. Its memory is checked "
                                         "against what is free first; on the CPU that much RAM is in use for a moment.")
                                    : tr("Needs the studio's job queue"));
}

void ModelSummaryPanel::replan()
{
    if (!m_ok) {
        ++m_generation;
        FullHeightLabel::setText(m_breakdown, tr("not known until the model checks (see Problems)"));
        FullHeightLabel::setText(m_fits, {});
        m_largest = 0;
        if (!confirming()) FullHeightLabel::setText(m_confirmation, {});
        updateButtons();
        return;
    }
    if (m_running) {  // one plan at a time; the newest settings are planned next
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
    });
    watcher->setFuture(QtConcurrent::run([spec, generation] {
        Plan plan;
        plan.generation = generation;
        try {
            Backend& backend = selectBackend(spec.training.device);
            plan.device = QString::fromStdString(backend.name());
            plan.memory = planRunMemory(spec, spec.training.batchSize, backend);
            const MemoryBudget budget = memoryBudget(backend);  // never to the last byte
            plan.budget = budget;
            if (budget.available > 0) plan.largest = largestFittingBatch(spec, backend, budget.usable);
        } catch (const std::exception& e) {
            plan.error = QString::fromStdString(e.what());
        }
        return plan;
    }));
}

void ModelSummaryPanel::show(const Plan& plan)
{
    // A step measured for the drawing before this one says nothing about this one.
    if (!confirming()) FullHeightLabel::setText(m_confirmation, {});
    if (!plan.error.isEmpty()) {
        FullHeightLabel::setText(m_breakdown, tr("not known: %1").arg(plan.error));
        FullHeightLabel::setText(m_fits, {});
        m_largest = 0;
        updateButtons();
        return;
    }
    const QLocale l;
    auto size = [&](std::size_t b) { return l.formattedDataSize(qint64(b)); };
    const RunMemory& m = plan.memory;
    m_memory = m;
    m_largest = plan.largest;
    m_margin = plan.budget.margin;
    FullHeightLabel::setText(m_breakdown, tr("%1 in all: parameters %2, gradients %3, optimizer state %4, activations %5, workspace %6")
                             .arg(size(m.total()), size(m.parameters), size(m.gradients), size(m.optimizerState),
                                  size(m.activations), size(m.workspace)));
    if (plan.budget.available == 0) FullHeightLabel::setText(m_fits, tr("unknown: %1 does not say how much memory is free").arg(plan.device));
    else if (plan.largest == 0)
        FullHeightLabel::setText(m_fits, tr("none: even batch 1 needs more than the %1 usable on %2 (%3 free, %4 of it kept free for the system)")
                            .arg(size(plan.budget.usable), plan.device, size(plan.budget.available), size(plan.budget.margin)));
    else
        FullHeightLabel::setText(m_fits, tr("%1 on %2 (%3 free, %4 of it kept free for the system)")
                            .arg(l.toString(qlonglong(plan.largest)), plan.device, size(plan.budget.available), size(plan.budget.margin)));
    updateButtons();
    emit planned();
}

void ModelSummaryPanel::confirm(std::int64_t batch)
{
    if (!m_ok || batch < 0 || !m_session || confirming()) return;
    StepProbeJob job;
    job.experiment = m_spec;
    job.experiment.optimizer.type = m_optimizer->currentData().toString().toStdString();
    job.experiment.training.precision = m_precision->currentData().toString().toStdString();
    job.batch = batch;
    const QString name = QString::fromStdString(m_spec.name.empty() ? std::string("model") : m_spec.name);
    m_jobGeneration = m_generation;
    const QString title = batch == 0 ? tr("%1 at the largest batch that fits").arg(name)
                                     : tr("%1 at batch %2").arg(name, QLocale().toString(qlonglong(batch)));
    m_jobId = m_session->enqueue(job, title, QString());
    updateButtons();
    followJob();
}

void ModelSummaryPanel::cancelConfirmation()
{
    if (m_session && m_jobId) m_session->cancel(m_jobId);
}

void ModelSummaryPanel::followJob()
{
    if (!m_session || !m_jobId) return;
    const JobRow* row = nullptr;
    for (const JobRow& j : m_session->jobs())
        if (j.id == m_jobId) row = &j;
    if (!row) return;
    const QLocale l;
    if (!row->isDone()) {
        if (row->state == JobRow::State::Queued)
            FullHeightLabel::setText(m_confirmation, tr("waiting for the job queue: the step runs after the jobs ahead of it"));
        else if (row->state == JobRow::State::Stopping)
            FullHeightLabel::setText(m_confirmation, tr("stopping the one-step check…"));
        else
            FullHeightLabel::setText(m_confirmation, row->what.isEmpty() ? tr("checking the memory…") : row->what + QStringLiteral("…"));
        return;
    }
    StepCheck check;
    check.outcome = row->state == JobRow::State::Finished                                 ? StepCheck::Outcome::Ran
                    : row->state == JobRow::State::Stopped || row->state == JobRow::State::Cancelled ? StepCheck::Outcome::Stopped
                    : row->message.contains(QLatin1String("does not fit in memory"))       ? StepCheck::Outcome::Refused
                                                                                           : StepCheck::Outcome::Failed;
    check.batch = std::int64_t(row->metrics.value(QStringLiteral("batch")));
    check.peakBytes = row->metrics.value(QStringLiteral("peak_bytes"));
    check.plannedBytes = row->metrics.value(QStringLiteral("planned_bytes"));
    check.stepSeconds = row->metrics.value(QStringLiteral("step_seconds"));
    check.message = row->message;
    const bool current = m_jobGeneration == m_generation;
    m_jobId = 0;
    m_check = check;
    // The model or the settings changed meanwhile: the answer is about another model.
    FullHeightLabel::setText(m_confirmation, current ? confirmationText() : QString());
    updateButtons();
    emit confirmed();
}

QString ModelSummaryPanel::confirmationText() const
{
    const QLocale l;
    const QString batch = l.toString(qlonglong(m_check.batch));
    switch (m_check.outcome) {
    case StepCheck::Outcome::Ran:
        return tr("one step at batch %1: peak %2 (planned %3), %4 ms")
            .arg(batch, l.formattedDataSize(qint64(m_check.peakBytes)), l.formattedDataSize(qint64(m_check.plannedBytes)),
                 l.toString(m_check.stepSeconds * 1e3, 'f', 0));
    case StepCheck::Outcome::Refused: return tr("refused before it allocated: %1").arg(m_check.message);
    case StepCheck::Outcome::Stopped: return m_check.message;
    case StepCheck::Outcome::Failed: break;
    }
    return tr("the one-step check failed: %1").arg(m_check.message);
}

}  // namespace ts::ui
