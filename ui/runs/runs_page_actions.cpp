// The Runs page's commands: rename, delete, resume, and the writer they go through
// (runs_page.h says why the page opens its own RunWriter, lazily).
#include "runs_page.h"

#include <QDir>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>

#include <algorithm>
#include <set>

#include "onnx_export_dialog.h"
#include "run_details.h"
#include "runs_model.h"
#include "store/resume_source.h"

namespace ts::ui {

namespace {
QString what(const std::exception& e) { return QString::fromLocal8Bit(e.what()); }
}  // namespace

// --- actions ---

void RunsPage::renameSelectedRun()
{
    const QModelIndex index = m_proxy->mapFromSource(m_model->indexOf(selectedRunId(), RunsModel::Name));
    if (!index.isValid()) return;
    m_view->setFocus();
    m_view->edit(index);  // the model's setData asks for the write (renameRequested)
}

void RunsPage::deleteSelectedRun()
{
    const RunListing* run = m_model->findRun(selectedRunId());
    if (!run) return;
    const qint64 id = run->run.id;
    int checkpoints = m_details->runId() == id ? m_details->checkpointCount() : 0;
    if (m_details->runId() != id && m_reader) {
        try {
            checkpoints = int(m_reader->checkpoints(id).size());
        } catch (const std::exception&) {
        }  // the question can do without the count
    }
    // Window-modal and non-blocking (open(), not exec()): live updates go on while it is up.
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Delete Run"),
                                tr("Delete the run “%1”?").arg(QString::fromStdString(run->run.name)),
                                QMessageBox::NoButton, this);
    box->setObjectName(QStringLiteral("confirmDeleteBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setInformativeText(
        tr("Its metrics, log and notes are deleted, and so are its checkpoints (%1 on record) and their "
           "folder %2. This cannot be undone.")
            .arg(checkpoints)
            .arg(QDir::toNativeSeparators(QString::fromStdString(m_workspace.runCheckpointsPath(id)))));
    QPushButton* confirm = box->addButton(tr("Delete Run and Checkpoints"), QMessageBox::DestructiveRole);
    confirm->setObjectName(QStringLiteral("confirmDeleteButton"));
    box->setDefaultButton(box->addButton(QMessageBox::Cancel));
    connect(box, &QMessageBox::finished, this, [this, box, confirm, id] {
        if (box->clickedButton() == confirm) deleteRun(id);
    });
    box->open();
}

void RunsPage::resumeSelectedRun()
{
    const qint64 id = selectedRunId();
    if (id < 0 || !ensureReader()) return;
    // Only a check that there is something to resume from; the Train page loads it.
    try {
        findResumeSource(*m_reader, m_workspace, std::to_string(id));
    } catch (const std::exception& e) {
        setBanner(Banner::WriteError, tr("Cannot resume run %1: %2").arg(id).arg(what(e)));
        return;
    }
    emit resumeRequested(id);
}

void RunsPage::evaluateSelectedRun()
{
    const qint64 id = selectedRunId();
    if (id < 0 || !ensureReader()) return;
    try {
        if (m_reader->checkpoints(id).empty()) {
            setBanner(Banner::WriteError, tr("Cannot evaluate run %1: it saved no checkpoint.").arg(id));
            return;
        }
    } catch (const std::exception& e) {
        setBanner(Banner::WriteError, tr("Cannot evaluate run %1: %2").arg(id).arg(what(e)));
        return;
    }
    emit evaluateRequested(id);
}

void RunsPage::exportSelectedRun()
{
    const qint64 id = selectedRunId();
    if (id < 0 || !ensureReader()) return;
    try {
        if (m_reader->checkpoints(id).empty()) {
            setBanner(Banner::WriteError, tr("Cannot export run %1: it saved no checkpoint.").arg(id));
            return;
        }
    } catch (const std::exception& e) {
        setBanner(Banner::WriteError, tr("Cannot export run %1: %2").arg(id).arg(what(e)));
        return;
    }
    auto* dialog = new OnnxExportDialog(QString::fromStdString(m_workspace.directory), id, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

// --- writing ---

RunWriter* RunsPage::writer()
{
    if (!m_writer) {
        try {
            m_writer = std::make_unique<RunWriter>(m_workspace);
        } catch (const std::exception& e) {
            setBanner(Banner::WriteError, tr("Cannot change the runs: %1").arg(what(e)));
        }
    }
    return m_writer.get();
}

bool RunsPage::renameRun(qint64 runId, const QString& name)
{
    const QString trimmed = name.trimmed();
    bool ok = false;
    if (trimmed.isEmpty()) {
        setBanner(Banner::WriteError, tr("A run needs a name."));
    } else if (RunWriter* w = writer()) {
        try {
            w->renameRun(runId, trimmed.toStdString());
            ok = true;
        } catch (const std::exception& e) {
            setBanner(Banner::WriteError, tr("Cannot rename run %1: %2").arg(runId).arg(what(e)));
        }
    }
    if (ok && m_bannerKind == Banner::WriteError) setBanner(Banner::None);
    reread();  // shows the stored name: the new one, or the old one back after a failure
    return ok;
}

bool RunsPage::saveNotes(qint64 runId, const QString& notes)
{
    RunWriter* w = writer();
    if (!w) return false;
    try {
        w->setNotes(runId, notes.toStdString());
    } catch (const std::exception& e) {
        setBanner(Banner::WriteError, tr("Cannot save the notes of run %1: %2").arg(runId).arg(what(e)));
        return false;
    }
    if (m_details->runId() == runId) m_details->notesSaved(notes);
    if (m_bannerKind == Banner::WriteError) setBanner(Banner::None);
    reread();
    return true;
}

bool RunsPage::deleteRun(qint64 runId)
{
    RunWriter* w = writer();
    if (!w) return false;
    bool ok = true;
    try {
        w->deleteRun(runId);  // rows, then the checkpoint folder
    } catch (const std::exception& e) {
        setBanner(Banner::WriteError, tr("Cannot delete run %1: %2").arg(runId).arg(what(e)));
        ok = false;
    }
    if (ok && m_bannerKind == Banner::WriteError) setBanner(Banner::None);
    reread();  // even after a failure: the rows may be gone while the folder stayed
    return ok;
}

// --- selecting a sweep ---

// From the current row (the one a right-click or the keyboard is on), so it works with one
// run selected or several.
void RunsPage::selectSameExperiment()
{
    const RunListing* current = m_model->findRun(m_view->currentIndex().data(RunsModel::RunIdRole).toLongLong());
    if (!current) return;
    QList<qint64> ids;
    for (const RunListing& r : m_model->runs())
        if (r.run.experimentName == current->run.experimentName) ids << r.run.id;
    selectRuns(ids);
}

void RunsPage::selectSharingTag()
{
    const RunListing* current = m_model->findRun(m_view->currentIndex().data(RunsModel::RunIdRole).toLongLong());
    if (!current) return;
    const std::set<std::string> tags(current->run.tags.begin(), current->run.tags.end());
    QList<qint64> ids;
    for (const RunListing& r : m_model->runs())
        if (std::any_of(r.run.tags.begin(), r.run.tags.end(), [&](const std::string& t) { return tags.count(t) > 0; }))
            ids << r.run.id;
    selectRuns(ids);
}

}  // namespace ts::ui
