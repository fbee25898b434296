// The Hyperparameters page's schedule preview chart (ui/hyperparameters/schedule_preview_chart)
// on real data: the tiny Fashion-MNIST MLP (tests/common/tiny_experiment.h), whose training
// split is counted off the UI thread, and a scratch workspace holding one real run of it (and
// one run of another experiment, which must not be overlaid). What the chart holds is read
// back through its CSV export (shortest round-trip numbers, so exact).
//
// Tolerances: none. Rates are compared with ==; the split's size is checked against the
// numbers of the files (60,000 training images, 10% held out = 54,000).
#include <QtTest>
#include <QtWidgets>

#include <cmath>

#include "scratch_home.h"
#include "tiny_experiment.h"
#include "io/yaml/experiment_yaml.h"
#include "jobs/job.h"
#include "live_chart.h"
#include "optim/schedule_preview.h"
#include "store/run_reader.h"
#include "store/workspace.h"
#include "train/run_control.h"
#include "ui/hyperparameters/schedule_preview_chart.h"

using namespace ts;
using namespace ts::ui;

namespace {

const QString kFashion = QStringLiteral("/usr/share/datasets/fashion-mnist");
constexpr std::int64_t kTrainSamples = 54000;  // 60,000 minus the 10% validation carve
QString g_home;

struct Point {
    double step = 0, value = 0;
};

// Every point of every series in the chart, by series id, from its CSV export.
QMap<QString, QVector<Point>> chartPoints(widgets::LiveChart* chart, const QString& path)
{
    QMap<QString, QVector<Point>> out;
    if (!chart->exportCsv(path)) return out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return out;
    f.readLine();  // header: series,label,step,epoch,wall_time_s,value
    while (!f.atEnd()) {
        const QList<QByteArray> cells = f.readLine().trimmed().split(',');
        if (cells.size() != 6) continue;
        out[QString::fromUtf8(cells[0])].push_back({cells[2].toDouble(), cells[5].toDouble()});
    }
    return out;
}

// The tiny MLP for one epoch in batches of 256 (54,000 / 256 leaves a ragged 240), with `schedule`.
ExperimentSpec tinySpec(const QString& dir, const ScheduleSpec& schedule)
{
    QFile f(dir + "/tiny_fashion.yaml");
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) return {};
    f.write(tinyFashionYaml(kFashion, 1, 256, 0.003, 1).toUtf8());
    f.close();
    ExperimentSpec spec = loadExperiment(f.fileName().toStdString());
    spec.schedule = schedule;
    return spec;
}

ScheduleSpec cosineWithWarmup()
{
    ScheduleSpec s;
    s.type = "cosine";
    s.warmupSteps = 30;
    s.warmupStartFactor = 0.1;
    s.minLr = 1e-5;
    return s;
}

}  // namespace

