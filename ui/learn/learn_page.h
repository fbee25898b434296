// The Learn page: the lessons (engine/learn/lessons.h) in teaching order with the learner's
// progress, the selected lesson's text and goal, "Open the Starting Experiment" (loads the
// shipped file into the studio as File > Open does, through openExperimentRequested) and
// "Check My Runs": the lesson's check reads the workspace's runs on a worker thread (never the
// UI thread: it parses every run's experiment and plans memory), records the result as progress
// in the store and shows what it saw, in the user's language (engine Message ids).
//
// Progress is read from the store (store/lesson_progress.h) when the page is built and after
// every check, so another studio or a restart shows the same.
#pragma once

#include <QFutureWatcher>
#include <QWidget>

#include <string>
#include <vector>

#include "learn/lessons.h"
#include "store/lesson_progress.h"
#include "store/workspace.h"

class QLabel;
class QListWidget;
class QPushButton;
class QTextBrowser;

namespace ts::ui {

class LearnPage : public QWidget {
    Q_OBJECT
public:
    explicit LearnPage(const ts::Workspace& workspace, QWidget* parent = nullptr);
    ~LearnPage() override;  // waits for a check in flight (it holds no lock the UI needs)

    QListWidget* lessonList() const { return m_list; }
    void selectLesson(const std::string& lessonId);
    std::string currentLessonId() const;
    // The selected lesson's glossary ids (plain strings until the glossary links them).
    std::vector<std::string> currentGlossaryIds() const;
    bool checkRunning() const { return m_watcher.isRunning(); }
    // The result line shown under the buttons (plain text), empty before any check.
    QString resultText() const;

public slots:
    void openStartingExperiment();
    void checkMyRuns();

protected:
    void changeEvent(QEvent* event) override;  // a new language: the list and the lesson again

signals:
    // A shipped lesson experiment to open on the Train page.
    void openExperimentRequested(const QString& path);
    void checkFinished(bool passed);

private:
    void showLesson(int row);
    void refreshProgress();
    void showResult(const LessonResult& result);
    QString progressText(const LessonProgress* p) const;
    const LessonProgress* progressOf(const std::string& lessonId) const;

    ts::Workspace m_workspace;
    std::vector<LessonProgress> m_progress;
    QLabel* m_summary = nullptr;   // "2 of 9 lessons passed"
    QListWidget* m_list = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_goal = nullptr;
    QLabel* m_glossary = nullptr;  // links to the lesson's glossary entries
    QLabel* m_state = nullptr;     // started / passed, when
    QTextBrowser* m_body = nullptr;
    QPushButton* m_open = nullptr;
    QPushButton* m_check = nullptr;
    QLabel* m_result = nullptr;
    QFutureWatcher<LessonResult> m_watcher;
    std::string m_checking;        // the lesson whose check is in flight
};

}  // namespace ts::ui
