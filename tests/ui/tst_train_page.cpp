// The Train page and its TrainingSession, with real training: a small MLP on Fashion-MNIST
// driven through the widgets (start, pause, resume, stop), a CSV run to the end on the same
// trainer thread, failures that must arrive as finished(Failed), and the UI event loop's
// latency while the trainer works. The page is a view of the open experiment
// (ExperimentDocument): its fields are undoable edits of it, and it shows only the runs it
// started, never another kind of job. Runs offscreen with a scratch HOME and a temporary
// workspace, so neither the user's settings nor their studio.db are touched.
#include <QtTest>
#include <QtWidgets>

#include <algorithm>
#include <functional>

#include <csignal>

#include "scratch_home.h"
#include "tiny_experiment.h"
#include "io/yaml/experiment_yaml.h"
#include "jobs/job.h"
#include "ui/document_actions.h"
#include "ui/experiment_document.h"
#include "ui/train/distributed_launch.h"
#include "ui/train/jobs_model.h"
#include "ui/main_window.h"
#include "ui/runs/runs_page.h"
#include "ui/runs/evaluation_view.h"
#include "ui/runs/run_details.h"

#include <QStandardItemModel>
#include <qcustomplot.h>
#include "ui/screenshot.h"
#include "store/run_reader.h"
#include "store/workspace.h"
#include "ui/train/train_charts.h"
#include "widgets/live_chart.h"
#include "ui/train/train_page.h"
#include "ui/train/training_session.h"

using namespace ts::ui;
using Outcome = TrainingSession::Outcome;
using State = TrainingSession::State;

namespace {

const QString kFashion = QStringLiteral("/usr/share/datasets/fashion-mnist");
QString g_home;

QString writeFile(const QString& path, const QString& text)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) return {};
    f.write(text.toUtf8());
    return path;
}

// A tiny MLP on the whole of Fashion-MNIST: ~1,700 steps an epoch at batch 32, a few ms each.
QString fashionExperiment(const QString& dir, int epochs)
{
    return writeFile(dir + "/tiny_fashion.yaml", tinyFashionYaml(kFashion, epochs, 32, 0.001, 1));
}

// The shipped wine-like table (300 rows): a whole run in well under a second.
QString csvExperiment(const QString& dir, const QString& name, bool normalize)
{
    const QString csv = QFINDTESTDATA("../../experiments/data/wine_like.csv");
    return writeFile(dir + "/" + name + ".yaml", QStringLiteral(R"(name: %1
dataset:
  format: csv
  path: %2
  label_column: cultivar
  feature_columns: [alcohol, malic_acid, color_intensity, hue, proline]
  validation_fraction: 0.2
  %3
  loader: {num_workers: 0}
model:
  layers:
    - Linear: {in_features: 5, out_features: 16}
    - ReLU
    - Linear: {out_features: 3}
    - CrossEntropy
optimizer: {type: adam, lr: 0.01}
training: {epochs: 3, batch_size: 16, seed: 3, device: cpu}
)")
                                                          .arg(name, csv, normalize ? "normalize: {from_statistics: true}" : ""));
}

// Lateness of a 5 ms repeating timer: how long the UI thread keeps events waiting.
class LatencyProbe : public QObject {
public:
    LatencyProbe()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(5);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            const double now = m_clock.nsecsElapsed() / 1e6;
            if (m_last >= 0) m_lateMs.push_back(std::max(0.0, now - m_last - 5.0));
            m_last = now;
        });
        m_clock.start();
        m_timer.start();
    }
    double percentile(double p) const
    {
        if (m_lateMs.empty()) return 0;
        std::vector<double> v = m_lateMs;
        std::sort(v.begin(), v.end());
        return v[std::min(v.size() - 1, std::size_t(p * double(v.size())))];
    }
    std::size_t samples() const { return m_lateMs.size(); }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    double m_last = -1;
    std::vector<double> m_lateMs;
};

// Runs the event loop until `done` holds or the time is up. Not QTest::qWait or QTRY_*: they
// sleep up to 10 ms between rounds of events, which would swamp the latency being measured.
bool spinUntil(const std::function<bool()>& done, int timeoutMs)
{
    QElapsedTimer clock;
    clock.start();
    QEventLoop loop;
    QTimer poll;
    poll.setInterval(2);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (done() || clock.elapsed() > timeoutMs) loop.quit();
    });
    poll.start();
    if (!done()) loop.exec();
    return done();
}
void spinFor(int ms) { spinUntil([] { return false; }, ms); }

int threadCount() { return int(QDir("/proc/self/task").entryList(QDir::Dirs | QDir::NoDotAndDotDot).size()); }

QToolButton* button(TrainPage& page, const char* name) { return page.findChild<QToolButton*>(name); }

TrainPage* trainPage(MainWindow& w) { return qobject_cast<TrainPage*>(w.findChild<QStackedWidget*>("pages")->widget(int(Page::Train))); }

// Opens `path` in the document as File > Open does; the reason in the failure message when it cannot.
bool openIn(ExperimentDocument& document, const QString& path)
{
    QString error;
    const bool ok = document.open(path, &error);
    if (!ok) qWarning("%s", qPrintable(error));
    return ok;
}

// Answers the "Save changes to …?" box when it shows (modal: it runs its own event loop) with
// `answer`, and keeps the question it asked.
void answerSaveChanges(QMessageBox::StandardButton answer, QString* question)
{
    auto* poll = new QTimer;
    QObject::connect(poll, &QTimer::timeout, poll, [=] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box || box->objectName() != "saveChangesBox") return;
        *question = box->text();
        box->button(answer)->click();
        poll->deleteLater();
    });
    poll->start(20);
}

qint64 stepsIn(const QSignalSpy& spy)
{
    qint64 n = 0;
    for (const QList<QVariant>& args : spy) n += args.at(0).value<QVector<StepPoint>>().size();
    return n;
}

}  // namespace

class TestTrainPage : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;  // experiments and the workspace

    QString workspace() const { return m_dir.path() + "/workspace"; }
    ts::RunInfo storedRun(qint64 runId)
    {
        ts::RunReader reader(ts::Workspace::open(workspace().toStdString()));
        const auto run = reader.run(runId);
        return run ? *run : ts::RunInfo{};
    }

