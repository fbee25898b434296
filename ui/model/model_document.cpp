#include "model_document.h"

#include <QElapsedTimer>

#include "ui/experiment_document.h"

namespace ts::ui {

ModelDocument::ModelDocument(ExperimentDocument* experiment, QObject* parent) : QObject(parent), m_experiment(experiment)
{
    connect(m_experiment, &ExperimentDocument::changed, this, [this] {
        if (follow()) emit changed();
    });
    // The document says opened before changed: the page starts over (and lays out a file
    // without a drawing) on the new experiment's state, so take it first.
    connect(m_experiment, &ExperimentDocument::opened, this, [this] {
        m_implied.reset();
        const bool differs = follow();
        emit opened();
        if (differs) emit changed();
    });
    connect(m_experiment, &ExperimentDocument::modifiedChanged, this, &ModelDocument::modifiedChanged);
    follow();
}

const std::vector<ExperimentIssue>& ModelDocument::fileIssues() const { return m_experiment->fileIssues(); }
QUndoStack* ModelDocument::undoStack() const { return m_experiment->undoStack(); }
QString ModelDocument::path() const { return m_experiment->path(); }
bool ModelDocument::hasExperiment() const { return m_experiment->hasExperiment(); }
bool ModelDocument::isModified() const { return m_experiment->isModified(); }

ExperimentSpec ModelDocument::experiment() const
{
    ExperimentSpec spec = m_experiment->spec();
    spec.layout = m_state.layout;
    return spec;
}

bool ModelDocument::follow()
{
    const ExperimentSpec& spec = m_experiment->spec();
    ModelState next{spec.model, spec.layout.positions.empty() && m_implied ? *m_implied : spec.layout};
    const bool modelChanged = !(next.model == m_state.model) || m_diagnosedBatch != spec.training.batchSize;
    if (!modelChanged && next == m_state) return false;
    m_state = std::move(next);
    if (modelChanged) diagnose();
    return true;
}

void ModelDocument::setImpliedLayout(const ModelLayout& layout)
{
    m_implied = layout;
    m_state.layout = m_experiment->spec().layout.positions.empty() ? layout : m_experiment->spec().layout;
    emit changed();
}

void ModelDocument::apply(const ModelState& next, const QString& what, int mergeKey)
{
    if (next == m_state) return;
    ExperimentSpec spec = m_experiment->spec();
    spec.model = next.model;
    // The implied layout, untouched, stays implied: the file keeps having none.
    spec.layout = m_implied && next.layout == *m_implied ? spec.layout : next.layout;
    m_experiment->edit(spec, what, mergeKey);
}

void ModelDocument::diagnose()
{
    QElapsedTimer timer;
    timer.start();
    m_diagnosedBatch = m_experiment->spec().training.batchSize;
    m_diagnosis = diagnoseGraph(m_state.model, std::max<std::int64_t>(1, m_diagnosedBatch));
    m_checkMs = double(timer.nsecsElapsed()) / 1e6;
}

}  // namespace ts::ui
