// Watching a language model write, against really trained runs: a character model (Embedding ->
// Linear over a context of 8) trained two epochs on a generated word soup in a scratch
// workspace. The Runs page's Generate tab writes the prompt and exactly the requested number
// of characters after it, the same text the engine's own sampler (jobs/run_sampler.h) writes
// with the same settings and checkpoint; Stop ends a long generation part-way with its text
// shown while it was drawn; a prompt character outside the vocabulary is named with its byte
// offset; a run that is not a language model offers no Generate tab. The Train page's Samples
// box lists a run's samples after each epoch as they arrive, newest first, as its log stored
// them. Offscreen platform, a scratch HOME, real widgets.
#include <QtTest>
#include <QtWidgets>

#include <fstream>
#include <random>
#include <set>

#include "scratch_home.h"
#include "io/yaml/experiment_yaml.h"
#include "jobs/job.h"
#include "jobs/run_sampler.h"
#include "store/run_reader.h"
#include "train/run_control.h"
#include "ui/experiment_document.h"
#include "ui/runs/generate_panel.h"
#include "ui/runs/prediction_panel.h"
#include "ui/runs/run_details.h"
#include "ui/studio_settings.h"
#include "ui/train/text_samples_box.h"
#include "ui/train/train_page.h"
#include "ui/train/training_session.h"

using namespace ts;
using namespace ts::ui;

namespace {

// ~3,000 words of a small vocabulary in random order: a character model learns its spellings
// within two epochs of a few hundred steps.
std::string wordSoup()
{
    const char* words[] = {"the", "cat", "sat", "on", "a", "mat", "and", "dog", "ran", "to", "hat"};
    std::mt19937 rng(11);
    std::string text;
    for (int i = 0; i < 3000; ++i) {
        text += words[rng() % std::size(words)];
        text += i % 12 == 11 ? ".\n" : " ";
    }
    return text;
}

QString textYaml(const QString& textFile, std::size_t vocabulary, int epochs)
{
    return QStringLiteral(R"(name: tiny_text
dataset:
  format: text
  path: %1
  tokenizer: characters
  context: 8
  validation_fraction: 0.1
  loader: {num_workers: 0}
model:
  nodes:
    - {name: embed, op: Embedding, inputs: [tokens], num_embeddings: %2, embedding_dim: 16}
    - {name: head, op: Linear, out_features: %2}
    - {name: loss, op: CrossEntropy, inputs: [head, label]}
optimizer: {type: adam, lr: 0.01}
training: {epochs: %3, batch_size: 32, seed: 3, device: cpu}
)")
        .arg(textFile)
        .arg(vocabulary)
        .arg(epochs);
}

// Two features, two classes: a run whose model classifies.
QString tableYaml(const QString& csvFile)
{
    return QStringLiteral(R"(name: tiny_table
dataset: {format: csv, path: %1, label_column: label, validation_fraction: 0.25, loader: {num_workers: 0}}
model:
  inputs: {features: [2], label: {shape: [], dtype: i64}}
  layers:
    - Linear: {out_features: 2}
    - CrossEntropy
training: {epochs: 1, batch_size: 8, device: cpu}
)")
        .arg(csvFile);
}

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

// What the engine writes from the run's checkpoint with these settings: the reference.
QString engineText(const Workspace& ws, std::int64_t runId, const std::string& checkpoint, const GenerateOptions& options)
{
    PredictorOptions load;
    load.workspaceDir = ws.directory;
    load.runId = runId;
    load.checkpoint = checkpoint;
    load.device = "cpu";
    std::vector<Message> notes;
    return QString::fromStdString(openRunSampler(load, notes).generate(options));
}

}  // namespace

class TestGeneratePanel : public QObject {
    Q_OBJECT

    QTemporaryDir m_root;
    Workspace m_ws;
    QString m_textYaml;
    std::int64_t m_textRun = -1, m_tableRun = -1;

    RunInfo run(std::int64_t id) const { return *RunReader(m_ws).run(id); }
    std::vector<CheckpointRecord> checkpoints(std::int64_t id) const { return RunReader(m_ws).checkpoints(id); }

    void showTextRun(GeneratePanel& panel) const { panel.showRun(m_ws, run(m_textRun), checkpoints(m_textRun)); }

