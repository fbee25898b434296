// The Hyperparameters page in the real main window: it shows the Train page's experiment,
// edits made on either page reach the other, edits undo, Save As writes a file that loads
// back the same, and the learning-rate finder runs its seeds as jobs on the studio's queue,
// draws their band and applies a rate. The tabular example trains in seconds on the CPU.
#include <QCheckBox>
#include <QtTest>

#include "typing.h"
#include <QtWidgets>

#include "io/yaml/experiment_yaml.h"
#include "io/yaml/shipped_experiments.h"
#include "range_test_chart.h"
#include <qcustomplot.h>
#include "scratch_home.h"
#include "ui/hyperparameters/hyperparameters_page.h"
#include "ui/hyperparameters/lr_finder_panel.h"
#include "ui/hyperparameters/option_editor.h"
#include "ui/hyperparameters/schedule_preview_chart.h"
#include "ui/hyperparameters/sweep_panel.h"
#include "store/run_reader.h"
#include "ui/studio_workspace.h"
#include "ui/train/training_session.h"
#include "ui/main_window.h"
#include "ui/train/train_page.h"

using namespace ts;
using namespace ts::ui;

namespace {

QString tabularFile() { return QString::fromStdString((shippedExperimentsDirectory() / "tabular_example.yaml").string()); }

}  // namespace

class TestHyperparametersPage : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> window_;
    TrainPage* train_ = nullptr;
    HyperparametersPage* page_ = nullptr;

