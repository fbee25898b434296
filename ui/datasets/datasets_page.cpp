#include "datasets_page.h"

#include "count_text.h"

#include <QAction>
#include <QComboBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListView>
#include <QLocale>
#include <QMenu>
#include <QMimeData>
#include <QToolButton>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QStyle>
#include <QTabBar>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

#include "augmentation_preview.h"
#include "data/csv_dataset.h"
#include "data/text_statistics.h"
#include "data/tokenizer.h"
#include "dataset_list.h"
#include "dataset_open_dialog.h"
#include "health_report_panel.h"
#include "label_check_panel.h"
#include "sample_detail.h"
#include "split_preview.h"
#include "store/label_overlay.h"
#include "statistics_panel.h"
#include "table_columns.h"
#include "text_panels.h"
#include "text_sample_detail.h"
#include "text_sample_model.h"
#include "thumbnail_cache.h"
#include "widgets/image_grid.h"

namespace ts::ui {

DatasetsPage::DatasetsPage(const ts::Workspace& workspace, TrainingSession* session, QWidget* parent)
    : QWidget(parent), m_workspace(workspace)
{
    m_health = new HealthReportPanel(session);
    m_health->setWorkspace(workspace);
    m_labelCheck = new LabelCheckPanel(session);
    m_labelCheck->setWorkspace(workspace);
    setObjectName(QStringLiteral("page_datasets"));
    setAcceptDrops(true);
    m_thumbnails = new ThumbnailLoader(this);
    m_model = new SampleGridModel(m_thumbnails, this);
    m_columns = new TableColumnsModel(this);
    m_rows = new TableRowsModel(this);
    m_textModel = new TextSampleModel(m_model, this);
    m_text = new TextPanels(this);
    buildUi();
    connect(&m_opener, &QFutureWatcher<OpenedDataset>::finished, this, &DatasetsPage::onOpened);
    connect(&m_store, &QFutureWatcher<StoreResult>::finished, this, &DatasetsPage::onStoreDone);
    runStore([](const ts::Workspace& ws) {
        StoreResult r;
        r.records = ts::DatasetCatalog(ws).datasets();
        return r;
    });
    updateActions();
}

// An opening or a store task still running keeps its own copies of what it reads and ends
// alone (its result is dropped with the watcher), so closing the window never waits for it.
DatasetsPage::~DatasetsPage() = default;

QWidget* DatasetsPage::buildToolbar()
{
    auto* bar = new QWidget;
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(0, 0, 0, 0);
    const QString openTip = tr("Open a dataset's folder or file: IDX, CIFAR-10 batches, a CSV table or an image folder. "
                               "You can also drop one on this page.") + QLatin1Char('\n') + datasetLayoutsText();
    m_openAction = new QAction(tr("Open &Dataset…"), this);
    m_openAction->setObjectName(QStringLiteral("actionOpenDataset"));
    m_openAction->setToolTip(openTip);
    connect(m_openAction, &QAction::triggered, this, &DatasetsPage::showOpenDialog);
    m_openFolderAction = new QAction(tr("Open Dataset &Folder…"), this);
    m_openFolderAction->setObjectName(QStringLiteral("actionOpenDatasetFolder"));
    m_openFolderAction->setToolTip(tr("Choose a dataset's folder (an image folder, or IDX or CIFAR-10 files).") +
                                   QLatin1Char('\n') + datasetLayoutsText());
    connect(m_openFolderAction, &QAction::triggered, this, &DatasetsPage::showOpenFolderDialog);
    // One button for both: a click opens a file or a folder, its arrow offers folders only.
    m_openButton = new QToolButton;
    m_openButton->setObjectName(QStringLiteral("openDatasetButton"));
    m_openButton->setText(tr("Open Dataset…"));
    m_openButton->setToolTip(openTip);
    m_openButton->setPopupMode(QToolButton::MenuButtonPopup);
    m_openButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto* openMenu = new QMenu(m_openButton);
    openMenu->addAction(m_openAction);
    openMenu->addAction(m_openFolderAction);
    m_openButton->setMenu(openMenu);
    connect(m_openButton, &QToolButton::clicked, this, &DatasetsPage::showOpenDialog);

    m_format = new QComboBox;
    m_format->setObjectName(QStringLiteral("datasetFormat"));
    m_format->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_format->setMinimumContentsLength(6);
    m_format->addItem(tr("Detect"), QString());
    for (const QString& f : datasetFormats()) m_format->addItem(datasetFormatName(f), f);
    m_format->setToolTip(tr("The format is told from the files' names. When the guess is wrong, pick it here: the "
                            "folder or file you opened opens again in that format. With the experiment's dataset "
                            "shown, the format you pick is used for the next dataset you open."));
    connect(m_format, &QComboBox::activated, this, [this] { applyFormat(m_format->currentData().toString()); });

    m_useButton = new QPushButton(tr("Use in Experiment"));
    m_useButton->setObjectName(QStringLiteral("useInExperimentButton"));
    m_useButton->setToolTip(tr("Train the experiment on the dataset shown here"));
    connect(m_useButton, &QPushButton::clicked, this, &DatasetsPage::useInExperiment);
    m_newModel = new QAction(tr("New Model for This Dataset"), this);
    m_newModel->setObjectName(QStringLiteral("actionNewModelForDataset"));
    m_newModel->setToolTip(tr("Open the Model page with a model for this dataset's input shape and classes"));
    connect(m_newModel, &QAction::triggered, this, [this] {
        if (const auto spec = experimentForNewModel()) emit newModelRequested(*spec);
    });
    m_newModelButton = new QPushButton(m_newModel->text());
    m_newModelButton->setObjectName(QStringLiteral("newModelButton"));
    m_newModelButton->setToolTip(m_newModel->toolTip());
    connect(m_newModelButton, &QPushButton::clicked, m_newModel, &QAction::trigger);

    m_busy = new QProgressBar;
    m_busy->setObjectName(QStringLiteral("datasetBusy"));
    m_busy->setRange(0, 0);  // indeterminate: the readers report no progress
    m_busy->setTextVisible(false);
    m_busy->setMaximumWidth(m_busy->fontMetrics().averageCharWidth() * 12);
    m_busy->hide();

    row->addWidget(m_openButton);
    row->addWidget(m_format, 1);  // its items say what it is; no label, so the row stays narrow
    row->addWidget(m_useButton);
    row->addWidget(m_newModelButton);
    return bar;
}

QWidget* DatasetsPage::buildTableView()
{
    auto* box = new QWidget;
    m_labelColumnLabel = new QLabel(tr("Label column:"));
    m_labelColumn = new QComboBox;
    m_labelColumn->setObjectName(QStringLiteral("labelColumn"));
    m_labelColumn->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_labelColumn->setMinimumContentsLength(6);
    m_groupColumnLabel = new QLabel(tr("Group column:"));
    m_groupColumn = new QComboBox;
    m_groupColumn->setObjectName(QStringLiteral("groupColumn"));
    m_groupColumn->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_groupColumn->setMinimumContentsLength(6);
    m_groupColumn->setToolTip(tr("Rows sharing a group value never straddle the train / validation split"));
    connect(m_labelColumn, &QComboBox::activated, this, [this] { m_columns->setLabelColumn(m_labelColumn->currentData().toString()); });
    connect(m_groupColumn, &QComboBox::activated, this, [this] { m_columns->setGroupColumn(m_groupColumn->currentData().toString()); });
    connect(m_columns, &TableColumnsModel::choiceEdited, this, &DatasetsPage::onColumnChoice);

    m_columnsView = new QTableView;
    m_columnsView->setObjectName(QStringLiteral("tableColumns"));
    m_columnsView->setModel(m_columns);
    m_columnsView->setItemDelegateForColumn(TableColumnsModel::HistogramColumn, new HistogramDelegate(m_columnsView));
    m_columnsView->verticalHeader()->hide();
    m_columnsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_columnsView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_columnsView->horizontalHeader()->setStretchLastSection(true);
    m_rowsView = new QTableView;
    m_rowsView->setObjectName(QStringLiteral("tableRows"));
    m_rowsView->setModel(m_rows);
    m_rowsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_rowsView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_rowsView->verticalHeader()->setDefaultSectionSize(m_rowsView->fontMetrics().lineSpacing() + 6);
    m_rowsView->setToolTip(tr("The rows as read; the row numbers are the file's lines"));
    connect(m_rowsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
        if (!current.isValid() || !m_opened.ok()) return;
        const auto* csv = dynamic_cast<const ts::CsvDataset*>(m_opened.files->train.get());
        QStringList features;
        if (csv)
            for (const std::string& f : csv->featureNames()) features << QString::fromStdString(f);
        const qint64 line = m_rows->headerData(current.row(), Qt::Vertical).toLongLong();
        m_detail->showSample(m_opened.files->train, current.row(), tr("Row %1 (line %2)").arg(current.row()).arg(line), {},
                             m_model->classNames(), features);
        m_tabs->setCurrentWidget(m_detail);
    });

