// The Evaluation tab against a really trained and evaluated run: an MLP trained one epoch on
// 3,000 real Fashion-MNIST images and evaluated on 1,000 real test images (the first of each
// split, written as IDX files into a scratch folder whose name says "fashion", so the reader
// names the classes). Checked against the predictions as the store keeps them: class names
// from the dataset, a confusion cell's samples and images, the worst samples by loss, the
// ROC curves and their AUCs (recomputed here by Mann-Whitney), and a dataset that has gone.
// Offscreen platform, a scratch HOME, real widgets.
#include <QtTest>
#include <QtWidgets>

#include <qcustomplot.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "evaluated_run.h"
#include "scratch_home.h"
#include "data/dataset.h"
#include "image_grid.h"
#include "io/yaml/experiment_yaml.h"
#include "io/yaml/shipped_experiments.h"
#include "jobs/job.h"
#include "store/run_reader.h"
#include "train/classification_report.h"
#include "train/run_control.h"
#include "ui/runs/confusion_plot.h"
#include "ui/runs/evaluation_curves.h"
#include "ui/runs/evaluation_view.h"
#include "ui/runs/sample_gallery.h"

using namespace ts;
using namespace ts::ui;

namespace {

const char* kFashion = "/usr/share/datasets/fashion-mnist";
const QStringList kFashionNames{"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};

// -log p(label), clipped as the calibration's NLL clips (2.22e-16).
double loss(const Prediction& p) { return -std::log(std::max(double(p.probabilities[std::size_t(p.label)]), 2.220446049250313e-16)); }

// One-vs-rest AUC as the Mann-Whitney statistic: the chance that a positive outscores a
// negative, ties counting half. Independent of the curve the report builds.
double mannWhitneyAuc(const std::vector<Prediction>& predictions, std::int64_t positive)
{
    std::vector<double> pos, neg;
    for (const Prediction& p : predictions) (p.label == positive ? pos : neg).push_back(p.probabilities[std::size_t(positive)]);
    if (pos.empty() || neg.empty()) return NAN;
    std::sort(neg.begin(), neg.end());
    double wins = 0;
    for (double s : pos) {
        const auto below = std::lower_bound(neg.begin(), neg.end(), s) - neg.begin();
        const auto notAbove = std::upper_bound(neg.begin(), neg.end(), s) - neg.begin();
        wins += double(below) + 0.5 * double(notAbove - below);
    }
    return wins / (double(pos.size()) * double(neg.size()));
}

std::vector<qint64> listedSamples(const EvaluationSamples* model)
{
    std::vector<qint64> out;
    for (int row = 0; row < model->rowCount(); ++row) out.push_back(model->index(row).data(EvaluationSamples::SampleRole).toLongLong());
    return out;
}

QString screenshotDir()
{
    const QString dir = qEnvironmentVariableIsEmpty("TS_SCREENSHOT_DIR") ? QStringLiteral(TS_SCREENSHOT_DIR)
                                                                           : qEnvironmentVariable("TS_SCREENSHOT_DIR");
    QDir().mkpath(dir);
    return dir;
}

}  // namespace

class TestEvaluationView : public QObject {
    Q_OBJECT

    QTemporaryDir m_root;
    std::string m_data;  // the scratch Fashion-MNIST subset
    Workspace m_ws;
    qint64 m_runId = -1, m_evaluationId = -1;
    std::vector<Prediction> m_predictions;  // as the store keeps them

    // A shown view of the run, its split opened (or failed to open).
    std::unique_ptr<EvaluationView> openView(RunReader& reader)
    {
        auto view = std::make_unique<EvaluationView>();
        view->resize(1100, 650);
        view->show();
        if (!QTest::qWaitForWindowExposed(view.get())) return nullptr;
        view->showRun(reader, m_runId);
        if (!QTest::qWaitFor([&] { return !view->samples()->isOpening(); }, 20000)) return nullptr;
        return view;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        m_data = m_root.filePath("fashion-mnist-subset").toStdString();
        std::filesystem::create_directories(m_data);
        DatasetSpec full;
        full.format = "idx";
        full.path = kFashion;
        full.validationFraction = 0;
        const DatasetSplits real = openDataset(full, ".", "");
        QVERIFY(real.test);
        test::writeIdxSubset(*real.train, 3000, m_data, "train");
        test::writeIdxSubset(*real.test, 1000, m_data, "t10k");

        ExperimentSpec spec = loadExperiment((shippedExperimentsDirectory() / "fashion_mnist_mlp.yaml").string());
        spec.dataset.path = m_data;
        spec.dataset.numWorkers = 1;
        spec.training.epochs = 1;
        spec.training.device = "cpu";
        m_ws = Workspace::open(m_root.filePath("workspace").toStdString());
        const test::EvaluatedRun run = test::trainAndEvaluate(spec, m_ws.directory);
        QVERIFY2(run.error.empty(), run.error.c_str());
        m_runId = run.runId;
        m_evaluationId = run.evaluationId;
        m_predictions = RunReader(m_ws).predictions(m_evaluationId);
        QCOMPARE(m_predictions.size(), std::size_t(1000));  // the test split, all of it
    }