    // Settings as a user types them, then Generate.
    void clickGenerate(GeneratePanel& panel, const QString& prompt, int length, double temperature, int seed)
    {
        panel.promptEdit()->setText(prompt);
        panel.lengthBox()->setValue(length);
        panel.temperatureBox()->setValue(temperature);
        panel.topKBox()->setValue(0);
        panel.seedBox()->setValue(seed);
        QVERIFY(panel.generateButton()->isEnabled());
        QTest::mouseClick(panel.generateButton(), Qt::LeftButton);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        const std::string soup = wordSoup();
        const QString textFile = m_root.filePath("soup.txt");
        std::ofstream(textFile.toStdString()) << soup;
        const std::set<char> characters(soup.begin(), soup.end());
        m_textYaml = m_root.filePath("tiny_text.yaml");
        QFile yaml(m_textYaml);
        QVERIFY(yaml.open(QIODevice::WriteOnly));
        yaml.write(textYaml(textFile, characters.size(), 2).toUtf8());
        yaml.close();

        const QString csvFile = m_root.filePath("table.csv");
        {
            std::ofstream csv(csvFile.toStdString());
            csv << "x,y,label\n";
            for (int i = 0; i < 40; ++i) csv << i * 0.1 << "," << (i % 7) * 0.3 << "," << (i % 2) << "\n";
        }

        m_ws = Workspace::open(m_root.filePath("workspace").toStdString());
        std::string error;
        m_textRun = train(loadExperiment(m_textYaml.toStdString()), m_ws.directory, error);
        QVERIFY2(error.empty(), error.c_str());
        m_tableRun = train(parseExperiment(tableYaml(csvFile).toStdString(), "table"), m_ws.directory, error);
        QVERIFY2(error.empty(), error.c_str());
        QVERIFY(checkpoints(m_textRun).size() >= 1);
    }

