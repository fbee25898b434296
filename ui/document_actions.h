// What the user does with the open experiment as a file, the same on every page: Open, Open
// Recent, Save, Save As, Revert, Undo and Redo (QActions with the standard shortcuts, for the
// File and Edit menus), and the questions they need: every prompt names the file ("Save
// changes to my_cnn.yaml?") and Cancel cancels the whole action. A shipped experiment or a
// lesson's file is saved as a new file in the user's folder; a change made to the file by
// another program is offered for reload, the edits kept when the user declines.
#pragma once
#include <QObject>
#include <QStringList>

#include "types/experiment_spec.h"

class QAction;
class QMenu;
class QWidget;

namespace ts::ui {

class ExperimentDocument;

class DocumentActions : public QObject {
    Q_OBJECT
public:
    // `window` parents the dialogs.
    DocumentActions(ExperimentDocument* document, QWidget* window);

    ExperimentDocument* document() const { return m_doc; }
    QAction* openAction() const { return m_open; }
    QAction* saveAction() const { return m_save; }
    QAction* saveAsAction() const { return m_saveAs; }
    QAction* revertAction() const { return m_revert; }
    QAction* undoAction() const { return m_undo; }
    QAction* redoAction() const { return m_redo; }
    void fillRecentMenu(QMenu* menu);  // Open Recent's items, as the menu is about to show

    // Each asks about unsaved edits first; false when the user cancelled or it failed (said).
    bool open(const QString& path);
    bool openUntitled(const ExperimentSpec& spec);
    // Unsaved edits: "Save changes to my_cnn.yaml?" Save, Discard or Cancel. True: go on.
    bool maybeSave();
    bool save();    // Save As where the experiment has no file of the user's
    bool saveAs();  // asks where (a file dialog)
    bool saveAs(const QString& path);
    bool revert();  // asks first when there are edits
    void showOpenDialog();

    // Experiment files opened or saved before, newest first, that still exist.
    static QStringList recentExperiments();

signals:
    void statusMessage(const QString& text);  // what was done ("Saved to …"), for the status bar

private:
    void remember(const QString& path);
    void showError(const QString& title, const QString& text);
    void offerReload();
    void updateActions();

    ExperimentDocument* m_doc;
    QWidget* m_window;
    QAction *m_open, *m_save, *m_saveAs, *m_revert, *m_undo, *m_redo;
};

}  // namespace ts::ui
