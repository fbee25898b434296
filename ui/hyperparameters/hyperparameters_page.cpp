#include "hyperparameters_page.h"

#include <QAction>
#include <QEvent>
#include <QFileDialog>
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

#include "io/yaml/experiment_yaml.h"
#include "lr_finder_panel.h"
#include "option_editor.h"
#include "schedule_preview_chart.h"
#include "sweep_panel.h"
#include "ui/user_files.h"

namespace ts::ui {

// One edit of the experiment: both states whole, so undo is exact whatever changed.
class ExperimentEdit : public QUndoCommand {
public:
    ExperimentEdit(HyperparametersPage* page, ExperimentSpec before, ExperimentSpec after, const QString& text, bool fromEditor)
        : QUndoCommand(text), m_page(page), m_before(std::move(before)), m_after(std::move(after)), m_fromEditor(fromEditor)
    {
    }
    void redo() override
    {
        m_page->show(m_after, m_fromEditor);
        m_fromEditor = false;  // a redo after an undo refills the editor
        emit m_page->experimentEdited(m_after);
    }
    void undo() override
    {
        m_page->show(m_before, false);
        emit m_page->experimentEdited(m_before);
    }

private:
    HyperparametersPage* m_page;
    ExperimentSpec m_before, m_after;
    bool m_fromEditor;
};

HyperparametersPage::HyperparametersPage(TrainingSession* session, const QString& workspaceDir, QWidget* parent)
    : QWidget(parent), m_undo(new QUndoStack(this))
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

    // Shortcuts of this page only: the Train page has its own Ctrl+S-free world.
    auto pageAction = [this](const QString& text, QKeySequence::StandardKey key, auto slot) {
        auto* action = new QAction(text, this);
        action->setShortcut(key);
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        connect(action, &QAction::triggered, this, slot);
        addAction(action);
        return action;
    };
    // Plain texts on the buttons; what would be undone is in the tool tip.
    QAction* undo = pageAction(tr("Undo"), QKeySequence::Undo, [this] { m_undo->undo(); });
    QAction* redo = pageAction(tr("Redo"), QKeySequence::Redo, [this] { m_undo->redo(); });
    undo->setEnabled(false);
    redo->setEnabled(false);
    connect(m_undo, &QUndoStack::canUndoChanged, undo, &QAction::setEnabled);
    connect(m_undo, &QUndoStack::canRedoChanged, redo, &QAction::setEnabled);
    connect(m_undo, &QUndoStack::undoTextChanged, undo, [undo](const QString& t) { undo->setToolTip(tr("Undo %1").arg(t)); });
    connect(m_undo, &QUndoStack::redoTextChanged, redo, [redo](const QString& t) { redo->setToolTip(tr("Redo %1").arg(t)); });
    QAction* saveAction = pageAction(tr("Save"), QKeySequence::Save, [this] { save(); });
    QAction* saveAsAction = pageAction(tr("Save As…"), QKeySequence::SaveAs, [this] {
        if (!m_spec) return;
        const QString file = QFileDialog::getSaveFileName(this, tr("Save Experiment"), QString::fromStdString(m_spec->sourceFile),
                                                          tr("Experiments (*.yaml *.yml)"));
        if (!file.isEmpty()) saveAs(file);
    });
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_title, 1);
    for (QAction* a : {undo, redo, saveAction, saveAsAction}) {
        auto* button = new QToolButton(this);
        button->setDefaultAction(a);
        bar->addWidget(button);
    }

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

    connect(m_editor, &OptionEditor::experimentEdited, this, [this](const ExperimentSpec& spec) { edit(spec, tr("Edit option"), true); });
    connect(m_sweep, &SweepPanel::sweepEdited, this, [this](const ExperimentSpec& spec) { edit(spec, tr("Edit sweep")); });
    connect(m_finder, &LrFinderPanel::applyRequested, this, &HyperparametersPage::applyLearningRate);
    connect(m_undo, &QUndoStack::indexChanged, this, &HyperparametersPage::updateTitle);
    setEnabled(false);
    updateTitle();
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

void HyperparametersPage::setExperiment(const ExperimentSpec& spec)
{
    if (m_spec && *m_spec == spec) return;
    const bool otherFile = !m_spec || m_spec->sourceFile != spec.sourceFile;
    m_undo->clear();
    if (otherFile) m_saved = spec;
    show(spec, false);
}

bool HyperparametersPage::isModified() const { return m_spec && m_saved && !(*m_spec == *m_saved); }

void HyperparametersPage::edit(const ExperimentSpec& spec, const QString& what, bool fromEditor)
{
    if (!m_spec || *m_spec == spec) return;
    m_undo->push(new ExperimentEdit(this, *m_spec, spec, what, fromEditor));
}

void HyperparametersPage::show(const ExperimentSpec& spec, bool fromEditor)
{
    m_spec = spec;
    setEnabled(true);
    if (!fromEditor) m_editor->setExperiment(spec);
    m_preview->setExperiment(spec);
    m_finder->setExperiment(withAbsolutePaths(spec));
    m_sweep->setExperiment(spec);
    m_message->clear();
    updateTitle();
}

// The rate the schedule starts from: one-cycle's peak is max_lr, every other schedule's lr.
void HyperparametersPage::applyLearningRate(double lr, bool asOneCycle)
{
    if (!m_spec) return;
    ExperimentSpec spec = *m_spec;
    if (asOneCycle && spec.schedule.type != "onecycle") {
        spec.schedule = ScheduleSpec{};  // one-cycle warms up itself: no other schedule's settings apply
        spec.schedule.type = "onecycle";
    }
    if (spec.schedule.type == "onecycle") spec.schedule.maxLr = lr;
    else spec.optimizer.lr = lr;
    edit(spec, tr("Apply learning rate"));
}

bool HyperparametersPage::save()
{
    if (!m_spec) return false;
    return saveAs(QString::fromStdString(m_spec->sourceFile));
}

bool HyperparametersPage::saveAs(const QString& file)
{
    if (!m_spec || file.isEmpty()) return false;
    try {
        ExperimentSpec spec = *m_spec;
        // Relative paths were relative to the old file: keep them pointing at the same data.
        if (QFileInfo(file).absoluteFilePath() != QFileInfo(QString::fromStdString(spec.sourceFile)).absoluteFilePath())
            spec = withAbsolutePaths(spec);
        saveExperiment(spec, file.toStdString());
        spec.sourceFile = file.toStdString();
        m_saved = spec;
        m_spec = spec;
        m_undo->setClean();
        m_message->setText(tr("Saved to %1.").arg(file));
        emit experimentEdited(spec);
    } catch (const std::exception& e) {
        m_message->setText(tr("Cannot save: %1. Save it elsewhere with Save As (Ctrl+Shift+S).").arg(errorText(e)));
        return false;
    }
    updateTitle();
    return true;
}

void HyperparametersPage::updateTitle()
{
    if (!m_spec) {
        m_title->setText(tr("No experiment: choose one on the Train page"));
        return;
    }
    const QString name = QString::fromStdString(m_spec->name.empty() ? QFileInfo(QString::fromStdString(m_spec->sourceFile)).completeBaseName().toStdString() : m_spec->name);
    m_title->setText(isModified() ? tr("Experiment: %1 (modified)").arg(name) : tr("Experiment: %1").arg(name));
    m_title->setToolTip(QString::fromStdString(m_spec->sourceFile));
}

}  // namespace ts::ui
