// The comparison's "Two models" and "Parallel coordinates" tabs against a real workspace:
// two small MLPs really trained one epoch on Fashion-MNIST (different seeds and learning
// rates) and really evaluated on its test and validation splits, their predictions read back
// from the store and recounted here with plain loops; and three runs with known settings
// written by a RunWriter for the axes, the lines' positions, hovering and clicking.
// Class names as Fashion-MNIST names them, or numbers with a note when its files are gone.
// Offscreen platform; screenshots go to build/screenshots/.
#include <QtTest>
#include <QtWidgets>

#include <qcustomplot.h>

#include <cmath>

#include "io/yaml/experiment_yaml.h"
#include "jobs/job.h"
#include "store/run_reader.h"
#include "store/run_writer.h"
#include "train/run_control.h"
#include "tiny_experiment.h"
#include "ui/runs/comparison_model.h"
#include "ui/runs/confusion_plot.h"
#include "ui/runs/model_diff_view.h"
#include "ui/runs/parallel_coordinates.h"
#include "ui/runs/run_comparison.h"
#include "ui/runs/sample_gallery.h"
#include "studio_suite.h"

using namespace ts;
using namespace ts::ui;

namespace {

const QStringList kFashionNames{"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};
constexpr int kSortRole = Qt::UserRole + 1;  // the tables' numbers (a class's: its index)

// A small MLP (784-32-10), one epoch, 10% of the training split held out for validation.
ExperimentSpec tinyExperiment(int seed, double lr)
{
    return parseExperiment(tinyFashionYaml("/usr/share/datasets/fashion-mnist", 1, 128, lr, seed).toStdString(),
                           "tiny_fashion.yaml");
}

struct Quiet : TrainListener {
    void onEvent(const TrainEvent&) override {}
};

// What the comparison should show, counted from the stored predictions without the engine.
struct Expected {
    std::vector<std::vector<double>> difference;  // rowNormalised(B) - rowNormalised(A)
    std::vector<double> recallA, recallB;
    std::vector<qint64> aRightBWrong, bRightAWrong;
};

Expected bruteForce(const std::vector<Prediction>& a, const std::vector<Prediction>& b, int classes)
{
    Expected e;
    std::vector<std::vector<double>> countA(classes, std::vector<double>(classes)), countB = countA;
    std::vector<double> support(classes);
    for (std::size_t i = 0; i < a.size(); ++i) {
        countA[a[i].label][a[i].predicted] += 1;
        countB[b[i].label][b[i].predicted] += 1;
        support[a[i].label] += 1;
        const bool ra = a[i].predicted == a[i].label, rb = b[i].predicted == b[i].label;
        if (ra && !rb) e.aRightBWrong.push_back(a[i].sample);
        if (rb && !ra) e.bRightAWrong.push_back(a[i].sample);
    }
    e.difference = countA;
    for (int t = 0; t < classes; ++t) {
        for (int p = 0; p < classes; ++p) e.difference[t][p] = (countB[t][p] - countA[t][p]) / support[t];
        e.recallA.push_back(countA[t][t] / support[t]);
        e.recallB.push_back(countB[t][t] / support[t]);
    }
    return e;
}

// Column `column` of `model`, through `role`, row by row.
QList<QVariant> column(const QAbstractItemModel& model, int column, int role = Qt::UserRole + 1)
{
    QList<QVariant> out;
    for (int r = 0; r < model.rowCount(); ++r) out << model.index(r, column).data(role);
    return out;
}

void saveScreenshot(QWidget& widget, const QString& name)
{
    QDir().mkpath(TS_SCREENSHOT_DIR);
    const QString path = QStringLiteral(TS_SCREENSHOT_DIR "/%1_x%2.png").arg(name).arg(widget.devicePixelRatioF());
    QVERIFY(widget.grab().save(path));
    qInfo("screenshot: %s", qPrintable(path));
}

}  // namespace

class TestRunComparison : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    Workspace m_ws;
    qint64 m_a = -1, m_b = -1, m_unevaluated = -1;

