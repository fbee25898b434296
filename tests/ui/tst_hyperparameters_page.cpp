// The Hyperparameters page in the real main window: it shows the open experiment (the window's
// ExperimentDocument, as the Train page does), edits made on either page reach the other, each
// edit is one step of the document's undo history, saving writes a file that loads back the
// same and changes only the edited line, and the learning-rate finder runs its seeds as jobs on
// the studio's queue, draws their band and applies a rate, saying first what else Apply would
// replace. The tabular example (a copy: the shipped file is never written) trains in seconds.
#include <QCheckBox>
#include <QtTest>

#include "typing.h"
#include <QtWidgets>

#include "io/yaml/experiment_options.h"
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
#include "ui/experiment_document.h"
#include "ui/hyperparameters/option_help.h"
#include "ui/main_window.h"
#include "ui/train/train_page.h"

using namespace ts;
using namespace ts::ui;

namespace {

QString shippedFile(const QString& name) { return QString::fromStdString((shippedExperimentsDirectory() / name.toStdString()).string()); }

QByteArray contents(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class TestHyperparametersPage : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;  // a copy of the tabular example and its data, as a user's folder
    QByteArray shipped_;  // the shipped example as it was
    std::unique_ptr<MainWindow> window_;
    ExperimentDocument* doc_ = nullptr;
    TrainPage* train_ = nullptr;
    HyperparametersPage* page_ = nullptr;

    QString tabularFile() const { return dir_.filePath("tabular_example.yaml"); }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid() && QDir(dir_.path()).mkpath("data"));
        shipped_ = contents(shippedFile("tabular_example.yaml"));
        QVERIFY(!shipped_.isEmpty());
        for (const char* file : {"tabular_example.yaml", "data/wine_like.csv"})
            QVERIFY(QFile::copy(shippedFile(file), dir_.filePath(file)));
    }
    void init()
    {
        // Each case starts from the file as shipped.
        QFile::remove(tabularFile());
        QVERIFY(QFile::copy(shippedFile("tabular_example.yaml"), tabularFile()));
        QVERIFY(QFile::setPermissions(tabularFile(), QFile::ReadOwner | QFile::WriteOwner));
        window_ = std::make_unique<MainWindow>();
        window_->resize(1500, 950);
        window_->show();
        doc_ = window_->document();
        train_ = window_->findChild<TrainPage*>();
        page_ = window_->findChild<HyperparametersPage*>();
        QVERIFY(doc_ && train_ && page_);
        QString error;
        QVERIFY2(doc_->open(tabularFile(), &error), qPrintable(error));
        window_->setCurrentPage(Page::Hyperparameters);
    }
    void cleanup() { window_.reset(); }
    void cleanupTestCase() { QCOMPARE(contents(shippedFile("tabular_example.yaml")), shipped_); }

    void showsTheTrainPagesExperimentAndEditsReachBothWays()
    {
        QVERIFY(page_->editor()->experiment().has_value());
        QCOMPARE(*page_->editor()->experiment(), doc_->spec());
        QCOMPARE(*train_->experimentForRun(), doc_->spec());
        QCOMPARE(doc_->spec().name, std::string("tabular_example"));
        QVERIFY(!doc_->isModified());

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
        QVERIFY(doc_->isModified());

        // Train -> here.
        const QList<QSpinBox*> spins = train_->findChildren<QSpinBox*>();
        QSpinBox* batch = nullptr;
        for (QSpinBox* s : spins)
            if (s->value() == 32) batch = s;  // the tabular example's batch size
        QVERIFY(batch);
        batch->setValue(48);
        QCOMPARE(page_->editor()->experiment()->training.batchSize, std::int64_t(48));
        QCOMPARE(qobject_cast<QSpinBox*>(page_->editor()->field("training.batch_size"))
                     ? qobject_cast<QSpinBox*>(page_->editor()->field("training.batch_size"))->value()
                     : qobject_cast<QLineEdit*>(page_->editor()->field("training.batch_size"))->text().toInt(),
                 48);
        QCOMPARE(page_->editor()->experiment()->optimizer.weightDecay, 0.05);
        QCOMPARE(doc_->undoStack()->count(), 3);  // one step per edit, whichever page made it
    }

    // Each option edit is one step of the experiment's one history, named for what it did;
    // undone from the document's stack, the page's Undo button or Edit > Undo, it is undone on
    // both pages.
    void editsUndoAndRedoOnBothPages()
    {
        QUndoStack* history = doc_->undoStack();
        auto* decay = qobject_cast<QLineEdit*>(page_->editor()->field("optimizer.weight_decay"));
        const double before = doc_->spec().optimizer.weightDecay;
        typeReplacing(decay, "0.02");
        typeReplacing(decay, "0.03");
        QCOMPARE(history->count(), 2);
        QCOMPARE(history->undoText(), QString("Set %1 to 0.03").arg(optionLabel("optimizer.weight_decay")));
        history->undo();
        QCOMPARE(doc_->spec().optimizer.weightDecay, 0.02);
        QCOMPARE(train_->experimentForRun()->optimizer.weightDecay, 0.02);
        QCOMPARE(decay->text(), QString("0.02"));
        history->undo();
        QCOMPARE(train_->experimentForRun()->optimizer.weightDecay, before);
        QVERIFY(!doc_->isModified());
        history->redo();
        QCOMPARE(train_->experimentForRun()->optimizer.weightDecay, 0.02);
        QVERIFY(doc_->isModified());

        // The page's Undo button says what it undoes.
        QToolButton* undoButton = nullptr;
        for (QToolButton* b : page_->findChildren<QToolButton*>())
            if (b->text() == "Undo") undoButton = b;
        QVERIFY(undoButton && undoButton->isEnabled());
        QVERIFY2(undoButton->toolTip().contains("Set " + optionLabel("optimizer.weight_decay") + " to 0.02"), qPrintable(undoButton->toolTip()));
        QTest::mouseClick(undoButton, Qt::LeftButton);
        QCOMPARE(decay->text(), QString::number(before));
        QVERIFY(!undoButton->isEnabled());

        // Edit > Undo (Ctrl+Z) is the same history: a Train-page edit undone here.
        train_->findChild<QSpinBox*>("epochsSpin")->setValue(9);
        QCOMPARE(page_->editor()->experiment()->training.epochs, std::int64_t(9));
        QAction* undo = window_->findChild<QAction*>("actionUndo");
        QVERIFY(undo && undo->isEnabled());
        QCOMPARE(undo->shortcut(), QKeySequence(QKeySequence::Undo));
        undo->trigger();
        QCOMPARE(page_->editor()->experiment()->training.epochs, std::int64_t(60));
        QCOMPARE(train_->findChild<QSpinBox*>("epochsSpin")->value(), 60);
    }

    // File > Save after an edit on this page: the file loads back as shown and only the
    // edited line changed (comments, key order and spellings stay). Save As to another folder
    // writes a file that loads back the same; a folder that cannot be written loses nothing.
    void saveWritesOnlyTheEdit()
    {
        const QByteArray original = contents(tabularFile());
        typeReplacing(qobject_cast<QLineEdit*>(page_->editor()->field("optimizer.weight_decay")), "0.04");
        QString error;
        QVERIFY2(doc_->save(&error), qPrintable(error));
        QVERIFY(!doc_->isModified());
        const QList<QByteArray> before = original.split('\n'), after = contents(tabularFile()).split('\n');
        QCOMPARE(after.size(), before.size());
        QStringList changed;
        for (int i = 0; i < before.size(); ++i)
            if (before[i] != after[i]) changed << QString::fromUtf8(before[i]) + " -> " + QString::fromUtf8(after[i]);
        QCOMPARE(changed, QStringList{"optimizer: {type: adamw, lr: 0.003, weight_decay: 0.01} -> "
                                      "optimizer: {type: adamw, lr: 0.003, weight_decay: 0.04}"});
        ExperimentSpec reloaded = loadExperiment(tabularFile().toStdString());
        QCOMPARE(reloaded, doc_->spec());

        QTemporaryDir other;
        const QString file = other.filePath("edited.yaml");
        QVERIFY2(doc_->saveAs(file, &error), qPrintable(error));
        QCOMPARE(doc_->path(), file);
        ExperimentSpec loaded = loadExperiment(file.toStdString());
        const ExperimentSpec& shown = doc_->spec();
        QCOMPARE(loaded.optimizer.weightDecay, 0.04);
        QCOMPARE(QString::fromStdString(shown.sourceFile), file);
        QCOMPARE(loaded, shown);
        // A file that cannot be written: the reason, nothing lost.
        error.clear();
        QVERIFY(!doc_->saveAs("/proc/no/such/dir/x.yaml", &error));
        QVERIFY(!error.isEmpty());
        QCOMPARE(doc_->path(), file);
        QCOMPARE(doc_->spec().optimizer.weightDecay, 0.04);
    }

    // The sweep editor: the example reads as a 4 x 4 grid with halving and becomes the
    // experiment's (both pages); a bad value is placed at its line and column of this text;
    // a small sweep runs as one job whose trials are runs of the workspace tagged with it.
    // Weight decay's parameter groups, counted under its field: the tabular MLP's three weight
    // matrices (5x32, 32x32, 32x3) decay, their biases (32 + 32 + 3) do not; decay_all takes
    // all six; without weight decay there is nothing to say and decay_all is hidden.
    void weightDecayGroupsShowUnderItsField()
    {
        OptionEditor* editor = page_->editor();
        QCOMPARE(editor->note("optimizer.weight_decay"),
                 QString("weight decay 0.01 on 3 weight matrices and kernels (1,280 values); not on 3 bias, norm and "
                         "embedding tensors (67 values; optimizer.decay_all: true decays them too)"));
        auto* note = editor->findChild<QLabel*>("optionNote_optimizer.weight_decay");
        QVERIFY(note && note->isVisibleTo(editor));
        QVERIFY(editor->isShown("optimizer.decay_all"));
        doc_->edit(withOption(doc_->spec(), "optimizer.decay_all", "true"), "decay all");
        QCOMPARE(editor->note("optimizer.weight_decay"),
                 QString("weight decay 0.01 on all 6 parameter tensors (1,347 values), biases, norms and embeddings "
                         "included (optimizer.decay_all)"));
        doc_->edit(withOption(doc_->spec(), "optimizer.weight_decay", "0"), "no decay");
        QVERIFY(editor->note("optimizer.weight_decay").isEmpty() && !note->isVisibleTo(editor));
        QVERIFY(!editor->isShown("optimizer.decay_all"));
        doc_->undoStack()->undo();
        QVERIFY(note->isVisibleTo(editor));
    }

    void sweepIsCheckedAsTypedAndRunsAsOneJob()
    {
        SweepPanel* sweep = page_->sweep();
        QVERIFY(!doc_->spec().sweep);
        auto* example = sweep->findChild<QPushButton*>();
        for (QPushButton* b : sweep->findChildren<QPushButton*>())
            if (b->text() == "Insert Example") example = b;
        QTest::mouseClick(example, Qt::LeftButton);
        QVERIFY2(sweep->problems().isEmpty(), qPrintable(sweep->problems()));
        QVERIFY(doc_->spec().sweep.has_value());
        QCOMPARE(doc_->spec().sweep->parameters.size(), std::size_t(2));
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
        QCOMPARE(doc_->spec().sweep->halving->eta, std::int64_t(3));  // the last good sweep stays

        // Two trials of two epochs each.
        sweep->editor()->setPlainText("sweep:\n  metric: val_acc\n  parameters:\n    optimizer.lr: {values: [1e-3, 3e-3]}\n");
        sweep->checkNow();
        QVERIFY2(sweep->problems().isEmpty(), qPrintable(sweep->problems()));
        auto* epochs = qobject_cast<QSpinBox*>(page_->editor()->field("training.epochs"));
        QVERIFY(epochs);
        epochs->setValue(2);
        QTest::keyClick(epochs, Qt::Key_Return);
        QCOMPARE(doc_->spec().training.epochs, std::int64_t(2));
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
    // schedule.max_lr), on both pages, as one undo step saying what it did.
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
        QUndoStack* history = doc_->undoStack();
        QTest::mouseClick(apply, Qt::LeftButton);
        QCOMPARE(doc_->spec().schedule.maxLr, valley);
        QCOMPARE(train_->experimentForRun()->schedule.maxLr, valley);
        QCOMPARE(history->count(), 1);
        QCOMPARE(history->undoText(), QString("Apply finder: one-cycle peak %1, warm-up 0").arg(QString::number(valley, 'g', 3)));
        // The option editor shows it too, so a later edit there keeps it.
        QCOMPARE(qobject_cast<QLineEdit*>(page_->editor()->field("schedule.max_lr"))->text().toDouble(), valley);
        history->undo();
        QCOMPARE(train_->experimentForRun()->schedule.maxLr, 0.01);

        // A schedule without a peak (cosine, warming up for 100 steps): Apply sets optimizer.lr
        // and keeps the schedule, unless asked to make it one-cycle peaking at the rate (the
        // range test's pairing), which the panel says it replaces before Apply is pressed.
        ExperimentSpec cosine = doc_->spec();
        cosine.schedule = ScheduleSpec{};
        cosine.schedule.type = "cosine";
        cosine.schedule.warmupSteps = 100;
        cosine.schedule.warmupStartFactor = 0.1;
        cosine.schedule.minLr = 1e-5;
        doc_->edit(cosine, "Set schedule to cosine");
        auto* asOneCycle = finder->findChild<QCheckBox*>("applyAsOneCycle");
        auto* sideEffect = finder->findChild<QLabel*>("applySideEffect");
        QVERIFY(asOneCycle && sideEffect);
        QVERIFY(asOneCycle->isVisible() && !asOneCycle->isChecked());  // the rate only, unless asked
        QVERIFY(!sideEffect->isVisible());
        QTest::mouseClick(apply, Qt::LeftButton);
        QCOMPARE(doc_->spec().schedule, cosine.schedule);
        QCOMPARE(doc_->spec().optimizer.lr, valley);
        QCOMPARE(history->undoText(), QString("Apply finder: learning rate %1").arg(QString::number(valley, 'g', 3)));
        history->undo();
        QVERIFY(doc_->spec() == cosine);

        asOneCycle->setFocus();
        QTest::keyClick(asOneCycle, Qt::Key_Space);
        QVERIFY(asOneCycle->isChecked());
        QVERIFY(sideEffect->isVisible());
        QVERIFY2(sideEffect->text().contains("cosine") && sideEffect->text().contains("100 warm-up step") &&
                     sideEffect->text().contains("one-cycle"),
                 qPrintable(sideEffect->text()));
        // The note and every text under the chart are laid out below it, never over it.
        QTRY_VERIFY(sideEffect->geometry().top() >= finder->chart()->geometry().bottom());
        for (QLabel* label : finder->findChildren<QLabel*>(Qt::FindDirectChildrenOnly))
            if (label->isVisible() && label->y() > finder->chart()->y())
                QVERIFY2(!label->geometry().intersects(finder->chart()->geometry()), qPrintable(label->text()));
        const int steps = history->index();
        QTest::mouseClick(apply, Qt::LeftButton);
        QCOMPARE(history->index(), steps + 1);  // one step
        QCOMPARE(doc_->spec().schedule.type, std::string("onecycle"));
        QCOMPARE(doc_->spec().schedule.maxLr, valley);
        QCOMPARE(doc_->spec().schedule.warmupSteps, std::int64_t(0));
        QCOMPARE(train_->experimentForRun()->schedule.type, std::string("onecycle"));
        QCOMPARE(history->undoText(), QString("Apply finder: one-cycle peak %1, warm-up 0").arg(QString::number(valley, 'g', 3)));
        history->undo();
        QVERIFY(doc_->spec() == cosine);  // the old schedule exactly, warm-up and floor included
        QCOMPARE(doc_->spec().schedule, cosine.schedule);
        QCOMPARE(train_->findChild<QComboBox*>("scheduleCombo")->currentData().toString(), QString("cosine"));
        history->undo();  // the cosine schedule itself
        QCOMPARE(doc_->spec().schedule.type, std::string("onecycle"));
        QVERIFY(!doc_->isModified());

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
