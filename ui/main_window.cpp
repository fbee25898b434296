#include "main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QStackedWidget>
#include <QStatusBar>
#include <QToolButton>
#include <QPushButton>

#include "widgets/elided_text_tips.h"
#include "ui/datasets/datasets_page.h"
#include "ui/glossary/glossary_browser.h"
#include "ui/hyperparameters/hyperparameters_page.h"
#include "ui/learn/learn_page.h"
#include "document_actions.h"
#include "experiment_document.h"
#include "io/yaml/shipped_experiments.h"
#include "ui/model/model_page.h"
#include "ui/model/model_summary_panel.h"
#include "ui/hyperparameters/schedule_preview_chart.h"
#include "ui/train/jobs_panel.h"
#include "ui/runs/runs_page.h"
#include "studio_settings.h"
#include "studio_workspace.h"
#include "system_info.h"
#include "ui/train/train_page.h"
#include "ui/train/training_session.h"
#include "translations.h"
#include "live_language.h"
#include "user_files.h"

namespace ts::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(QStringLiteral("TrainStudio"));
    installUserFileWriter();  // chart and canvas exports through the engine's checks
    widgets::ElidedTextTips::install();  // a cut-off cell shows its whole text on hover

    m_sidebar = new QListWidget;
    m_sidebar->setObjectName(QStringLiteral("sidebar"));
    m_sidebar->setIconSize(QSize(24, 24));
    m_sidebar->setSpacing(2);
    m_sidebar->setSelectionMode(QAbstractItemView::SingleSelection);
    m_sidebar->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    m_stack = new QStackedWidget;
    m_stack->setObjectName(QStringLiteral("pages"));
    m_session = new TrainingSession(this);
    m_document = new ExperimentDocument(this);
    m_documentActions = new DocumentActions(m_document, this);

    for (Page page : kAllPages) {
        auto* item = new QListWidgetItem(PageInfo::icon(page, style()), PageInfo::title(page), m_sidebar);
        item->setData(Qt::UserRole, PageInfo::key(page));
        if (page == Page::Train)  // the window owns the session: it outlives the page's runs
            m_stack->addWidget(new TrainPage(m_session, m_document));
        else if (page == Page::Runs)
            m_stack->addWidget(new RunsPage(studioWorkspace()));
        else if (page == Page::Hyperparameters)
            m_stack->addWidget(new HyperparametersPage(m_session, m_document, QString::fromStdString(studioWorkspace().directory)));
        else if (page == Page::Model)
            m_stack->addWidget(new ModelPage(m_document));
        else if (page == Page::Datasets)
            m_stack->addWidget(new DatasetsPage(studioWorkspace(), m_session));
        else if (page == Page::Learn)
            m_stack->addWidget(new LearnPage(studioWorkspace()));
        else
            m_stack->addWidget(new PlaceholderPage(page));
    }
    fitSidebar();
    connectExperimentPages();

    auto* central = new QWidget;
    auto* layout = new QHBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_sidebar);
    layout->addWidget(m_stack, 1);
    setCentralWidget(central);

    createJobsDock();
    createMenus();

    m_jobsButton = new QToolButton;
    m_jobsButton->setObjectName(QStringLiteral("jobsButton"));
    m_jobsButton->setAutoRaise(true);
    m_jobsButton->setToolTip(tr("Show the job queue (Ctrl+J)"));
    m_jobsButton->hide();
    connect(m_jobsButton, &QToolButton::clicked, this, [this] {
        m_jobsDock->show();
        m_jobsDock->raise();
    });
    statusBar()->addPermanentWidget(m_jobsButton);
    m_device = new QLabel(tr("Device: %1").arg(SystemInfo::deviceSummary()));
    m_device->setObjectName(QStringLiteral("deviceLabel"));
    statusBar()->addPermanentWidget(m_device);
    connect(m_jobsPanel, &JobsPanel::summaryChanged, this, [this](const QString& summary) {
        m_jobsButton->setText(summary);
        m_jobsButton->setVisible(!summary.isEmpty());
        // A second job waiting is the moment the queue matters: show it once.
        if (m_session->queuedCount() > 0 && !m_jobsShownOnce) {
            m_jobsShownOnce = true;
            m_jobsDock->show();
            // A few rows high: the Train page's charts keep most of the window.
            resizeDocks({m_jobsDock}, {m_jobsDock->fontMetrics().height() * 11}, Qt::Vertical);
        }
    });
    connect(m_session, &TrainingSession::stateChanged, this, [this] {
        if (m_closeWhenIdle && !m_session->isActive()) close();
    });

    connect(m_sidebar, &QListWidget::currentRowChanged, this, &MainWindow::onRowChanged);
    connect(m_documentActions, &DocumentActions::statusMessage, this, [this](const QString& text) {
        statusBar()->showMessage(text, 8000);
    });
    // The title names the open experiment, with the platform's mark of unsaved changes.
    connect(m_document, &ExperimentDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_document, &ExperimentDocument::pathChanged, this, &MainWindow::updateTitle);
    connect(m_document, &ExperimentDocument::opened, this, &MainWindow::updateTitle);
    restoreSettings();
    openStartingExperiment();
}

