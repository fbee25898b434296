#include "runs_page.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyle>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

#include "run_comparison.h"
#include "run_details.h"
#include "runs_model.h"
#include "ui/studio_settings.h"

namespace ts::ui {

namespace {
constexpr int kPollMs = 1000;

QString what(const std::exception& e) { return QString::fromLocal8Bit(e.what()); }
}  // namespace

RunsPage::RunsPage(const Workspace& workspace, QWidget* parent) : QWidget(parent), m_workspace(workspace)
{
    setObjectName(QStringLiteral("page_runs"));

    m_model = new RunsModel(this);
    m_proxy = new RunsProxyModel(m_model, this);  // sorts and filters by the model's ready keys

    m_view = new QTableView;
    m_view->setObjectName(QStringLiteral("runsView"));
    m_view->setModel(m_proxy);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    // Several runs (Ctrl/Shift-click, Ctrl+A) are compared; one shows its details.
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);  // F2 (the Rename action) edits
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    // Rows of one height: the table never measures 10,000 rows to lay them out.
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setResizeContentsPrecision(100);  // fitting the columns measures 100 runs, not 1,000
    m_view->horizontalHeader()->setSectionsMovable(true);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);

    m_details = new RunDetails(m_workspace);
    m_details->setObjectName(QStringLiteral("runDetails"));
    m_comparison = new RunComparison;
    m_comparison->setObjectName(QStringLiteral("runComparison"));
    m_comparison->setWorkspace(m_workspace);  // its chart points are read off the UI thread
    m_detailsStack = new QStackedWidget;
    m_detailsStack->addWidget(m_details);
    m_detailsStack->addWidget(m_comparison);

    m_splitter = new QSplitter(Qt::Vertical);
    m_splitter->setObjectName(QStringLiteral("runsSplitter"));
    m_splitter->addWidget(m_view);
    m_splitter->addWidget(m_detailsStack);
    m_splitter->setStretchFactor(1, 2);

    m_banner = new QLabel;
    m_banner->setObjectName(QStringLiteral("runsBanner"));
    m_banner->setWordWrap(true);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_banner->setMargin(6);
    m_banner->hide();

    createActions();
    auto* toolBar = new QToolBar;
    toolBar->setObjectName(QStringLiteral("runsToolBar"));
    toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolBar->addActions({m_resumeAction, m_evaluateAction, m_exportAction, m_renameAction, m_deleteAction});
    toolBar->addSeparator();
    toolBar->addAction(m_refreshAction);
    m_filter = new QLineEdit;
    m_filter->setObjectName(QStringLiteral("runsFilter"));
    m_filter->setPlaceholderText(tr("Filter runs"));
    m_filter->setToolTip(tr("Show the runs whose ID, name, experiment, status, device or a tag contains this text"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setMaximumWidth(m_filter->fontMetrics().horizontalAdvance(QLatin1Char('x')) * 40);
    auto* spacer = new QWidget;
    spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    toolBar->addWidget(spacer);
    toolBar->addWidget(m_filter);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &RunsProxyModel::setFilterText);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(toolBar);
    layout->addWidget(m_banner);
    layout->addWidget(m_splitter, 1);

    restoreViewState();

    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        updateDetails();
        updateActions();
    });
    // Queued: the model is inside its setData() when it asks; the write and the refresh that
    // follows run once the editor has finished.
    connect(m_model, &RunsModel::renameRequested, this, &RunsPage::renameRun, Qt::QueuedConnection);
    connect(m_details, &RunDetails::saveNotesRequested, this, &RunsPage::saveNotes);
    connect(m_details, &RunDetails::runActivated, this, &RunsPage::selectRun);
    connect(m_comparison, &RunComparison::runActivated, this, &RunsPage::selectRun);
    auto chartsFailed = [this](const QString& message) {
        setBanner(Banner::ReadError, tr("Cannot read the runs: %1").arg(message));
    };
    connect(m_details, &RunDetails::readFailed, this, chartsFailed);
    connect(m_comparison, &RunComparison::readFailed, this, chartsFailed);

    m_poll.setInterval(kPollMs);
    connect(&m_poll, &QTimer::timeout, this, &RunsPage::poll);
    m_poll.start();
    updateActions();
}

RunsPage::~RunsPage() = default;

QSortFilterProxyModel* RunsPage::proxyModel() const { return m_proxy; }