class TestSchedulePreviewChart : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QString ws_;
    qint64 runId_ = -1;
    QString runName_;

    QString csvPath() const { return dir_.filePath("chart.csv"); }

    static bool settle(SchedulePreviewChart& chart)
    {
        return QTest::qWaitFor([&] { return !chart.isBusy(); }, 60000);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        QVERIFY2(QFileInfo::exists(kFashion + "/train-images-idx3-ubyte.gz") ||
                     QFileInfo::exists(kFashion + "/train-images-idx3-ubyte"),
                 "Fashion-MNIST is not at /usr/share/datasets/fashion-mnist");
        ws_ = dir_.filePath("ws");
        // One real run of the tiny MLP (cosine with warm-up, every step logged) ...
        JobEnvironment env;
        env.workspaceDir = ws_.toStdString();
        env.systemSampleSeconds = 0;
        struct Quiet : TrainListener {
            void onEvent(const TrainEvent&) override {}
        } quiet;
        RunControl control;
        const JobResult run = runJob(TrainJob{.experiment = tinySpec(dir_.path(), cosineWithWarmup())}, env, control, quiet);
        QVERIFY2(run.finished.outcome == FinishedEvent::Outcome::Finished, run.finished.message.text.c_str());
        runId_ = run.runId;
        RunReader reader(Workspace::open(ws_.toStdString()));
        runName_ = QString::fromStdString(reader.run(runId_)->name);
        // ... and one of another experiment, which the overlay must leave out.
        ExperimentSpec other = tinySpec(dir_.path(), cosineWithWarmup());
        other.name = "other_experiment";
        other.training.overfitBatches = 2;
        RunControl again;
        QCOMPARE(runJob(TrainJob{.experiment = other}, env, again, quiet).finished.outcome, FinishedEvent::Outcome::Finished);
    }

    // The curve holds a point per optimizer step, each the engine's preview of that step.
    void curveIsThePreview()
    {
        SchedulePreviewChart chart;
        chart.resize(700, 420);
        chart.show();
        ScheduleSpec constant;
        constant.warmupSteps = 20;
        const ExperimentSpec spec = tinySpec(dir_.path(), constant);
        QSignalSpy drawn(&chart, &SchedulePreviewChart::previewDrawn);
        chart.setExperiment(spec);
        QVERIFY(!chart.hasPreview());  // the split is counted on a worker first
        QVERIFY(chart.isBusy());
        QVERIFY(settle(chart));
        QVERIFY(chart.hasPreview());
        QVERIFY(drawn.count() >= 1);

        const std::vector<double> expected = previewLearningRates(spec, kTrainSamples);
        QCOMPARE(chart.preview().plan.totalSteps, kTrainSamples / 256);  // 210: the ragged 240 are dropped
        QCOMPARE(expected.size(), std::size_t(210));
        QCOMPARE(chart.chart()->pointCount(QStringLiteral("preview")), expected.size());
        const auto points = chartPoints(chart.chart(), csvPath())[QStringLiteral("preview")];
        QCOMPARE(std::size_t(points.size()), expected.size());
        for (qsizetype k = 0; k < points.size(); ++k) {
            QCOMPARE(points[k].step, double(k + 1));
            QVERIFY2(points[k].value == expected[std::size_t(k)], qPrintable(QString("step %1").arg(k + 1)));
        }
        QVERIFY2(chart.summaryText().contains(QLocale().toString(210)), qPrintable(chart.summaryText()));
        QVERIFY(!chart.upperBoundNoteShown());

        // Another schedule on the same data: drawn at once, no second count.
        ExperimentSpec cosine = spec;
        cosine.schedule = cosineWithWarmup();
        chart.setExperiment(cosine);
        QVERIFY(!chart.isBusy());
        QVERIFY(chart.hasPreview());
        const std::vector<double> cosineRates = previewLearningRates(cosine, kTrainSamples);
        QVERIFY(cosineRates != expected);
        const auto redrawn = chartPoints(chart.chart(), csvPath())[QStringLiteral("preview")];
        QCOMPARE(std::size_t(redrawn.size()), cosineRates.size());
        for (qsizetype k = 0; k < redrawn.size(); ++k) QVERIFY(redrawn[k].value == cosineRates[std::size_t(k)]);

        // Accumulation halves the steps (105 of 2 batches each).
        ExperimentSpec accumulated = cosine;
        accumulated.training.accumulationSteps = 2;
        chart.setExperiment(accumulated);
        QCOMPARE(chart.chart()->pointCount(QStringLiteral("preview")), std::size_t(105));

        // The hover: step, epoch and the rate there.
        const QString readout = chart.readoutAt(3.2);
        QVERIFY2(readout.contains(QStringLiteral("Step 3 ")), qPrintable(readout));
        QVERIFY2(readout.contains(QLocale().toString(previewLearningRates(accumulated, kTrainSamples)[2], 'g', 5)),
                 qPrintable(readout));
    }

    void plateauSaysItIsAnUpperBound()
    {
        SchedulePreviewChart chart;
        ScheduleSpec plateau;
        plateau.type = "plateau";
        chart.setExperiment(tinySpec(dir_.path(), plateau));
        QVERIFY(settle(chart));
        QVERIFY(chart.hasPreview());
        QVERIFY(chart.preview().isUpperBound);
        QVERIFY(chart.upperBoundNoteShown());
        chart.setExperiment(tinySpec(dir_.path(), cosineWithWarmup()));
        QVERIFY(!chart.upperBoundNoteShown());
    }

    // What the trainer would refuse is said, not drawn; a missing dataset too.
    void badSettingsShowTheReason()
    {
        SchedulePreviewChart chart;
        ExperimentSpec tooBig = tinySpec(dir_.path(), cosineWithWarmup());
        tooBig.training.batchSize = 100000;
        chart.setExperiment(tooBig);
        QVERIFY(settle(chart));
        QVERIFY(!chart.hasPreview());
        QVERIFY2(chart.summaryText().contains("fewer than one batch of 100000"), qPrintable(chart.summaryText()));
        QVERIFY(chart.chart()->isEmpty());

        ExperimentSpec missing = tinySpec(dir_.path(), cosineWithWarmup());
        missing.dataset.path = dir_.filePath("no_such_data").toStdString();
        chart.setExperiment(missing);
        QVERIFY(settle(chart));
        QVERIFY(!chart.hasPreview());
        QVERIFY2(chart.summaryText().contains("no_such_data"), qPrintable(chart.summaryText()));
    }

    // The run trained in initTestCase logged exactly the preview, and the overlay shows it.
    void overlayShowsLoggedRates()
    {
        SchedulePreviewChart chart;
        const ExperimentSpec spec = tinySpec(dir_.path(), cosineWithWarmup());
        QSignalSpy loaded(&chart, &SchedulePreviewChart::overlayLoaded);
        chart.setExperiment(spec);
        chart.setWorkspace(ws_);
        QVERIFY(settle(chart));
        QVERIFY(loaded.count() >= 1);
        QCOMPARE(chart.overlaidRuns(), QStringList{runName_});  // not other_experiment's run

        const std::vector<double> rates = previewLearningRates(spec, kTrainSamples);
        const auto points = chartPoints(chart.chart(), csvPath());
        const auto logged = points.value(QStringLiteral("run_%1").arg(runId_));
        QCOMPARE(std::size_t(logged.size()), rates.size());
        for (qsizetype k = 0; k < logged.size(); ++k) {
            QCOMPARE(logged[k].step, double(k + 1));
            QVERIFY2(logged[k].value == rates[std::size_t(k)], qPrintable(QString("step %1").arg(k + 1)));
        }
        // The readout names the run with its rate.
        QVERIFY2(chart.readoutAt(100).contains(runName_), qPrintable(chart.readoutAt(100)));

        // The box hides and brings back the past runs.
        chart.overlayBox()->setChecked(false);
        QCOMPARE(chart.chart()->seriesIds(), QStringList{QStringLiteral("preview")});
        QVERIFY(chart.overlaidRuns().isEmpty());
        chart.overlayBox()->setChecked(true);
        QVERIFY(settle(chart));
        QCOMPARE(chart.overlaidRuns(), QStringList{runName_});

        // Another experiment's name: its own past runs only.
        ExperimentSpec other = spec;
        other.name = "never_trained";
        chart.setExperiment(other);
        QVERIFY(settle(chart));
        QVERIFY(chart.overlaidRuns().isEmpty());
    }

    // Screenshots to look at: build/screenshots/schedule_preview_<scale>.png (ctest runs this
    // again with QT_SCALE_FACTOR=1.5).
    void screenshot()
    {
        SchedulePreviewChart chart;
        chart.resize(760, 440);
        chart.setExperiment(tinySpec(dir_.path(), cosineWithWarmup()));
        chart.setWorkspace(ws_);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QVERIFY(settle(chart));
        chart.logScaleBox()->setChecked(true);
        QCOMPARE(chart.chart()->logY(), true);
        chart.chart()->replotNow();
        QTest::qWait(50);
        const QString scale = qEnvironmentVariableIsSet("QT_SCALE_FACTOR") ? qEnvironmentVariable("QT_SCALE_FACTOR")
                                                                           : QStringLiteral("1");
        QDir().mkpath(QStringLiteral(TS_SCREENSHOT_DIR));
        const QString path = QStringLiteral(TS_SCREENSHOT_DIR "/schedule_preview_%1.png").arg(scale);
        QVERIFY(chart.grab().save(path));
        qInfo("screenshot: %s", qPrintable(path));
        // Plateau over 4 epochs, linear: the upper-bound note above the plot, epoch lines.
        ScheduleSpec plateau;
        plateau.type = "plateau";
        plateau.warmupSteps = 100;
        ExperimentSpec longer = tinySpec(dir_.path(), plateau);
        longer.training.epochs = 4;
        longer.training.accumulationSteps = 2;
        chart.setExperiment(longer);
        chart.logScaleBox()->setChecked(false);
        chart.chart()->replotNow();
        QTest::qWait(50);
        QVERIFY(chart.grab().save(QStringLiteral(TS_SCREENSHOT_DIR "/schedule_preview_plateau_%1.png").arg(scale)));
    }
};

int main(int argc, char** argv)
{
    QTemporaryDir home;  // a scratch HOME before Qt starts: the dataset statistics cache lands there
    if (!home.isValid()) return 1;
    g_home = home.path();
    useScratchHome(g_home);
    QApplication app(argc, argv);
    TestSchedulePreviewChart test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_schedule_preview_chart.moc"