void MainWindow::updateTitle()
{
    setWindowTitle(m_document->hasExperiment() ? QStringLiteral("%1[*] — TrainStudio").arg(m_document->displayName())
                                               : QStringLiteral("TrainStudio"));
    setWindowModified(m_document->isModified());
    setWindowFilePath(m_document->path());
}

// The experiment of the last session, else the shipped CNN on Fashion-MNIST (the one a newcomer
// starts from, whatever other files sort before it), else any shipped one.
void MainWindow::openStartingExperiment()
{
    QStringList candidates{StudioSettings::lastExperiment()};
    if (const QString shipped = QString::fromStdString(shippedExperimentsDirectory().string()); !shipped.isEmpty()) {
        candidates << QDir(shipped).absoluteFilePath(QStringLiteral("fashion_mnist_cnn.yaml"));
        for (const QFileInfo& f : QDir(shipped).entryInfoList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name))
            candidates << f.absoluteFilePath();
    }
    for (const QString& file : candidates)
        if (!file.isEmpty() && m_document->open(file, nullptr)) return;
    updateTitle();
}

// Wide enough for the longest title in the current language (Chinese ones are short).
void MainWindow::fitSidebar()
{
    int textWidth = 0;
    for (Page page : kAllPages)
        textWidth = qMax(textWidth, m_sidebar->fontMetrics().horizontalAdvance(PageInfo::title(page)));
    const int itemWidth = qMax(160, m_sidebar->iconSize().width() + textWidth + 32);
    for (int row = 0; row < m_sidebar->count(); ++row) m_sidebar->item(row)->setSizeHint(QSize(itemWidth, 36));
    m_sidebar->setFixedWidth(itemWidth + 2 * m_sidebar->frameWidth() + 2 * m_sidebar->spacing());
}

void MainWindow::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange && m_sidebar) {
        // Page titles by page, not by their old words: one Chinese word can be two English ones.
        for (int row = 0; row < m_sidebar->count(); ++row) m_sidebar->item(row)->setText(PageInfo::title(kAllPages[row]));
        const QList<QAction*> pageActions = m_pageActions->actions();
        for (int i = 0; i < pageActions.size(); ++i) pageActions[i]->setText(PageInfo::title(kAllPages[i]));
        fitSidebar();
        m_jobsDock->toggleViewAction()->setText(tr("&Jobs"));  // the dock's new title replaced it
    }
    QMainWindow::changeEvent(event);
}

void MainWindow::createJobsDock()
{
    m_jobsPanel = new JobsPanel(m_session, QString::fromStdString(studioWorkspace().directory));
    m_jobsDock = new QDockWidget(tr("Jobs"), this);
    m_jobsDock->setObjectName(QStringLiteral("jobsDock"));
    m_jobsDock->setWidget(m_jobsPanel);
    m_jobsDock->setAllowedAreas(Qt::BottomDockWidgetArea | Qt::RightDockWidgetArea);
    addDockWidget(Qt::BottomDockWidgetArea, m_jobsDock);
    m_jobsDock->hide();  // until jobs wait in the queue, or the user asks (View > Jobs)
}

