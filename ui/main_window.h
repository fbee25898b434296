// The studio's main window: a sidebar of the five pages driving a stack, the menus, a status
// bar with the compute device, and window geometry + last page kept in StudioSettings.
#pragma once

#include <QMainWindow>

#include "pages.h"

class QActionGroup;
class QDockWidget;
class QToolButton;
class QLabel;
class QMenu;
class QListWidget;
class QStackedWidget;

namespace ts::ui {

class DocumentActions;
class ExperimentDocument;
class JobsPanel;
class TrainingSession;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);  // restores geometry and page (StudioSettings)

    Page currentPage() const;
    ExperimentDocument* document() const { return m_document; }
    DocumentActions* documentActions() const { return m_documentActions; }
    void setCurrentPage(Page page);

    // First-start size: roomy, yet never larger than the screen it opens on.
    static QSize defaultSize();

public slots:
    void showAbout();

signals:
    void currentPageChanged(ts::ui::Page page);

protected:
    void closeEvent(QCloseEvent* event) override;  // the one place settings are written
    void changeEvent(QEvent* event) override;      // a new language: the sidebar fits its titles

private:
    void connectExperimentPages();
    void openStartingExperiment();
    void updateTitle();
    void createMenus();
    void createJobsDock();
    // Closing with a job running: asks, then stops every job and closes once they have ended.
    void askToStopAndQuit();
    void createLanguageMenu(QMenu* menu);
    void fitSidebar();
    void restoreSettings();
    void saveSettings() const;
    void onRowChanged(int row);

    QListWidget* m_sidebar = nullptr;
    QStackedWidget* m_stack = nullptr;
    QActionGroup* m_pageActions = nullptr;
    QLabel* m_device = nullptr;
    TrainingSession* m_session = nullptr;  // the job queue: owned here, it outlives the pages
    ExperimentDocument* m_document = nullptr;  // the open experiment, every page's
    DocumentActions* m_documentActions = nullptr;
    JobsPanel* m_jobsPanel = nullptr;
    QDockWidget* m_jobsDock = nullptr;
    QToolButton* m_jobsButton = nullptr;  // status bar: "2 job(s): 1 running, 1 queued"
    bool m_jobsShownOnce = false;
    bool m_closeWhenIdle = false;  // the user chose "Stop and Quit"
};

}  // namespace ts::ui
