// The Runs page's Predict tab against a really trained and evaluated run: an MLP trained one
// epoch on the first 1,000 real Fashion-MNIST training images and evaluated on the first 50
// test images (a scratch folder named "fashion", so the reader names the classes). Test
// images written as PNG files by Qt's encoder are dropped on the panel (a real QDropEvent
// with file URLs): the top class shown is the one eval stored for that sample, and its
// probability equals eval's to 1e-6; a damaged PNG shows the engine's error naming the file.
// A text classifier's run (the topics template on two fortune files, a few steps) takes typed
// texts instead: a validation fortune typed into the box gets eval's class and probability.
// Offscreen platform, a scratch HOME, real widgets.
#include <QtTest>
#include <QtWidgets>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "evaluated_run.h"
#include "scratch_home.h"
#include "data/dataset.h"
#include "data/subset_dataset.h"
#include "data/text_classification_dataset.h"
#include "io/yaml/experiment_yaml.h"
#include "io/yaml/shipped_experiments.h"
#include "jobs/job.h"
#include "store/run_reader.h"
#include "train/run_control.h"
#include "ui/runs/prediction_panel.h"
#include "ui/runs/run_details.h"

using namespace ts;
using namespace ts::ui;

namespace {

const char* kFashion = "/usr/share/datasets/fashion-mnist";
const QStringList kFashionNames{"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};

// Drags `path` over the panel and drops it there, as a file manager would.
bool dropFile(QWidget* target, const QString& path)
{
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    const QPoint at = target->rect().center();
    QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &enter);
    if (!enter.isAccepted()) return false;
    QDropEvent drop(QPointF(at), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &drop);
    return drop.isAccepted();
}

}  // namespace

class TestPredictionPanel : public QObject {
    Q_OBJECT

    QTemporaryDir m_root;
    Workspace m_ws;
    qint64 m_runId = -1;
    std::vector<Prediction> m_predictions;  // eval's, as the store keeps them
    QList<QImage> m_testImages;

private slots:
    void initTestCase()
    {
        if (!std::filesystem::exists(std::string(kFashion) + "/train-images-idx3-ubyte.gz") &&
            !std::filesystem::exists(std::string(kFashion) + "/train-images-idx3-ubyte"))
            QSKIP("Fashion-MNIST is not installed (dataset-fashion-mnist)");
        QVERIFY(m_root.isValid());
        const std::string data = m_root.filePath("fashion-mnist-subset").toStdString();
        std::filesystem::create_directories(data);
        DatasetSpec full;
        full.path = kFashion;
        full.validationFraction = 0;
        const DatasetSplits real = openDataset(full, ".", "");
        test::writeIdxSubset(*real.train, 1000, data, "train");
        for (const std::vector<std::uint8_t>& bytes : test::writeIdxSubset(*real.test, 50, data, "t10k")) {
            QImage image(28, 28, QImage::Format_Grayscale8);
            for (int y = 0; y < 28; ++y) std::copy_n(bytes.data() + y * 28, 28, image.scanLine(y));
            m_testImages << image;
        }

        ExperimentSpec spec = loadExperiment((shippedExperimentsDirectory() / "fashion_mnist_mlp.yaml").string());
        spec.dataset.path = data;
        spec.dataset.numWorkers = 1;
        spec.training.epochs = 1;
        spec.training.device = "cpu";
        m_ws = Workspace::open(m_root.filePath("workspace").toStdString());
        const test::EvaluatedRun run = test::trainAndEvaluate(spec, m_ws.directory);
        QVERIFY2(run.error.empty(), run.error.c_str());
        m_runId = run.runId;
        m_predictions = RunReader(m_ws).predictions(run.evaluationId);
        QCOMPARE(m_predictions.size(), std::size_t(50));
    }

