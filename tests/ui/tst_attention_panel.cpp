// The Runs page's Attention tab against tiny Transformers really trained (seconds): a ViT of 2x2
// patches on 4x4 images and a causal character model (tests/common/tiny_transformers.h). What
// the panel draws is the engine's weights (jobs/attention_maps.h, loaded here on its own) for
// the same sample and checkpoint: a text's [queries x keys] map per head, labelled by its
// tokens, with the hover line naming what a row's token attends to; an image's chosen patch
// row, or the mean over queries, over its patch grid, a click on a patch choosing it; another
// checkpoint, other weights. A model without attention says so; a character outside the
// vocabulary is named. Offscreen platform, a scratch HOME, real widgets.
#include <QtTest>
#include <QtWidgets>

#include <fstream>

#include "idx_files.h"
#include "io/yaml/experiment_yaml.h"
#include "jobs/attention_maps.h"
#include "jobs/job.h"
#include "scratch_home.h"
#include "store/run_reader.h"
#include "tiny_transformers.h"
#include "train/run_control.h"
#include "ui/runs/attention_panel.h"
#include "ui/runs/attention_views.h"
#include "ui/runs/run_details.h"

using namespace ts;
using namespace ts::ui;

namespace {

std::int64_t train(const ExperimentSpec& spec, const std::string& workspaceDir, std::string& error)
{
    struct Quiet : TrainListener {
        void onEvent(const TrainEvent&) override {}
    } quiet;
    JobEnvironment env;
    env.workspaceDir = workspaceDir;
    env.systemSampleSeconds = 0;
    RunControl control;
    TrainJob job;
    job.experiment = spec;
    const JobResult result = runJob(job, env, control, quiet);
    if (result.finished.outcome != FinishedEvent::Outcome::Finished) error = result.finished.message.text;
    return result.runId;
}

// One head's row-by-row [queries x keys] weights, as the engine gives them.
QVector<float> headWeights(const AttentionMap& map, std::int64_t head)
{
    QVector<float> out;
    for (std::int64_t i = 0; i < map.queries; ++i)
        for (std::int64_t j = 0; j < map.keys; ++j) out << map.at(head, i, j);
    return out;
}

void compareValues(const QVector<float>& shown, const QVector<float>& engine)
{
    QCOMPARE(shown.size(), engine.size());
    for (int i = 0; i < shown.size(); ++i)
        QVERIFY2(std::abs(shown[i] - engine[i]) <= 1e-7f,
                 qPrintable(QStringLiteral("value %1: shown %2, engine %3").arg(i).arg(shown[i]).arg(engine[i])));
}

}  // namespace

class TestAttentionPanel : public QObject {
    Q_OBJECT

    QTemporaryDir m_root;
    Workspace m_ws;
    std::int64_t m_vitRun = -1, m_gptRun = -1, m_plainRun = -1;

