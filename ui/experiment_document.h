// The open experiment: the one owner of its spec, its file, its saved text and its undo
// history (ARCHITECTURE.md rule 5). Every page is a view and an editor of it: a page reads
// spec(), edits through edit() (one QUndoCommand each, so Edit > Undo works from any page) and
// redraws on changed(). No page keeps a second copy, so no page forwards edits to another.
//
// Saving is lossless (io/yaml/experiment_text.h): only what was edited changes on disk.
// Shipped experiments and lessons' files are templates: save() refuses them (the window asks
// for a new file, in the user's documents folder), so the installation and the source tree
// are never written. A change made to the file by another program is noticed and announced.
#pragma once
#include <QObject>
#include <QString>

#include <memory>
#include <vector>

#include "io/yaml/experiment_yaml.h"

class QFileSystemWatcher;
class QUndoStack;

namespace ts::ui {

class ExperimentDocument : public QObject {
    Q_OBJECT
public:
    explicit ExperimentDocument(QObject* parent = nullptr);
    ~ExperimentDocument() override;

    bool hasExperiment() const { return m_has; }
    // The experiment as edited now. Its sourceFile is path(), or for an untitled experiment
    // empty (its dataset paths are then absolute).
    const ExperimentSpec& spec() const { return m_spec; }
    QString path() const { return m_path; }  // empty: untitled, never saved
    // The file name ("my_cnn.yaml"), or for an untitled experiment its name: what prompts say.
    QString displayName() const;
    bool isModified() const;
    // A shipped experiment or a lesson's file (or one this user cannot write): Save asks for a new file.
    bool isTemplate() const { return m_template; }
    bool needsSaveAs() const { return m_path.isEmpty() || m_template; }
    // Problems the lenient reader found outside the model (a bad option elsewhere in the file).
    const std::vector<ExperimentIssue>& fileIssues() const { return m_fileIssues; }
    QUndoStack* undoStack() const { return m_undo.get(); }

    // Opens a file leniently (a model that does not check is still shown, its problems marked).
    // False, with the reason (file:line:column), only when nothing usable could be read; the
    // open experiment then stays. Clears the history. Asking about unsaved edits is the caller's.
    bool open(const QString& path, QString* error);
    // A new experiment without a file (a template's model for a dataset): Save asks where.
    void openUntitled(const ExperimentSpec& spec);
    // Reads the file again, dropping the edits (File > Revert, or a reload after another program changed it).
    bool revert(QString* error);

    // One undoable edit: `next` is the whole experiment as it should be. Nothing happens when it
    // equals spec(). Edits with the same non-zero mergeKey in a row merge (typing in one field).
    void edit(const ExperimentSpec& next, const QString& what, int mergeKey = 0);

    // Writes the edits to path(); false (with the reason) for an untitled experiment or a
    // template (use saveAs) or when the disk refuses. Only what was edited changes on disk.
    bool save(QString* error);
    // Writes to `path` and makes it the experiment's file. Refuses a template's folder.
    bool saveAs(const QString& path, QString* error);
    // Where Save As proposes to write: beside the file, or for a template or an untitled
    // experiment in the user's documents folder; never an existing file's name.
    QString suggestedSavePath() const;
    // Whether `path` lies where TrainStudio's own experiments are (shipped, lessons).
    static bool isTemplateLocation(const QString& path);

signals:
    void changed();  // spec() changed: an edit, an undo or redo, another experiment, a revert
    void opened();   // another experiment, or the same read again: views start over (selection, scroll)
    void modifiedChanged(bool modified);
    void pathChanged(const QString& path);  // saved under another name, or another experiment
    // Another program changed (or removed) the file; the edits here are untouched.
    void changedOnDisk();

private:
    friend class ExperimentEdit;
    void set(const ExperimentSpec& spec);  // the undo commands' way in
    void adopt(const ExperimentSpec& spec, const QString& path, const std::string& text, std::vector<ExperimentIssue> issues);
    void watch();
    bool writeTo(const QString& path, QString* error);

    ExperimentSpec m_spec;
    QString m_path;
    std::string m_text;  // the file's text as last read or written: what a save edits
    std::vector<ExperimentIssue> m_fileIssues;
    std::unique_ptr<QUndoStack> m_undo;
    QFileSystemWatcher* m_watcher = nullptr;
    bool m_has = false;
    bool m_template = false;
};

}  // namespace ts::ui