    void droppedPngShowsEvalsClass()
    {
        PredictionPanel panel;
        panel.resize(600, 300);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY2(!dropFile(&panel, m_root.filePath("x.png")), "a drop with no run selected is refused");
        panel.showRun(m_ws, m_runId);
        QSignalSpy shown(&panel, &PredictionPanel::predicted);
        for (int sample : {0, 7, 23}) {
            const QString path = m_root.filePath(QString("sample_%1.png").arg(sample));
            QVERIFY(m_testImages[sample].save(path, "PNG"));
            const int before = int(shown.count());
            QVERIFY2(dropFile(&panel, path), "the panel takes a dropped PNG");
            QVERIFY(panel.isBusy());  // computed off the UI thread
            QTRY_VERIFY_WITH_TIMEOUT(shown.count() > before, 30000);
            QVERIFY2(!panel.message().startsWith("Cannot"), qPrintable(panel.message()));
            const Prediction& eval = m_predictions[std::size_t(sample)];
            QCOMPARE(panel.shownClasses().size(), 5);
            QCOMPARE(panel.shownClasses().first(), kFashionNames[int(eval.predicted)]);
            QVERIFY2(std::abs(panel.shownProbabilities().first() - eval.confidence) < 1e-6,
                     qPrintable(QString("panel %1, eval %2").arg(panel.shownProbabilities().first()).arg(eval.confidence)));
            for (int i = 1; i < 5; ++i) QVERIFY(panel.shownProbabilities()[i] <= panel.shownProbabilities()[i - 1]);
            QVERIFY2(panel.message().contains(QString("sample_%1.png").arg(sample)) &&
                         panel.message().contains(kFashionNames[int(eval.predicted)]),
                     qPrintable(panel.message()));
        }
        QDir().mkpath(TS_SCREENSHOT_DIR);
        QVERIFY(panel.grab().save(QStringLiteral(TS_SCREENSHOT_DIR "/prediction_panel.png")));  // build/screenshots

        // A damaged PNG: the engine's message, naming the file.
        QFile good(m_root.filePath("sample_0.png"));
        QVERIFY(good.open(QIODevice::ReadOnly));
        const QByteArray half = good.readAll().left(int(good.size() / 2));
        const QString damaged = m_root.filePath("damaged.png");
        QFile out(damaged);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(half);
        out.close();
        const int before = int(shown.count());
        QVERIFY(dropFile(&panel, damaged));
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() > before, 30000);
        QVERIFY2(panel.message().startsWith("Cannot predict damaged.png") && panel.message().contains(damaged),
                 qPrintable(panel.message()));
        QVERIFY(panel.shownClasses().isEmpty());
    }

    void typedTextShowsEvalsClass()
    {
        if (!std::filesystem::exists("/usr/share/games/fortunes/startrek")) QSKIP("fortunes is not installed");
        ExperimentSpec spec = loadExperiment((shippedExperimentsDirectory() / "fortunes_topics.yaml").string());
        spec.dataset.classes = {"love", "startrek"};
        for (Node& n : spec.model.nodes)
            if (n.name == "classifier") n.attrs.set("out_features", std::int64_t(2));
        spec.dataset.numWorkers = 1;
        spec.training.maxSteps = 4;
        spec.training.device = "cpu";
        const Workspace ws = Workspace::open(m_root.filePath("text-workspace").toStdString());
        const test::EvaluatedRun run = test::trainAndEvaluate(spec, ws.directory);
        QVERIFY2(run.error.empty(), run.error.c_str());
        const std::vector<Prediction> eval = RunReader(ws).predictions(run.evaluationId);
        const DatasetSplits splits = openDataset(spec.dataset, ".", "");
        const auto& texts =
            dynamic_cast<const TextClassificationDataset&>(dynamic_cast<const SubsetDataset&>(*splits.validation).parent());
        QVERIFY(PredictionPanel::readsText(RunReader(ws).run(run.runId)->experimentYaml));

        PredictionPanel panel;
        panel.resize(600, 400);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.showRun(ws, run.runId, true);
        QVERIFY(panel.textEditor()->isVisible());
        QVERIFY(!panel.findChild<QLabel*>("predictionImage")->isVisible());
        QSignalSpy shown(&panel, &PredictionPanel::predicted);
        for (const std::size_t sample : {std::size_t(0), eval.size() - 1}) {
            const std::string& text = texts.text(splits.validationFileIndex[eval[sample].sample]);
            panel.textEditor()->setPlainText(QString::fromStdString(text));
            const int before = int(shown.count());
            QTest::keyClick(panel.textEditor(), Qt::Key_Return, Qt::ControlModifier);  // Classify
            QTRY_VERIFY_WITH_TIMEOUT(shown.count() > before, 30000);
            QVERIFY2(!panel.message().startsWith("Cannot"), qPrintable(panel.message()));
            QCOMPARE(panel.shownClasses().value(0), QString::fromStdString(splits.train->classNames()[std::size_t(eval[sample].predicted)]));
            QVERIFY2(std::abs(panel.shownProbabilities().first() - eval[sample].confidence) < 1e-6,
                     qPrintable(QString("panel %1, eval %2").arg(panel.shownProbabilities().first()).arg(eval[sample].confidence)));
        }
        // A character the training texts never had: the engine's message, naming it.
        panel.textEditor()->setPlainText(QString::fromUtf8("Kirk \u65e5"));
        const int before = int(shown.count());
        panel.predictText(panel.textEditor()->toPlainText());
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() > before, 30000);
        QVERIFY2(panel.message().startsWith("Cannot predict") && panel.message().contains(QString::fromUtf8("\u65e5")),
                 qPrintable(panel.message()));
    }

    void runDetailsHasThePredictTab()
    {
        RunDetails details(m_ws);
        auto* tabs = details.findChild<QTabWidget*>("runTabs");
        QVERIFY(tabs);
        QVERIFY(details.prediction());
        QCOMPARE(tabs->tabText(tabs->indexOf(details.prediction())), QString("Predict"));
        RunReader reader(m_ws);
        details.showRun(reader, m_runId, reader.listRuns());
        const QString path = m_root.filePath("sample_0.png");
        QVERIFY(m_testImages[0].save(path, "PNG"));
        QSignalSpy shown(details.prediction(), &PredictionPanel::predicted);
        details.prediction()->predictFile(path);
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() == 1, 30000);
        QCOMPARE(details.prediction()->shownClasses().value(0), kFashionNames[int(m_predictions[0].predicted)]);
    }
};

int main(int argc, char** argv)
{
    QTemporaryDir home;
    if (!home.isValid()) return 1;
    useScratchHome(home.path());
    QApplication app(argc, argv);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    TestPredictionPanel test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_prediction_panel.moc"