    void showRun(AttentionPanel& panel, std::int64_t id) const
    {
        RunReader reader(m_ws);
        panel.showRun(m_ws, *reader.run(id), reader.checkpoints(id));
    }
    // What the engine gives for the sample (its own AttentionMaps, as the CLI would load it).
    AttentionSample engineSample(std::int64_t run, const std::string& checkpoint, const std::string& text, int index) const
    {
        PredictorOptions options;
        options.workspaceDir = m_ws.directory;
        options.runId = run;
        options.checkpoint = checkpoint;
        options.device = "cpu";
        AttentionMaps maps(options);
        return maps.readsText() ? maps.textSample(text) : maps.datasetSample(index);
    }
    static void clickShow(AttentionPanel& panel)
    {
        QSignalSpy shown(&panel, &AttentionPanel::shown);
        QVERIFY(panel.showButton()->isEnabled());
        QTest::mouseClick(panel.showButton(), Qt::LeftButton);
        QVERIFY(panel.isBusy());  // off the UI thread
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        const QString data = m_root.filePath("idx");
        QVERIFY(QDir().mkpath(data));
        test::writeIdxPair(data.toStdString(), "train", 120, 1, 20);
        test::writeIdxPair(data.toStdString(), "t10k", 30, 2, 20);
        const std::string soup = test::tinyWordSoup();
        const QString textFile = m_root.filePath("soup.txt");
        std::ofstream(textFile.toStdString()) << soup;

        m_ws = Workspace::open(m_root.filePath("workspace").toStdString());
        std::string error;
        const ExperimentSpec vit = parseExperiment(test::tinyVitYaml(data).toStdString(), m_root.filePath("vit.yaml").toStdString());
        m_vitRun = train(vit, m_ws.directory, error);
        QVERIFY2(error.empty(), error.c_str());
        m_gptRun = train(parseExperiment(test::tinyGptYaml(textFile, soup).toStdString(), m_root.filePath("gpt.yaml").toStdString()),
                         m_ws.directory, error);
        QVERIFY2(error.empty(), error.c_str());
        ExperimentSpec plain = vit;  // the ViT without its attention block
        plain.model.nodes.erase(plain.model.nodes.begin() + 3, plain.model.nodes.begin() + 6);
        plain.model.nodes[3].inputs = {"to_tokens"};
        m_plainRun = train(plain, m_ws.directory, error);
        QVERIFY2(error.empty(), error.c_str());
    }

    void textMapsAreTheEngines()
    {
        AttentionPanel panel;
        panel.resize(900, 700);
        panel.show();
        QVERIFY(!panel.showButton()->isEnabled());  // no run yet
        showRun(panel, m_gptRun);
        QVERIFY(panel.hasAttention() && panel.readsText());
        QVERIFY(panel.textEdit()->isVisibleTo(&panel) && !panel.queryBox()->isVisibleTo(&panel));
        panel.textEdit()->setText("the cat");
        clickShow(panel);
        QVERIFY2(panel.message().startsWith("Tokens read: 7,"), qPrintable(panel.message()));
        QCOMPARE(panel.layerBox()->count(), 1);
        QCOMPARE(panel.layerBox()->currentText(), QString("attn"));
        QCOMPARE(panel.headBox()->count(), 3);  // all heads, head 1, head 2

        const AttentionSample engine = engineSample(m_gptRun, "best", "the cat", 0);
        const AttentionMap& map = engine.maps.at(0);
        // All heads: one small map each.
        QList<AttentionMatrixView*> views = panel.matrixViews();
        QCOMPARE(views.size(), 2);
        for (AttentionMatrixView* view : views) {
            const int head = views.indexOf(view);
            QCOMPARE(view->queries(), 7);
            QCOMPARE(view->keys(), 7);
            compareValues(view->values(), headWeights(map, head));
        }
        // Head 2 alone, and hovering its row of "e" names what "e" attends to, most first.
        panel.headBox()->setCurrentIndex(panel.headBox()->findData(1));
        views = panel.matrixViews();
        QCOMPARE(views.size(), 1);
        compareValues(views[0]->values(), headWeights(map, 1));
        QCoreApplication::processEvents();  // the layout places the new map before the pointer goes to it
        QTest::mouseMove(views[0], views[0]->cellRect(2, 1).center());
        QTRY_COMPARE(views[0]->hoveredRow(), 2);
        const QString hover = panel.hoverLabel()->text();
        QVERIFY2(hover.startsWith("Head 2: “e” (token 3) attends most to "), qPrintable(hover));
        std::int64_t top = 0;
        for (std::int64_t j = 1; j < 3; ++j)
            if (map.at(1, 2, j) > map.at(1, 2, top)) top = j;
        const QString tokens[] = {"t", "h", "e"};
        QVERIFY2(hover.contains(QStringLiteral("most to “%1” (token %2)").arg(tokens[top]).arg(top + 1)), qPrintable(hover));

        // Another checkpoint: the engine's weights of that epoch.
        panel.checkpointBox()->setCurrentIndex(panel.checkpointBox()->findData("1"));
        clickShow(panel);
        QVERIFY2(panel.message().contains("epoch 1"), qPrintable(panel.message()));
        const AttentionSample first = engineSample(m_gptRun, "1", "the cat", 0);
        compareValues(panel.matrixViews().at(0)->values(), headWeights(first.maps.at(0), 1));
        QVERIFY(headWeights(first.maps.at(0), 1) != headWeights(map, 1));
    }

