// The Train page's left column: the experiment chooser, the device list, the settings editor
// and the Train / Pause / Stop actions, and how a chosen file becomes the spec Start runs.
#include "train_page.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

#include "backend/backend.h"
#include "backend/devices.h"
#include "io/yaml/experiment_yaml.h"
#include "io/yaml/shipped_experiments.h"
#include "scientific_spin_box.h"
#include "ui/system_info.h"
#include "ui/engine_messages.h"
#include "ui/hyperparameters/option_help.h"
#include "train/memory_advice.h"
#include "ui/document_actions.h"
#include "ui/experiment_document.h"

namespace ts::ui {
namespace {


// The experiments/ folder shipped with the studio (the engine's rule, shared with the CLI's
// selftest); empty when there is none.
QString shippedExperimentsDir() { return QString::fromStdString(ts::shippedExperimentsDirectory().string()); }

constexpr int kUntitledRole = Qt::UserRole + 1;  // the chooser's item of an experiment without a file
constexpr int kTrainFieldMergeBase = 0x7100;     // a field's edits in a row merge into one step

}  // namespace

void TrainPage::createActions()
{
    m_trainAction = new QAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Train"), this);
    m_trainAction->setObjectName(QStringLiteral("actionTrain"));
    m_trainAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_trainAction->setToolTip(tr("Start training the chosen experiment (Ctrl+R)"));
    connect(m_trainAction, &QAction::triggered, this, &TrainPage::startTraining);

    m_pauseAction = new QAction(style()->standardIcon(QStyle::SP_MediaPause), tr("&Pause"), this);
    m_pauseAction->setObjectName(QStringLiteral("actionPause"));
    m_pauseAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_P));
    m_pauseAction->setToolTip(tr("Pause or resume after the current step (Ctrl+P)"));
    connect(m_pauseAction, &QAction::triggered, this, &TrainPage::togglePause);

    m_stopAction = new QAction(style()->standardIcon(QStyle::SP_MediaStop), tr("&Stop"), this);
    m_stopAction->setObjectName(QStringLiteral("actionStop"));
    m_stopAction->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Period), QKeySequence(Qt::SHIFT | Qt::Key_F5)});
    m_stopAction->setToolTip(tr("Stop after the current step; the run is kept (Ctrl+. or Shift+F5)"));
    connect(m_stopAction, &QAction::triggered, this, &TrainPage::stopTraining);

    m_queueAction = new QAction(style()->standardIcon(QStyle::SP_FileDialogDetailedView), tr("&Queue"), this);
    m_queueAction->setObjectName(QStringLiteral("actionQueue"));
    m_queueAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    m_queueAction->setToolTip(tr("Queue the experiment with these settings: it trains when the jobs before it have "
                                 "ended (Ctrl+Shift+R)"));
    connect(m_queueAction, &QAction::triggered, this, &TrainPage::queueTraining);

    // Shortcuts work while the page shows.
    addActions({m_trainAction, m_pauseAction, m_stopAction, m_queueAction});
}

QList<QAction*> TrainPage::trainActions() const { return {m_trainAction, m_pauseAction, m_stopAction, m_queueAction}; }

