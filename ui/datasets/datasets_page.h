// The Datasets page (issue 14): open a dataset (the experiment's, File > Open Dataset…, or a
// folder or file dropped on the page: IDX, CIFAR-10 batches, CSV, image folders, through the
// engine's readers, on a worker thread with a busy indicator), look at every sample in a
// virtualised grid (filtered by split, class, a health finding's or a label check's list) or,
// for a CSV, at its columns and rows; one sample in detail; the statistics, split, augmentation
// and health panels beside it; and the datasets the workspace has seen (the store's catalog).
//
// The page edits the experiment's dataset settings (CSV columns here, split and augmentation
// and one-click fixes in the panels): each edit is sent out as experimentEdited, as the Model
// and Hyperparameters pages do. A dataset opened from elsewhere is only looked at until "Use
// in experiment" makes it the experiment's.
#pragma once

#include <QFutureWatcher>
#include <QVector>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "dataset_opener.h"
#include "sample_grid_model.h"
#include "store/dataset_catalog.h"
#include "store/workspace.h"
#include "types/experiment_spec.h"
#include "types/label_check.h"
#include "types/label_overlay.h"

class QAction;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QToolButton;

namespace ts::widgets {
class ImageGrid;
}

namespace ts::ui {

class AugmentationPreview;
class DatasetList;
class ExperimentDocument;
class HealthReportPanel;
class LabelCheckPanel;
struct SampleRef;
class TrainingSession;
class SampleDetail;
class SplitPreview;
class StatisticsPanel;
class TableColumnsModel;
class TextPanels;
class TextSampleModel;
class TableRowsModel;
class ThumbnailLoader;

class DatasetsPage : public QWidget {
    Q_OBJECT
public:
    // `session` (may be null: no health check can be started) is the studio's job queue.
    explicit DatasetsPage(const ts::Workspace& workspace, TrainingSession* session = nullptr, QWidget* parent = nullptr);
    ~DatasetsPage() override;

    // The open experiment this page shows and edits: its changes come in through setExperiment,
    // and the page's edits go to it as undoable steps.
    void setDocument(ExperimentDocument* document);

    // The experiment in use (the Train page's): its dataset is opened unless it is the one shown.
    void setExperiment(const ts::ExperimentSpec& spec);
    const std::optional<ts::ExperimentSpec>& experiment() const { return m_experiment; }

    // A folder or file the user chose, in `format` (empty: guessed from the names in it). A
    // later pick in the Format box reopens this path in that format.
    void openPath(const QString& path, const QString& format = {});
    // A dataset the user did not pick as a path (the experiment's, a seen one): the Format box
    // then applies to the next path chosen, not to it.
    void openSpec(const ts::DatasetSpec& spec, const QString& baseDir);
    // The Format box's choice: the chosen path reopened in `format` (empty: detect), the dataset
    // shown kept on screen when that fails; with no chosen path, the format of the next one.
    void applyFormat(const QString& format);
    void showOpenDialog();        // File > Open Dataset…: a file, or a folder (DatasetOpenDialog)
    void showOpenFolderDialog();  // File > Open Dataset Folder…
    bool isOpening() const;
    const OpenedDataset& opened() const { return m_opened; }
    // Whether the dataset shown is the experiment's (its edits then go to the experiment).
    bool showsExperimentDataset() const;

    // What the grid lists (D's panels call these: a histogram bar, a finding's samples).
    void setFilter(const SampleFilter& filter);
    void showSamples(const QString& title, std::vector<GridSample> samples);
    void showClass(const QString& split, int classIndex);
    // A health finding's samples (pairs side by side), as the health report hands them over.
    void showSampleRefs(const QString& title, const QVector<SampleRef>& refs);  // "train" / "validation" / "test" / "files" / "all"

    // Dataset settings edited elsewhere on the page (split, augmentation, a one-click fix):
    // shown, reopened when they choose other samples, and written to the experiment.
    void applyDatasetEdit(const ts::DatasetSpec& edited);
    // Makes the dataset shown the experiment's dataset.
    void useInExperiment();
    // The experiment for a new model of this dataset (a template for its shape and classes).
    std::optional<ts::ExperimentSpec> experimentForNewModel() const;

    // Suspect labels: the newest label check of the dataset from the store, or given scores
    // (a label check's rank order); listed in the grid with their verdicts.
    void loadSuspectLabels();
    void showSuspects(const QString& title, const std::vector<ts::LabelScore>& scores);
    // Marks for the selected samples (the label overlay in the store; the files stay as they are).
    void relabelSelected(std::int64_t label);
    void excludeSelected();
    void clearSelectedMarks();
    const ts::LabelOverlay& overlay() const { return m_overlay; }
    bool isStoreBusy() const;  // a store read or write is under way (tests)