void RunsPage::createActions()
{
    // Rename and Delete act on the table's selection: their keys work only while the table has
    // the focus, so Del in the notes editor deletes a character, not a run.
    m_renameAction = new QAction(QIcon::fromTheme(QStringLiteral("edit-rename")), tr("&Rename"), this);
    m_renameAction->setObjectName(QStringLiteral("actionRenameRun"));
    m_renameAction->setShortcut(Qt::Key_F2);
    m_deleteAction = new QAction(style()->standardIcon(QStyle::SP_TrashIcon), tr("&Delete…"), this);
    m_deleteAction->setObjectName(QStringLiteral("actionDeleteRun"));
    m_deleteAction->setShortcut(QKeySequence::Delete);
    m_resumeAction = new QAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("Re&sume from Last Checkpoint"), this);
    m_resumeAction->setObjectName(QStringLiteral("actionResumeRun"));
    m_resumeAction->setToolTip(tr("Continue this run from its last checkpoint, on the Train page"));
    m_evaluateAction = new QAction(style()->standardIcon(QStyle::SP_DialogApplyButton), tr("&Evaluate"), this);
    m_evaluateAction->setObjectName(QStringLiteral("actionEvaluateRun"));
    m_evaluateAction->setToolTip(tr("Evaluate the run's best checkpoint (or its last) on the test split (or the validation "
                                    "split without one) and keep every prediction; it runs in the job queue"));
    m_exportAction = new QAction(QIcon::fromTheme(QStringLiteral("document-export")), tr("Export as &ONNX…"), this);
    m_exportAction->setObjectName(QStringLiteral("actionExportRunOnnx"));
    m_exportAction->setToolTip(tr("Write a checkpoint of this run as an ONNX model (dynamic batch, class names and "
                                  "normalisation in its metadata) for ONNX Runtime and other tools"));
    m_sameExperimentAction = new QAction(tr("Select Runs of the Same E&xperiment"), this);
    m_sameExperimentAction->setObjectName(QStringLiteral("actionSelectSameExperiment"));
    m_sameExperimentAction->setToolTip(tr("Select every listed run of this run's experiment, to compare the whole sweep"));
    m_sharingTagAction = new QAction(tr("Select Runs Sharing a &Tag"), this);
    m_sharingTagAction->setObjectName(QStringLiteral("actionSelectSharingTag"));
    m_sharingTagAction->setToolTip(tr("Select every listed run that has one of this run's tags, to compare them"));
    m_refreshAction = new QAction(style()->standardIcon(QStyle::SP_BrowserReload), tr("Re&fresh"), this);
    m_refreshAction->setObjectName(QStringLiteral("actionRefreshRuns"));
    m_refreshAction->setShortcut(QKeySequence::Refresh);
    for (QAction* a : {m_renameAction, m_deleteAction, m_resumeAction, m_evaluateAction, m_exportAction, m_sameExperimentAction,
                       m_sharingTagAction, m_refreshAction}) {
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        m_view->addAction(a);
    }
    addAction(m_refreshAction);  // F5 anywhere on the page

    connect(m_renameAction, &QAction::triggered, this, &RunsPage::renameSelectedRun);
    connect(m_deleteAction, &QAction::triggered, this, &RunsPage::deleteSelectedRun);
    connect(m_resumeAction, &QAction::triggered, this, &RunsPage::resumeSelectedRun);
    connect(m_evaluateAction, &QAction::triggered, this, &RunsPage::evaluateSelectedRun);
    connect(m_exportAction, &QAction::triggered, this, &RunsPage::exportSelectedRun);
    connect(m_sameExperimentAction, &QAction::triggered, this, &RunsPage::selectSameExperiment);
    connect(m_sharingTagAction, &QAction::triggered, this, &RunsPage::selectSharingTag);
    connect(m_refreshAction, &QAction::triggered, this, &RunsPage::refresh);
}

QList<QAction*> RunsPage::runActions() const
{
    return {m_resumeAction, m_evaluateAction, m_exportAction, m_renameAction, m_deleteAction, m_refreshAction};
}

void RunsPage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) m_model->retranslate();
    QWidget::changeEvent(event);
}

void RunsPage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    m_shown = true;
    poll();  // what changed while the page was hidden, at once rather than a second later
}

// --- reading ---

bool RunsPage::ensureReader()
{
    if (m_reader) return true;
    // Missing or still empty (a writer is creating it): not an error, the first run creates it.
    if (QFileInfo(QString::fromStdString(m_workspace.databasePath())).size() == 0) {
        m_model->clear();
        m_details->clear();
        setBanner(Banner::NoRuns);
        return false;
    }
    try {
        m_reader = std::make_unique<RunReader>(m_workspace);
        m_dataVersion = -1;
        return true;
    } catch (const std::exception& e) {
        m_model->clear();  // not a database this version understands: show nothing of it
        m_details->clear();
        setBanner(Banner::ReadError, tr("Cannot read the runs: %1").arg(what(e)));
        return false;
    }
}

void RunsPage::poll()
{
    if (!isVisible() || !ensureReader()) return;  // hidden pages cost nothing
    try {
        const qint64 version = m_reader->dataVersion();
        if (version == m_dataVersion) return;
        m_dataVersion = version;  // taken before reading: a commit during the reads shows next time
        reload();
    } catch (const std::exception& e) {
        readFailed(e);
    }
}

void RunsPage::refresh()
{
    if (m_bannerKind == Banner::WriteError) setBanner(Banner::None);  // seen: the user asked for a fresh look
    reread();
}

void RunsPage::reread()
{
    m_dataVersion = -1;
    if (!ensureReader()) return;
    try {
        m_dataVersion = m_reader->dataVersion();
        reload();
    } catch (const std::exception& e) {
        readFailed(e);
    }
}