QWidget* TrainPage::createControls()
{
    m_experiment = new QComboBox;
    m_experiment->setObjectName(QStringLiteral("experimentCombo"));
    m_experiment->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_experiment->setMinimumContentsLength(16);
    connect(m_experiment, &QComboBox::activated, this, &TrainPage::onExperimentChosen);

    m_device = new QComboBox;
    m_device->setObjectName(QStringLiteral("deviceCombo"));
    populateDevices();

    m_threads = new QSpinBox;
    m_threads->setObjectName(QStringLiteral("threadsSpin"));
    m_threads->setRange(0, 256);
    m_threads->setSpecialValueText(tr("Automatic"));  // 0: the cores other programs leave idle
    m_threads->setToolTip(optionHelp("training.threads"));

    m_epochs = new QSpinBox;
    m_epochs->setObjectName(QStringLiteral("epochsSpin"));
    m_epochs->setRange(1, 100000);
    m_batchSize = new QSpinBox;
    m_batchSize->setObjectName(QStringLiteral("batchSizeSpin"));
    m_batchSize->setRange(1, 65536);
    m_lr = new widgets::ScientificSpinBox;  // 3e-4 as typed; any positive rate
    m_lr->setObjectName(QStringLiteral("learningRateSpin"));
    m_lr->setRange(1e-12, 10.0);
    m_optimizer = new QComboBox;
    m_optimizer->setObjectName(QStringLiteral("optimizerCombo"));
    for (const char* type : {"sgd", "adam", "adamw", "rmsprop"}) m_optimizer->addItem(QString::fromLatin1(type), QString::fromLatin1(type));
    m_schedule = new QComboBox;
    m_schedule->setObjectName(QStringLiteral("scheduleCombo"));
    const std::pair<const char*, QString> schedules[] = {
        {"constant", tr("Constant")},   {"step", tr("Step decay")},
        {"multistep", tr("Multi-step decay")}, {"exponential", tr("Exponential decay")},
        {"cosine", tr("Cosine")},       {"cosine_restarts", tr("Cosine with restarts")},
        {"onecycle", tr("One-cycle")},  {"plateau", tr("Reduce on plateau")}};
    for (const auto& [type, label] : schedules) m_schedule->addItem(label, QString::fromLatin1(type));
    m_precision = new QComboBox;
    m_precision->setObjectName(QStringLiteral("precisionCombo"));
    const std::pair<const char*, QString> precisions[] = {
        {"f32", tr("fp32 (exact)")}, {"tf32", tr("TF32 matrix products")},
        {"bf16", tr("bf16 mixed precision")}, {"f16", tr("fp16 mixed precision, loss scaling")}};
    for (const auto& [type, label] : precisions) m_precision->addItem(label, QString::fromLatin1(type));
    m_precision->setToolTip(tr("The precision of matrix products and convolutions; weights, activations and "
                               "gradients stay fp32. Tensor cores make it fast on a GPU; the CPU emulates it "
                               "(same numbers, slower)."));

    auto* form = new QFormLayout;
    form->addRow(tr("Experiment:"), m_experiment);
    form->addRow(tr("Device:"), m_device);
    form->addRow(tr("CPU threads:"), m_threads);
    form->addRow(tr("Processes:"), createProcessesField());
    form->addRow(tr("Epochs:"), m_epochs);
    form->addRow(tr("Batch size:"), m_batchSize);
    form->addRow(tr("Learning rate:"), m_lr);
    form->addRow(tr("Optimizer:"), m_optimizer);
    form->addRow(tr("Schedule:"), m_schedule);
    form->addRow(tr("Precision:"), m_precision);
    m_memory = new QLabel;
    m_memory->setObjectName(QStringLiteral("memoryLabel"));
    m_memory->setWordWrap(true);
    form->addRow(tr("Memory:"), m_memory);
    m_editors = {m_experiment, m_device, m_threads, m_processes, m_epochs, m_batchSize, m_lr, m_optimizer, m_schedule, m_precision};
    // Each field edits the experiment: one undoable step per field (typing merges). Filling a
    // field from the experiment changes nothing, so it makes no step.
    enum Field { Device = 1, Threads, Epochs, Batch, Lr, Optimizer, Schedule, Precision };
    auto comboText = [](QComboBox* box) { return box->currentText(); };
    connect(m_device, &QComboBox::currentIndexChanged, this, [this, comboText] {
        if (m_device->currentIndex() < 0) return;  // the experiment's value is not one of the list
        editField(tr("Set device to %1").arg(comboText(m_device)), Device,
                  [this](ExperimentSpec& s) { s.training.device = m_device->currentData().toString().toStdString(); });
    });
    connect(m_threads, &QSpinBox::valueChanged, this, [this](int n) {
        editField(tr("Set CPU threads to %1").arg(m_threads->text()), Threads, [n](ExperimentSpec& s) { s.training.threads = n; });
    });
    connect(m_epochs, &QSpinBox::valueChanged, this, [this](int n) {
        editField(tr("Set epochs to %1").arg(n), Epochs, [n](ExperimentSpec& s) { s.training.epochs = n; });
    });
    connect(m_batchSize, &QSpinBox::valueChanged, this, [this](int n) {
        editField(tr("Set batch size to %1").arg(n), Batch, [n](ExperimentSpec& s) { s.training.batchSize = n; });
    });
    connect(m_lr, &QDoubleSpinBox::valueChanged, this, [this](double lr) {
        // The box shows a rounded rate: the experiment's own value is not an edit.
        if (m_doc->hasExperiment() && m_lr->textFromValue(lr) == m_lr->textFromValue(m_doc->spec().optimizer.lr)) return;
        editField(tr("Set learning rate to %1").arg(m_lr->textFromValue(lr)), Lr, [lr](ExperimentSpec& s) { s.optimizer.lr = lr; });
    });
    connect(m_optimizer, &QComboBox::currentIndexChanged, this, [this, comboText] {
        if (m_optimizer->currentIndex() < 0) return;  // the experiment's value is not one of the list
        editField(tr("Set optimizer to %1").arg(comboText(m_optimizer)), Optimizer,
                  [this](ExperimentSpec& s) { s.optimizer.type = m_optimizer->currentData().toString().toStdString(); });
    });
    connect(m_schedule, &QComboBox::currentIndexChanged, this, [this, comboText] {
        if (m_schedule->currentIndex() < 0) return;  // the experiment's value is not one of the list
        editField(tr("Set schedule to %1").arg(comboText(m_schedule)), Schedule,
                  [this](ExperimentSpec& s) { s.schedule.type = m_schedule->currentData().toString().toStdString(); });
    });
    connect(m_precision, &QComboBox::currentIndexChanged, this, [this, comboText] {
        if (m_precision->currentIndex() < 0) return;  // the experiment's value is not one of the list
        editField(tr("Set precision to %1").arg(comboText(m_precision)), Precision,
                  [this](ExperimentSpec& s) { s.training.precision = m_precision->currentData().toString().toStdString(); });
    });

    auto* buttons = new QHBoxLayout;
    for (QAction* action : trainActions()) {
        auto* button = new QToolButton;
        button->setDefaultAction(action);
        button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        button->setObjectName(action->objectName().mid(6).toLower() + QStringLiteral("Button"));  // trainButton, ...
        buttons->addWidget(button);
    }
    buttons->addStretch(1);

    auto* box = new QGroupBox(tr("Run"));
    auto* layout = new QVBoxLayout(box);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addStretch(1);
    box->setMaximumWidth(360);
    return box;
}