// The language setting: the system's, or one chosen here. Kept for the next start, and
// applied at once: every open window's texts are translated anew (live_language.h).
void MainWindow::createLanguageMenu(QMenu* menu)
{
    menu->setObjectName(QStringLiteral("languageMenu"));
    auto* group = new QActionGroup(menu);
    // What this studio speaks now: a --lang given for this start, else the setting.
    const QString current = LiveLanguage::current();
    auto add = [&](const QString& text, const QString& code) {
        QAction* action = menu->addAction(text);
        action->setCheckable(true);
        action->setChecked(code == current);
        action->setData(code);
        group->addAction(action);
        connect(action, &QAction::triggered, this, [code] {
            StudioSettings::setLanguage(code);
            LiveLanguage::use(code);
        });
    };
    add(tr("System Language"), QString());
    add(QStringLiteral("English"), QStringLiteral("en"));
    for (const QString& code : Translations::available())
        if (code != QLatin1String("en")) add(QLocale(code).nativeLanguageName(), code);
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->setObjectName(QStringLiteral("fileMenu"));
    file->addAction(m_documentActions->openAction());
    QMenu* recent = file->addMenu(tr("Open &Recent"));
    recent->setObjectName(QStringLiteral("recentMenu"));
    connect(recent, &QMenu::aboutToShow, this, [this, recent] { m_documentActions->fillRecentMenu(recent); });
    if (auto* datasets = qobject_cast<DatasetsPage*>(m_stack->widget(int(Page::Datasets)))) {
        QAction* openDataset = datasets->openAction();
        openDataset->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
        connect(openDataset, &QAction::triggered, this, [this] { setCurrentPage(Page::Datasets); });
        file->addAction(openDataset);
        QAction* openFolder = datasets->openFolderAction();  // the same, for a folder only
        connect(openFolder, &QAction::triggered, this, [this] { setCurrentPage(Page::Datasets); });
        file->addAction(openFolder);
    }
    file->addSeparator();
    file->addAction(m_documentActions->saveAction());
    file->addAction(m_documentActions->saveAsAction());
    file->addAction(m_documentActions->revertAction());
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);  // close() saves the settings
    quit->setObjectName(QStringLiteral("actionQuit"));
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->setObjectName(QStringLiteral("editMenu"));
    edit->addAction(m_documentActions->undoAction());
    edit->addAction(m_documentActions->redoAction());

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->setObjectName(QStringLiteral("viewMenu"));
    createLanguageMenu(view->addMenu(tr("&Language")));
    QAction* jobs = m_jobsDock->toggleViewAction();
    jobs->setObjectName(QStringLiteral("actionJobs"));
    jobs->setText(tr("&Jobs"));
    jobs->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_J));
    view->addAction(jobs);
    view->addSeparator();
    m_pageActions = new QActionGroup(this);
    m_pageActions->setExclusive(true);
    int index = 0;
    for (Page page : kAllPages) {
        QAction* action = view->addAction(PageInfo::icon(page, style()), PageInfo::title(page));
        action->setObjectName(QStringLiteral("actionPage_") + PageInfo::key(page));
        action->setCheckable(true);
        action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + index++)));
        m_pageActions->addAction(action);
        connect(action, &QAction::triggered, this, [this, page] { setCurrentPage(page); });
    }

    if (auto* trainPage = qobject_cast<TrainPage*>(m_stack->widget(int(Page::Train)))) {
        QMenu* train = menuBar()->addMenu(tr("&Training"));
        train->setObjectName(QStringLiteral("trainMenu"));
        train->addActions(trainPage->trainActions());
        // Ctrl+R works from any page; show the run it starts.
        connect(trainPage->trainActions().constFirst(), &QAction::triggered, this, [this] { setCurrentPage(Page::Train); });
        if (auto* runsPage = qobject_cast<RunsPage*>(m_stack->widget(int(Page::Runs))))
            connect(runsPage, &RunsPage::resumeRequested, this, [this, trainPage](qint64 runId) {
                setCurrentPage(Page::Train);
                trainPage->resumeRun(runId);
            });
        if (auto* runsPage = qobject_cast<RunsPage*>(m_stack->widget(int(Page::Runs))))
            connect(runsPage, &RunsPage::evaluateRequested, this, [this](qint64 runId) {
                EvaluateJob job;
                job.runId = runId;
                m_session->enqueue(job, tr("run %1").arg(runId), QString::fromStdString(studioWorkspace().directory));
                m_jobsDock->show();  // where its progress and result appear
            });
    }

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("helpMenu"));
    // F1 opens the entry of what has the focus (an option, a diagnostic card), else the glossary as it was.
    QAction* glossary = help->addAction(tr("&Glossary"), this, [this] {
        GlossaryBrowser::open(this, GlossaryBrowser::contextEntry(QApplication::focusWidget()));
    });
    glossary->setObjectName(QStringLiteral("actionGlossary"));
    glossary->setShortcut(QKeySequence::HelpContents);
    glossary->setShortcutContext(Qt::ApplicationShortcut);  // from the glossary window too
    help->addSeparator();
    QAction* about = help->addAction(tr("&About TrainStudio"), this, &MainWindow::showAbout);
    about->setObjectName(QStringLiteral("actionAbout"));
    about->setMenuRole(QAction::AboutRole);
    QAction* aboutQt = help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
    aboutQt->setObjectName(QStringLiteral("actionAboutQt"));
    aboutQt->setMenuRole(QAction::AboutQtRole);
}