    SampleGridModel* gridModel() const { return m_model; }
    ThumbnailLoader* thumbnails() const { return m_thumbnails; }
    widgets::ImageGrid* grid() const { return m_grid; }
    SampleDetail* detail() const { return m_detail; }
    TableColumnsModel* columnsModel() const { return m_columns; }
    TableRowsModel* rowsModel() const { return m_rows; }
    QTableView* columnsView() const { return m_columnsView; }
    DatasetList* datasetList() const { return m_list; }
    StatisticsPanel* statistics() const { return m_statistics; }
    SplitPreview* splitPreview() const { return m_split; }
    AugmentationPreview* augmentation() const { return m_augmentation; }
    HealthReportPanel* health() const { return m_health; }
    LabelCheckPanel* labelCheck() const { return m_labelCheck; }
    // Text data (formats text, text_folder): the samples as a list of texts instead of the grid,
    // and the Tokens, Lengths and Vocabulary tabs.
    TextPanels* textPanels() const { return m_text; }
    TextSampleModel* textModel() const { return m_textModel; }
    QTableView* textList() const { return m_textList; }
    QTabWidget* sidePanels() const { return m_tabs; }
    QString message() const;  // the error (and what to do) or the status line, as shown
    QAction* openAction() const { return m_openAction; }
    QAction* openFolderAction() const { return m_openFolderAction; }
    QAction* newModelAction() const { return m_newModel; }

signals:
    // An edit of the experiment made here, and what it did (the undo step's text).
    void experimentEdited(const ts::ExperimentSpec& spec, const QString& what);
    void newModelRequested(const ts::ExperimentSpec& spec);
    void datasetOpened();  // an opening finished (opened().ok() says how)

protected:
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    QString openedSummary() const;  // "Fashion-MNIST: 60,000 training samples, …"
    struct StoreResult {
        std::optional<std::vector<ts::DatasetRecord>> records;  // set when read
        std::optional<ts::LabelOverlay> overlay;  // set when read
        std::optional<std::vector<ts::LabelScore>> suspects;
        QString suspectsTitle;
        QString error;
    };
    void buildUi();
    QWidget* buildToolbar();
    QWidget* buildTableView();
    QWidget* buildLabelsTab();
    void onOpened();
    void startOpening(const ts::DatasetSpec& spec, const QString& baseDir);
    void openChosen(const QString& path);  // from the open dialogs or a drop: the pending format, else detected
    void showFormatOf(const ts::DatasetSpec& spec);
    void showOpened();
    void setMessage(const QString& text, bool error);
    void fillSplitAndClassFilters();
    void filterFromControls();
    void updateGridTitle();
    void showDetailOf(const QModelIndex& index);
    void showTextDetailOf(const QModelIndex& index);
    void showTextPanels();  // the list and tabs for text data, or those for images and tables
    void fitPanelsToTabs(bool growOnly);
    void onColumnChoice();
    void updatePanels();
    void updateActions();
    ts::DatasetSpec experimentDatasetSpecFor(const ts::DatasetSpec& shown) const;
    // The experiment with the dataset shown (itself when it is the experiment's dataset).
    ts::ExperimentSpec experimentWithShownDataset() const;
    void emitExperiment(const QString& what);
    void runStore(std::function<StoreResult(const ts::Workspace&)> work);
    void startNextStore();
    void onStoreDone();
    void applyOverlay();
    void showMarked();
    std::vector<GridSample> selectedSamples() const;
    void writeMarks(const std::vector<ts::LabelMark>& marks, bool clear);

    ts::Workspace m_workspace;
    std::optional<ts::ExperimentSpec> m_experiment;
    OpenedDataset m_opened;
    QString m_openingPath;  // the path of the opening under way, or last done (for the messages)
    QString m_chosenPath;   // the path the user chose (the Format box reopens it); empty for the experiment's dataset
    QString m_nextFormat;   // picked in the Format box with no path chosen: for the next one
    bool m_keepShownOnError = false;  // a format change: a failure leaves the dataset shown as it is
    QFutureWatcher<OpenedDataset> m_opener;
    int m_openGeneration = 0;
    QFutureWatcher<StoreResult> m_store;
    std::vector<std::function<StoreResult(const ts::Workspace&)>> m_storeQueue;  // one store task at a time
    ts::LabelOverlay m_overlay;
    std::unordered_map<std::int64_t, SampleMark> m_verdicts;  // the suspect list's, by training index
    bool m_opening = false;
    bool m_sized = false;  // the splitter was given its first sizes
    bool m_storeRunning = false;

    ThumbnailLoader* m_thumbnails;
    SampleGridModel* m_model;
    TableColumnsModel* m_columns;
    TableRowsModel* m_rows;

    QLabel* m_message = nullptr;
    QProgressBar* m_busy = nullptr;
    QComboBox* m_format = nullptr;
    QComboBox* m_splitFilter = nullptr;
    QComboBox* m_classFilter = nullptr;
    QPushButton* m_showAll = nullptr;
    QToolButton* m_openButton = nullptr;
    QPushButton* m_useButton = nullptr;
    QPushButton* m_newModelButton = nullptr;
    QAction* m_openAction = nullptr;
    QAction* m_openFolderAction = nullptr;
    QAction* m_newModel = nullptr;
    QSplitter* m_splitter = nullptr;
    DatasetList* m_list = nullptr;
    QStackedWidget* m_center = nullptr;
    QLabel* m_empty = nullptr;
    widgets::ImageGrid* m_grid = nullptr;
    QComboBox* m_labelColumn = nullptr;
    QComboBox* m_groupColumn = nullptr;
    QLabel* m_labelColumnLabel = nullptr;
    QLabel* m_groupColumnLabel = nullptr;
    QTableView* m_columnsView = nullptr;
    QTableView* m_rowsView = nullptr;
    QTabWidget* m_tabs = nullptr;
    SampleDetail* m_detail = nullptr;
    StatisticsPanel* m_statistics = nullptr;
    SplitPreview* m_split = nullptr;
    AugmentationPreview* m_augmentation = nullptr;
    HealthReportPanel* m_health = nullptr;
    LabelCheckPanel* m_labelCheck = nullptr;
    TextPanels* m_text = nullptr;
    TextSampleModel* m_textModel = nullptr;
    QTableView* m_textList = nullptr;
    QWidget* m_labelsTab = nullptr;
    QLabel* m_labelsSummary = nullptr;
    QPushButton* m_loadSuspects = nullptr;
    QToolButton* m_relabel = nullptr;
    QPushButton* m_exclude = nullptr;
    QPushButton* m_clearMark = nullptr;
    QPushButton* m_showMarked = nullptr;
};

}  // namespace ts::ui
