#include "experiment_document.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QStandardPaths>
#include <QUndoStack>

#include "io/yaml/experiment_text.h"
#include "io/yaml/shipped_experiments.h"
#include "user_files.h"

namespace ts::ui {

// One step of the history: the experiment before and after, whole. An experiment is small,
// and a snapshot cannot go out of step with the edit that made it.
class ExperimentEdit : public QUndoCommand {
public:
    ExperimentEdit(ExperimentDocument* doc, ExperimentSpec before, ExperimentSpec after, const QString& text, int mergeKey)
        : QUndoCommand(text), m_doc(doc), m_before(std::move(before)), m_after(std::move(after)), m_key(mergeKey)
    {
    }
    void undo() override { m_doc->set(m_before); }
    void redo() override { m_doc->set(m_after); }
    int id() const override { return m_key == 0 ? -1 : m_key; }
    bool mergeWith(const QUndoCommand* other) override
    {
        if (other->id() != id()) return false;
        m_after = static_cast<const ExperimentEdit*>(other)->m_after;
        setText(other->text());  // "Set learning rate to 3e-4", not the first keystroke's value
        return true;
    }

private:
    ExperimentDocument* m_doc;
    ExperimentSpec m_before, m_after;
    int m_key;
};

namespace {

std::string readText(const QString& path, bool* ok)
{
    QFile file(path);
    *ok = file.open(QIODevice::ReadOnly);
    return *ok ? file.readAll().toStdString() : std::string();
}

bool under(const QString& path, const QString& folder)
{
    if (folder.isEmpty()) return false;
    const QString dir = QDir(folder).canonicalPath();
    const QString file = QFileInfo(path).absoluteFilePath();
    const QString canonical = QFileInfo(file).exists() ? QFileInfo(file).canonicalFilePath()
                                                        : QDir(QFileInfo(file).absolutePath()).canonicalPath() + QLatin1Char('/');
    return !dir.isEmpty() && canonical.startsWith(dir + QLatin1Char('/'));
}

}  // namespace

ExperimentDocument::ExperimentDocument(QObject* parent)
    : QObject(parent), m_undo(std::make_unique<QUndoStack>()), m_watcher(new QFileSystemWatcher(this))
{
    connect(m_undo.get(), &QUndoStack::cleanChanged, this, [this](bool clean) { emit modifiedChanged(!clean); });
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, [this](const QString& path) {
        if (path != m_path) return;
        bool ok = false;
        const std::string text = readText(path, &ok);
        watch();  // an editor that saves by replacing the file ends the old watch
        if (ok && text == m_text) return;  // our own save, or nothing changed
        emit changedOnDisk();
    });
}

// A QUndoStack emits cleanChanged while it is destroyed: not to listeners of a half-gone document.
ExperimentDocument::~ExperimentDocument() { m_undo->disconnect(this); }

QString ExperimentDocument::displayName() const
{
    if (!m_path.isEmpty()) return QFileInfo(m_path).fileName();
    return m_spec.name.empty() ? tr("Untitled") : QString::fromStdString(m_spec.name);
}

bool ExperimentDocument::isModified() const { return !m_undo->isClean() || (m_has && m_path.isEmpty()); }

bool ExperimentDocument::isTemplateLocation(const QString& path)
{
    const QString shipped = QString::fromStdString(shippedExperimentsDirectory().string());
    const QString installed = QString::fromStdString((executableDirectory() / ".." / "share" / "trainstudio").string());
    return under(path, shipped) || under(path, installed);
}

bool ExperimentDocument::open(const QString& path, QString* error)
{
    const QString file = QFileInfo(path).absoluteFilePath();
    bool readable = false;
    const std::string text = readText(file, &readable);
    ExperimentDraft draft = readable ? parseExperimentDraft(text, file.toStdString()) : ExperimentDraft{};
    if (!readable || !draft.usable) {
        if (error) {
            const ExperimentIssue first = !readable || draft.issues.empty() ? ExperimentIssue{0, 0, "cannot be read"} : draft.issues.front();
            *error = first.line > 0 ? tr("%1:%2:%3: %4").arg(file).arg(first.line).arg(first.column).arg(QString::fromStdString(first.message))
                                    : tr("%1: %2").arg(file, QString::fromStdString(first.message));
        }
        return false;
    }
    draft.spec.sourceFile = file.toStdString();
    // Node problems are drawn on their nodes (the Model page's diagnosis); the rest is listed.
    std::vector<ExperimentIssue> fileIssues;
    for (const auto& issue : draft.issues) {
        bool onNode = false;
        for (const auto& [node, nodeIssue] : draft.nodeIssues) onNode = onNode || nodeIssue == issue;
        if (!onNode) fileIssues.push_back(issue);
    }
    adopt(draft.spec, file, text, std::move(fileIssues));
    return true;
}