private slots:
    void initTestCase()
    {
        QVERIFY(QSettings().fileName().startsWith(g_home + "/"));
        QVERIFY(m_dir.isValid());
    }

    void controlsFollowTheSession()
    {
        TrainingSession session;
        ExperimentDocument document;
        TrainPage page(&session, &document);
        page.setWorkspaceDirectory(workspace());
        QCOMPARE(page.objectName(), QString("page_train"));

        // The shipped experiments are offered, plus "Open…" last.
        auto* experiments = page.findChild<QComboBox*>("experimentCombo");
        QVERIFY(experiments->findText("fashion_mnist_mlp") >= 0);
        QVERIFY(experiments->itemData(experiments->count() - 1).toString().isEmpty());
        auto* devices = page.findChild<QComboBox*>("deviceCombo");
        QCOMPARE(devices->itemData(0).toString(), QString("auto"));
        QCOMPARE(devices->itemData(1).toString(), QString("cpu"));
        auto* precision = page.findChild<QComboBox*>("precisionCombo");
        QCOMPARE(precision->count(), 4);

        // No experiment open: nothing to train or queue, nothing chosen.
        const auto actions = page.trainActions();
        QCOMPARE(actions.size(), 4);
        QCOMPARE(actions[0]->shortcut(), QKeySequence("Ctrl+R"));
        QCOMPARE(actions[1]->shortcut(), QKeySequence("Ctrl+P"));
        QVERIFY(actions[2]->shortcuts().contains(QKeySequence("Shift+F5")));
        QCOMPARE(actions[3]->shortcut(), QKeySequence("Ctrl+Shift+R"));
        QVERIFY(!page.experimentForRun());
        QCOMPARE(experiments->currentIndex(), -1);
        for (QAction* a : actions) QVERIFY(!a->isEnabled());

        // The document's experiment: chosen in the list, ready to train.
        const QString editor = QFileInfo(csvExperiment(m_dir.path(), "editor", true)).absoluteFilePath();
        QVERIFY(openIn(document, editor));
        QCOMPARE(experiments->currentData().toString(), editor);
        QCOMPARE(precision->currentData().toString(), QString("f32"));
        QVERIFY(actions[0]->isEnabled() && !actions[1]->isEnabled() && !actions[2]->isEnabled() && actions[3]->isEnabled());

        // Another choice in the list asks the window to open it (unsaved changes are its
        // question); until the document has it, the list shows the experiment that is open.
        QSignalSpy openRequested(&page, &TrainPage::openRequested);
        experiments->setFocus();
        const int chosen = experiments->currentIndex() > 0 ? experiments->currentIndex() - 1 : experiments->currentIndex() + 1;
        QTest::keyClick(experiments, chosen < experiments->currentIndex() ? Qt::Key_Up : Qt::Key_Down);
        QCOMPARE(openRequested.size(), 1);
        QCOMPARE(openRequested[0][0].toString(), experiments->itemData(chosen).toString());
        QCOMPARE(experiments->currentData().toString(), editor);
        QCOMPARE(document.path(), editor);

        // The fields edit the experiment Start runs.
        page.findChild<QSpinBox*>("epochsSpin")->setValue(7);
        // The planned memory follows the batch size before anything runs.
        auto* memory = page.findChild<QLabel*>("memoryLabel");
        page.findChild<QSpinBox*>("batchSizeSpin")->setValue(4096);
        const QString large = memory->text();
        QVERIFY2(large.contains("planned") && memory->toolTip().contains("activations"), qPrintable(large));
        page.findChild<QSpinBox*>("batchSizeSpin")->setValue(8);
        QVERIFY2(memory->text() != large, qPrintable(memory->text()));
        page.findChild<QDoubleSpinBox*>("learningRateSpin")->setValue(0.02);
        auto* optimizer = page.findChild<QComboBox*>("optimizerCombo");
        optimizer->setCurrentIndex(optimizer->findData("sgd"));
        auto* schedule = page.findChild<QComboBox*>("scheduleCombo");
        schedule->setCurrentIndex(schedule->findData("cosine"));
        precision->setCurrentIndex(precision->findData("bf16"));
        const auto spec = page.experimentForRun();
        QVERIFY(spec);
        QCOMPARE(spec->training.epochs, 7);
        QCOMPARE(spec->training.batchSize, 8);
        QCOMPARE(spec->optimizer.lr, 0.02);
        QCOMPARE(spec->optimizer.type, std::string("sgd"));
        QCOMPARE(spec->schedule.type, std::string("cosine"));
        QCOMPARE(spec->training.precision, std::string("bf16"));
        QCOMPARE(*spec, document.spec());

        // A broken file is refused with its place; the open experiment stays, as edited.
        QString error;
        QVERIFY(!document.open(writeFile(m_dir.path() + "/broken.yaml", "name: [unclosed\n"), &error));
        QVERIFY2(error.contains("broken.yaml:"), qPrintable(error));
        QCOMPARE(experiments->currentData().toString(), editor);
        QCOMPARE(page.experimentForRun()->training.epochs, 7);
        QCOMPARE(page.findChild<QSpinBox*>("epochsSpin")->value(), 7);
        QVERIFY(actions[0]->isEnabled());
    }

    // Each field is an editor of the experiment: a change is one step of the document's undo
    // history, named for what it did, undone through the document's stack (Edit > Undo on any
    // page); the keys typed into one field are one step. The document changed elsewhere (another
    // page) shows in the fields without a step of their own.
    void fieldEditsAreUndoSteps()
    {
        ExperimentDocument document;
        TrainPage page(nullptr, &document);
        QVERIFY(openIn(document, csvExperiment(m_dir.path(), "undoable", true)));
        QUndoStack* history = document.undoStack();
        QCOMPARE(history->count(), 0);
        QVERIFY(!document.isModified());
        auto* lr = page.findChild<QDoubleSpinBox*>("learningRateSpin");
        auto* epochs = page.findChild<QSpinBox*>("epochsSpin");
        QCOMPARE(lr->value(), 0.01);  // the file's
        QCOMPARE(epochs->value(), 3);

        lr->setFocus();
        lr->selectAll();
        QTest::keyClicks(lr, "3e-4");  // "3", "3e", "3e-", "3e-4": one edit
        QTest::keyClick(lr, Qt::Key_Return);
        QCOMPARE(document.spec().optimizer.lr, 3e-4);
        QCOMPARE(history->count(), 1);
        QCOMPARE(history->undoText(), QString("Set learning rate to 3e-4"));
        QVERIFY(document.isModified());
        epochs->setValue(7);
        QCOMPARE(history->count(), 2);
        QCOMPARE(history->undoText(), QString("Set epochs to 7"));

        history->undo();
        QCOMPARE(epochs->value(), 3);
        QCOMPARE(document.spec().training.epochs, 3);
        QCOMPARE(lr->value(), 3e-4);
        history->undo();
        QCOMPARE(lr->value(), 0.01);
        QCOMPARE(page.experimentForRun()->optimizer.lr, 0.01);
        QVERIFY(!document.isModified());
        history->redo();
        QCOMPARE(lr->value(), 3e-4);
        QCOMPARE(history->index(), 1);

        ts::ExperimentSpec elsewhere = document.spec();
        elsewhere.training.batchSize = 24;
        elsewhere.optimizer.type = "sgd";
        document.edit(elsewhere, "Set Batch size to 24");
        QCOMPARE(page.findChild<QSpinBox*>("batchSizeSpin")->value(), 24);
        QCOMPARE(page.findChild<QComboBox*>("optimizerCombo")->currentData().toString(), QString("sgd"));
        QCOMPARE(history->index(), 2);
        QCOMPARE(history->undoText(), QString("Set Batch size to 24"));
        QCOMPARE(page.experimentForRun(), std::optional<ts::ExperimentSpec>(elsewhere));
    }

    // The page shows the runs it started, not the last job of any kind: a finder's or an
    // evaluation's steps and end leave its status line, charts and log as they were (they
    // show in the Jobs dock and on their own pages), and its Pause and Stop never act on them.
    void otherKindsOfJobsAreNotShown()
    {
        TrainingSession session;
        ExperimentDocument document;
        TrainPage page(&session, &document);
        page.setWorkspaceDirectory(workspace());
        QVERIFY(openIn(document, csvExperiment(m_dir.path(), "own_runs", true)));
        auto* status = page.findChild<QLabel*>("statusLine");
        auto* log = page.findChild<QPlainTextEdit*>("logView");
        QCOMPARE(status->text(), QString("Ready"));
        const QString logBefore = log->toPlainText();
        QSignalSpy steps(&session, &TrainingSession::stepsArrived);
        QSignalSpy finished(&session, &TrainingSession::finished);

        ts::LrFindJob finder;
        finder.experiment = document.spec();
        finder.steps = 30;
        session.enqueue(finder, QStringLiteral("learning-rate finder"), workspace());
        QVERIFY(session.isActive());
        QVERIFY(!button(page, "trainButton")->isEnabled());  // one job at a time: Train waits
        QVERIFY(button(page, "queueButton")->isEnabled());
        QVERIFY(!button(page, "pauseButton")->isEnabled() && !button(page, "stopButton")->isEnabled());
        QVERIFY(finished.wait(30000));
        QVERIFY(!steps.isEmpty());  // the finder did send its steps
        QCOMPARE(session.jobs().last().kind, QString("lr_find"));
        QCOMPARE(status->text(), QString("Ready"));
        QCOMPARE(page.charts()->pointCount("loss", "loss"), qint64(0));
        QCOMPARE(log->toPlainText(), logBefore);
        QCOMPARE(page.followedJob(), 0);

        // A run it starts is shown, from its first signal to its end.
        steps.clear();
        page.startTraining();
        const qint64 run = session.jobs().last().id;
        QCOMPARE(status->text(), QString("Starting: loading the dataset…"));
        QVERIFY(button(page, "stopButton")->isEnabled());
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.last()[0].value<Outcome>(), Outcome::Finished);
        QCOMPARE(page.followedJob(), run);
        QVERIFY2(status->text().startsWith("Finished: "), qPrintable(status->text()));
        const qint64 runSteps = stepsIn(steps);
        QVERIFY(runSteps > 0);
        QCOMPARE(page.charts()->pointCount("loss", "loss"), runSteps);
        const QString runStatus = status->text(), runLog = log->toPlainText();
        QVERIFY(runLog.contains("Finished: "));

        // Then an evaluation of that run: the run's view stays as it ended.
        ts::EvaluateJob evaluate;
        evaluate.runId = session.jobs().last().runId;
        session.enqueue(evaluate, QStringLiteral("run"), workspace());
        QVERIFY(finished.wait(30000));
        QCOMPARE(session.jobs().last().kind, QString("evaluate"));
        QCOMPARE(session.jobs().last().state, JobRow::State::Finished);
        QCOMPARE(status->text(), runStatus);
        QCOMPARE(log->toPlainText(), runLog);
        QCOMPARE(page.charts()->pointCount("loss", "loss"), runSteps);
        QCOMPARE(page.followedJob(), run);
    }

    void liveRunPauseResumeStop()
    {
        if (!QFileInfo::exists(kFashion)) QSKIP("Fashion-MNIST is not installed");
        TrainingSession session;
        ExperimentDocument document;
        TrainPage page(&session, &document);
        page.setWorkspaceDirectory(workspace());
        page.resize(1100, 760);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY(openIn(document, fashionExperiment(m_dir.path(), 5)));
        auto* devices = page.findChild<QComboBox*>("deviceCombo");
        devices->setCurrentIndex(devices->findData("cpu"));

        double idleP99 = 0;
        {
            LatencyProbe idle;
            spinFor(1000);
            idleP99 = idle.percentile(0.99);
        }
        QSignalSpy started(&session, &TrainingSession::runStarted);
        QSignalSpy steps(&session, &TrainingSession::stepsArrived);
        QSignalSpy finished(&session, &TrainingSession::finished);
        QSignalSpy epochs(&session, &TrainingSession::epochFinished);
        QSignalSpy checkpoints(&session, &TrainingSession::checkpointSaved);
        QSignalSpy system(&session, &TrainingSession::systemSample);
        LatencyProbe probe;
        QElapsedTimer clock;
        clock.start();

        QTest::mouseClick(button(page, "trainButton"), Qt::LeftButton);
        QCOMPARE(session.state(), State::Starting);
        QVERIFY(!button(page, "trainButton")->isEnabled());
        // The running job has its copy: the editors and Queue prepare the next one.
        QVERIFY(page.findChild<QSpinBox*>("epochsSpin")->isEnabled());
        QVERIFY(button(page, "queueButton")->isEnabled());
        QVERIFY(spinUntil([&] { return stepsIn(steps) >= 200; }, 60000));
        QCOMPARE(session.state(), State::Running);
        QCOMPARE(started.size(), 1);
        const RunStartInfo run = session.currentRun();
        QVERIFY(run.runId > 0);
        QCOMPARE(run.device, QString("cpu"));
        QCOMPARE(run.epochs, 5);
        QVERIFY(run.totalSteps == run.stepsPerEpoch * 5 && run.stepsPerEpoch > 1000);
        QVERIFY(page.findChild<QLabel*>("statusLine")->text().contains("Epoch 1/5"));

        // Pause: at most the step in flight arrives, then nothing.
        QTest::mouseClick(button(page, "pauseButton"), Qt::LeftButton);
        QCOMPARE(session.state(), State::Paused);
        QCOMPARE(page.trainActions()[1]->text(), QString("&Resume"));
        spinFor(300);
        const qint64 pausedAt = stepsIn(steps);
        spinFor(600);
        QCOMPARE(stepsIn(steps), pausedAt);
        QVERIFY(page.findChild<QLabel*>("statusLine")->text().startsWith("Paused"));

        QTest::mouseClick(button(page, "pauseButton"), Qt::LeftButton);  // now "Resume"
        QCOMPARE(session.state(), State::Running);
        QVERIFY(spinUntil([&] { return stepsIn(steps) >= pausedAt + 200; }, 30000));

        // TS_TRAIN_PAGE_SCREENSHOT=file.png: a picture of the page mid-run, for reviewing the layout.
        if (const QString shot = qEnvironmentVariable("TS_TRAIN_PAGE_SCREENSHOT"); !shot.isEmpty()) {
            spinFor(500);
            QVERIFY(page.grab().save(shot));
        }

        QTest::mouseClick(button(page, "stopButton"), Qt::LeftButton);
        QCOMPARE(session.state(), State::Stopping);
        QVERIFY(finished.wait(30000));
        const double seconds = clock.elapsed() / 1000.0;
        QCOMPARE(finished.size(), 1);
        QCOMPARE(finished[0][0].value<Outcome>(), Outcome::Stopped);
        QCOMPARE(session.state(), State::Idle);
        QVERIFY(button(page, "trainButton")->isEnabled());
        QVERIFY(page.findChild<QPlainTextEdit*>("logView")->toPlainText().contains("Stopped"));

        // Every step reached the charts, in order, coalesced into few signals.
        const qint64 total = stepsIn(steps);
        QCOMPARE(page.charts()->pointCount("loss", "loss"), total);
        QCOMPARE(page.charts()->pointCount("lr", "lr"), total);
        QCOMPARE(steps.last().at(0).value<QVector<StepPoint>>().constLast().step, total);
        QVERIFY2(steps.size() <= seconds * 1000.0 / TrainingSession::kDrainIntervalMs + 10,
                 qPrintable(QString("%1 signals in %2 s").arg(steps.size()).arg(seconds)));

        const double p50 = probe.percentile(0.50), p99 = probe.percentile(0.99);
        qInfo("training: %lld steps, %lld step signals, %d epoch(s) in %.1f s", total, qint64(steps.size()),
              int(epochs.size()), seconds);
        qInfo("UI event loop lateness while training (5 ms timer, %zu samples): p50 %.2f ms, p99 %.2f ms, max %.2f ms "
              "(idle p99 %.2f ms)",
              probe.samples(), p50, p99, probe.percentile(1.0), idleP99);
        QVERIFY2(p99 < 250, qPrintable(QString("p99 %1 ms").arg(p99)));

        // Machine load arrives about once a second; a stop leaves a resumable checkpoint.
        QVERIFY(!system.isEmpty());
        QCOMPARE(page.charts()->pointCount("memory", "ram"), qint64(system.size()));
        QVERIFY(page.findChild<QLabel*>("statusLine")->text().startsWith("Stopped"));
        QCOMPARE(checkpoints.size(), 1);
        QVERIFY(QFileInfo::exists(checkpoints[0][0].toString()));

        const ts::RunInfo stored = storedRun(run.runId);
        QCOMPARE(stored.id, run.runId);
        QCOMPARE(stored.status, ts::RunStatus::Stopped);
        QCOMPARE(stored.experimentName, std::string("tiny_fashion"));
        ts::RunReader reader(ts::Workspace::open(workspace().toStdString()));
        QCOMPARE(qint64(reader.metric(run.runId, "loss").steps.size()), total);
        QCOMPARE(reader.checkpoints(run.runId).size(), std::size_t(1));
    }

    void runsReuseOneTrainerThread()
    {
        TrainingSession session;
        ExperimentDocument document;
        TrainPage page(&session, &document);
        page.setWorkspaceDirectory(workspace());
        QVERIFY(openIn(document, csvExperiment(m_dir.path(), "wine", true)));
        QSignalSpy finished(&session, &TrainingSession::finished);
        QSignalSpy epochs(&session, &TrainingSession::epochFinished);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        page.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&page));
        QList<int> threads;
        for (int i = 0; i < 3; ++i) {
            QTest::keyClick(&page, Qt::Key_R, Qt::ControlModifier);  // Train
            QVERIFY(session.isActive());
            QVERIFY(finished.wait(60000));
            QCOMPARE(finished.last()[0].value<Outcome>(), Outcome::Finished);
            QCOMPARE(storedRun(session.currentRun().runId).status, ts::RunStatus::Finished);
            threads << threadCount();
        }
        QCOMPARE(epochs.size(), 9);
        QVERIFY(epochs.last()[0].value<EpochSummary>().metrics.contains("val_acc"));
        QCOMPARE(page.charts()->pointCount("accuracy", "val_acc"), 3);  // the last run only
        // The trainer thread (and the OpenMP pool it owns) is reused: no thread per run.
        QCOMPARE(threads[2], threads[1]);
    }

    // Stop a run after its first checkpoint, then resume it as the Runs page asks to: a new
    // run, linked to the stopped one, continues from the checkpoint's step and finishes.
    void resumeContinuesAStoppedRun()
    {
        TrainingSession session;
        ExperimentDocument document;
        TrainPage page(&session, &document);
        page.setWorkspaceDirectory(workspace());
        const QString path = csvExperiment(m_dir.path(), "resumable", true);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll()).replace("epochs: 3,", "epochs: 400,");
        f.close();
        QVERIFY(openIn(document, writeFile(path, text)));
        QSignalSpy finished(&session, &TrainingSession::finished);
        QSignalSpy saved(&session, &TrainingSession::checkpointSaved);
        QSignalSpy started(&session, &TrainingSession::runStarted);
        page.startTraining();
        QVERIFY(saved.wait(60000));
        page.stopTraining();
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.last()[0].value<Outcome>(), Outcome::Stopped);
        const qint64 first = started.last()[0].value<RunStartInfo>().runId;
        QCOMPARE(storedRun(first).status, ts::RunStatus::Stopped);

        page.resumeRun(first);
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.last()[0].value<Outcome>(), Outcome::Finished);
        const qint64 second = started.last()[0].value<RunStartInfo>().runId;
        QVERIFY(second != first);
        const ts::RunInfo resumed = storedRun(second);
        QCOMPARE(resumed.status, ts::RunStatus::Finished);
        QCOMPARE(resumed.parentRunId.value_or(0), first);
        QCOMPARE(QString::fromStdString(resumed.parentRelation), QString("resume"));
        ts::RunReader reader(ts::Workspace::open(workspace().toStdString()));
        const auto stopped = reader.metric(first, "loss"), tail = reader.metric(second, "loss");
        QVERIFY(!stopped.steps.empty() && !tail.steps.empty());
        const auto checkpoints = reader.checkpoints(first);
        QVERIFY(!checkpoints.empty());
        QCOMPARE(tail.steps.front(), checkpoints.back().step + 1);  // the curves join
    }

    // Commands given while the dataset loads are kept and applied when the trainer exists.
    void commandsBeforeTheTrainerExists()
    {
        TrainingSession session;
        QSignalSpy steps(&session, &TrainingSession::stepsArrived);
        QSignalSpy finished(&session, &TrainingSession::finished);
        const auto spec = ts::loadExperiment(csvExperiment(m_dir.path(), "early", true).toStdString());

        QVERIFY(session.start(spec, "cpu", workspace()));
        session.pause();
        QCOMPARE(session.state(), State::Paused);
        QTest::qWait(700);
        QVERIFY(steps.isEmpty());
        QVERIFY(finished.isEmpty());
        session.resume();
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.last()[0].value<Outcome>(), Outcome::Finished);
        QVERIFY(!steps.isEmpty());

        steps.clear();
        QVERIFY(session.start(spec, "cpu", workspace()));
        session.stop();
        QCOMPARE(session.state(), State::Stopping);
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.last()[0].value<Outcome>(), Outcome::Stopped);
        QVERIFY(steps.isEmpty());
    }

    void failuresArriveAsFinishedFailed()
    {
        TrainingSession session;
        QSignalSpy finished(&session, &TrainingSession::finished);
        ExperimentDocument document;
        TrainPage page(&session, &document);
        page.setWorkspaceDirectory(workspace());
        auto* log = page.findChild<QPlainTextEdit*>("logView");

        // A dataset that is not there: a failure, and no run in the store (it never started).
        QString text;
        {
            QFile f(csvExperiment(m_dir.path(), "missing_data", true));
            QVERIFY(f.open(QIODevice::ReadOnly));
            text = QString::fromUtf8(f.readAll()).replace(QRegularExpression("path: .*"), "path: /nonexistent/table.csv");
        }
        QVERIFY(openIn(document, writeFile(m_dir.path() + "/missing_data.yaml", text)));
        page.startTraining();
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.last()[0].value<Outcome>(), Outcome::Failed);
        QVERIFY2(finished.last()[1].toString().contains("/nonexistent/table.csv"), qPrintable(finished.last()[1].toString()));
        QVERIFY(log->toPlainText().contains("Training failed"));
        QVERIFY(page.trainActions()[0]->isEnabled());
        QCOMPARE(session.currentRun().runId, -1);

        // A loss that turns NaN: unnormalised features and SGD at an absurd rate (beyond what
        // the page's editor offers, so straight to the session).
        QVERIFY(openIn(document, csvExperiment(m_dir.path(), "diverges", false)));
        auto diverging = page.experimentForRun();
        diverging->optimizer.type = "sgd";
        diverging->optimizer.lr = 1e30;
        QVERIFY(session.start(*diverging, "cpu", workspace()));
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.last()[0].value<Outcome>(), Outcome::Failed);
        qInfo("NaN run: %s", qPrintable(finished.last()[1].toString().left(200)));
        QCOMPARE(storedRun(session.currentRun().runId).status, ts::RunStatus::Failed);

        // A device the machine cannot give.
        const auto spec = page.experimentForRun();
        QVERIFY(session.start(*spec, "cuda:7", workspace()));
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.last()[0].value<Outcome>(), Outcome::Failed);
        QVERIFY(!finished.last()[1].toString().isEmpty());
        QCOMPARE(session.jobs().last().state, JobRow::State::Failed);

        // Busy: a second job waits in the queue, and a cancelled one never trains. (The first
        // is paused before it begins, so the second cannot have been taken yet.)
        const qint64 first = session.start(*spec, "cpu", workspace());
        session.pause();
        const qint64 next = session.start(*spec, "cpu", workspace());
        QVERIFY(first > 0 && next > first);
        QCOMPARE(session.queuedCount(), 1);
        session.cancel(next);
        QCOMPARE(session.jobs().last().state, JobRow::State::Cancelled);
        QCOMPARE(session.queuedCount(), 0);
        session.stop();
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.last()[0].value<Outcome>(), Outcome::Stopped);
        QTest::qWait(300);
        QCOMPARE(finished.size(), 4);  // the cancelled job sends nothing
        QCOMPARE(session.state(), State::Idle);
    }

    void destroyingARunningSessionStopsIt()
    {
        if (!QFileInfo::exists(kFashion)) QSKIP("Fashion-MNIST is not installed");
        const int before = threadCount();
        auto* session = new TrainingSession;
        QSignalSpy steps(session, &TrainingSession::stepsArrived);
        QVERIFY(session->start(ts::loadExperiment(fashionExperiment(m_dir.path(), 5).toStdString()), "cpu", QString()));
        QTRY_VERIFY_WITH_TIMEOUT(!steps.isEmpty(), 60000);
        session->pause();  // a paused trainer must be released too
        QElapsedTimer clock;
        clock.start();
        delete session;
        QVERIFY2(clock.elapsed() < 10000, qPrintable(QString::number(clock.elapsed())));
        QTRY_COMPARE(threadCount(), before);  // the trainer thread and everything it started are gone
    }

    // What a person sees: the whole window on the Train page in the middle of a real run
    // (after the first epoch, so every chart has points), saved where the suite's runner can
    // look at it. ctest runs this once more in a real X window under Xvfb.
    void screenshotMidTraining()
    {
        qputenv("TRAINSTUDIO_WORKSPACE", QFile::encodeName(workspace()));
        MainWindow w;
        qunsetenv("TRAINSTUDIO_WORKSPACE");
        w.resize(1280, 860);
        w.setCurrentPage(Page::Train);
        TrainPage* page = trainPage(w);
        QVERIFY(page);
        QVERIFY(openIn(*w.document(), fashionExperiment(m_dir.path(), 20)));  // stopped long before the end
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy epochs(page->session(), &TrainingSession::epochFinished);
        QSignalSpy finished(page->session(), &TrainingSession::finished);
        page->startTraining();
        QVERIFY(epochs.wait(120000));
        spinFor(1500);  // a few hundred more steps and a system sample or two
        const QString platform = QGuiApplication::platformName();
        const QString path = QStringLiteral(TS_SCREENSHOT_DIR "/train_page_mid_training_%1.png").arg(platform);
        QDir().mkpath(QStringLiteral(TS_SCREENSHOT_DIR));
        QCOMPARE(Screenshot::save(&w, path), QString());
        qInfo("screenshot of the Train page mid-training: %s", qPrintable(path));
        QVERIFY(page->charts()->pointCount("loss", "loss") > 100);
        if (!finished.isEmpty()) QFAIL(qPrintable("the run ended early: " + finished.first()[1].toString()));
        page->stopTraining();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
        const QImage image(path);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), w.size() * w.devicePixelRatio());
    }

    // The job queue as a person sees it: one training running and two queued in the Jobs dock
    // (saved as build/screenshots/job_queue_<platform>.png), one cancelled from the panel,
    // then the window closed mid-run: it asks, stops the run with a checkpoint and closes.
    void jobQueueAndStopOnQuit()
    {
        if (!QFileInfo::exists(kFashion)) QSKIP("Fashion-MNIST is not installed");
        qputenv("TRAINSTUDIO_WORKSPACE", QFile::encodeName(workspace()));
        MainWindow w;  // the window reads the workspace when it first records a run: keep it set
        auto unset = qScopeGuard([] { qunsetenv("TRAINSTUDIO_WORKSPACE"); });
        w.resize(1280, 860);
        w.setCurrentPage(Page::Train);
        TrainPage* page = trainPage(w);
        QVERIFY(openIn(*w.document(), fashionExperiment(m_dir.path(), 20)));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        TrainingSession* session = page->session();
        QSignalSpy steps(session, &TrainingSession::stepsArrived);
        page->startTraining();
        page->findChild<QSpinBox*>("epochsSpin")->setValue(2);  // the queued copies differ from the running one (an unsaved edit)
        QTest::mouseClick(button(*page, "queueButton"), Qt::LeftButton);
        page->trainActions()[3]->trigger();  // Queue (Ctrl+Shift+R) again
        QCOMPARE(session->jobs().size(), 3);
        QCOMPARE(session->queuedCount(), 2);
        QVERIFY(spinUntil([&] { return stepsIn(steps) >= 100; }, 60000));

        auto* dock = w.findChild<QDockWidget*>("jobsDock");
        QVERIFY(dock && dock->isVisible());  // shown once jobs wait
        auto* view = w.findChild<QTableView*>("jobsView");
        QCOMPARE(view->model()->rowCount(), 3);  // newest first
        QCOMPARE(view->model()->index(0, 1).data().toString(), QString("Queued"));
        QCOMPARE(view->model()->index(1, 1).data().toString(), QString("Queued"));
        QCOMPARE(view->model()->index(2, 1).data().toString(), QString("Running"));
        QVERIFY(view->model()->index(2, 2).data(Qt::UserRole).toDouble() > 0);
        auto* jobsButton = w.findChild<QToolButton*>("jobsButton");
        QVERIFY(jobsButton->isVisible());
        QCOMPARE(jobsButton->text(), QString("3 job(s): 1 running, 2 queued"));
        spinFor(1000);
        const QString path = QStringLiteral(TS_SCREENSHOT_DIR "/job_queue_%1.png").arg(QGuiApplication::platformName());
        QDir().mkpath(QStringLiteral(TS_SCREENSHOT_DIR));
        QCOMPARE(Screenshot::save(&w, path), QString());
        qInfo("screenshot of the job queue: %s", qPrintable(path));

        // Cancel the newest queued job from the panel.
        view->selectRow(0);
        QTest::mouseClick(w.findChild<QPushButton*>("cancelJobButton"), Qt::LeftButton);
        QCOMPARE(session->jobs().last().state, JobRow::State::Cancelled);
        QCOMPARE(session->queuedCount(), 1);

        // Closing asks about the unsaved edit first (Discard), then about the run: "Stop and
        // Quit" stops it after its step, with a checkpoint.
        const qint64 runId = session->currentRun().runId;
        QVERIFY(runId > 0);
        QString question;
        answerSaveChanges(QMessageBox::Discard, &question);
        w.close();
        QCOMPARE(question, QString("Save changes to tiny_fashion.yaml?"));
        QVERIFY(w.isVisible());
        QMessageBox* box = nullptr;
        QTRY_VERIFY((box = w.findChild<QMessageBox*>("confirmQuit")));
        QVERIFY(box->text().contains("1 queued job(s) will not start"));
        QTest::mouseClick(box->findChild<QPushButton*>("stopAndQuitButton"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!w.isVisible(), 60000);
        QCOMPARE(session->jobs()[0].state, JobRow::State::Stopped);
        QCOMPARE(session->jobs()[1].state, JobRow::State::Cancelled);
        QCOMPARE(storedRun(runId).status, ts::RunStatus::Stopped);
        ts::RunReader reader(ts::Workspace::open(workspace().toStdString()));
        QVERIFY(!reader.checkpoints(runId).empty());
    }

    // A run the CLI trains in the same workspace appears in the Jobs list while it runs, with
    // its progress (epochs done of training.epochs), and leaves it when it ends.
    void cliRunShowsInTheJobList()
    {
        if (!QFileInfo::exists(kFashion)) QSKIP("Fashion-MNIST is not installed");
        TrainingSession session;
        JobsModel model(&session, workspace());
        QProcess cli;
        cli.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        cli.start(QStringLiteral(TS_CLI_EXE), {"train", fashionExperiment(m_dir.path(), 20), "--workspace", workspace(),
                                               "--device", "cpu", "--json"});
        QVERIFY(cli.waitForStarted());
        auto external = [&]() -> const JobRow* {
            for (int r = 0; r < model.rowCount(); ++r)
                if (model.rowAt(r)->id <= 0) return model.rowAt(r);
            return nullptr;
        };
        QTRY_VERIFY_WITH_TIMEOUT(external() && external()->progress > 0, 90000);  // after its first epoch
        const JobRow* row = external();
        QCOMPARE(row->state, JobRow::State::Running);
        QVERIFY2(row->title.contains("tiny_fashion"), qPrintable(row->title));
        QVERIFY(model.data(model.index(0, JobsModel::Job), Qt::DisplayRole).toString().contains("another process"));
        QCOMPARE(model.activeCount(), 1);
        ::kill(pid_t(cli.processId()), SIGINT);  // the CLI stops cleanly on Ctrl+C
        QVERIFY(cli.waitForFinished(60000));
        QTRY_VERIFY_WITH_TIMEOUT(!external(), 10000);
        QCOMPARE(model.activeCount(), 0);
    }

    // Processes 2: Train starts mpirun with two CLI ranks; the run is rank 0's, recorded in the
    // page's workspace with each rank's throughput, and the page reports how it ended.
    void trainsOnTwoLocalProcesses()
    {
        if (DistributedLaunch::mpirun().isEmpty()) QSKIP("mpirun is not installed (openmpi-bin)");
        qputenv("TRAINSTUDIO_CLI", TS_CLI_EXE);
        TrainingSession session;
        ExperimentDocument document;
        TrainPage page(&session, &document);
        page.setWorkspaceDirectory(workspace());
        QVERIFY(openIn(document, csvExperiment(m_dir.path(), "two_ranks", true)));
        auto* processes = page.findChild<QSpinBox*>("processesSpin");
        QVERIFY(processes && processes->isEnabled());
        processes->setValue(2);
        auto* launch = page.findChild<DistributedLaunch*>();
        QVERIFY(launch);
        QSignalSpy recorded(launch, &DistributedLaunch::runRecorded), ended(launch, &DistributedLaunch::ended);
        QTest::mouseClick(button(page, "trainButton"), Qt::LeftButton);
        QVERIFY(launch->isRunning());
        QVERIFY(!button(page, "trainButton")->isEnabled());
        QVERIFY(!button(page, "queueButton")->isEnabled());  // the queue is the session's, in this process
        QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 1, 120000);
        QVERIFY2(ended.at(0).at(0).toBool(), qPrintable(ended.at(0).at(2).toString()));
        QCOMPARE(recorded.size(), 1);
        const qint64 runId = recorded.at(0).at(0).toLongLong();
        QVERIFY(button(page, "trainButton")->isEnabled());
        const QString status = page.findChild<QLabel*>("statusLine")->text();
        QVERIFY2(status.contains(QString::number(runId)) && status.contains("finished"), qPrintable(status));

        ts::RunReader reader(ts::Workspace::open(workspace().toStdString()));
        const std::optional<ts::RunInfo> run = reader.run(runId);
        QVERIFY(run);
        QCOMPARE(run->status, ts::RunStatus::Finished);
        const ts::MetricSeries loss = reader.metric(runId, "loss");
        QVERIFY(!loss.values.empty());
        for (const char* rank : {"samples_per_s/rank0", "samples_per_s/rank1"})
            QCOMPARE(reader.metric(runId, rank).values.size(), loss.values.size());
        // The page's own charts followed the run from the store: every step, and the epochs.
        QCOMPARE(page.charts()->pointCount("loss", "loss"), qint64(loss.values.size()));
        QCOMPARE(page.charts()->pointCount("throughput", "samples_per_s"), qint64(loss.values.size()));
        QCOMPARE(page.charts()->pointCount("accuracy", "val_acc"), 3);  // training.epochs
        qunsetenv("TRAINSTUDIO_CLI");
    }

    // Stop on a run of two processes: both ranks stop at the same step and rank 0 saves a
    // checkpoint, so the run can be resumed.
    void stopsARunOnTwoProcesses()
    {
        if (DistributedLaunch::mpirun().isEmpty()) QSKIP("mpirun is not installed (openmpi-bin)");
        if (!QFileInfo::exists(kFashion)) QSKIP("Fashion-MNIST is not installed");
        qputenv("TRAINSTUDIO_CLI", TS_CLI_EXE);
        TrainingSession session;
        ExperimentDocument document;
        TrainPage page(&session, &document);
        page.setWorkspaceDirectory(workspace());
        QVERIFY(openIn(document, fashionExperiment(m_dir.path(), 20)));
        page.findChild<QSpinBox*>("processesSpin")->setValue(2);
        auto* launch = page.findChild<DistributedLaunch*>();
        QSignalSpy recorded(launch, &DistributedLaunch::runRecorded), ended(launch, &DistributedLaunch::ended);
        QTest::mouseClick(button(page, "trainButton"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(recorded.size(), 1, 60000);
        const qint64 runId = recorded.at(0).at(0).toLongLong();
        ts::RunReader reader(ts::Workspace::open(workspace().toStdString()));
        QTRY_VERIFY_WITH_TIMEOUT(reader.metric(runId, "loss").values.size() >= 20, 60000);  // it trains
        QVERIFY(button(page, "stopButton")->isEnabled());
        QTest::mouseClick(button(page, "stopButton"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 1, 60000);
        QVERIFY2(ended.at(0).at(0).toBool(), qPrintable(ended.at(0).at(2).toString()));
        QCOMPARE(reader.run(runId)->status, ts::RunStatus::Stopped);
        QVERIFY(!reader.checkpoints(runId).empty());
        // Remembered for the next session, and put back for the cases after this one.
        QCOMPARE(TrainPage(&session, &document).findChild<QSpinBox*>("processesSpin")->value(), 2);
        page.findChild<QSpinBox*>("processesSpin")->setValue(1);
        qunsetenv("TRAINSTUDIO_CLI");
    }

    // Runs page > Evaluate queues an evaluate job; its metrics and predictions land in the store.
    void evaluateFromTheRunsPage()
    {
        qputenv("TRAINSTUDIO_WORKSPACE", QFile::encodeName(workspace()));
        MainWindow w;
        auto unset = qScopeGuard([] { qunsetenv("TRAINSTUDIO_WORKSPACE"); });
        TrainPage* page = trainPage(w);
        QSignalSpy finished(page->session(), &TrainingSession::finished);
        QVERIFY(openIn(*w.document(), csvExperiment(m_dir.path(), "to_evaluate", true)));
        page->startTraining();
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.last()[0].value<Outcome>(), Outcome::Finished);
        const qint64 runId = page->session()->currentRun().runId;
        QVERIFY(runId > 0);

        auto* runs = qobject_cast<RunsPage*>(w.findChild<QStackedWidget*>("pages")->widget(int(Page::Runs)));
        runs->refresh();
        runs->selectRun(runId);
        QAction* evaluate = w.findChild<QAction*>("actionEvaluateRun");
        QVERIFY(evaluate && evaluate->isEnabled());
        evaluate->trigger();
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.last()[0].value<Outcome>(), Outcome::Finished);
        const JobRow& job = page->session()->jobs().last();
        QCOMPARE(job.kind, QString("evaluate"));
        QCOMPARE(job.state, JobRow::State::Finished);
        QVERIFY2(job.message.contains("val_acc"), qPrintable(job.message));  // no test split: validation
        ts::RunReader reader(ts::Workspace::open(workspace().toStdString()));
        const auto evaluations = reader.evaluations(runId);
        QCOMPARE(int(evaluations.size()), 1);
        QCOMPARE(evaluations[0].split, std::string("val"));
        QCOMPARE(std::int64_t(reader.predictions(evaluations[0].id).size()), evaluations[0].samples);
        QVERIFY(evaluations[0].samples > 0);

        // The run's Evaluation tab shows it: the confusion matrix holds every sample once, the
        // per-class table a row per class, and the summary the calibration before and after.
        runs->refresh();
        EvaluationView* view = runs->details()->evaluation();
        QTRY_VERIFY(view->report().has_value());
        const auto& confusion = view->report()->classification.confusion;
        std::int64_t total = 0;
        for (const auto& row : confusion)
            for (std::int64_t count : row) total += count;
        QCOMPARE(total, evaluations[0].samples);
        QCOMPARE(view->perClass()->rowCount(), int(confusion.size()));
        QVERIFY2(view->summaryText().contains("ECE") && view->summaryText().contains("T = "), qPrintable(view->summaryText()));
        QVERIFY(view->confusionPlot()->plottableCount() == 1);
        QVERIFY(view->reliabilityPlot()->plottableCount() >= 2);  // bars and the diagonal
    }

    // The experiment open when the studio closed comes back in the next session as its file
    // has it: the fields' edits belong to the document (saved with it or, here, discarded when
    // the window asked), not to the settings. Only files that open enter Open Recent; one that does not leaves the open
    // experiment, and the figures shown are still its own.
    void lastExperimentComesBackAsSaved()
    {
        const QString file = QFileInfo(csvExperiment(m_dir.path(), "remembered", true)).absoluteFilePath();
        {
            MainWindow w;
            QVERIFY(w.documentActions()->open(file));
            TrainPage* page = trainPage(w);
            page->findChild<QSpinBox*>("epochsSpin")->setValue(7);
            page->findChild<QDoubleSpinBox*>("learningRateSpin")->setValue(3e-4);
            QCOMPARE(w.document()->spec().training.epochs, 7);
            QVERIFY(w.document()->isModified());
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QString question;
            answerSaveChanges(QMessageBox::Discard, &question);
            QVERIFY(w.close());
            QCOMPARE(question, QString("Save changes to remembered.yaml?"));
        }
        QVERIFY(DocumentActions::recentExperiments().contains(file));
        MainWindow w;  // the next session
        TrainPage* page = trainPage(w);
        QCOMPARE(w.document()->path(), file);
        QVERIFY(!w.document()->isModified());
        QCOMPARE(page->findChild<QComboBox*>("experimentCombo")->currentData().toString(), file);
        QCOMPARE(page->findChild<QSpinBox*>("epochsSpin")->value(), 3);  // the file's
        QCOMPARE(page->findChild<QDoubleSpinBox*>("learningRateSpin")->value(), 0.01);
        QCOMPARE(page->experimentForRun()->training.epochs, 3);

        auto* memory = page->findChild<QLabel*>("memoryLabel");
        const QString planned = memory->text();
        QVERIFY(!planned.isEmpty());
        const QString broken = QFileInfo(writeFile(m_dir.path() + "/not_an_experiment.yaml", "name: [unclosed\n")).absoluteFilePath();
        QVERIFY(!w.documentActions()->open(broken));
        QMessageBox* reason = nullptr;
        QTRY_VERIFY((reason = w.findChild<QMessageBox*>("documentError")));
        QVERIFY2(reason->text().contains("not_an_experiment.yaml:"), qPrintable(reason->text()));
        reason->close();
        QCOMPARE(w.document()->path(), file);
        QCOMPARE(memory->text(), planned);
        QCOMPARE(page->findChild<QComboBox*>("experimentCombo")->currentData().toString(), file);
        QVERIFY(!DocumentActions::recentExperiments().contains(broken));
    }

    // The log follows new lines while scrolled to the bottom (also after a resize and while
    // the page is hidden), stays put while the user has scrolled up, and follows again once
    // they are back at the bottom, as a terminal does.
    void logFollowsAtTheBottomOnly()
    {
        // The lines go to the log of the page's own run, paused once it has started so that
        // only the lines below arrive.
        TrainingSession session;
        ExperimentDocument document;
        TrainPage page(&session, &document);
        page.setWorkspaceDirectory(workspace());
        QVERIFY(openIn(document, csvExperiment(m_dir.path(), "logged", true)));
        page.findChild<QSpinBox*>("epochsSpin")->setValue(400);
        page.resize(900, 600);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QSignalSpy started(&session, &TrainingSession::runStarted), finished(&session, &TrainingSession::finished);
        page.startTraining();
        QVERIFY(started.wait(30000));
        page.togglePause();
        QCOMPARE(session.state(), State::Paused);
        spinFor(300);  // what the trainer sent before the pause
        auto* log = page.findChild<QPlainTextEdit*>("logView");
        QScrollBar* bar = log->verticalScrollBar();
        int n = 0;
        auto lines = [&](int count) {
            for (int k = 0; k < count; ++k, ++n)
                emit session.logLine(n % 7 ? TrainingSession::LogLevel::Info : TrainingSession::LogLevel::Error,
                                     QString("line %1 of a long run").arg(n));
        };
        while (bar->maximum() < 30 && n < 1000) lines(1);
        QVERIFY(bar->maximum() >= 30);
        QCOMPARE(bar->value(), bar->maximum());
        lines(5);
        QCOMPARE(bar->value(), bar->maximum());
        QVERIFY(log->toPlainText().endsWith(QString("line %1 of a long run").arg(n - 1)));

        // Scrolled up by the user: the view stays where they put it.
        bar->triggerAction(QAbstractSlider::SliderPageStepSub);
        const int place = bar->value();
        QVERIFY(place < bar->maximum());
        lines(8);
        QCOMPARE(bar->value(), place);
        QVERIFY(bar->value() < bar->maximum());

        // Back at the bottom: it follows again.
        bar->triggerAction(QAbstractSlider::SliderToMaximum);
        lines(3);
        QCOMPARE(bar->value(), bar->maximum());

        // A smaller page (the log pane shrinks) and a hidden page: still at the newest line.
        page.resize(900, 420);
        QTRY_COMPARE(bar->value(), bar->maximum());
        page.hide();
        lines(10);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QTRY_COMPARE(bar->value(), bar->maximum());
        lines(2);
        QCOMPARE(bar->value(), bar->maximum());
        page.stopTraining();
        QVERIFY(finished.wait(30000));
    }

    // Two experiments of one name in different folders: each shows the folder that tells it
    // apart, with its full path as tool tip; a name of its own stays plain.
    void sameNamedExperimentsShowTheirFolder()
    {
        const QString first = m_dir.path() + "/first/experiments";
        const QString second = m_dir.path() + "/second/experiments";
        QVERIFY(QDir().mkpath(first) && QDir().mkpath(second));
        const QString a = QFileInfo(csvExperiment(first, "twin", true)).absoluteFilePath();
        const QString b = QFileInfo(csvExperiment(second, "twin", true)).absoluteFilePath();
        const QString solo = QFileInfo(csvExperiment(second, "solo", true)).absoluteFilePath();
        ExperimentDocument document;
        TrainPage page(nullptr, &document);
        QVERIFY(openIn(document, a));
        QVERIFY(openIn(document, b));
        QVERIFY(openIn(document, solo));
        auto* box = page.findChild<QComboBox*>("experimentCombo");
        const int ia = box->findData(a), ib = box->findData(b), is = box->findData(solo);
        QVERIFY(ia >= 0 && ib >= 0 && is >= 0);
        QCOMPARE(box->itemText(ia), QString("twin — first/experiments/"));
        QCOMPARE(box->itemText(ib), QString("twin — second/experiments/"));
        QCOMPARE(box->itemText(is), QString("solo"));
        QCOMPARE(box->itemData(ia, Qt::ToolTipRole).toString(), QDir::toNativeSeparators(a));
        QCOMPARE(box->itemData(is, Qt::ToolTipRole).toString(), QDir::toNativeSeparators(solo));
        QStringList texts;
        for (int i = 0; i < box->count(); ++i) texts << box->itemText(i);
        QCOMPARE(texts.removeDuplicates(), 0);  // no two items read alike
    }

    // The Jobs dock open in a 960x600 window leaves the charts little height: the grid then
    // shows whole rows and scrolls by rows, so every chart in view is whole, at the top, after
    // each wheel notch and at the end, and every chart can be reached.
    void chartGridKeepsChartsWholeWithTheJobsDock()
    {
        MainWindow w;
        w.resize(960, 600);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.setCurrentPage(Page::Train);
        auto* jobs = w.findChild<QDockWidget*>("jobsDock");
        QVERIFY(jobs);
        if (!jobs->isVisible()) w.findChild<QAction*>("actionJobs")->trigger();
        QTRY_VERIFY(jobs->isVisible());
        auto* charts = w.findChild<ts::ui::TrainCharts*>();
        QVERIFY(charts);
        auto* area = charts->findChild<QScrollArea*>();
        QScrollBar* bar = area->verticalScrollBar();
        QTRY_VERIFY(bar->maximum() > 0);  // the rows do not all fit: it scrolls
        QSet<ts::widgets::LiveChart*> seen;
        auto checkWhole = [&] {
            QApplication::processEvents();
            const QRect view = area->viewport()->rect();
            int whole = 0;
            for (ts::widgets::LiveChart* c : charts->charts()) {
                if (!c->isVisible()) continue;
                const QRect r(c->mapTo(area->viewport(), QPoint(0, 0)), c->size());
                if (!r.intersects(view)) continue;
                if (!view.contains(r))
                    return QString("a chart is cut: %1x%2 at %3,%4 in a %5x%6 view (scrolled to %7)")
                        .arg(r.width()).arg(r.height()).arg(r.x()).arg(r.y()).arg(view.width()).arg(view.height()).arg(bar->value());
                if (c->height() < 150) return QString("a chart squashed to %1 px high").arg(c->height());
                seen.insert(c);
                ++whole;
            }
            return whole > 0 ? QString() : QString("no chart in view");
        };
        QString problem = checkWhole();
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        for (int notch = 0; notch < 40 && bar->value() < bar->maximum(); ++notch) {
            QWheelEvent wheel(QPointF(5, 5), area->viewport()->mapToGlobal(QPointF(5, 5)), QPoint(), QPoint(0, -120), Qt::NoButton,
                              Qt::NoModifier, Qt::NoScrollPhase, false);
            QApplication::sendEvent(area->viewport(), &wheel);
            problem = checkWhole();
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
        QCOMPARE(bar->value(), bar->maximum());
        int shown = 0;
        for (ts::widgets::LiveChart* c : charts->charts()) shown += c->isVisible() ? 1 : 0;
        QCOMPARE(seen.size(), shown);  // every chart was whole in view at some point

        // Scrolled to a middle row, the dock closed and opened again: taller, then shorter
        // rows, and still whole charts in view.
        bar->setValue(bar->maximum() / 2);
        w.findChild<QAction*>("actionJobs")->trigger();
        QTRY_VERIFY(!jobs->isVisible());
        QTest::qWait(50);
        problem = checkWhole();
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        w.findChild<QAction*>("actionJobs")->trigger();
        QTRY_VERIFY(jobs->isVisible());
        QTest::qWait(50);
        problem = checkWhole();
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void mainWindowShowsTheTrainPage()
    {
        MainWindow w;
        auto* stack = w.findChild<QStackedWidget*>("pages");
        auto* page = qobject_cast<TrainPage*>(stack->widget(int(Page::Train)));
        QVERIFY(page);
        QVERIFY(page->session() && page->session()->parent() == &w);
        auto* menu = w.findChild<QMenu*>("trainMenu");
        QVERIFY(menu);
        QCOMPARE(menu->actions(), page->trainActions());
        // The page fits the smallest window the shell supports (640x480 with the sidebar).
        QVERIFY2(page->minimumSizeHint().width() <= 460 && page->minimumSizeHint().height() <= 380,
                 qPrintable(QString("%1x%2").arg(page->minimumSizeHint().width()).arg(page->minimumSizeHint().height())));
        // No blank labels: tst_main_window checks every label of the window is translated.
        for (QLabel* label : page->findChildren<QLabel*>())
            QVERIFY2(!label->text().isEmpty(), qPrintable(label->objectName() + " in " + label->parent()->metaObject()->className()));
    }
};

int main(int argc, char** argv)
{
    // A scratch HOME and XDG dirs before Qt starts (settings, caches), as tst_main_window does.
    QTemporaryDir home;
    if (!home.isValid()) return 1;
    g_home = home.path();
    useScratchHome(g_home);

    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName("TrainStudio");
    QCoreApplication::setApplicationName("TrainStudio");
    TestTrainPage test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_train_page.moc"