void TrainPage::populateDevices()
{
    m_device->addItem(tr("Automatic"), QStringLiteral("auto"));
    m_device->addItem(tr("CPU"), QStringLiteral("cpu"));
    for (const CudaDeviceInfo& d : SystemInfo::cuda().devices)
        m_device->addItem(tr("GPU %1: %2 (%3)")
                              .arg(d.index)
                              .arg(QString::fromStdString(d.name), QLocale().formattedDataSize(qint64(d.totalMemory))),
                          QStringLiteral("cuda:%1").arg(d.index));
    m_device->setToolTip(tr("Automatic uses the first GPU when the CUDA backend can run it, else the CPU."));
}

// The shipped experiments, the recent ones and the open one; "Open…" last.
void TrainPage::populateExperiments()
{
    m_experiment->clear();
    QStringList files;
    if (const QString dir = shippedExperimentsDir(); !dir.isEmpty())
        for (const QFileInfo& f : QDir(dir).entryInfoList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name))
            files << f.absoluteFilePath();
    for (const QString& recent : DocumentActions::recentExperiments())
        if (!files.contains(recent)) files << recent;
    for (const QString& file : files)
        m_experiment->addItem(QFileInfo(file).completeBaseName(), file);
    m_experiment->addItem(tr("Open…"));  // no data: the file dialog
    labelExperiments();
}

void TrainPage::labelExperiments()
{
    QStringList files;
    for (int i = 0; i < m_experiment->count(); ++i) files << m_experiment->itemData(i).toString();
    for (int i = 0; i < files.size(); ++i) {
        if (files[i].isEmpty()) continue;  // "Open…"
        const QFileInfo info(files[i]);
        const QString name = info.completeBaseName();
        QStringList clashes;  // the folders of the other files of this name
        for (int j = 0; j < files.size(); ++j)
            if (j != i && !files[j].isEmpty() && QFileInfo(files[j]).completeBaseName() == name)
                clashes << QFileInfo(files[j]).absolutePath();
        QString text = name;
        if (!clashes.isEmpty()) {
            // As many trailing folders as tell this one from the others ("experiments/", "copy/experiments/").
            const QStringList parts = QDir::fromNativeSeparators(info.absolutePath()).split(QLatin1Char('/'), Qt::SkipEmptyParts);
            QString folder;
            for (int n = 1; n <= parts.size(); ++n) {
                folder = parts.mid(parts.size() - n).join(QLatin1Char('/')) + QLatin1Char('/');
                const bool unique = std::none_of(clashes.begin(), clashes.end(), [&](const QString& other) {
                    return (QDir::fromNativeSeparators(other) + QLatin1Char('/')).endsWith(QLatin1Char('/') + folder);
                });
                if (unique) break;
            }
            text = tr("%1 — %2").arg(name, folder);
        }
        m_experiment->setItemText(i, text);
        m_experiment->setItemData(i, QDir::toNativeSeparators(info.absoluteFilePath()), Qt::ToolTipRole);
    }
}