// The pages are views of one experiment document, given to each as it is made; what is
// wired here are their requests to the window: open a file, a new experiment, another page.
void MainWindow::connectExperimentPages()
{
    auto* train = qobject_cast<TrainPage*>(m_stack->widget(int(Page::Train)));
    auto* hyper = qobject_cast<HyperparametersPage*>(m_stack->widget(int(Page::Hyperparameters)));
    if (!train || !hyper) return;
    connect(train, &TrainPage::pageRequested, this, [this](Page page) { setCurrentPage(page); });  // diagnostic cards
    connect(train, &TrainPage::openRequested, this, [this](const QString& path) {
        if (path.isEmpty()) m_documentActions->showOpenDialog();
        else m_documentActions->open(path);
    });
    if (auto* model = qobject_cast<ModelPage*>(m_stack->widget(int(Page::Model)))) {
        connect(model, &ModelPage::newExperimentRequested, m_documentActions, &DocumentActions::openUntitled);
        connect(model, &ModelPage::trainRequested, this, [this] { setCurrentPage(Page::Train); });
        // The summary's one-step check is a job of the session: queued after any run, never beside one.
        model->summary()->setSession(m_session);
    }
    // The Datasets page shows the experiment's dataset and edits its settings; a new model for
    // the dataset shown is a new experiment, drawn on the Model page.
    if (auto* datasets = qobject_cast<DatasetsPage*>(m_stack->widget(int(Page::Datasets)))) {
        datasets->setDocument(m_document);
        connect(datasets, &DatasetsPage::newModelRequested, this, [this](const ExperimentSpec& spec) {
            if (m_documentActions->openUntitled(spec)) setCurrentPage(Page::Model);
        });
    }
    // A lesson's starting experiment opens on the Train page, as File > Open does.
    if (auto* learn = qobject_cast<LearnPage*>(m_stack->widget(int(Page::Learn))))
        connect(learn, &LearnPage::openExperimentRequested, this, [this](const QString& path) {
            if (m_documentActions->open(path)) setCurrentPage(Page::Train);
        });
    // A run that ends adds its logged rates to the preview's overlay.
    connect(m_session, &TrainingSession::finished, hyper->preview(), &SchedulePreviewChart::refreshOverlay);
}