    auto* choice = new QGridLayout;  // two rows: narrow enough beside the panels
    choice->addWidget(m_labelColumnLabel, 0, 0);
    choice->addWidget(m_labelColumn, 0, 1);
    choice->addWidget(m_groupColumnLabel, 1, 0);
    choice->addWidget(m_groupColumn, 1, 1);
    choice->setColumnStretch(1, 1);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_columnsView);
    split->addWidget(m_rowsView);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(choice);
    layout->addWidget(split, 1);
    return box;
}

void DatasetsPage::buildUi()
{
    m_message = new QLabel;
    m_message->setObjectName(QStringLiteral("datasetMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_splitFilter = new QComboBox;
    m_splitFilter->setObjectName(QStringLiteral("splitFilter"));
    m_splitFilter->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_splitFilter->setMinimumContentsLength(6);
    m_classFilter = new QComboBox;
    m_classFilter->setObjectName(QStringLiteral("classFilter"));
    m_classFilter->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_classFilter->setMinimumContentsLength(6);
    m_showAll = new QPushButton(tr("Show All"));
    m_showAll->setObjectName(QStringLiteral("showAllButton"));
    m_showAll->hide();
    // activated: the user's choices only (the page refills and sets these boxes itself).
    connect(m_splitFilter, &QComboBox::activated, this, [this] {
        fillSplitAndClassFilters();  // the class counts follow the split
        filterFromControls();
    });
    connect(m_classFilter, &QComboBox::activated, this, &DatasetsPage::filterFromControls);
    connect(m_showAll, &QPushButton::clicked, this, &DatasetsPage::filterFromControls);

    m_grid = new widgets::ImageGrid;
    m_grid->setObjectName(QStringLiteral("sampleGrid"));
    m_grid->setModel(m_model);
    m_model->setThumbnailSize(m_grid->thumbnailSize());
    connect(m_grid, &widgets::ImageGrid::thumbnailSizeChanged, m_model, &SampleGridModel::setThumbnailSize);
    connect(m_grid->view()->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { showDetailOf(current); });
    connect(m_grid, &widgets::ImageGrid::activated, this, [this](const QModelIndex& index) {
        showDetailOf(index);
        m_tabs->setCurrentWidget(m_detail);
    });
    auto* gridBox = new QWidget;
    auto* filters = new QHBoxLayout;
    filters->addWidget(m_splitFilter, 1);
    filters->addWidget(m_classFilter, 1);
    filters->addWidget(m_showAll);
    auto* gridLayout = new QVBoxLayout(gridBox);
    gridLayout->setContentsMargins(0, 0, 0, 0);
    gridLayout->addLayout(filters);
    gridLayout->addWidget(m_grid, 1);
    // Text data: one row per text (a language model's block), decoded only for the rows drawn.
    m_textList = new QTableView;
    m_textList->setObjectName(QStringLiteral("textSamples"));
    m_textList->setModel(m_textModel);
    m_textList->verticalHeader()->hide();
    m_textList->verticalHeader()->setDefaultSectionSize(m_textList->fontMetrics().lineSpacing() + 6);
    m_textList->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_textList->setSelectionMode(QAbstractItemView::SingleSelection);
    m_textList->setWordWrap(false);
    m_textList->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // The text takes the width left and is elided there: no sideways scrolling through a fortune.
    m_textList->horizontalHeader()->setSectionResizeMode(TextSampleModel::TextColumn, QHeaderView::Stretch);
    m_textList->hide();
    connect(m_textList->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showTextDetailOf(current); });
    connect(m_textList, &QTableView::activated, this, [this](const QModelIndex& index) {
        showTextDetailOf(index);
        m_tabs->setCurrentWidget(m_text->detail());
    });
    connect(m_text, &TextPanels::showSamples, this, &DatasetsPage::showSamples);
    gridLayout->addWidget(m_textList, 1);

    m_empty = new QLabel(tr("Open a dataset (File > Open Dataset…), or drop a dataset folder or file here.\n\n"
                            "IDX (MNIST, Fashion-MNIST), CIFAR-10 binary batches, CSV tables and image folders "
                            "(one sub-folder of PNG, JPEG, WebP, TIFF, BMP or GIF images per class) are read."));
    m_empty->setObjectName(QStringLiteral("datasetEmpty"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_center = new QStackedWidget;
    m_center->addWidget(m_empty);
    m_center->addWidget(gridBox);
    m_center->addWidget(buildTableView());

    m_detail = new SampleDetail;
    m_statistics = new StatisticsPanel;
    m_split = new SplitPreview;
    m_augmentation = new AugmentationPreview;
    m_list = new DatasetList;
    connect(m_list, &DatasetList::openRequested, this, [this](const ts::DatasetRecord& r) { openSpec(specOfRecord(r), {}); });
    connect(m_statistics, &StatisticsPanel::classClicked, this, &DatasetsPage::showClass);
    connect(m_statistics, &StatisticsPanel::statisticsChanged, this, [this] {
        if (m_statistics->trainStatistics()) m_augmentation->setStatistics(*m_statistics->trainStatistics());
    });
    connect(m_split, &SplitPreview::specEdited, this, &DatasetsPage::applyDatasetEdit);
    connect(m_augmentation, &AugmentationPreview::specEdited, this, &DatasetsPage::applyDatasetEdit);
    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("datasetPanels"));
    m_tabs->setUsesScrollButtons(true);
    // Each panel scrolls inside its tab, so the tallest or widest of them does not set the
    // page's minimum size (the page fits 1280x800 at scale 1.5).
    auto scrolled = [](QWidget* panel) {
        auto* area = new QScrollArea;
        area->setWidgetResizable(true);
        area->setFrameShape(QFrame::NoFrame);
        area->setWidget(panel);
        return area;
    };
    m_tabs->addTab(m_detail, tr("Sample"));
    m_tabs->addTab(m_text->detail(), tr("Tokens"));
    m_tabs->addTab(m_text->lengthsPanel(), tr("Lengths"));
    m_tabs->addTab(m_text->vocabularyPanel(), tr("Vocabulary"));
    m_tabs->addTab(scrolled(m_statistics), tr("Statistics"));
    m_tabs->addTab(scrolled(m_split), tr("Split"));
    m_tabs->addTab(scrolled(m_augmentation), tr("Augmentation"));
    m_tabs->addTab(scrolled(m_health), tr("Health"));
    connect(m_health, &HealthReportPanel::showSamples, this, &DatasetsPage::showSampleRefs);
    connect(m_health, &HealthReportPanel::experimentEdited, this, [this](const ts::ExperimentSpec& spec) {
        // A one-click fix (class weights, the balanced sampler) of the experiment checked: it is
        // the experiment's dataset from now on, if it was not yet.
        m_experiment = spec;
        m_opened.spec = spec.dataset;
        m_opened.baseDir = QString::fromStdString(ts::experimentDataDirectory(spec));
        emitExperiment(tr("Apply the health report's fix"));
        updatePanels();
        updateActions();
    });
    m_tabs->addTab(scrolled(buildLabelsTab()), tr("Labels"));
    m_tabs->addTab(m_list, tr("Seen"));
    m_tabs->setTabToolTip(m_tabs->count() - 1, tr("The datasets this workspace has seen"));

    m_splitter = new QSplitter(Qt::Horizontal);
    m_splitter->setObjectName(QStringLiteral("datasetSplitter"));
    m_splitter->addWidget(m_center);
    m_splitter->addWidget(m_tabs);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    m_splitter->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(buildToolbar());
    auto* status = new QHBoxLayout;
    status->addWidget(m_busy, 0, Qt::AlignTop);
    status->addWidget(m_message, 1);
    layout->addLayout(status);
    layout->addWidget(m_splitter, 1);
    setMessage({}, false);
}

// The side panels get room for all their tabs the first time the page is shown, as long as the
// grid keeps two fifths of the width: a tab bar that scrolls hides tabs and cuts one in half.
void DatasetsPage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_sized) return;
    m_sized = true;
    fitPanelsToTabs(false);
}