void TrainPage::onExperimentChosen(int index)
{
    emit openRequested(m_experiment->itemData(index).toString());  // empty: "Open…"
    selectDocumentInChooser();  // opened, cancelled or refused: the chooser shows what is open
}

// The open experiment's item (added when it is new to the list); an untitled one has an item
// of its own, without a file.
void TrainPage::selectDocumentInChooser()
{
    const QString file = m_doc->path();
    for (int i = m_experiment->count() - 1; i >= 0; --i)
        if (m_experiment->itemData(i, kUntitledRole).toBool()) m_experiment->removeItem(i);
    if (!m_doc->hasExperiment()) {
        m_experiment->setCurrentIndex(-1);
        return;
    }
    int index = file.isEmpty() ? -1 : m_experiment->findData(file);
    if (index < 0) {
        index = m_experiment->count() - 1;  // before "Open…"
        m_experiment->insertItem(index, file.isEmpty() ? m_doc->displayName() : QFileInfo(file).completeBaseName(), file);
        if (file.isEmpty()) m_experiment->setItemData(index, true, kUntitledRole);
        else labelExperiments();
    }
    m_experiment->setCurrentIndex(index);
    m_experiment->setToolTip(file.isEmpty() ? tr("Not saved yet") : QDir::toNativeSeparators(file));
}

void TrainPage::editField(const QString& what, int field, const std::function<void(ExperimentSpec&)>& change)
{
    if (!m_doc->hasExperiment()) return;
    ExperimentSpec spec = m_doc->spec();
    change(spec);
    m_doc->edit(spec, what, kTrainFieldMergeBase + field);
}

void TrainPage::showDocument()
{
    selectDocumentInChooser();
    if (m_doc->hasExperiment()) {
        const ExperimentSpec& spec = m_doc->spec();
        // Each field's own handler sees its value already in the experiment: no edit is made.
        if (const int device = m_device->findData(QString::fromStdString(spec.training.device)); device >= 0)
            m_device->setCurrentIndex(device);
        // A file's value beyond a field's usual range widens it: a clamped value would be an edit nobody made.
        auto show = [](QSpinBox* box, std::int64_t v) {
            box->setMaximum(std::max<int>(box->maximum(), int(std::min<std::int64_t>(v, INT_MAX))));
            box->setValue(int(v));
        };
        show(m_threads, spec.training.threads);
        show(m_epochs, spec.training.epochs);
        show(m_batchSize, spec.training.batchSize);
        m_lr->setRange(std::min(m_lr->minimum(), spec.optimizer.lr), std::max(m_lr->maximum(), spec.optimizer.lr));
        m_lr->setValue(spec.optimizer.lr);
        m_optimizer->setCurrentIndex(m_optimizer->findData(QString::fromStdString(spec.optimizer.type)));
        m_schedule->setCurrentIndex(m_schedule->findData(QString::fromStdString(spec.schedule.type)));
        m_precision->setCurrentIndex(m_precision->findData(QString::fromStdString(spec.training.precision)));
    }
    updateMemoryEstimate();
    updateActions();
}

// The memory plan of the run as edited, known before it starts. Planned on the CPU backend:
// on a GPU only the convolution workspace differs (cuDNN picks its algorithms on the device).
void TrainPage::updateMemoryEstimate()
{
    const auto spec = experimentForRun();
    if (!spec) {
        m_memory->clear();
        return;
    }
    const QLocale locale;
    try {
        const RunMemory m = planRunMemory(*spec, spec->training.batchSize, cpuBackend());
        m_memory->setText(tr("%1 planned: activations %2, weights with gradients and optimizer state %3")
                              .arg(locale.formattedDataSize(qint64(m.total())), locale.formattedDataSize(qint64(m.activations)),
                                   locale.formattedDataSize(qint64(m.parameters + m.gradients + m.optimizerState))));
        m_memory->setToolTip(renderMessage(describeRunMemory(m, spec->optimizer.type)));
    } catch (const std::exception& e) {
        m_memory->setText(tr("not known: %1").arg(QString::fromStdString(e.what())));
        m_memory->setToolTip(QString());
    }
}

std::optional<ExperimentSpec> TrainPage::experimentForRun() const
{
    if (!m_doc->hasExperiment()) return std::nullopt;
    return m_doc->spec();
}

}  // namespace ts::ui