    qint64 train(int seed, double lr, const std::string& name)
    {
        JobEnvironment env;
        env.workspaceDir = m_ws.directory;
        env.cacheDir = m_dir.filePath("cache").toStdString();
        env.systemSampleSeconds = 0;
        RunControl control;
        Quiet quiet;
        const JobResult r = runJob(TrainJob{.experiment = tinyExperiment(seed, lr), .name = name}, env, control, quiet);
        if (r.finished.outcome != FinishedEvent::Outcome::Finished) qWarning("training failed: %s", r.finished.message.text.c_str());
        for (const char* split : {"test", "val"}) {
            RunControl again;
            const JobResult e = runJob(EvaluateJob{.runId = r.runId, .checkpoint = "last", .split = split}, env, again, quiet);
            if (e.evaluationId < 0) qWarning("evaluation failed: %s", e.finished.message.text.c_str());
        }
        return r.runId;
    }

    // Shows `ids` in a comparison with the Two models tab current, and waits for its result.
    std::unique_ptr<RunComparison> compare(RunReader& reader, const QList<qint64>& ids)
    {
        auto comparison = std::make_unique<RunComparison>();
        comparison->resize(1200, 640);
        comparison->show();
        comparison->findChild<QTabWidget*>("comparisonTabs")->setCurrentWidget(comparison->modelDiff());
        comparison->showRuns(reader, ids);
        return comparison;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY2(QFileInfo::exists("/usr/share/datasets/fashion-mnist"), "the test needs Fashion-MNIST");
        m_ws = Workspace::open(m_dir.filePath("ws").toStdString());
        QElapsedTimer clock;
        clock.start();
        m_a = train(1, 0.001, "seed 1");
        m_b = train(2, 0.003, "seed 2");
        qInfo("two runs trained and evaluated twice each in %.1f s", clock.elapsed() / 1000.0);
        RunWriter writer(m_ws);
        NewRun run;
        run.experimentName = "tiny_fashion";
        run.name = "never evaluated";
        m_unevaluated = writer.createRun(run);
        writer.finishRun(m_unevaluated, RunStatus::Finished, {"done"});
        writer.flush();
        RunReader reader(m_ws);
        QCOMPARE(reader.evaluations(m_a).size(), std::size_t(2));
        QCOMPARE(reader.evaluations(m_b).size(), std::size_t(2));
    }

    // The heat map, the per-class table and the sample lists hold what the stored predictions say.
    void twoModelsShowTheStoredDifference()
    {
        RunReader reader(m_ws);
        auto comparison = compare(reader, {m_a, m_b});
        ModelDiffView* view = comparison->modelDiff();
        QTRY_VERIFY_WITH_TIMEOUT(view->comparison().has_value(), 10000);
        QCOMPARE(view->split(), QString("test"));  // test first; val offered in the box
        QCOMPARE(view->splitBox()->count(), 2);
        QVERIFY(view->splitBox()->isEnabled());

        const std::vector<EvaluationRecord> evaluationsA = reader.evaluations(m_a), evaluationsB = reader.evaluations(m_b);
        const auto testOf = [](const std::vector<EvaluationRecord>& records) {
            return std::find_if(records.begin(), records.end(), [](const EvaluationRecord& r) { return r.split == "test"; })->id;
        };
        const std::vector<Prediction> a = reader.predictions(testOf(evaluationsA)), b = reader.predictions(testOf(evaluationsB));
        QCOMPARE(a.size(), std::size_t(10000));
        const Expected expected = bruteForce(a, b, 10);
        QVERIFY(!expected.aRightBWrong.empty() && !expected.bRightAWrong.empty());  // two seeds disagree somewhere

        // The class names, once run A's test split is open (off the UI thread), wherever a class is named.
        QTRY_VERIFY_WITH_TIMEOUT(!view->isOpeningClassNames(), 20000);
        QCOMPARE(view->classNames(), kFashionNames);
        QVERIFY2(view->classNamesNote().isEmpty(), qPrintable(view->classNamesNote()));
        ConfusionPlot* plot = view->differencePlot();
        QVERIFY(plot->showsDifference());
        for (int c = 0; c < 10; ++c) {
            QCOMPARE(plot->tickLabel(c), kFashionNames[c]);
            QCOMPARE(view->perClass()->item(c, 0)->text(), kFashionNames[c]);
            QCOMPARE(view->perClass()->item(c, 0)->data(kSortRole).toInt(), c);
        }

        // The heat map: the change on the diagonal, its negation off it (red: B worse), to 1e-12,
        // on a scale symmetric around 0 reaching the largest change (at least one point).
        QCPColorMap* map = plot->colorMap();
        QVERIFY(map);
        QCOMPARE(map->data()->keySize(), 10);
        double largest = 0.01;
        for (int t = 0; t < 10; ++t)
            for (int p = 0; p < 10; ++p) {
                const double shown = map->data()->cell(p, 9 - t), change = expected.difference[t][p];
                largest = std::max(largest, std::fabs(change));
                QVERIFY2(std::fabs(shown - (t == p ? change : -change)) < 1e-12,
                         qPrintable(QString("cell %1,%2: %3 vs %4").arg(t).arg(p).arg(shown).arg(change)));
            }
        QVERIFY(std::fabs(map->dataRange().lower + largest) < 1e-12 && std::fabs(map->dataRange().upper - largest) < 1e-12);
        auto* scale = plot->findChild<QCPColorScale*>();
        QVERIFY(scale);
        QCOMPARE(scale->dataRange(), map->dataRange());
        auto ticks = scale->axis()->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticks);
        const QMap<double, QString> labels = ticks->ticks();  // at the ends of the range, 0 between
        QCOMPARE(labels.size(), 3);
        QCOMPARE(labels.first(), QString("B worse"));
        QVERIFY(std::fabs(labels.firstKey() + largest) < 1e-12);
        QCOMPARE(labels.last(), QString("B better"));
        QVERIFY(std::fabs(labels.lastKey() - largest) < 1e-12);
        // The changes are written in at this size: B − A in points of the row, one decimal, signed; none where 0.0.
        QVERIFY2(plot->cellTextShown(), qPrintable(QString("heat map %1 x %2").arg(plot->width()).arg(plot->height())));
        for (int t = 0; t < 10; ++t)
            for (int p = 0; p < 10; ++p) {
                const double points = expected.difference[t][p] * 100;
                QString written = QLocale().toString(std::fabs(points), 'f', 1);
                written = written == QLocale().toString(0.0, 'f', 1) ? QString() : (points > 0 ? "+" : "\u2212") + written;
                QCOMPARE(plot->cellLabel({t, p}), written);
            }
        comparison->resize(560, 360);  // cramped: the numbers go, the colours stay; back when there is room
        QTest::qWait(50);
        plot->replot();
        QVERIFY2(!plot->cellTextShown(), qPrintable(QString("heat map %1 x %2").arg(plot->width()).arg(plot->height())));
        comparison->resize(1200, 640);
        QTest::qWait(50);
        plot->replot();
        QVERIFY(plot->cellTextShown());