    void classNamesComeFromTheDataset()
    {
        RunReader reader(m_ws);
        EvaluationView view;
        view.showRun(reader, m_runId);
        // Until the split is open (it opens on a worker; the result lands through the event
        // loop, which has not run yet): class numbers.
        QVERIFY(view.samples()->isOpening());
        QCOMPARE(view.perClass()->item(6, 0)->text(), QString("6"));
        QCOMPARE(view.confusionPlot()->tickLabel(6), QString("6"));
        QVERIFY2(view.samples()->note().contains("Opening"), qPrintable(view.samples()->note()));
        QTRY_VERIFY_WITH_TIMEOUT(!view.samples()->isOpening(), 20000);
        QVERIFY2(view.samples()->note().isEmpty(), qPrintable(view.samples()->note()));

        // The names the dataset itself gives, in order, wherever a class is named.
        DatasetSpec spec;
        spec.path = m_data;
        spec.validationFraction = 0;
        std::vector<std::string> expected = openDataset(spec, ".", "").test->classNames();
        QCOMPARE(int(expected.size()), 10);
        QCOMPARE(view.classNames(), kFashionNames);
        for (int c = 0; c < 10; ++c) {
            QCOMPARE(view.classNames()[c], QString::fromStdString(expected[std::size_t(c)]));
            QCOMPARE(view.perClass()->item(c, 0)->text(), kFashionNames[c]);
            QCOMPARE(view.confusionPlot()->tickLabel(c), kFashionNames[c]);
            QVERIFY(view.curves()->rocCurve(c)->name().startsWith(kFashionNames[c] + " (AUC "));
        }
        QCOMPARE(view.samples()->model()->className(9), QString("Ankle boot"));
    }

    void confusionCellListsExactlyItsSamples()
    {
        RunReader reader(m_ws);
        auto view = openView(reader);
        QVERIFY(view);
        // The most frequent mistake, from the stored predictions.
        std::map<std::pair<int, int>, std::vector<qint64>> cells;
        for (const Prediction& p : m_predictions) cells[{int(p.label), int(p.predicted)}].push_back(p.sample);
        std::pair<int, int> worst{-1, -1};
        for (const auto& [cell, samples] : cells)
            if (cell.first != cell.second && (worst.first < 0 || samples.size() > cells[worst].size())) worst = cell;
        QVERIFY(worst.first >= 0);
        const std::vector<qint64>& expected = cells[worst];
        QVERIFY(expected.size() >= 2);

        // A click on that cell of the heat map (the tab is the first, so the plot is laid out).
        ConfusionPlot* plot = view->confusionPlot();
        QCOMPARE(view->tabs()->currentIndex(), 0);
        plot->replot();
        const QPointF centre = plot->cellCenter(worst);
        QVERIFY(plot->cellAt(centre) == std::optional(worst));
        QTest::mouseClick(plot, Qt::LeftButton, Qt::NoModifier, centre.toPoint());
        QVERIFY(plot->selectedCell() == std::optional(worst));
        const EvaluationSamples* model = view->samples()->model();
        QCOMPARE(listedSamples(model), expected);
        const QString title = view->samples()->grid()->title();
        QCOMPARE(title, QString("%1 samples: %2 predicted as %3").arg(expected.size()).arg(kFashionNames[worst.first],
                                                                                            kFashionNames[worst.second]));
        for (int row = 0; row < model->rowCount(); ++row) {
            const QModelIndex index = model->index(row);
            QCOMPARE(index.data(EvaluationSamples::LabelRole).toLongLong(), qint64(worst.first));
            QCOMPARE(index.data(EvaluationSamples::PredictedRole).toLongLong(), qint64(worst.second));
        }

        // The image is that sample of the test split: its bytes as the IDX file holds them.
        const Prediction& first = m_predictions[std::size_t(expected.front())];
        QCOMPARE(first.sample, expected.front());
        const QImage image = model->index(0).data(Qt::DecorationRole).value<QImage>();
        QCOMPARE(image.size(), QSize(28, 28));
        QCOMPARE(image.format(), QImage::Format_Grayscale8);
        std::ifstream idx(m_data + "/t10k-images-idx3-ubyte", std::ios::binary);
        idx.seekg(16 + first.sample * 784);
        std::vector<char> bytes(784);
        idx.read(bytes.data(), 784);
        for (int y = 0; y < 28; ++y)
            for (int x = 0; x < 28; ++x) QCOMPARE(int(image.constScanLine(y)[x]), int(uchar(bytes[std::size_t(y * 28 + x)])));
        QCOMPARE(model->index(0).data().toString(),
                 QString("%1 →\u00a0%2 (%3\u00a0%)")
                     .arg(kFashionNames[worst.first], kFashionNames[worst.second])
                     .arg(QLocale().toString(double(first.confidence) * 100, 'f', 0)));

        // A diagonal cell: the correctly recognised samples of that class.
        view->showConfusionCell(1, 1);
        std::vector<qint64> trousers = cells[{1, 1}];
        QCOMPARE(listedSamples(model), trousers);
        QCOMPARE(view->samples()->grid()->title(), QString("%1 samples: Trouser predicted correctly").arg(trousers.size()));
        // Only rows in view have been decoded (the grid is virtual): far fewer than listed.
        QTest::qWait(50);
        QVERIFY(model->decodedImages() <= 200);
    }

