// The Learn page on a real workspace: every lesson listed with its text in English and in
// Chinese, "Open the Starting Experiment" loading the shipped file on the Train page of the
// main window (and marking the lesson started in the store), and "Check My Runs" off the UI
// thread: not yet on an empty workspace, passed after three real tiny runs with three seeds
// (4x4 IDX images, seconds), the progress kept in the store and shown again by a new page.
#include <QtTest>
#include <QtWidgets>

#include <filesystem>

#include "chinese_text.h"
#include "idx_files.h"
#include "io/yaml/experiment_yaml.h"
#include "jobs/job.h"
#include "learn/lessons.h"
#include "studio_suite.h"
#include "store/lesson_progress.h"
#include "train/run_control.h"
#include "ui/glossary/glossary.h"
#include "ui/glossary/glossary_browser.h"
#include "ui/learn/learn_page.h"
#include "ui/learn/lesson_texts.h"
#include "ui/main_window.h"
#include "ui/screenshot.h"
#include "ui/train/train_page.h"
#include "ui/translations.h"

using namespace ts;
using namespace ts::ui;

namespace {

QPushButton* button(LearnPage& page, const char* name) { return page.findChild<QPushButton*>(name); }

const LessonProgress* progressOf(const std::vector<LessonProgress>& all, const std::string& id)
{
    for (const LessonProgress& p : all)
        if (p.lessonId == id) return &p;
    return nullptr;
}

// Shown: every item's lines fit its width and no item overlaps the next (wrapped or stale
// item sizes do).
bool listFits(LearnPage& page)
{
    page.show();
    if (!QTest::qWaitForWindowExposed(&page)) return false;
    QListWidget* list = page.lessonList();
    for (int row = 0; row < list->count(); ++row) {
        const QRect r = list->visualItemRect(list->item(row));
        for (const QString& line : list->item(row)->text().split('\n'))
            if (list->fontMetrics().horizontalAdvance(line) + list->iconSize().width() > r.width()) {
                qWarning("cut: %s (%d px of %d)", qPrintable(line), list->fontMetrics().horizontalAdvance(line), r.width());
                return false;
            }
        if (row + 1 < list->count() && r.bottom() >= list->visualItemRect(list->item(row + 1)).top()) {
            qWarning("item %d overlaps the next", row);
            return false;
        }
    }
    return true;
}

}  // namespace

class TestLearnPage : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;

    Workspace workspace(const QString& name) const { return Workspace::open((tmp_.path() + "/" + name).toStdString()); }