        // Per class: recall of each and the delta (sort role: the value itself).
        const QStandardItemModel* perClass = view->perClass();
        QCOMPARE(perClass->rowCount(), 10);
        for (int k = 0; k < 10; ++k) {
            QVERIFY(std::fabs(perClass->item(k, 1)->data(Qt::UserRole + 1).toDouble() - expected.recallA[k]) < 1e-12);
            QVERIFY(std::fabs(perClass->item(k, 2)->data(Qt::UserRole + 1).toDouble() - expected.recallB[k]) < 1e-12);
            QVERIFY(std::fabs(perClass->item(k, 3)->data(Qt::UserRole + 1).toDouble() - (expected.recallB[k] - expected.recallA[k])) < 1e-12);
            QCOMPARE(perClass->item(k, 1)->text(), QLocale().toString(expected.recallA[k] * 100, 'f', 1));
        }

        // The counts and both lists, sample by sample, with each side's prediction and confidence.
        QVERIFY2(view->countsText().contains(QString("A right, B wrong: %1").arg(expected.aRightBWrong.size())), qPrintable(view->countsText()));
        QVERIFY(view->countsText().contains(QString("B right, A wrong: %1").arg(expected.bRightAWrong.size())));
        for (int list : {0, 1}) {
            view->listBox()->setCurrentIndex(list);
            emit view->listBox()->activated(list);
            const auto& wanted = list == 0 ? expected.aRightBWrong : expected.bRightAWrong;
            const QList<QVariant> samples = column(*view->samples(), 0);
            QCOMPARE(samples.size(), qsizetype(wanted.size()));
            for (std::size_t j = 0; j < wanted.size(); ++j) {
                const qint64 s = samples[qsizetype(j)].toLongLong();
                QCOMPARE(s, wanted[j]);
                const QStandardItemModel* shown = view->samples();
                QCOMPARE(shown->item(int(j), 1)->data(kSortRole).toLongLong(), a[std::size_t(s)].label);
                QCOMPARE(shown->item(int(j), 1)->text(), kFashionNames[int(a[std::size_t(s)].label)]);
                QCOMPARE(shown->item(int(j), 2)->data(kSortRole).toLongLong(), a[std::size_t(s)].predicted);
                QCOMPARE(shown->item(int(j), 2)->text(), kFashionNames[int(a[std::size_t(s)].predicted)]);
                QCOMPARE(view->samples()->item(int(j), 3)->data(Qt::UserRole + 1).toFloat(), a[std::size_t(s)].confidence);
                QCOMPARE(shown->item(int(j), 4)->data(kSortRole).toLongLong(), b[std::size_t(s)].predicted);
                QCOMPARE(shown->item(int(j), 4)->text(), kFashionNames[int(b[std::size_t(s)].predicted)]);
                QCOMPARE(view->samples()->item(int(j), 5)->data(Qt::UserRole + 1).toFloat(), b[std::size_t(s)].confidence);
            }
        }

