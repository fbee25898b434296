// The Runs page: every run of the workspace (including runs the CLI is training right now)
// in a sortable table, and the selected run's fields, notes, charts, checkpoints and log below.
//
// Reading: one read-only RunReader on the UI thread (WAL: it never blocks a writer). A ~1 s
// timer polls RunReader::dataVersion(), a single cheap PRAGMA, and re-reads the list and the
// selected run only when some connection committed; the poll runs only while the page is shown.
// The list (10,000 runs in well under a second) and a run's fields are read here; chart points,
// which a long run has millions of, are read on worker threads by RunDetails' charts and the
// comparison (BackgroundReader), so selecting a run never stalls the page.
// Writing: rename, notes and delete go through a RunWriter that the page opens on its
// workspace the first time the user edits something. A page that only looks never opens one,
// so it never holds a write connection or marks other processes' runs as crashed.
// Resuming and evaluating are not this page's job: it emits resumeRequested() and
// evaluateRequested() for the studio's job queue to act on.
// Store errors (locked, not a TrainStudio database, newer schema) appear in a banner.
#pragma once

#include <QTimer>
#include <QWidget>

#include <memory>

#include "store/run_reader.h"
#include "store/run_writer.h"

class QAction;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QSplitter;
class QStackedWidget;
class QTableView;

namespace ts::ui {

class RunComparison;
class RunDetails;
class RunsModel;
class RunsProxyModel;

class RunsPage : public QWidget {
    Q_OBJECT
public:
    // Column widths and splitters, into StudioSettings; the main window calls it on close (its
    // one place for settings), so a headless screenshot leaves none behind.
    void saveViewState() const;
    explicit RunsPage(const ts::Workspace& workspace, QWidget* parent = nullptr);
    ~RunsPage() override;  // saves the view state (columns, sort order, splitters)

    const ts::Workspace& workspace() const { return m_workspace; }
    RunsModel* model() const { return m_model; }
    QSortFilterProxyModel* proxyModel() const;  // a RunsProxyModel
    QTableView* view() const { return m_view; }
    // Shows only the runs whose id, name, experiment, status, device or a tag contains the
    // text (any case); empty shows all.
    QLineEdit* filterBox() const { return m_filter; }
    RunDetails* details() const { return m_details; }
    // The banner's text; empty while it is hidden.
    QString bannerText() const;
    void setPollInterval(int milliseconds) { m_poll.setInterval(milliseconds); }

    qint64 selectedRunId() const;  // the one selected run; -1: none, or several
    QList<qint64> selectedRunIds() const;  // by id
    void selectRun(qint64 runId);
    void selectRuns(const QList<qint64>& runIds);  // two or more: the comparison shows
    RunComparison* comparison() const { return m_comparison; }

    // Rename (F2), Delete (Del), Resume from last checkpoint, Refresh (F5): for menus and toolbars.
    QList<QAction*> runActions() const;

public slots:
    void refresh();             // re-reads the list and the selected run now
    void renameSelectedRun();   // edits the name in place in the table
    void deleteSelectedRun();   // asks first (window-modal, non-blocking), then deleteRun()
    void resumeSelectedRun();   // checks a checkpoint exists, then resumeRequested()
    void evaluateSelectedRun(); // checks a checkpoint exists, then evaluateRequested()
    void exportSelectedRun();   // checks a checkpoint exists, then the ONNX export dialog
    // Widen the selection to a sweep: every listed run of the selected run's experiment, or
    // every listed run sharing one of its tags (the comparison shows them).
    void selectSameExperiment();
    void selectSharingTag();

    // The writes, without questions. False, with the reason in the banner, on failure.
    bool renameRun(qint64 runId, const QString& name);
    bool saveNotes(qint64 runId, const QString& notes);
    bool deleteRun(qint64 runId);

signals:
    // "Resume run `runId` from its last checkpoint": the Train page starts it.
    void resumeRequested(qint64 runId);
    // Evaluate the run's best checkpoint (or its last) on its held-out split: an evaluate job.
    void evaluateRequested(qint64 runId);

protected:
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;  // a new language: the table's texts again

private:
    void createActions();
    void poll();
    void reread();  // refresh() without dismissing an edit's error: what the writes call
    void reload();  // the list and the selected run, from the open reader
    bool ensureReader();
    ts::RunWriter* writer();  // opened on first use; nullptr (and the banner) when that fails
    void readFailed(const std::exception& error);
    void updateDetails();
    void updateActions();
    // What the banner says: the empty state, or an error. A read error lasts until a read
    // succeeds; a failed edit until the next edit succeeds or the user refreshes.
    enum class Banner { None, NoRuns, ReadError, WriteError };
    void setBanner(Banner kind, const QString& text = {});
    void restoreViewState();

    ts::Workspace m_workspace;
    std::unique_ptr<ts::RunReader> m_reader;
    std::unique_ptr<ts::RunWriter> m_writer;
    qint64 m_dataVersion = -1;  // of the last reload; -1 forces one
    QTimer m_poll;

    RunsModel* m_model = nullptr;
    RunsProxyModel* m_proxy = nullptr;
    QTableView* m_view = nullptr;
    RunDetails* m_details = nullptr;
    QSplitter* m_splitter = nullptr;
    QLabel* m_banner = nullptr;
    QLineEdit* m_filter = nullptr;
    Banner m_bannerKind = Banner::None;
    bool m_fitColumns = false;  // no saved column widths yet: fit them to the first runs listed

    QAction* m_renameAction = nullptr;
    QAction* m_deleteAction = nullptr;
    QAction* m_resumeAction = nullptr;
    QAction* m_evaluateAction = nullptr;
    QAction* m_exportAction = nullptr;
    QAction* m_sameExperimentAction = nullptr;
    QAction* m_sharingTagAction = nullptr;
    QAction* m_refreshAction = nullptr;
    RunComparison* m_comparison = nullptr;
    QStackedWidget* m_detailsStack = nullptr;
    bool m_shown = false;  // laid out at least once: its view state is worth saving
};

}  // namespace ts::ui
