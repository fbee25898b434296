// The Hyperparameters page in the real main window: it shows the Train page's experiment,
// edits made on either page reach the other, edits undo, Save As writes a file that loads
// back the same, and the learning-rate finder runs its seeds as jobs on the studio's queue,
// draws their band and applies a rate. The tabular example trains in seconds on the CPU.
#include <QtTest>
#include <QtWidgets>

#include "io/experiment_yaml.h"
#include "io/shipped_experiments.h"
#include "range_test_chart.h"
#include <qcustomplot.h>
#include "scratch_home.h"
#include "ui/hyperparameters/hyperparameters_page.h"
#include "ui/hyperparameters/lr_finder_panel.h"
#include "ui/hyperparameters/option_editor.h"
#include "ui/hyperparameters/schedule_preview_chart.h"
#include "ui/main_window.h"
#include "ui/train/train_page.h"

using namespace ts;
using namespace ts::ui;

namespace {

void type(QLineEdit* edit, const QString& text)
{
    edit->setFocus();
    edit->selectAll();
    QTest::keyClick(edit, Qt::Key_Backspace);
    QTest::keyClicks(edit, text);
    QTest::keyClick(edit, Qt::Key_Return);
}

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
        type(decay, "0.05");
        QCOMPARE(train_->experimentForRun()->optimizer.weightDecay, 0.05);
        auto* epochs = page_->editor()->field("training.epochs");
        QVERIFY(epochs);
        if (auto* spin = qobject_cast<QSpinBox*>(epochs)) {
            spin->setValue(7);
            QTest::keyClick(spin, Qt::Key_Return);
        } else {
            type(qobject_cast<QLineEdit*>(epochs), "7");
        }
        QCOMPARE(train_->experimentForRun()->training.epochs, std::int64_t(7));
        QCOMPARE(train_->experimentForRun()->optimizer.weightDecay, 0.05);  // the earlier edit kept
        QVERIFY(page_->isModified());

        // Train -> here.
        auto* lr = train_->findChild<QDoubleSpinBox*>(QString(), Qt::FindChildrenRecursively);
        QVERIFY(lr);
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
        type(decay, "0.02");
        type(decay, "0.03");
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
        type(qobject_cast<QLineEdit*>(page_->editor()->field("optimizer.weight_decay")), "0.04");
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

        const double valley = band.suggestions.valley;  // applied by its own button, suggested or not
        QVERIFY(valley >= 1e-7 && valley <= 10);
        QPushButton* apply = nullptr;
        for (QPushButton* b : finder->findChildren<QPushButton*>())
            if (b->text().contains("valley")) apply = b;
        QVERIFY(apply && apply->isVisible());
        QTest::mouseClick(apply, Qt::LeftButton);
        QCOMPARE(page_->experiment()->schedule.maxLr, valley);
        QCOMPARE(train_->experimentForRun()->schedule.maxLr, valley);
        page_->undoStack()->undo();
        QCOMPARE(train_->experimentForRun()->schedule.maxLr, 0.01);

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