private slots:
    void initTestCase() { QVERIFY(tmp_.isValid()); }

    void listsEveryLessonWithItsText()
    {
        LearnPage page(workspace("list"));
        QCOMPARE(page.lessonList()->count(), int(lessonCatalog().size()));
        QVERIFY(page.lessonList()->count() >= 8);
        for (const Lesson& lesson : lessonCatalog()) {
            page.selectLesson(lesson.id);
            QCOMPARE(page.currentLessonId(), lesson.id);
            QVERIFY(!page.currentGlossaryIds().empty());
            for (const std::string& id : page.currentGlossaryIds())  // each names a real entry, shown as a link
                QVERIFY2(Glossary::studio().entry(QString::fromStdString(id)), (lesson.id + ": " + id).c_str());
            const auto* links = page.findChild<QLabel*>("lessonGlossary");
            QCOMPARE(links->text().count(QStringLiteral("<a href=")), int(page.currentGlossaryIds().size()));
            QCOMPARE(page.findChild<QLabel*>("lessonTitle")->text(), LessonTexts::title(lesson.id));
            QVERIFY(LessonTexts::title(lesson.id) != QString::fromStdString(lesson.id));  // a real title
            QVERIFY(!LessonTexts::goal(lesson.id).isEmpty());
            const QString text = page.findChild<QTextBrowser*>("lessonText")->toPlainText();
            QVERIFY2(text.size() > 200 && !hasChinese(text), lesson.id.c_str());
            QVERIFY(page.lessonList()->currentItem()->text().contains("Not started"));
        }
        QCOMPARE(page.findChild<QLabel*>("learnSummary")->text(), QString("Lessons passed: 0 of %1").arg(lessonCatalog().size()));
    }

    void aGlossaryLinkOpensItsEntry()
    {
        LearnPage page(workspace("links"));
        page.selectLesson("find_learning_rate");
        auto* links = page.findChild<QLabel*>("lessonGlossary");
        QVERIFY(links->text().contains(QStringLiteral("href=\"lr_finder\"")));
        emit links->linkActivated(QStringLiteral("lr_finder"));
        auto* browser = page.findChild<GlossaryBrowser*>(QStringLiteral("glossaryBrowser"));
        QVERIFY(browser);
        QCOMPARE(browser->currentEntry(), QStringLiteral("lr_finder"));
    }

    void chineseText()
    {
        const QLocale before;
        const QList<QTranslator*> translators = Translations::install("zh_CN", this);
        const auto restore = qScopeGuard([&] {
            Translations::uninstall(translators);
            QLocale::setDefault(before);
        });
        QCOMPARE(LessonTexts::language(), QString("zh_CN"));
        LearnPage page(workspace("chinese"));
        for (const Lesson& lesson : lessonCatalog()) {
            page.selectLesson(lesson.id);
            const QString text = page.findChild<QTextBrowser*>("lessonText")->toPlainText();
            QVERIFY2(hasChinese(text), lesson.id.c_str());
        }
        page.resize(1280, 800);
        QVERIFY(listFits(page));
        QDir().mkpath(TS_SCREENSHOT_DIR);
        const QString shot = Screenshot::save(&page, QStringLiteral(TS_SCREENSHOT_DIR "/learn_page_zh_CN.png"));
        QVERIFY2(shot.isEmpty(), qPrintable(shot));
    }

    void openLoadsTheStartingExperiment()
    {
        MainWindow w;
        auto* page = w.findChild<LearnPage*>("page_learn");
        auto* train = w.findChild<TrainPage*>();
        QVERIFY(page && train);
        w.setCurrentPage(Page::Learn);
        page->selectLesson("overfit_one_batch");
        QTest::mouseClick(button(*page, "openLessonExperiment"), Qt::LeftButton);
        QCOMPARE(w.currentPage(), Page::Train);
        const auto spec = train->experimentForRun();
        QVERIFY(spec);
        QCOMPARE(QString::fromStdString(spec->name), QString("lesson_overfit_one_batch"));
        QCOMPARE(spec->training.overfitBatches, std::int64_t(1));
        // Started, in the store of the studio's workspace.
        const Workspace ws{Workspace::defaultDirectory()};
        const LessonProgress* p = progressOf(readLessonProgress(ws), "overfit_one_batch");
        QVERIFY(p && p->started > 0 && p->passed == 0);
        QVERIFY(page->lessonList()->currentItem()->text().contains("Started"));
    }

    void checkSaysNotYetThenPassed()
    {
        const Workspace ws = workspace("check");
        {
            LearnPage page(ws);
            page.selectLesson("compare_three_seeds");
            QSignalSpy done(&page, &LearnPage::checkFinished);
            QTest::mouseClick(button(page, "checkLesson"), Qt::LeftButton);
            QVERIFY(done.wait(30000));
            QCOMPARE(done.at(0).at(0).toBool(), false);
            QVERIFY2(page.resultText().startsWith("Not yet No finished run of lesson_compare_three_seeds"), qPrintable(page.resultText()));
            const LessonProgress* p = progressOf(readLessonProgress(ws), "compare_three_seeds");
            QVERIFY(p && p->checked > 0 && !p->lastPassed && p->passed == 0);
        }
        // Three real runs of the lesson's experiment with seeds 0, 1, 2, on tiny data.
        const std::string data = (tmp_.path() + "/data").toStdString();
        std::filesystem::create_directories(data);
        test::writeIdxPair(data, "train", 120, 1, 20);
        test::writeIdxPair(data, "t10k", 30, 2, 20);
        ExperimentSpec spec = loadExperiment(lessonExperimentPath(*findLesson("compare_three_seeds")).string());
        spec.dataset.path = data;
        spec.dataset.numWorkers = 1;
        spec.model.inputs = {{"image", Shape{1, 4, 4}}, {"label", Shape{}, DType::I64}};
        spec.training.device = "cpu";
        spec.training.epochs = 1;
        spec.training.batchSize = 16;
        struct Quiet : TrainListener {
            void onEvent(const TrainEvent&) override {}
        } quiet;
        JobEnvironment env;
        env.workspaceDir = ws.directory;
        env.systemSampleSeconds = 0;
        for (std::uint64_t seed : {0, 1, 2}) {
            TrainJob job;
            job.experiment = spec;
            job.experiment->training.seed = seed;
            RunControl control;
            QCOMPARE(int(runJob(job, env, control, quiet).finished.outcome), int(FinishedEvent::Outcome::Finished));
        }
        {
            LearnPage page(ws);
            page.selectLesson("compare_three_seeds");
            QVERIFY(page.resultText().startsWith("Not yet"));  // the stored result until checked again
            QSignalSpy done(&page, &LearnPage::checkFinished);
            QTest::mouseClick(button(page, "checkLesson"), Qt::LeftButton);
            QVERIFY(!button(page, "checkLesson")->isEnabled());  // one check at a time, off the UI thread
            QVERIFY(done.wait(30000));
            QCOMPARE(done.at(0).at(0).toBool(), true);
            QVERIFY(button(page, "checkLesson")->isEnabled());
            QVERIFY2(page.resultText().startsWith("Passed 3 seeds (0, 1, 2): val_acc "), qPrintable(page.resultText()));
            QVERIFY(page.resultText().contains(QString::fromUtf8("±")));
            QVERIFY(page.lessonList()->currentItem()->text().contains("Passed"));
            QVERIFY(!page.lessonList()->currentItem()->icon().isNull());
            QCOMPARE(page.findChild<QLabel*>("learnSummary")->text(), QString("Lessons passed: 1 of %1").arg(lessonCatalog().size()));
            page.resize(1280, 800);
            QVERIFY(listFits(page));
            QDir().mkpath(TS_SCREENSHOT_DIR);
            const QString shot = Screenshot::save(&page, QStringLiteral(TS_SCREENSHOT_DIR "/learn_page_en.png"));
            QVERIFY2(shot.isEmpty(), qPrintable(shot));
        }
        // A new page (a restart) reads the progress and the last result from the store.
        LearnPage again(ws);
        again.selectLesson("compare_three_seeds");
        QVERIFY(again.lessonList()->currentItem()->text().contains("Passed"));
        QVERIFY(again.resultText().startsWith("Passed 3 seeds"));
    }
};

int main(int argc, char** argv) { return runStudioSuite<TestLearnPage>(argc, argv); }

#include "tst_learn_page.moc"
