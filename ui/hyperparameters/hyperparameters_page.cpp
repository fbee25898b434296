#include "hyperparameters_page.h"

#include <QEvent>
#include <QDir>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QStyle>
#include <QSplitter>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

#include "graph/graph.h"
#include "io/yaml/experiment_yaml.h"
#include "optim/weight_decay.h"
#include "ui/engine_messages.h"
#include "lr_finder_panel.h"
#include "option_editor.h"
#include "schedule_preview_chart.h"
#include "sweep_panel.h"
#include "ui/experiment_document.h"

namespace ts::ui {

namespace {

// Weight decay's parameter groups in the words of the run's log (optim/weight_decay.h); empty
// without weight decay or while the model does not check.
QString weightDecayNote(const ExperimentSpec& spec)
{
    try {
        const std::optional<Message> note = weightDecayMessage(checkGraph(spec.model), spec.optimizer);
        return note ? renderMessage(*note) : QString();
    } catch (const std::exception&) {
        return {};  // the Model page names the problem
    }
}

}  // namespace

HyperparametersPage::HyperparametersPage(TrainingSession* session, ExperimentDocument* document, const QString& workspaceDir,
                                         QWidget* parent)
    : QWidget(parent), m_doc(document)
{
    setObjectName(QStringLiteral("page_hyperparameters"));
    m_title = new QLabel(this);
    QFont big = m_title->font();
    big.setPointSizeF(big.pointSizeF() * 1.2);
    big.setBold(true);
    m_title->setFont(big);
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // a long name is cut, whole in the tool tip
    m_message = new QLabel(this);
    m_message->setWordWrap(true);

    // The experiment's Undo and Redo, also here; their shortcuts are the Edit menu's. Plain
    // texts on the buttons; what would be undone is in the tool tip.
    QUndoStack* stack = m_doc->undoStack();
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_title, 1);
    auto stackButton = [this, bar](const QString& text, auto slot, auto canSignal, auto textSignal, bool enabled) {
        auto* button = new QToolButton(this);
        button->setText(text);
        button->setEnabled(enabled);
        connect(button, &QToolButton::clicked, m_doc->undoStack(), slot);
        connect(m_doc->undoStack(), canSignal, button, &QToolButton::setEnabled);
        connect(m_doc->undoStack(), textSignal, button, [button, text](const QString& t) {
            button->setToolTip(t.isEmpty() ? text : text + QLatin1Char(' ') + t);
        });
        bar->addWidget(button);
    };
    stackButton(tr("Undo"), &QUndoStack::undo, &QUndoStack::canUndoChanged, &QUndoStack::undoTextChanged, stack->canUndo());
    stackButton(tr("Redo"), &QUndoStack::redo, &QUndoStack::canRedoChanged, &QUndoStack::redoTextChanged, stack->canRedo());

    m_editor = new OptionEditor(this);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_editor);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);

    m_preview = new SchedulePreviewChart(this);
    m_preview->setWorkspace(workspaceDir);
    m_finder = new LrFinderPanel(session, this);
    m_sweep = new SweepPanel(session, workspaceDir, this);
    auto group = [this](const QString& title, QWidget* content) {
        auto* box = new QGroupBox(title, this);
        auto* layout = new QVBoxLayout(box);
        layout->addWidget(content);
        return box;
    };
    auto* right = new QSplitter(Qt::Vertical, this);
    right->addWidget(group(tr("Learning rate at every step"), m_preview));
    right->addWidget(group(tr("Learning-rate finder"), m_finder));
    right->addWidget(group(tr("Sweep"), m_sweep));
    right->setStretchFactor(1, 1);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->setObjectName(QStringLiteral("hyperparametersSplitter"));
    split->addWidget(scroll);
    // Scrolled rather than squeezed below the charts' minimum heights on a short screen.
    auto* rightScroll = new QScrollArea(this);
    rightScroll->setWidget(right);
    rightScroll->setWidgetResizable(true);
    rightScroll->setFrameShape(QFrame::NoFrame);
    split->addWidget(rightScroll);
    split->setStretchFactor(1, 1);
    m_split = split;
    m_editorScroll = scroll;
    scroll->viewport()->installEventFilter(this);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_message);
    layout->addWidget(split, 1);

    connect(m_editor, &OptionEditor::optionEdited, this, [this](const ExperimentSpec& spec, const QString& what) {
        m_doc->edit(spec, what);
    });
    connect(m_sweep, &SweepPanel::sweepEdited, this, [this](const ExperimentSpec& spec) { m_doc->edit(spec, tr("Edit sweep")); });
    connect(m_finder, &LrFinderPanel::applyRequested, this, &HyperparametersPage::applyLearningRate);
    connect(m_doc, &ExperimentDocument::changed, this, &HyperparametersPage::showDocument);
    connect(m_doc, &ExperimentDocument::modifiedChanged, this, &HyperparametersPage::updateTitle);
    showDocument();
}

// The editor in two columns where they fit, else one; the charts keep the rest. The first
// time the page is shown the editor gets two columns only if the charts keep 600 pixels.
bool HyperparametersPage::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_editorScroll->viewport() && event->type() == QEvent::Resize)
        m_editor->setColumnCount(m_editorScroll->viewport()->width() >= m_editor->widthForColumns(2) ? 2 : 1);
    return QWidget::eventFilter(watched, event);
}

void HyperparametersPage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_sized) return;
    m_sized = true;
    const int scrollBar = style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 4;
    const int two = m_editor->widthForColumns(2) + scrollBar, one = m_editor->widthForColumns(1) + scrollBar;
    const int total = m_split->width();
    const int left = total - two >= 600 ? two : std::min(one, total / 2);
    m_split->setSizes({left, total - left});
}

void HyperparametersPage::showDocument()
{
    setEnabled(m_doc->hasExperiment());
    if (m_doc->hasExperiment()) {
        const ExperimentSpec& spec = m_doc->spec();
        m_editor->setExperiment(spec);
        m_editor->setNote("optimizer.weight_decay", weightDecayNote(spec));
        m_preview->setExperiment(spec);
        m_finder->setExperiment(withAbsolutePaths(spec));
        m_sweep->setExperiment(spec);
    }
    m_message->clear();
    updateTitle();
}

// The rate the schedule starts from: one-cycle's peak is max_lr, every other schedule's lr.
void HyperparametersPage::applyLearningRate(double lr, bool asOneCycle)
{
    if (!m_doc->hasExperiment()) return;
    const ExperimentSpec spec = withFinderRate(m_doc->spec(), lr, asOneCycle);
    m_doc->edit(spec, finderEditText(spec));
}

void HyperparametersPage::updateTitle()
{
    if (!m_doc->hasExperiment()) {
        m_title->setText(tr("No experiment: choose one on the Train page"));
        return;
    }
    const QString name = m_doc->displayName();
    m_title->setText(m_doc->isModified() ? tr("Experiment: %1 (modified)").arg(name) : tr("Experiment: %1").arg(name));
    m_title->setToolTip(QDir::toNativeSeparators(m_doc->path()));
}

}  // namespace ts::ui
