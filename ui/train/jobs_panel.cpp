#include "jobs_panel.h"

#include <QAction>
#include <QHeaderView>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include "jobs_model.h"
#include "progress_delegate.h"
#include "training_session.h"

namespace ts::ui {

JobsPanel::JobsPanel(TrainingSession* session, const QString& workspaceDir, QWidget* parent)
    : QWidget(parent), m_session(session), m_model(new JobsModel(session, workspaceDir, this))
{
    setObjectName(QStringLiteral("jobsPanel"));
    m_view = new QTableView;
    m_view->setObjectName(QStringLiteral("jobsView"));
    m_view->setModel(m_model);
    m_view->setItemDelegateForColumn(JobsModel::Progress, new widgets::ProgressDelegate(m_view));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);  // compact rows
    m_view->setWordWrap(false);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setSectionResizeMode(JobsModel::Progress, QHeaderView::Fixed);
    m_view->horizontalHeader()->resizeSection(JobsModel::Progress, m_view->fontMetrics().horizontalAdvance(QStringLiteral("0000000000000")));
    m_view->horizontalHeader()->setStretchLastSection(true);

    m_cancel = new QPushButton(tr("&Cancel Job"));
    m_cancel->setObjectName(QStringLiteral("cancelJobButton"));
    m_cancel->setToolTip(tr("Drop the selected queued job, or stop the running one after its current step "
                            "(a checkpoint is saved) (Del)"));
    auto* cancelAction = new QAction(this);
    cancelAction->setShortcut(QKeySequence::Delete);
    cancelAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(cancelAction);
    connect(cancelAction, &QAction::triggered, this, &JobsPanel::cancelSelected);
    connect(m_cancel, &QPushButton::clicked, this, &JobsPanel::cancelSelected);

    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_cancel);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_view, 1);
    layout->addLayout(buttons);

    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &JobsPanel::updateButtons);
    connect(m_model, &JobsModel::countsChanged, this, [this] {
        updateButtons();
        emit summaryChanged(summary());
    });
    updateButtons();
}

QString JobsPanel::summary() const
{
    int running = 0, queued = 0;
    for (int r = 0; r < m_model->rowCount(); ++r) {
        const JobRow* j = m_model->rowAt(r);
        if (j->state == JobRow::State::Queued) ++queued;
        else if (!j->isDone()) ++running;
    }
    if (running + queued == 0) return {};
    return tr("%n job(s): %1 running, %2 queued", nullptr, running + queued).arg(running).arg(queued);
}

void JobsPanel::cancelSelected()
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    if (rows.isEmpty()) return;
    const JobRow* j = m_model->rowAt(rows.first().row());
    if (j && j->id > 0) m_session->cancel(j->id);
}

void JobsPanel::updateButtons()
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    const JobRow* j = rows.isEmpty() ? nullptr : m_model->rowAt(rows.first().row());
    m_cancel->setEnabled(j && j->id > 0 && !j->isDone() && j->state != JobRow::State::Stopping);
}

}  // namespace ts::ui