        // Viewing them as images names the run that gets them wrong (A, for "B right, A wrong").
        QSignalSpy requested(view, &ModelDiffView::samplesRequested);
        QTest::mouseClick(view->viewImagesButton(), Qt::LeftButton);
        QCOMPARE(requested.count(), 1);
        QCOMPARE(requested.at(0).at(0).toLongLong(), m_a);
        QCOMPARE(requested.at(0).at(1).toString(), QString("test"));
        QCOMPARE(requested.at(0).at(2).value<QList<qint64>>().size(), qsizetype(expected.bRightAWrong.size()));
        QVERIFY(!requested.at(0).at(3).toString().isEmpty());
        // ... and shows them in a window of images, captioned with the predictions of the run that gets them wrong.
        QVERIFY(view->gallery());
        QTRY_VERIFY(view->gallery()->window()->isVisible());
        QCOMPARE(view->gallery()->model()->rowCount(), int(expected.bRightAWrong.size()));
        for (std::size_t i = 0; i < expected.bRightAWrong.size(); ++i) {
            const EvaluatedSample& shown = view->gallery()->model()->samples()[i];
            QCOMPARE(shown.sample, expected.bRightAWrong[i]);
            QVERIFY(shown.predicted != shown.label);  // run A's (wrong) prediction
        }
        // A double-click asks for the selected rows only.
        view->samplesView()->selectRow(0);
        emit view->samplesView()->doubleClicked(view->samplesView()->model()->index(0, 0));
        QCOMPARE(requested.count(), 2);
        QCOMPARE(requested.at(1).at(2).value<QList<qint64>>(), QList<qint64>{expected.bRightAWrong.front()});
        saveScreenshot(*comparison, "two_models");