Page MainWindow::currentPage() const
{
    const int row = m_stack->currentIndex();
    return row >= 0 && row < int(kAllPages.size()) ? kAllPages[row] : Page::Datasets;
}

void MainWindow::setCurrentPage(Page page) { m_sidebar->setCurrentRow(int(page)); }

void MainWindow::onRowChanged(int row)
{
    if (row < 0) return;
    m_stack->setCurrentIndex(row);
    m_pageActions->actions().at(row)->setChecked(true);
    emit currentPageChanged(kAllPages[row]);
}

QSize MainWindow::defaultSize()
{
    const QSize preferred(1280, 800);  // eight charts fit beside the Train page's settings
    const QScreen* screen = QGuiApplication::primaryScreen();
    if (!screen) return preferred;
    const QSize room = screen->availableSize() * 0.9;
    // Shrink as a whole: a window squeezed in one direction only looks broken.
    return room.expandedTo(preferred) == room ? preferred : preferred.scaled(room, Qt::KeepAspectRatio);
}

void MainWindow::showAbout()
{
    // Window-modal and non-blocking: open(), not exec(), so nothing waits on a nested loop.
    auto* box = new QMessageBox(this);
    box->setObjectName(QStringLiteral("aboutBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowTitle(tr("About TrainStudio"));
    box->setTextFormat(Qt::RichText);
    box->setText(SystemInfo::aboutHtml());
    if (!windowIcon().isNull()) box->setIconPixmap(windowIcon().pixmap(64, 64));
    box->open();
}

void MainWindow::restoreSettings()
{
    if (!restoreGeometry(StudioSettings::windowGeometry())) resize(defaultSize());
    restoreState(StudioSettings::windowState());
    setCurrentPage(StudioSettings::page());
}

void MainWindow::saveSettings() const
{
    StudioSettings::setWindowGeometry(saveGeometry());
    StudioSettings::setWindowState(saveState());
    StudioSettings::setPage(currentPage());
    if (!m_document->path().isEmpty()) StudioSettings::setLastExperiment(m_document->path());
    if (auto* runs = qobject_cast<RunsPage*>(m_stack->widget(int(Page::Runs)))) runs->saveViewState();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    // Asked once: closing again once the stopped job has ended needs no second answer.
    if (!m_closeWhenIdle && !m_documentActions->maybeSave()) {  // Cancel: the window stays, as it was
        event->ignore();
        return;
    }
    if (m_session->isActive()) {
        event->ignore();
        if (m_closeWhenIdle) return;  // already stopping; the window closes when the job has ended
        askToStopAndQuit();
        return;
    }
    saveSettings();
    QMainWindow::closeEvent(event);
}

void MainWindow::askToStopAndQuit()
{
    if (findChild<QMessageBox*>(QStringLiteral("confirmQuit"))) return;
    const int queued = m_session->queuedCount();
    auto* box = new QMessageBox(QMessageBox::Question, tr("Quit TrainStudio"),
                                tr("A job is running. Stop it and quit? It stops after the current step and saves a "
                                   "checkpoint, so it can be resumed later.") +
                                    (queued > 0 ? QStringLiteral("\n\n") + tr("%n queued job(s) will not start.", nullptr, queued)
                                                : QString()),
                                QMessageBox::NoButton, this);
    box->setObjectName(QStringLiteral("confirmQuit"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton* stop = box->addButton(tr("Stop and Quit"), QMessageBox::AcceptRole);
    stop->setObjectName(QStringLiteral("stopAndQuitButton"));
    box->addButton(tr("Keep Training"), QMessageBox::RejectRole);
    box->setDefaultButton(stop);
    // Window-modal and asynchronous: the trainer's events keep flowing while it asks.
    connect(box, &QMessageBox::buttonClicked, this, [this, stop](QAbstractButton* clicked) {
        if (clicked != stop) return;
        m_closeWhenIdle = true;
        statusBar()->showMessage(tr("Stopping: the current step finishes and a checkpoint is saved…"));
        m_session->stopAll();
    });
    box->open();
}

}  // namespace ts::ui