private slots:
    void init()
    {
        window_ = std::make_unique<MainWindow>();
        window_->resize(1500, 950);
        window_->show();
        train_ = window_->findChild<TrainPage*>();
        page_ = window_->findChild<HyperparametersPage*>();
        QVERIFY(train_ && page_);
        QVERIFY(train_->openExperiment(tabularFile()));
        window_->setCurrentPage(Page::Hyperparameters);
    }
    void cleanup() { window_.reset(); }

    void showsTheTrainPagesExperimentAndEditsReachBothWays()
    {
        QVERIFY(page_->experiment().has_value());
        QCOMPARE(*page_->experiment(), *train_->experimentForRun());
        QCOMPARE(page_->experiment()->name, std::string("tabular_example"));
        QVERIFY(!page_->isModified());

        // Here -> Train: an option the Train page has no field for, and one it has.
        auto* decay = qobject_cast<QLineEdit*>(page_->editor()->field("optimizer.weight_decay"));
        QVERIFY(decay);
        typeReplacing(decay, "0.05");
        QCOMPARE(train_->experimentForRun()->optimizer.weightDecay, 0.05);
        auto* epochs = page_->editor()->field("training.epochs");
        QVERIFY(epochs);
        if (auto* spin = qobject_cast<QSpinBox*>(epochs)) {
            spin->setValue(7);
            QTest::keyClick(spin, Qt::Key_Return);
        } else {
            typeReplacing(qobject_cast<QLineEdit*>(epochs), "7");
        }
        QCOMPARE(train_->experimentForRun()->training.epochs, std::int64_t(7));
        QCOMPARE(train_->experimentForRun()->optimizer.weightDecay, 0.05);  // the earlier edit kept
        QVERIFY(page_->isModified());

        // Train -> here.
        const QList<QSpinBox*> spins = train_->findChildren<QSpinBox*>();
        QSpinBox* batch = nullptr;
        for (QSpinBox* s : spins)
            if (s->value() == 32) batch = s;  // the tabular example's batch size
        QVERIFY(batch);
        batch->setValue(48);
        QCOMPARE(page_->experiment()->training.batchSize, std::int64_t(48));
        QCOMPARE(qobject_cast<QSpinBox*>(page_->editor()->field("training.batch_size"))
                     ? qobject_cast<QSpinBox*>(page_->editor()->field("training.batch_size"))->value()
                     : qobject_cast<QLineEdit*>(page_->editor()->field("training.batch_size"))->text().toInt(),
                 48);
        QCOMPARE(page_->experiment()->optimizer.weightDecay, 0.05);
    }

    void editsUndoAndRedoOnBothPages()
    {
        auto* decay = qobject_cast<QLineEdit*>(page_->editor()->field("optimizer.weight_decay"));
        const double before = page_->experiment()->optimizer.weightDecay;
        const bool modifiedBefore = page_->isModified();  // the Train page's remembered edits count
        typeReplacing(decay, "0.02");
        typeReplacing(decay, "0.03");
        QCOMPARE(page_->undoStack()->count(), 2);
        page_->undoStack()->undo();
        QCOMPARE(page_->experiment()->optimizer.weightDecay, 0.02);
        QCOMPARE(train_->experimentForRun()->optimizer.weightDecay, 0.02);
        QCOMPARE(decay->text(), QString("0.02"));
        page_->undoStack()->undo();
        QCOMPARE(train_->experimentForRun()->optimizer.weightDecay, before);
        QCOMPARE(page_->isModified(), modifiedBefore);
        page_->undoStack()->redo();
        QCOMPARE(train_->experimentForRun()->optimizer.weightDecay, 0.02);
        // The page's Ctrl+Z action is the undo (a focused line edit keeps Ctrl+Z for its text).
        QAction* undo = nullptr;
        for (QAction* a : page_->actions())
            if (a->shortcut() == QKeySequence(QKeySequence::Undo)) undo = a;
        QVERIFY(undo && undo->isEnabled());
        undo->trigger();
        QCOMPARE(train_->experimentForRun()->optimizer.weightDecay, before);
    }

    void saveAsWritesAFileThatLoadsBackTheSame()
    {
        typeReplacing(qobject_cast<QLineEdit*>(page_->editor()->field("optimizer.weight_decay")), "0.04");
        QTemporaryDir dir;
        const QString file = dir.filePath("edited.yaml");
        QVERIFY(page_->saveAs(file));
        QVERIFY(!page_->isModified());
        ExperimentSpec loaded = loadExperiment(file.toStdString());
        ExperimentSpec shown = *page_->experiment();
        QCOMPARE(loaded.optimizer.weightDecay, 0.04);
        QCOMPARE(QString::fromStdString(shown.sourceFile), file);
        QCOMPARE(loaded, shown);
        // A file that cannot be written: the reason, nothing lost.
        QVERIFY(!page_->saveAs("/proc/no/such/dir/x.yaml"));
        QCOMPARE(page_->experiment()->optimizer.weightDecay, 0.04);
    }

    // The sweep editor: the example reads as a 4 x 4 grid with halving and becomes the
    // experiment's (both pages); a bad value is placed at its line and column of this text;
    // a small sweep runs as one job whose trials are runs of the workspace tagged with it.
    void sweepIsCheckedAsTypedAndRunsAsOneJob()
    {
        SweepPanel* sweep = page_->sweep();
        QVERIFY(!page_->experiment()->sweep);
        auto* example = sweep->findChild<QPushButton*>();
        for (QPushButton* b : sweep->findChildren<QPushButton*>())
            if (b->text() == "Insert Example") example = b;
        QTest::mouseClick(example, Qt::LeftButton);
        QVERIFY2(sweep->problems().isEmpty(), qPrintable(sweep->problems()));
        QVERIFY(page_->experiment()->sweep.has_value());
        QCOMPARE(page_->experiment()->sweep->parameters.size(), std::size_t(2));
        QVERIFY(train_->experimentForRun()->sweep.has_value());
        QVERIFY(sweep->findChildren<QLabel*>().size() >= 2);
        bool planShown = false;
        for (QLabel* l : sweep->findChildren<QLabel*>()) planShown |= l->text().startsWith("16 trial");
        QVERIFY(planShown);

        // eta 1 on the example's last line (7), its value at column 33.
        QString text = sweep->editor()->toPlainText();
        text.replace("eta: 3", "eta: 1");
        sweep->editor()->setPlainText(text);
        sweep->checkNow();
        QVERIFY2(sweep->problems().startsWith("line 7, column 33: "), qPrintable(sweep->problems()));
        QCOMPARE(page_->experiment()->sweep->halving->eta, std::int64_t(3));  // the last good sweep stays

        // Two trials of two epochs each.
        sweep->editor()->setPlainText("sweep:\n  metric: val_acc\n  parameters:\n    optimizer.lr: {values: [1e-3, 3e-3]}\n");
        sweep->checkNow();
        QVERIFY2(sweep->problems().isEmpty(), qPrintable(sweep->problems()));
        auto* epochs = qobject_cast<QSpinBox*>(page_->editor()->field("training.epochs"));
        QVERIFY(epochs);
        epochs->setValue(2);
        QTest::keyClick(epochs, Qt::Key_Return);
        QCOMPARE(page_->experiment()->training.epochs, std::int64_t(2));
        auto* run = sweep->findChild<QPushButton*>("runSweep");
        QVERIFY2(run && run->isEnabled(), qPrintable(sweep->problems() + " | " + sweep->editor()->toPlainText()));
        QTest::mouseClick(run, Qt::LeftButton);
        const qint64 job = sweep->lastJob();
        QVERIFY(job > 0);
        TrainingSession* session = train_->session();
        auto done = [&] {
            for (const JobRow& r : session->jobs())
                if (r.id == job) return r.isDone();
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(done(), 120000);
        for (const JobRow& r : session->jobs())
            if (r.id == job) {
                QCOMPARE(r.kind, QString("sweep"));
                QVERIFY2(r.state == JobRow::State::Finished, qPrintable(r.message));
            }
        RunReader reader(studioWorkspace());
        int tagged = 0;
        for (const RunListing& run : reader.listRuns())
            for (const std::string& tag : run.run.tags) tagged += tag.rfind("sweep:", 0) == 0;
        QCOMPARE(tagged, 2);
    }

    // Two seeds of 40 steps on the studio's queue: live curves, then the band, the three
    // rules on the chart, and Apply writes the valley where this schedule takes it (one-cycle:
    // schedule.max_lr), on both pages.
    void finderRunsSeedsAsJobsAndAppliesTheValley()
    {
        LrFinderPanel* finder = page_->finder();
        finder->setSeeds(2);
        finder->setSteps(40);
        QSignalSpy done(finder, &LrFinderPanel::finished);
        auto* button = finder->findChild<QPushButton*>("findLearningRate");
        QVERIFY(button && button->isEnabled());
        QTest::mouseClick(button, Qt::LeftButton);
        QVERIFY(finder->isRunning());
        QVERIFY(done.wait(120000));
        QVERIFY(finder->result().has_value());
        const LrRangeBand& band = *finder->result();
        QCOMPARE(band.perCurve.size(), std::size_t(2));
        QVERIFY(!band.lrs.empty() && band.lrs.size() <= 40);
        for (std::size_t i = 0; i < band.lrs.size(); ++i) QVERIFY(band.low[i] <= band.mean[i] && band.mean[i] <= band.high[i]);
        QCOMPARE(finder->chart()->markCount(), 3);
        // The seeds' curves and the band's three graphs.
        QCOMPARE(finder->chart()->plot()->graphCount(), 2 + 3);

        // Applied by its own button, suggested or not, to 3 significant digits.
        const double valley = QString::number(band.suggestions.valley, 'g', 3).toDouble();
        QVERIFY(valley >= 1e-7 * 0.99 && valley <= 10);
        QPushButton* apply = nullptr;
        for (QPushButton* b : finder->findChildren<QPushButton*>())
            if (b->text().contains("valley")) apply = b;
        QVERIFY(apply && apply->isVisible());
        QTest::mouseClick(apply, Qt::LeftButton);
        QCOMPARE(page_->experiment()->schedule.maxLr, valley);
        QCOMPARE(train_->experimentForRun()->schedule.maxLr, valley);
        // The option editor shows it too, so a later edit there keeps it.
        QCOMPARE(qobject_cast<QLineEdit*>(page_->editor()->field("schedule.max_lr"))->text().toDouble(), valley);
        page_->undoStack()->undo();
        QCOMPARE(train_->experimentForRun()->schedule.maxLr, 0.01);

        // A schedule without a peak: Apply makes it one-cycle peaking at the rate (the range
        // test's pairing), or, unchecked, sets optimizer.lr and keeps the schedule.
        ExperimentSpec constant = *page_->experiment();
        constant.schedule = ScheduleSpec{};
        page_->setExperiment(constant);
        auto* asOneCycle = finder->findChild<QCheckBox*>("applyAsOneCycle");
        QVERIFY(asOneCycle && asOneCycle->isVisible() && asOneCycle->isChecked());
        QTest::mouseClick(apply, Qt::LeftButton);
        QCOMPARE(page_->experiment()->schedule.type, std::string("onecycle"));
        QCOMPARE(page_->experiment()->schedule.maxLr, valley);
        QCOMPARE(train_->experimentForRun()->schedule.type, std::string("onecycle"));
        page_->undoStack()->undo();
        QCOMPARE(page_->experiment()->schedule.type, std::string("constant"));
        asOneCycle->setChecked(false);
        QTest::mouseClick(apply, Qt::LeftButton);
        QCOMPARE(page_->experiment()->schedule.type, std::string("constant"));
        QCOMPARE(page_->experiment()->optimizer.lr, valley);
        page_->undoStack()->undo();

        const QString dir = QStringLiteral(TS_SCREENSHOT_DIR);
        QDir().mkpath(dir);
        QTest::qWait(200);  // the layouts the result's labels asked for
        window_->grab().save(dir + "/hyperparameters_page.png");
    }
};

int main(int argc, char** argv)
{
    QTemporaryDir home;
    if (!home.isValid()) return 1;
    useScratchHome(home.path());
    QApplication app(argc, argv);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    QCoreApplication::setOrganizationName("TrainStudio");
    QCoreApplication::setApplicationName("TrainStudio");
    TestHyperparametersPage test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_hyperparameters_page.moc"