// `growOnly`: other tabs shown (text data's): the panels widen when their tabs no longer fit,
// else the user's split stays. A text list keeps a third of the width (its texts are read whole
// in the Tokens tab), the grid two fifths.
void DatasetsPage::fitPanelsToTabs(bool growOnly)
{
    const int total = m_splitter->width();
    const int tabs = m_tabs->tabBar()->sizeHint().width() + 4 * m_tabs->style()->pixelMetric(QStyle::PM_DefaultFrameWidth);
    const int most = m_textModel->hasText() ? total * 2 / 3 : total * 3 / 5;
    const int least = growOnly ? std::min(m_tabs->width(), most) : total * 2 / 5;
    const int right = std::clamp(tabs, least, most);
    m_splitter->setSizes({total - right, right});
}

// A new language: what this page composed from several texts is composed again.
void DatasetsPage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange && m_opened.ok()) {
        fillSplitAndClassFilters();
        updateGridTitle();
        if (!m_opened.files->testError) setMessage(openedSummary(), false);
    }
    if (event->type() == QEvent::LanguageChange) m_text->retranslate();
    QWidget::changeEvent(event);
}

void DatasetsPage::setMessage(const QString& text, bool error)
{
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
    m_message->setStyleSheet(error ? QStringLiteral("color: #b00020") : QString());
    m_message->setProperty("error", error);
}

QString DatasetsPage::message() const { return m_message->text(); }

// --- drops ---

void DatasetsPage::dragEnterEvent(QDragEnterEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.front().isLocalFile()) event->acceptProposedAction();
}

void DatasetsPage::dropEvent(QDropEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.front().isLocalFile()) return;
    event->acceptProposedAction();
    openChosen(urls.front().toLocalFile());
}

}  // namespace ts::ui