    void aCharacterOutsideTheVocabularyIsNamed()
    {
        AttentionPanel panel;
        showRun(panel, m_gptRun);
        panel.textEdit()->setText("the zebra");
        clickShow(panel);
        QVERIFY2(panel.message().contains("“z” at character 5 is not in this model's vocabulary"), qPrintable(panel.message()));
        QVERIFY(panel.matrixViews().isEmpty());
    }

    void imagePatchesAreTheEngines()
    {
        AttentionPanel panel;
        panel.resize(900, 700);
        panel.show();
        showRun(panel, m_vitRun);
        QVERIFY(panel.hasAttention() && !panel.readsText());
        QVERIFY(panel.indexBox()->isVisibleTo(&panel) && panel.queryBox()->isVisibleTo(&panel));
        panel.indexBox()->setValue(0);
        clickShow(panel);
        QCOMPARE(panel.indexBox()->maximum(), 29);  // the test split's 30 images
        panel.indexBox()->setValue(4);
        clickShow(panel);
        QVERIFY2(panel.message().startsWith("Sample 4 of the test split (1)"), qPrintable(panel.message()));
        const AttentionMap map = engineSample(m_vitRun, "best", "", 4).maps.at(0);
        QCOMPARE(panel.queryBox()->count(), 1 + 4);  // the mean, then the 2x2 patches

        // Head 2 alone: the image, then its weights; the mean over the queries at first.
        panel.headBox()->setCurrentIndex(panel.headBox()->findData(1));
        QList<AttentionImageView*> views = panel.imageViews();
        QCOMPARE(views.size(), 2);
        QVERIFY(views[0]->values().isEmpty());  // the image alone
        QVector<float> mean;
        for (int k = 0; k < 4; ++k) {
            double sum = 0;
            for (int i = 0; i < 4; ++i) sum += map.at(1, i, k);
            mean << float(sum / 4);
        }
        compareValues(views[1]->values(), mean);
        // A click on patch 3 shows what it attends to.
        QTest::mouseClick(views[1], Qt::LeftButton, {}, views[1]->patchRect(2).center());
        QTRY_COMPARE(panel.queryBox()->currentData().toInt(), 2);
        views = panel.imageViews();
        compareValues(views[1]->values(), headWeights(map, 1).mid(2 * 4, 4));
        // All heads: the image and one picture a head.
        panel.headBox()->setCurrentIndex(0);
        views = panel.imageViews();
        QCOMPARE(views.size(), 3);
        compareValues(views[1]->values(), headWeights(map, 0).mid(2 * 4, 4));
        compareValues(views[2]->values(), headWeights(map, 1).mid(2 * 4, 4));
    }

    void aModelWithoutAttentionSaysSo()
    {
        AttentionPanel panel;
        showRun(panel, m_plainRun);
        QVERIFY(!panel.hasAttention());
        QVERIFY(!panel.showButton()->isEnabled());
        QVERIFY2(panel.message().contains("no MultiHeadAttention layer"), qPrintable(panel.message()));
    }

    // The Runs page hosts it as a tab of a run's details.
    void runDetailsHostTheTab()
    {
        RunDetails details(m_ws);
        RunReader reader(m_ws);
        details.showRun(reader, m_vitRun, reader.listRuns());
        QTabWidget* tabs = details.tabs();
        const int index = tabs->indexOf(details.attention());
        QVERIFY(index >= 0 && tabs->isTabVisible(index));
        QCOMPARE(tabs->tabText(index), QString("Attention"));
        QVERIFY(details.attention()->hasAttention());
    }
};

int main(int argc, char** argv)
{
    QTemporaryDir home;
    if (!home.isValid()) return 1;
    useScratchHome(home.path());
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName("TrainStudio");
    QCoreApplication::setApplicationName("TrainStudio");
    TestAttentionPanel test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_attention_panel.moc"