    // A language model's vocabulary is hundreds of classes: the matrix is drawn as colours (no
    // number fits a cell) in well under a second, and each cell still names its count (before,
    // 512 classes made 262,144 text items and froze the Runs page for minutes).
    void largeMatrixDrawsQuickly()
    {
        const int n = 512;
        std::vector<std::vector<std::int64_t>> counts(n, std::vector<std::int64_t>(n, 0));
        for (int t = 0; t < n; ++t) counts[std::size_t(t)][std::size_t((t * 7) % n)] = t + 1;
        ConfusionPlot plot;
        plot.resize(600, 600);
        QElapsedTimer timer;
        timer.start();
        plot.setMatrix(counts);
        plot.replot();
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString("%1 ms").arg(timer.elapsed())));
        QVERIFY(!plot.cellTextShown());
        QCOMPARE(plot.cellLabel({300, (300 * 7) % n}), QLocale().toString(301));
        QCOMPARE(plot.cellLabel({300, 0}), QLocale().toString(0));
    }

    void worstSamplesByLossDescending()
    {
        RunReader reader(m_ws);
        auto view = openView(reader);
        QVERIFY(view);
        view->showConfusionCell(0, 0);
        view->findChild<QPushButton*>("worstSamplesButton")->click();
        const EvaluationSamples* model = view->samples()->model();
        QCOMPARE(model->rowCount(), 1000);
        double previous = INFINITY;
        for (int row = 0; row < model->rowCount(); ++row) {
            const QModelIndex index = model->index(row);
            const double l = index.data(EvaluationSamples::LossRole).toDouble();
            QVERIFY2(l <= previous, qPrintable(QString("row %1: %2 after %3").arg(row).arg(l).arg(previous)));
            previous = l;
            const Prediction& p = m_predictions[std::size_t(index.data(EvaluationSamples::SampleRole).toLongLong())];
            QCOMPARE(l, loss(p));
        }
        // The first is the maximum, found here independently of the view's sort.
        const auto worst = std::max_element(m_predictions.begin(), m_predictions.end(),
                                            [](const Prediction& a, const Prediction& b) { return loss(a) < loss(b); });
        QCOMPARE(model->index(0).data(EvaluationSamples::LossRole).toDouble(), loss(*worst));
        QCOMPARE(model->index(0).data(EvaluationSamples::SampleRole).toLongLong(), worst->sample);
        QVERIFY(worst->label != worst->predicted);  // the worst is a confident mistake
        QCOMPARE(model->index(0).data().toString(),
                 QString("%1 →\u00a0%2 (%3\u00a0%)")
                     .arg(kFashionNames[int(worst->label)], kFashionNames[int(worst->predicted)])
                     .arg(QLocale().toString(double(worst->confidence) * 100, 'f', 0)));
        QVERIFY(view->samples()->grid()->title().startsWith("Worst samples"));
        QVERIFY(!view->confusionPlot()->selectedCell());
    }

    void rocCurvesAndTheirAreas()
    {
        RunReader reader(m_ws);
        auto view = openView(reader);
        QVERIFY(view);
        EvaluationCurves* curves = view->curves();
        for (int c = 0; c < 10; ++c) {
            const RocCurve expected = rocCurve(m_predictions, c);
            QCPCurve* drawn = curves->rocCurve(c);
            QVERIFY(drawn);
            QCOMPARE(drawn->data()->size(), int(expected.falsePositiveRate.size()));
            int i = 0;
            for (auto it = drawn->data()->constBegin(); it != drawn->data()->constEnd(); ++it, ++i) {
                QCOMPARE(it->key, expected.falsePositiveRate[std::size_t(i)]);
                QCOMPARE(it->value, expected.truePositiveRate[std::size_t(i)]);
            }
            // The legend's AUC, to its three decimals, is the Mann-Whitney AUC (the two agree
            // to 1e-12; rounding to 3 decimals is the only difference).
            const double auc = mannWhitneyAuc(m_predictions, c);
            QVERIFY(std::abs(auc - expected.auc) < 1e-12);
            QCOMPARE(drawn->name(), QString("%1 (AUC %2)").arg(kFashionNames[c], QLocale().toString(auc, 'f', 3)));
            QCOMPARE(curves->rocPlot()->legend->itemWithPlottable(drawn)->plottable(), drawn);
            const PrecisionRecallCurve pr = precisionRecallCurve(m_predictions, c);
            QCOMPARE(curves->precisionRecallCurve(c)->data()->size(), int(pr.recall.size()));
            QCOMPARE(curves->precisionRecallCurve(c)->name(),
                     QString("%1 (AP %2)").arg(kFashionNames[c], QLocale().toString(pr.averagePrecision, 'f', 3)));
        }
        // The chance diagonal, from (0, 0) to (1, 1).
        QCPGraph* chance = curves->rocPlot()->graph(0);
        QVERIFY(chance && chance->name().startsWith("chance"));
        QCOMPARE(chance->data()->size(), 2);
        QCOMPARE(chance->data()->at(0)->value, 0.0);
        QCOMPARE(chance->data()->at(1)->value, 1.0);
    }

    void missingDatasetSaysWhyAndShowsTheRest()
    {
        const std::string away = m_data + "-moved";
        std::filesystem::rename(m_data, away);
        auto back = qScopeGuard([&] { std::filesystem::rename(away, m_data); });
        RunReader reader(m_ws);
        auto view = openView(reader);
        QVERIFY(view);
        const QString note = view->samples()->note();
        QVERIFY2(note.startsWith("The images cannot be shown: "), qPrintable(note));
        QVERIFY2(note.contains(QString::fromStdString(m_data)), qPrintable(note));  // names the file
        QVERIFY(view->samples()->split().data == nullptr);
        // Everything else is there, with class numbers.
        QVERIFY(view->report().has_value());
        QVERIFY(view->summaryText().contains("accuracy"));
        QCOMPARE(view->perClass()->rowCount(), 10);
        QCOMPARE(view->perClass()->item(6, 0)->text(), QString("6"));
        QCOMPARE(view->confusionPlot()->tickLabel(6), QString("6"));
        QCOMPARE(view->samples()->model()->rowCount(), 1000);  // the captions still list
        QVERIFY(view->samples()->model()->index(0).data(Qt::DecorationRole).isNull());
        view->showConfusionCell(6, 0);
        QVERIFY(view->samples()->grid()->title().contains("6 predicted as 0"));
        QTest::qWait(50);  // the note's line laid out
        view->grab().save(screenshotDir() + "/evaluation_missing_dataset.png");
    }

    // A regression's evaluation has values, not classes: its numbers and the training-mean
    // baseline are shown, and no class plot (an empty confusion matrix would be nonsense).
    void regressionShowsItsNumbersWithoutClassPlots()
    {
        QTemporaryDir dir;
        std::ofstream csv(dir.filePath("r.csv").toStdString());
        csv << "x,y\n";
        for (int i = 0; i < 60; ++i) csv << i * 0.1 << ',' << 3 * i * 0.1 + 1 << '\n';
        csv.close();
        const ExperimentSpec spec = parseExperiment(
            "name: r\ndataset: {format: csv, path: " + dir.filePath("r.csv").toStdString() +
                ", target_columns: [y], feature_columns: [x], validation_fraction: 0.25, loader: {num_workers: 0}}\n"
                "model:\n  layers: [{Linear: {out_features: 1}}, MSE]\noptimizer: {type: adam, lr: 0.05}\n"
                "training: {epochs: 3, batch_size: 8, device: cpu}\n",
            "r.yaml");
        const test::EvaluatedRun run = test::trainAndEvaluate(spec, dir.filePath("ws").toStdString());
        QVERIFY2(run.error.empty(), run.error.c_str());
        RunReader reader(Workspace::open(dir.filePath("ws").toStdString()));
        EvaluationView view;
        view.resize(900, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.showRun(reader, run.runId);
        const QString summary = view.summaryText();
        QVERIFY2(summary.contains("a regression: MAE") && summary.contains("RMSE") && summary.contains("training mean"),
                 qPrintable(summary));
        QVERIFY(!view.report().has_value());
        QCOMPARE(view.predictions().size(), std::size_t(15));
        QVERIFY(!view.tabs()->isVisible());
        view.grab().save(screenshotDir() + "/evaluation_regression.png");
    }

    // What another view (two models compared) calls: given samples of a run's evaluated split,
    // in the order given, captioned with that run's predictions.
    void galleryShowsGivenSamplesOfARun()
    {
        RunReader reader(m_ws);
        SampleGallery gallery;
        gallery.resize(500, 400);
        gallery.show();
        QVERIFY(gallery.showRunSamples(reader, m_runId, "test", {999, 5, 3}, "three samples"));
        QCOMPARE(gallery.grid()->title(), QString("three samples"));
        QCOMPARE(listedSamples(gallery.model()), (std::vector<qint64>{999, 5, 3}));
        for (int row = 0; row < 3; ++row) {
            const Prediction& p = m_predictions[std::size_t(gallery.model()->samples()[std::size_t(row)].sample)];
            QCOMPARE(gallery.model()->index(row).data(EvaluationSamples::PredictedRole).toLongLong(), p.predicted);
        }
        QTRY_VERIFY_WITH_TIMEOUT(!gallery.isOpening(), 20000);
        QCOMPARE(gallery.model()->index(0).data(Qt::DecorationRole).value<QImage>().size(), QSize(28, 28));
        QVERIFY(gallery.model()->index(0).data().toString().startsWith(kFashionNames[int(m_predictions[999].label)] + " →"));
        // A split the run has no evaluation of: nothing listed, and the note says why.
        QVERIFY(!gallery.showRunSamples(reader, m_runId, "val", {1}, "none"));
        QCOMPARE(gallery.model()->rowCount(), 0);
        QVERIFY2(gallery.note().contains("no evaluation of the val split"), qPrintable(gallery.note()));
    }

    // Each tab as a PNG (build/screenshots/evaluation_*.png), to look at; the confusion cell
    // counts are shown at this size and hidden when the plot is too small for them.
    void screenshots()
    {
        RunReader reader(m_ws);
        auto view = openView(reader);
        QVERIFY(view);
        view->showConfusionCell(6, 0);
        QTest::qWait(100);
        view->confusionPlot()->replot();
        QVERIFY(view->confusionPlot()->cellTextShown());
        const QString dir = screenshotDir();
        const char* names[] = {"confusion", "per_class", "curves", "calibration"};
        for (int tab = 0; tab < view->tabs()->count(); ++tab) {
            view->tabs()->setCurrentIndex(tab);
            QTest::qWait(50);
            QVERIFY(view->grab().save(dir + "/evaluation_" + names[tab] + ".png"));
        }
        view->tabs()->setCurrentIndex(0);
        view->resize(420, 300);  // cramped: the numbers go, the colours stay
        QTest::qWait(50);
        view->confusionPlot()->replot();
        QVERIFY(!view->confusionPlot()->cellTextShown());
        view->resize(1100, 650);
        QTest::qWait(50);
        view->confusionPlot()->replot();
        QVERIFY(view->confusionPlot()->cellTextShown());
    }
};

int main(int argc, char** argv)
{
    // A scratch HOME and XDG dirs before Qt starts, so no user settings or caches are touched.
    QTemporaryDir home;
    if (!home.isValid()) return 1;
    useScratchHome(home.path());
    QApplication app(argc, argv);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));  // numbers as the checks spell them
    TestEvaluationView test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_evaluation_view.moc"
