#include "document_actions.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QUndoStack>

#include "experiment_document.h"
#include "io/yaml/shipped_experiments.h"
#include "studio_settings.h"

namespace ts::ui {

DocumentActions::DocumentActions(ExperimentDocument* document, QWidget* window) : QObject(window), m_doc(document), m_window(window)
{
    auto make = [this](const QString& name, const QString& text, QKeySequence::StandardKey key, auto slot) {
        auto* action = new QAction(text, this);
        action->setObjectName(name);
        if (key != QKeySequence::UnknownKey) action->setShortcut(key);
        connect(action, &QAction::triggered, this, slot);
        return action;
    };
    m_open = make(QStringLiteral("actionOpenExperiment"), tr("&Open Experiment…"), QKeySequence::Open, [this] { showOpenDialog(); });
    m_save = make(QStringLiteral("actionSave"), tr("&Save"), QKeySequence::Save, [this] { save(); });
    m_saveAs = make(QStringLiteral("actionSaveAs"), tr("Save &As…"), QKeySequence::SaveAs, [this] { saveAs(); });
    if (m_saveAs->shortcut().isEmpty()) m_saveAs->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));  // themes without one
    m_revert = make(QStringLiteral("actionRevert"), tr("Re&vert"), QKeySequence::UnknownKey, [this] { revert(); });
    m_revert->setToolTip(tr("Drop the unsaved changes and read the file again"));
    // Undo and Redo say what they would do ("Undo Set learning rate to 3e-4").
    m_undo = m_doc->undoStack()->createUndoAction(this, tr("&Undo"));
    m_undo->setObjectName(QStringLiteral("actionUndo"));
    m_undo->setShortcut(QKeySequence::Undo);
    m_redo = m_doc->undoStack()->createRedoAction(this, tr("&Redo"));
    m_redo->setObjectName(QStringLiteral("actionRedo"));
    m_redo->setShortcut(QKeySequence::Redo);

    connect(m_doc, &ExperimentDocument::modifiedChanged, this, &DocumentActions::updateActions);
    connect(m_doc, &ExperimentDocument::pathChanged, this, &DocumentActions::updateActions);
    connect(m_doc, &ExperimentDocument::changedOnDisk, this, &DocumentActions::offerReload);
    updateActions();
}

void DocumentActions::updateActions()
{
    m_save->setEnabled(m_doc->hasExperiment());
    m_saveAs->setEnabled(m_doc->hasExperiment());
    m_revert->setEnabled(!m_doc->path().isEmpty() && m_doc->isModified());
}

QStringList DocumentActions::recentExperiments() { return StudioSettings::recentExperiments(); }

void DocumentActions::remember(const QString& path) { StudioSettings::addRecentExperiment(path); }

void DocumentActions::fillRecentMenu(QMenu* menu)
{
    menu->clear();
    const QStringList files = recentExperiments();
    for (const QString& path : files)
        menu->addAction(QFileInfo(path).fileName(), this, [this, path] { open(path); })->setToolTip(QDir::toNativeSeparators(path));
    if (files.isEmpty()) menu->addAction(tr("No recent experiments"))->setEnabled(false);
}

void DocumentActions::showError(const QString& title, const QString& text)
{
    // Window-modal and asynchronous: nothing waits on it.
    auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, m_window);
    box->setObjectName(QStringLiteral("documentError"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    emit statusMessage(text);
}

bool DocumentActions::open(const QString& path)
{
    if (m_doc->hasExperiment() && QFileInfo(path).absoluteFilePath() == m_doc->path()) return true;  // already open
    if (!maybeSave()) return false;
    QString error;
    if (!m_doc->open(path, &error)) {
        showError(tr("Cannot open the experiment"), error);
        return false;
    }
    remember(m_doc->path());
    emit statusMessage(tr("Opened %1.").arg(QDir::toNativeSeparators(m_doc->path())));
    return true;
}

bool DocumentActions::openUntitled(const ExperimentSpec& spec)
{
    if (!maybeSave()) return false;
    m_doc->openUntitled(spec);
    return true;
}

bool DocumentActions::maybeSave()
{
    if (!m_doc->hasExperiment() || !m_doc->isModified()) return true;
    QMessageBox box(QMessageBox::Question, tr("Unsaved changes"), tr("Save changes to %1?").arg(m_doc->displayName()),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, m_window);
    box.setObjectName(QStringLiteral("saveChangesBox"));
    box.setInformativeText(m_doc->isTemplate() ? tr("It is shipped with TrainStudio: your changes go to a new file.")
                                               : tr("Your changes are lost if you don't save them."));
    box.setDefaultButton(QMessageBox::Save);
    const int answer = box.exec();  // the caller needs the answer before it goes on
    if (answer == QMessageBox::Save) return save();
    return answer == QMessageBox::Discard;
}

bool DocumentActions::save()
{
    if (!m_doc->hasExperiment()) return false;
    if (m_doc->needsSaveAs()) return saveAs();
    QString error;
    if (!m_doc->save(&error)) {
        showError(tr("Cannot save"), error);
        return false;
    }
    emit statusMessage(tr("Saved to %1.").arg(QDir::toNativeSeparators(m_doc->path())));
    return true;
}

bool DocumentActions::saveAs()
{
    if (!m_doc->hasExperiment()) return false;
    const QFileInfo suggested(m_doc->suggestedSavePath());
    QDir().mkpath(suggested.absolutePath());  // a new user's Documents folder may not exist yet
    QFileDialog dialog(m_window, tr("Save Experiment As"), suggested.absolutePath(), tr("Experiments (*.yaml *.yml)"));
    dialog.setObjectName(QStringLiteral("saveExperimentDialog"));
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setDefaultSuffix(QStringLiteral("yaml"));
    dialog.selectFile(suggested.fileName());
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty()) return false;
    return saveAs(dialog.selectedFiles().constFirst());
}