        // The other shared split: the validation split's 6,000 samples.
        const int val = view->splitBox()->findData("val");
        QVERIFY(val >= 0);
        view->splitBox()->setCurrentIndex(val);
        emit view->splitBox()->activated(val);
        QTRY_VERIFY_WITH_TIMEOUT(view->comparison().has_value(), 10000);
        QCOMPARE(view->split(), QString("val"));
        QCOMPARE(view->comparison()->samples, 6000);
        QTRY_VERIFY_WITH_TIMEOUT(!view->isOpeningClassNames(), 20000);
        QCOMPARE(view->classNames(), kFashionNames);
    }

    // Run A's dataset gone (its experiment names a folder that does not exist): the same
    // comparison with class numbers, and a one-line note naming the missing folder.
    void classNumbersWhenTheDatasetIsGone()
    {
        const std::string gone = m_dir.filePath("moved-away/fashion-mnist").toStdString();
        qint64 orphan = -1;
        {
            RunReader reader(m_ws);
            std::string yaml = reader.run(m_a)->experimentYaml;
            const std::string path = "/usr/share/datasets/fashion-mnist";
            QVERIFY(yaml.find(path) != std::string::npos);
            yaml.replace(yaml.find(path), path.size(), gone);
            RunWriter writer(m_ws);
            NewRun run;
            run.experimentName = "tiny_fashion";
            run.experimentYaml = yaml;
            run.name = "dataset moved";
            orphan = writer.createRun(run);
            writer.finishRun(orphan, RunStatus::Finished, {"done"});
            EvaluationRecord test = reader.evaluations(m_a).front();
            QCOMPARE(test.split, std::string("test"));
            const std::vector<Prediction> predictions = reader.predictions(test.id);
            test.runId = orphan;
            writer.addEvaluation(test, predictions);
            writer.flush();
        }
        RunReader reader(m_ws);
        auto comparison = compare(reader, {orphan, m_b});
        ModelDiffView* view = comparison->modelDiff();
        QTRY_VERIFY_WITH_TIMEOUT(view->comparison().has_value(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!view->isOpeningClassNames(), 20000);
        QVERIFY(view->classNames().isEmpty());
        const QString note = view->classNamesNote();
        QVERIFY2(note.startsWith("Classes are shown by number: the dataset cannot be opened") &&
                     note.contains(QString::fromStdString(gone)) && !note.contains('\n'),
                 qPrintable(note));
        // On one line, elided to the label's width (the whole of it in the tooltip).
        const QLabel* noteLabel = view->findChild<QLabel*>("modelDiffNamesNote");
        QVERIFY(noteLabel->isVisible());
        QTRY_VERIFY(noteLabel->text().endsWith(QChar(0x2026)));  // this reason is longer than the window
        QVERIFY(noteLabel->fontMetrics().horizontalAdvance(noteLabel->text()) <= noteLabel->width());
        QCOMPARE(noteLabel->toolTip().contains(QString::fromStdString(gone)), true);
        for (int c = 0; c < 10; ++c) {
            QCOMPARE(view->differencePlot()->tickLabel(c), QString::number(c));
            QCOMPARE(view->perClass()->item(c, 0)->text(), QString::number(c));
        }
        QVERIFY(view->samples()->rowCount() > 0);
        QCOMPARE(view->samples()->item(0, 1)->text(), QString::number(view->samples()->item(0, 1)->data(kSortRole).toLongLong()));
        saveScreenshot(*comparison, "two_models_dataset_gone");
    }

    // The UI thread's share: reading two evaluations' predictions (the comparison itself runs
    // on a worker). Measured and reported; the bound is loose, for a loaded machine.
    void readingPredictionsIsQuick()
    {
        RunReader reader(m_ws);
        const std::int64_t id = reader.evaluations(m_a).front().id;
        QElapsedTimer clock;
        clock.start();
        const std::vector<Prediction> p = reader.predictions(id);
        const double ms = clock.nsecsElapsed() / 1e6;
        qInfo("read %zu predictions in %.1f ms", p.size(), ms);
        QVERIFY2(ms < 500, qPrintable(QString("%1 ms").arg(ms)));
    }

    // Three runs: the tab is off; a pair with no common split: a message naming the way out.
    void withoutCommonEvaluationTheTabSaysWhatToDo()
    {
        RunReader reader(m_ws);
        auto comparison = compare(reader, {m_a, m_unevaluated});
        ModelDiffView* view = comparison->modelDiff();
        const QString message = view->messageText();
        QVERIFY2(message.contains("no evaluation on a common split") && message.contains("Evaluate") &&
                     message.contains(QString("run %1: none").arg(m_unevaluated)) && message.contains("test, val"),
                 qPrintable(message));
        QVERIFY(!view->comparison());
        auto* tabs = comparison->findChild<QTabWidget*>("comparisonTabs");
        QVERIFY(tabs->isTabEnabled(tabs->indexOf(view)));
        comparison->showRuns(reader, {m_a, m_b, m_unevaluated});
        QVERIFY(!tabs->isTabEnabled(tabs->indexOf(view)));
        QVERIFY(tabs->currentWidget() != view);
    }

    // Axes for the settings that differ only: a log axis for a learning rate over three
    // decades, a linear one for the batch size, labels for the optimizer; then the result.
    void parallelCoordinatesAxesAndLines()
    {
        RunWriter writer(m_ws);
        struct Known {
            const char *lr, *batch, *type;
            double valAcc;
        };
        const Known known[] = {{"0.0001", "64", "adam", 0.80}, {"0.01", "128", "sgd", 0.90}, {"0.1", "256", "adam", 0.85}};
        QList<qint64> ids;
        for (const Known& k : known) {
            NewRun run;
            run.experimentName = "sweep";
            run.name = std::string("lr ") + k.lr;
            run.parameters = {{"optimizer.lr", k.lr}, {"training.batch_size", k.batch}, {"optimizer.type", k.type},
                              {"training.epochs", "3"}};
            const qint64 id = writer.createRun(run);
            writer.addMetric(id, "val_acc", 10, k.valAcc - 0.1, 1);
            writer.addMetric(id, "val_acc", 20, k.valAcc, 2);
            writer.finishRun(id, RunStatus::Finished, {"done"});
            ids << id;
        }
        writer.flush();
        RunReader reader(m_ws);
        RunComparison comparison;
        comparison.resize(1000, 560);
        comparison.show();
        comparison.findChild<QTabWidget*>("comparisonTabs")->setCurrentWidget(comparison.parallelCoordinates());
        comparison.showRuns(reader, ids);
        ParallelCoordinates* chart = comparison.parallelCoordinates();
        QVERIFY(QTest::qWaitForWindowExposed(&comparison));

        QStringList names;
        for (const auto& axis : chart->axes()) names << axis.name;
        QCOMPARE(names, (QStringList{"optimizer.lr", "optimizer.type", "training.batch_size", "best val_acc"}));  // not epochs
        const auto& axes = chart->axes();
        QVERIFY(axes[0].log && !axes[0].categorical);
        QVERIFY(axes[1].categorical);
        QCOMPARE(axes[1].categories, (QStringList{"adam", "sgd"}));
        QVERIFY(!axes[2].log && !axes[2].categorical);
        QVERIFY(axes[3].result);
        // Where each line crosses each axis, from the values: log10 -4, -2, -1 over [-4, -1];
        // 64, 128, 256 over [64, 256]; adam bottom, sgd top; 80, 90, 85 % over [80, 90].
        const double expected[4][3] = {{0, 2.0 / 3, 1}, {0, 1, 0}, {0, 64.0 / 192, 1}, {0, 1, 0.5}};
        for (int a = 0; a < 4; ++a)
            for (int r = 0; r < 3; ++r)
                QVERIFY2(std::fabs(chart->position(a, r) - expected[a][r]) < 1e-9,
                         qPrintable(QString("axis %1 run %2: %3").arg(a).arg(r).arg(chart->position(a, r))));

        // Drawn there: midway between two axes each line's pixel has its colour.
        const QImage image = chart->grab().toImage();
        const double ratio = image.devicePixelRatio();
        for (int a = 0; a + 1 < 4; ++a)
            for (int r = 0; r < 3; ++r) {
                const QPointF mid = (chart->vertex(a, r) + chart->vertex(a + 1, r)) / 2;
                bool alone = true;
                for (int o = 0; o < 3; ++o)
                    if (o != r && std::fabs(((chart->vertex(a, o) + chart->vertex(a + 1, o)) / 2).y() - mid.y()) < 6) alone = false;
                if (!alone) continue;
                // The nearest pixel to the line's centre among the 3 x 3 around it (antialiased edges blend).
                const QColor colour = chart->colourOf(r);
                int nearest = 1 << 30;
                QColor drawn;
                for (int dx = -1; dx <= 1; ++dx)
                    for (int dy = -1; dy <= 1; ++dy) {
                        const QColor pixel = image.pixelColor((mid * ratio).toPoint() + QPoint(dx, dy));
                        const int d = std::abs(pixel.red() - colour.red()) + std::abs(pixel.green() - colour.green()) +
                                      std::abs(pixel.blue() - colour.blue());
                        if (d < nearest) nearest = d, drawn = pixel;
                    }
                QVERIFY2(nearest < 60, qPrintable(QString("axis %1 run %2: %3 drawn, %4 expected").arg(a).arg(r).arg(drawn.name(), colour.name())));
            }
        saveScreenshot(comparison, "parallel_coordinates");

        // Hover names the run; a click selects it (the comparison's runActivated).
        const QPointF onSecond = (chart->vertex(0, 1) + chart->vertex(1, 1)) / 2;
        QTest::mouseMove(chart, onSecond.toPoint());
        QTRY_COMPARE(chart->hoveredRun(), 1);
        QVERIFY(chart->findChild<QLabel*>("parallelHovered")->text().contains("lr 0.01"));
        QSignalSpy activated(&comparison, &RunComparison::runActivated);
        QTest::mouseClick(chart, Qt::LeftButton, {}, onSecond.toPoint());
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.at(0).at(0).toLongLong(), ids[1]);
        saveScreenshot(comparison, "parallel_coordinates_hover");
        QTest::mouseClick(chart, Qt::LeftButton, {}, QPoint(3, chart->height() - 3));  // nowhere near a line
        QCOMPARE(activated.count(), 1);
    }
};

int main(int argc, char** argv) { return runStudioSuite<TestRunComparison>(argc, argv); }
#include "tst_run_comparison.moc"