void ExperimentDocument::openUntitled(const ExperimentSpec& spec)
{
    ExperimentSpec untitled = withAbsolutePaths(spec);  // no file: its data is found from anywhere
    untitled.sourceFile.clear();
    adopt(untitled, QString(), std::string(), {});
}

void ExperimentDocument::adopt(const ExperimentSpec& spec, const QString& path, const std::string& text,
                               std::vector<ExperimentIssue> issues)
{
    const bool otherPath = path != m_path;
    m_spec = spec;
    m_path = path;
    m_text = text;
    m_fileIssues = std::move(issues);
    m_template = !path.isEmpty() && (isTemplateLocation(path) || !QFileInfo(path).isWritable());
    m_has = true;
    m_undo->clear();  // and clean: resetClean() would mark the file just read as modified
    watch();
    if (otherPath) emit pathChanged(m_path);
    emit modifiedChanged(isModified());
    emit opened();
    emit changed();
}

bool ExperimentDocument::revert(QString* error)
{
    if (m_path.isEmpty()) {
        if (error) *error = tr("%1 has no file to go back to.").arg(displayName());
        return false;
    }
    return open(m_path, error);
}

void ExperimentDocument::edit(const ExperimentSpec& next, const QString& what, int mergeKey)
{
    if (!m_has || next == m_spec) return;
    m_undo->push(new ExperimentEdit(this, m_spec, next, what, mergeKey));
}

void ExperimentDocument::set(const ExperimentSpec& spec)
{
    m_spec = spec;
    emit changed();
}

bool ExperimentDocument::save(QString* error)
{
    if (needsSaveAs()) {
        if (error)
            *error = m_path.isEmpty() ? tr("%1 has no file yet: choose where to save it.").arg(displayName())
                                      : tr("%1 is shipped with TrainStudio: save your changes as a new file.").arg(displayName());
        return false;
    }
    return writeTo(m_path, error);
}

bool ExperimentDocument::saveAs(const QString& path, QString* error)
{
    if (isTemplateLocation(path)) {
        if (error) *error = tr("%1 is in TrainStudio's own folder of experiments: choose a folder of yours.").arg(QDir::toNativeSeparators(path));
        return false;
    }
    return writeTo(QFileInfo(path).absoluteFilePath(), error);
}

bool ExperimentDocument::writeTo(const QString& path, QString* error)
{
    ExperimentSpec spec = m_spec;
    const QString oldFolder = m_path.isEmpty() ? QString() : QFileInfo(m_path).absolutePath();
    // Relative data paths were relative to the old file: they keep pointing at the same data.
    if (QFileInfo(path).absolutePath() != oldFolder) spec = withAbsolutePaths(spec);
    spec.sourceFile = path.toStdString();
    // The text the edits apply to: this file's as read (comments, key order and spellings stay).
    const std::string text = updateExperimentText(m_text, spec);
    const widgets::WriteResult written = writeUserFile(path, QByteArray::fromStdString(text));
    if (!written) {
        if (error) *error = tr("Cannot save %1: %2. Nothing was changed on disk; save it elsewhere with Save As.").arg(QDir::toNativeSeparators(path), written.message);
        return false;
    }
    const bool otherPath = path != m_path;
    m_text = text;
    m_spec = spec;
    m_path = path;
    m_template = false;
    m_undo->setClean();
    watch();
    if (otherPath) emit pathChanged(m_path);
    emit modifiedChanged(isModified());
    emit changed();  // sourceFile, and perhaps absolute data paths
    return true;
}

QString ExperimentDocument::suggestedSavePath() const
{
    QString folder = m_path.isEmpty() || m_template ? QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation)
                                                    : QFileInfo(m_path).absolutePath();
    if (folder.isEmpty()) folder = QDir::homePath();
    QString stem = m_path.isEmpty() ? QString::fromStdString(m_spec.name) : QFileInfo(m_path).completeBaseName();
    if (stem.isEmpty()) stem = QStringLiteral("experiment");
    QString candidate = QDir(folder).filePath(stem + QStringLiteral(".yaml"));
    for (int n = 2; QFileInfo::exists(candidate); ++n) candidate = QDir(folder).filePath(QStringLiteral("%1_%2.yaml").arg(stem).arg(n));
    return candidate;
}

void ExperimentDocument::watch()
{
    if (!m_watcher->files().isEmpty()) m_watcher->removePaths(m_watcher->files());
    if (!m_path.isEmpty() && QFileInfo::exists(m_path)) m_watcher->addPath(m_path);
}

}  // namespace ts::ui