    void writesThePromptAndTheRequestedLength()
    {
        GeneratePanel panel;
        panel.resize(700, 400);
        panel.show();
        QVERIFY(!panel.generateButton()->isEnabled());  // no run yet
        showTextRun(panel);
        QVERIFY(panel.isLanguageModel());
        QVERIFY(!panel.stopButton()->isEnabled());
        QSignalSpy finished(&panel, &GeneratePanel::finished);
        clickGenerate(panel, "the ", 60, 0.8, 5);
        QVERIFY(panel.isBusy());  // drawn off the UI thread
        QVERIFY(!panel.generateButton()->isEnabled() && panel.stopButton()->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QVERIFY2(!panel.message().startsWith("Cannot"), qPrintable(panel.message()));
        QVERIFY2(panel.text().startsWith("the "), qPrintable(panel.text()));
        QCOMPARE(panel.text().size(), 4 + 60);  // one character a token
        QVERIFY2(panel.message().contains("60 tokens"), qPrintable(panel.message()));
        QCOMPARE(panel.findChild<QPlainTextEdit*>("generateOutput")->toPlainText(), panel.text());

        GenerateOptions options;
        options.prompt = "the ";
        options.length = 60;
        options.temperature = 0.8;
        options.seed = 5;
        QCOMPARE(panel.text(), engineText(m_ws, m_textRun, "best", options));
        QVERIFY(panel.generateButton()->isEnabled() && !panel.stopButton()->isEnabled());

        // The settings are remembered for the next session.
        const StudioSettings::GenerateSettings saved = StudioSettings::generateSettings();
        QCOMPARE(saved.prompt, QString("the "));
        QCOMPARE(saved.length, 60);
        QCOMPARE(saved.seed, 5);
        GeneratePanel again;
        QCOMPARE(again.promptEdit()->text(), QString("the "));
        QCOMPARE(again.lengthBox()->value(), 60);
    }

    void eachEpochsCheckpointWrites()
    {
        GeneratePanel panel;
        showTextRun(panel);
        QComboBox* choice = panel.checkpointBox();
        QStringList offered;
        for (int i = 0; i < choice->count(); ++i) offered << choice->itemData(i).toString();
        std::set<std::int64_t> epochs;
        for (const CheckpointRecord& c : checkpoints(m_textRun)) epochs.insert(c.epoch);
        QStringList expected{"best", "last"};
        for (std::int64_t e : epochs) expected << QString::number(e);
        QCOMPARE(offered, expected);

        choice->setCurrentIndex(2);  // the first epoch's
        QSignalSpy finished(&panel, &GeneratePanel::finished);
        clickGenerate(panel, "a ", 30, 0, 0);  // temperature 0: the most likely character each time
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        GenerateOptions options;
        options.prompt = "a ";
        options.length = 30;
        options.temperature = 0;
        QCOMPARE(panel.text(), engineText(m_ws, m_textRun, expected[2].toStdString(), options));
        QVERIFY2(panel.message().contains(QString("epoch %1").arg(expected[2])), qPrintable(panel.message()));
    }

    void stopEndsALongGeneration()
    {
        GeneratePanel panel;
        panel.show();
        showTextRun(panel);
        QSignalSpy finished(&panel, &GeneratePanel::finished);
        const int length = panel.lengthBox()->maximum();
        clickGenerate(panel, "the ", length, 1.0, 1);
        // Shown while it is drawn: text beyond the prompt before the end.
        QTRY_VERIFY_WITH_TIMEOUT(panel.text().size() > 4, 30000);
        QCOMPARE(finished.count(), 0);
        QTest::mouseClick(panel.stopButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QVERIFY2(panel.message().startsWith("Stopped after"), qPrintable(panel.message()));
        const QString stopped = panel.text();
        QVERIFY2(stopped.size() > 4 && stopped.size() < 4 + length, qPrintable(QString::number(stopped.size())));
        QTest::qWait(200);
        QCOMPARE(panel.text(), stopped);  // nothing arrives after the stop
        QVERIFY(panel.generateButton()->isEnabled() && !panel.stopButton()->isEnabled());
    }

    // Another run selected while one writes: the writing stops and its outcome never shows.
    void anotherRunDropsTheGenerationInFlight()
    {
        GeneratePanel panel;
        showTextRun(panel);
        clickGenerate(panel, "the ", panel.lengthBox()->maximum(), 1.0, 2);
        QVERIFY(panel.isBusy());
        panel.showRun(m_ws, run(m_tableRun), checkpoints(m_tableRun));
        const QString shown = panel.message();
        QVERIFY2(shown.contains("not trained on text"), qPrintable(shown));
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isBusy(), 30000);
        QTest::qWait(100);
        QCOMPARE(panel.message(), shown);
        QVERIFY(panel.text().isEmpty());
        QVERIFY(!panel.generateButton()->isEnabled() && !panel.stopButton()->isEnabled());
    }

    void aPromptOutsideTheVocabularyIsNamed()
    {
        GeneratePanel panel;
        showTextRun(panel);
        QSignalSpy finished(&panel, &GeneratePanel::finished);
        clickGenerate(panel, QString::fromUtf8("the \xce\xa9 cat"), 20, 1.0, 0);  // Ω, two bytes, at byte 4
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        const QString message = panel.message();
        QVERIFY2(message.contains(QString::fromUtf8("\xce\xa9")) && message.contains("U+03A9") && message.contains("byte 4"),
                 qPrintable(message));
        QVERIFY(panel.text().isEmpty());
        QCOMPARE(panel.promptEdit()->selectedText(), QString::fromUtf8("\xce\xa9"));  // pointed at
        QVERIFY(panel.generateButton()->isEnabled());
    }

    void onlyALanguageModelOffersGenerate()
    {
        GeneratePanel panel;
        panel.showRun(m_ws, run(m_tableRun), checkpoints(m_tableRun));
        QVERIFY(!panel.isLanguageModel());
        QVERIFY(!panel.generateButton()->isEnabled());
        QVERIFY2(panel.message().contains("not trained on text") && panel.message().contains("csv"), qPrintable(panel.message()));

        // The run's details show Generate in place of Predict for the language model only.
        RunDetails details(m_ws);
        RunReader reader(m_ws);
        const std::vector<RunListing> runs = reader.listRuns();
        QTabWidget* tabs = details.tabs();
        const int generate = tabs->indexOf(details.generation()), predict = tabs->indexOf(details.prediction());
        details.showRun(reader, m_textRun, runs);
        QVERIFY(tabs->isTabVisible(generate) && !tabs->isTabVisible(predict));
        details.showRun(reader, m_tableRun, runs);
        QVERIFY(!tabs->isTabVisible(generate) && tabs->isTabVisible(predict));
    }

    // The Train page trains the language model and lists what it wrote after each epoch, newest
    // first, as the run's log keeps it.
    void trainPageShowsTheSamplesAsTheyArrive()
    {
        TrainingSession session;
        ExperimentDocument document;
        TrainPage page(&session, &document);
        const QString workspace = m_root.filePath("train_page_workspace");
        page.setWorkspaceDirectory(workspace);
        page.resize(1200, 800);
        page.show();
        QString error;
        QVERIFY2(document.open(m_textYaml, &error), qPrintable(error));
        TextSamplesBox* box = page.textSamples();
        QVERIFY(!box->isVisible());  // nothing written yet
        QSignalSpy finished(&session, &TrainingSession::finished);
        page.startTraining();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QVERIFY2(finished[0][0].value<TrainingSession::Outcome>() == TrainingSession::Outcome::Finished,
                 qPrintable(finished[0][1].toString()));
        QVERIFY(box->isVisible());
        // Readable: the page gave the samples room (a third of it) from the charts.
        QVERIFY2(box->height() >= page.height() / 4, qPrintable(QString("%1 of %2").arg(box->height()).arg(page.height())));

        RunReader reader(Workspace::open(workspace.toStdString()));
        QStringList logged;  // the stored samples, newest first
        for (const RunListing& r : reader.listRuns())
            for (const LogLine& line : reader.logs(r.run.id))
                if (line.message.id == "train.text_sample")
                    logged.prepend(QString("epoch %1: %2").arg(QString::fromStdString(line.message.args[0]),
                                                                  QString::fromStdString(line.message.args[1])));
        QCOMPARE(logged.size(), 2);
        QVERIFY(logged[0].startsWith("epoch 2: "));
        // The trainer names its prompt: the samples start with it and the box sets it apart.
        for (const RunListing& r : reader.listRuns())
            for (const LogLine& line : reader.logs(r.run.id))
                if (line.message.id == "train.text_sample") {
                    QCOMPARE(line.message.args.size(), std::size_t(3));
                    QVERIFY(!line.message.args[2].empty());
                    QVERIFY(line.message.args[1].starts_with(line.message.args[2]));
                }
        QTextCursor first(box->view()->document());
        first.setPosition(int(QString("epoch 2: ").size()) + 1);
        QVERIFY(first.charFormat().background().style() != Qt::NoBrush);
        QCOMPARE(box->samples(), logged);
        QVERIFY(box->view()->toPlainText().startsWith("epoch 2: "));
    }

    // The prompt, when the sample names it, stands apart from what the model wrote.
    void samplesHighlightThePrompt()
    {
        TextSamplesBox box;
        QVERIFY(!box.addMessage(Message{"something else", "train.paused", {}}));
        QVERIFY(box.addMessage(Message{"Sample after epoch 1: abcdef", "train.text_sample", {"1", "abcdef", "abc"}}));
        QVERIFY(box.addMessage(Message{"Sample after epoch 2: abcxyz", "train.text_sample", {"2", "abcxyz", "abc"}}));
        QCOMPARE(box.samples(), QStringList({"epoch 2: abcxyz", "epoch 1: abcdef"}));
        QTextCursor cursor(box.view()->document());
        const QString shown = box.view()->toPlainText();
        const int prompt = int(shown.indexOf("abcxyz")), written = prompt + 3;
        cursor.setPosition(prompt + 1);
        const QTextCharFormat promptFormat = cursor.charFormat();
        cursor.setPosition(written + 1);
        const QTextCharFormat writtenFormat = cursor.charFormat();
        QVERIFY(promptFormat.fontWeight() == QFont::Bold && promptFormat.background().style() != Qt::NoBrush);
        QVERIFY(writtenFormat.fontWeight() != QFont::Bold && writtenFormat.background().style() == Qt::NoBrush);
        box.clear();
        QVERIFY(box.samples().isEmpty() && box.view()->toPlainText().isEmpty());
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
    TestGeneratePanel test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_generate_panel.moc"
