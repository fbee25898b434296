#include "model_document.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QUndoStack>

#include "io/yaml/experiment_text.h"
#include "ui/user_files.h"

namespace ts::ui {

// One step of the history: the drawing before and after (whole snapshots: a model is small,
// and a snapshot cannot go out of step with the edit that made it).
class ModelEdit : public QUndoCommand {
public:
    ModelEdit(ModelDocument* doc, ModelState before, ModelState after, const QString& text, int mergeKey)
        : QUndoCommand(text), m_doc(doc), m_before(std::move(before)), m_after(std::move(after)), m_key(mergeKey)
    {
    }
    void undo() override { m_doc->set(m_before); }
    void redo() override { m_doc->set(m_after); }
    int id() const override { return m_key == 0 ? -1 : m_key; }
    bool mergeWith(const QUndoCommand* other) override
    {
        if (other->id() != id()) return false;
        m_after = static_cast<const ModelEdit*>(other)->m_after;
        return true;
    }

private:
    ModelDocument* m_doc;
    ModelState m_before, m_after;
    int m_key;
};

ModelDocument::ModelDocument(QObject* parent) : QObject(parent), m_undo(std::make_unique<QUndoStack>())
{
    connect(m_undo.get(), &QUndoStack::cleanChanged, this, [this](bool clean) { emit modifiedChanged(!clean); });
}

// A QUndoStack with commands emits cleanChanged as it is destroyed, which would reach
// modifiedChanged's listeners (the page's title) after this document's other members are
// gone: valgrind showed the page reading a freed file name (bench_model_page's "double free").
ModelDocument::~ModelDocument() { m_undo->disconnect(this); }

void ModelDocument::open(const ExperimentSpec& spec) { open(spec, {}); }

void ModelDocument::open(const ExperimentSpec& spec, std::vector<ExperimentIssue> fileIssues)
{
    m_base = spec;
    m_path = QString::fromStdString(spec.sourceFile);
    m_fileIssues = std::move(fileIssues);
    m_hasExperiment = true;
    m_undo->clear();
    m_implied.reset();
    m_openedLayout = spec.layout;
    set(ModelState{spec.model, spec.layout});
    emit opened();
}

bool ModelDocument::openFile(const QString& path, QString* error)
{
    ExperimentDraft draft = loadExperimentDraft(path.toStdString());
    if (!draft.usable) {
        if (error) {
            const ExperimentIssue& first = draft.issues.empty() ? ExperimentIssue{0, 0, "no model"} : draft.issues.front();
            *error = first.line > 0 ? tr("%1:%2:%3: %4").arg(path).arg(first.line).arg(first.column).arg(QString::fromStdString(first.message))
                                    : tr("%1: %2").arg(path, QString::fromStdString(first.message));
        }
        return false;
    }
    draft.spec.sourceFile = path.toStdString();
    // Node problems are drawn on their nodes by the diagnosis; the rest is listed. Known
    // before open() announces the model, so the page refreshes once.
    std::vector<ExperimentIssue> fileIssues;
    for (const auto& issue : draft.issues) {
        bool onNode = false;
        for (const auto& [node, nodeIssue] : draft.nodeIssues) onNode = onNode || nodeIssue == issue;
        if (!onNode) fileIssues.push_back(issue);
    }
    open(draft.spec, std::move(fileIssues));
    return true;
}

void ModelDocument::adoptSettings(const ExperimentSpec& spec)
{
    const bool batchChanged = spec.training.batchSize != m_base.training.batchSize;
    m_base = spec;
    m_hasExperiment = true;
    if (batchChanged) {
        diagnose();
        emit changed();
    }
}

ExperimentSpec ModelDocument::experiment() const
{
    ExperimentSpec spec = m_base;
    spec.model = m_state.model;
    spec.layout = m_state.layout;
    spec.sourceFile = m_path.toStdString();
    return spec;
}

void ModelDocument::setImpliedLayout(const ModelLayout& layout)
{
    ModelState s = m_state;
    s.layout = layout;
    m_implied = layout;
    set(s);
}

bool ModelDocument::isModified() const { return !m_undo->isClean(); }

void ModelDocument::apply(const ModelState& next, const QString& what, int mergeKey)
{
    if (next == m_state) return;
    m_undo->push(new ModelEdit(this, m_state, next, what, mergeKey));
}

void ModelDocument::set(const ModelState& state)
{
    m_state = state;
    diagnose();
    emit changed();
}

void ModelDocument::diagnose()
{
    QElapsedTimer timer;
    timer.start();
    m_diagnosis = diagnoseGraph(m_state.model, std::max<std::int64_t>(1, m_base.training.batchSize));
    m_checkMs = double(timer.nsecsElapsed()) / 1e6;
}

bool ModelDocument::save(const QString& target, QString* error)
{
    const QString path = target.isEmpty() ? m_path : target;
    if (path.isEmpty()) {
        if (error) *error = tr("The model has no file yet: use Save As.");
        return false;
    }
    // The file as it is now (another page may have saved its options since): only the model
    // and the layout are replaced; saveExperiment keeps every other byte.
    ExperimentSpec edited = m_base;
    if (QFile file(path); file.open(QIODevice::ReadOnly)) {
        const ExperimentDraft draft = parseExperimentDraft(file.readAll().toStdString(), path.toStdString());
        if (draft.usable) edited = draft.spec;
    }
    edited.model = m_state.model;
    edited.layout = m_implied && *m_implied == m_state.layout ? m_openedLayout : m_state.layout;
    edited.sourceFile = path.toStdString();
    try {
        saveExperiment(edited, path.toStdString());
    } catch (const std::exception& e) {
        if (error) *error = tr("Cannot save: %1. Nothing was changed on disk; save it elsewhere with Save As.").arg(errorText(e));
        return false;
    }
    m_base = edited;
    m_path = path;
    m_undo->setClean();
    return true;
}

}  // namespace ts::ui