void RunsPage::reload()
{
    m_model->refresh(*m_reader);
    if (m_fitColumns && m_model->rowCount() > 0) {
        m_view->resizeColumnsToContents();
        m_fitColumns = false;
    }
    updateDetails();
    updateActions();
    if (m_bannerKind != Banner::WriteError) setBanner(m_model->rowCount() == 0 ? Banner::NoRuns : Banner::None);
}

void RunsPage::readFailed(const std::exception& error)
{
    // A fresh connection next time is the surest recovery (a replaced file, a broken WAL).
    m_reader.reset();
    m_dataVersion = -1;
    setBanner(Banner::ReadError, tr("Cannot read the runs: %1").arg(what(error)));
}

void RunsPage::updateDetails()
{
    const QList<qint64> ids = selectedRunIds();
    m_detailsStack->setCurrentWidget(ids.size() > 1 ? static_cast<QWidget*>(m_comparison) : m_details);
    if (ids.size() <= 1) m_comparison->clear();
    if (ids.size() != 1) m_details->clear();
    if (ids.isEmpty() || !m_reader) return;
    try {
        if (ids.size() == 1) m_details->showRun(*m_reader, ids.front(), m_model->runs());
        else m_comparison->showRuns(*m_reader, ids);
    } catch (const std::exception& e) {
        readFailed(e);
    }
}

// --- selection ---

qint64 RunsPage::selectedRunId() const
{
    const QList<qint64> ids = selectedRunIds();
    return ids.size() == 1 ? ids.front() : -1;
}

QList<qint64> RunsPage::selectedRunIds() const
{
    QList<qint64> ids;
    for (const QModelIndex& row : m_view->selectionModel()->selectedRows())
        ids << row.data(RunsModel::RunIdRole).toLongLong();
    std::sort(ids.begin(), ids.end());  // oldest first: the comparison's colours stay put
    return ids;
}

void RunsPage::selectRuns(const QList<qint64>& runIds)
{
    QItemSelection selection;
    for (qint64 id : runIds) {
        const QModelIndex index = m_proxy->mapFromSource(m_model->indexOf(id));
        if (index.isValid()) selection.select(index, index);
    }
    m_view->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

void RunsPage::selectRun(qint64 runId)
{
    const QModelIndex index = m_proxy->mapFromSource(m_model->indexOf(runId));
    if (!index.isValid()) {
        m_view->selectionModel()->clearSelection();
        return;
    }
    m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(index);
}

void RunsPage::updateActions()
{
    const RunListing* run = m_model->findRun(selectedRunId());
    m_renameAction->setEnabled(run);
    m_deleteAction->setEnabled(run);
    // A running run has nothing to resume; one that died (crashed, failed, stopped) has.
    m_resumeAction->setEnabled(run && run->run.status != RunStatus::Running);
    m_evaluateAction->setEnabled(run && run->run.status != RunStatus::Running);
    m_exportAction->setEnabled(run != nullptr);  // a running run's checkpoints export too
    const RunListing* current = m_model->findRun(m_view->currentIndex().data(RunsModel::RunIdRole).toLongLong());
    m_sameExperimentAction->setEnabled(current);
    m_sharingTagAction->setEnabled(current && !current->run.tags.empty());
}

// --- banner and view state ---

void RunsPage::setBanner(Banner kind, const QString& text)
{
    m_bannerKind = kind;
    if (kind == Banner::None) {
        m_banner->hide();
        m_banner->clear();
        return;
    }
    if (kind == Banner::NoRuns) {
        m_banner->setText(tr("No runs yet. Runs appear here as soon as one starts, from the Train page or from "
                             "trainstudio-cli, in %1.")
                              .arg(QDir::toNativeSeparators(QString::fromStdString(m_workspace.directory))));
        m_banner->setStyleSheet({});
    } else {
        m_banner->setText(text);
        // Translucent red over the palette's window colour: readable in light and dark themes.
        m_banner->setStyleSheet(QStringLiteral("QLabel { background: rgba(214, 39, 40, 40); "
                                               "border: 1px solid rgba(214, 39, 40, 160); border-radius: 3px; }"));
    }
    m_banner->show();
}

QString RunsPage::bannerText() const { return m_banner->isHidden() ? QString() : m_banner->text(); }

void RunsPage::restoreViewState()
{
    const StudioSettings::RunsPageLayout layout = StudioSettings::runsPageLayout();
    QHeaderView* header = m_view->horizontalHeader();
    header->setSortIndicator(RunsModel::Started, Qt::DescendingOrder);  // newest first on the first start
    m_fitColumns = !header->restoreState(layout.header);
    m_splitter->restoreState(layout.splitter);
    m_details->splitter()->restoreState(layout.detailsSplitter);
    m_view->setSortingEnabled(true);  // after restoring, so it sorts once, by the saved column
}

void RunsPage::saveViewState() const
{
    // A page never shown has never been laid out: its sizes are guesses, not the user's.
    if (!m_shown) return;
    StudioSettings::setRunsPageLayout(
        {m_view->horizontalHeader()->saveState(), m_splitter->saveState(), m_details->splitter()->saveState()});
}

}  // namespace ts::ui