bool DocumentActions::saveAs(const QString& path)
{
    QString error;
    if (!m_doc->saveAs(path, &error)) {
        showError(tr("Cannot save"), error);
        return false;
    }
    remember(m_doc->path());
    emit statusMessage(tr("Saved to %1.").arg(QDir::toNativeSeparators(m_doc->path())));
    return true;
}

bool DocumentActions::revert()
{
    if (m_doc->path().isEmpty()) return false;
    if (m_doc->isModified()) {
        QMessageBox box(QMessageBox::Question, tr("Revert"),
                        tr("Drop your changes to %1 and read the file again?").arg(m_doc->displayName()),
                        QMessageBox::Cancel, m_window);
        box.setObjectName(QStringLiteral("revertBox"));
        QPushButton* drop = box.addButton(tr("Revert"), QMessageBox::DestructiveRole);
        box.exec();
        if (box.clickedButton() != drop) return false;
    }
    QString error;
    if (!m_doc->revert(&error)) {
        showError(tr("Cannot revert"), error);
        return false;
    }
    emit statusMessage(tr("Read %1 again.").arg(QDir::toNativeSeparators(m_doc->path())));
    return true;
}

void DocumentActions::showOpenDialog()
{
    const QString folder = m_doc->path().isEmpty() ? QString::fromStdString(shippedExperimentsDirectory().string())
                                                   : QFileInfo(m_doc->path()).absolutePath();
    auto* dialog = new QFileDialog(m_window, tr("Open Experiment"), folder, tr("Experiments (*.yaml *.yml);;All files (*)"));
    dialog->setObjectName(QStringLiteral("openExperimentDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::ExistingFile);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString& file) { open(file); });
    dialog->open();  // window-modal, no nested event loop
}

// Another program changed the file. Asked without blocking; one question per change at a time.
void DocumentActions::offerReload()
{
    if (m_window->findChild<QMessageBox*>(QStringLiteral("reloadBox"))) return;
    const bool removed = !QFileInfo::exists(m_doc->path());
    auto* box = new QMessageBox(QMessageBox::Question, tr("File changed on disk"),
                                removed ? tr("%1 was removed or renamed by another program.").arg(m_doc->displayName())
                                        : tr("%1 was changed by another program. Read it again?").arg(m_doc->displayName()),
                                QMessageBox::NoButton, m_window);
    box->setObjectName(QStringLiteral("reloadBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setInformativeText(m_doc->isModified() ? tr("Reading it again drops your unsaved changes here. Keep them to save them over it later.")
                                                : QString());
    QPushButton* reload = removed ? nullptr : box->addButton(tr("Reload"), QMessageBox::AcceptRole);
    if (reload) reload->setObjectName(QStringLiteral("reloadButton"));
    box->addButton(removed ? tr("OK") : tr("Keep Mine"), QMessageBox::RejectRole);
    connect(box, &QMessageBox::buttonClicked, this, [this, reload](QAbstractButton* clicked) {
        if (reload && clicked == reload) {
            QString error;
            if (!m_doc->revert(&error)) showError(tr("Cannot reload"), error);
        }
    });
    box->open();
}

}  // namespace ts::ui
