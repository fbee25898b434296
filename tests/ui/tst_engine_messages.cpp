// The engine's messages in the studio's language (ui/engine_messages.h): every engine id has a
// studio template and a Chinese translation, English stays the engine's own text, and a
// trained run's lines read in Chinese in the Train page's live log and in the Runs page's
// stored log. Offscreen, with a scratch HOME and a temporary workspace.
#include <QtTest>
#include <QtWidgets>

#include "chinese_text.h"
#include "studio_suite.h"
#include "ui/engine_messages.h"
#include "ui/runs/run_details.h"
#include "ui/runs/runs_page.h"
#include "store/run_reader.h"
#include "store/workspace.h"
#include "ui/experiment_document.h"
#include "ui/train/train_page.h"
#include "ui/train/training_session.h"
#include "ui/translations.h"

using namespace ts::ui;

namespace {

// Arguments for a template: "1" for every argument it names, so a count picks the singular.
ts::Message sample(const ts::MessageTemplate& t)
{
    int args = 0;
    for (const char* c = t.english; *c && c[1]; ++c)
        if ((*c == '%' || *c == '{') && c[1] >= '1' && c[1] <= '9') args = std::max(args, c[1] - '0');
    return ts::makeMessage(t.id, std::vector<std::string>(std::size_t(args), "1"));
}

// The shipped wine-like table (300 rows): a whole run in well under a second.
QString csvExperiment(const QString& dir)
{
    const QString path = dir + "/wine.yaml";
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write(QStringLiteral(R"(name: wine
dataset:
  format: csv
  path: %1
  label_column: cultivar
  feature_columns: [alcohol, malic_acid, color_intensity, hue, proline]
  validation_fraction: 0.2
  normalize: {from_statistics: true}
  loader: {num_workers: 0}
model:
  layers:
    - Linear: {in_features: 5, out_features: 16}
    - ReLU
    - Linear: {out_features: 3}
    - CrossEntropy
optimizer: {type: adam, lr: 0.01}
training: {epochs: 2, batch_size: 16, seed: 3, device: cpu}
)")
                .arg(QFINDTESTDATA("../../experiments/data/wine_like.csv"))
                .toUtf8());
    return path;
}

}  // namespace

class TestEngineMessages : public QObject {
    Q_OBJECT
private slots:
    void englishIsTheEnginesText()
    {
        for (const ts::MessageTemplate& t : ts::messageTemplates()) {
            QVERIFY2(hasMessageTemplate(t.key), t.key);
            const ts::Message m = sample(t);
            QCOMPARE(renderMessage(m), QString::fromStdString(m.text));  // no translator: the engine's plurals
        }
        QCOMPARE(renderMessage(ts::Message{"a failure's own text"}), QString("a failure's own text"));
        ts::Message unknown = ts::makeMessage(ts::MessageId::TrainPaused, {"3"});
        unknown.id = "from.a.newer.engine";
        QCOMPARE(renderMessage(unknown), QString("paused at step 3"));
    }

    void everyIdReadsInChinese()
    {
        const QList<QTranslator*> translators = Translations::install("zh_CN", this);
        const auto restore = qScopeGuard([&, before = QLocale()] {
            Translations::uninstall(translators);
            QLocale::setDefault(before);
        });
        QVERIFY(!translators.isEmpty());
        for (const ts::MessageTemplate& t : ts::messageTemplates()) {
            const ts::Message m = sample(t);
            const QString zh = renderMessage(m);
            QVERIFY2(zh != QString::fromStdString(m.text) && hasChinese(zh), qPrintable(QString(t.key) + ": " + zh));
            // A placeholder is %N; a percent sign after a number ("30%") is text.
            QVERIFY2(!zh.contains(QRegularExpression(QStringLiteral("%\\d"))), qPrintable(QString(t.key) + " left a placeholder: " + zh));
        }
        // Arguments land where the translation puts them, counts included.
        QCOMPARE(renderMessage(ts::makeMessage(ts::MessageId::TrainPaused, {"42"})), QString("已在第 42 步暂停"));
        QCOMPARE(renderMessage(ts::makeMessage(ts::MessageId::TrainFinished, {"3", "2814"})),
                 QString("训练了 3 轮，于第 2814 步结束"));
        QCOMPARE(logLevelText("warning"), QString("警告"));
    }

    // A trained run's lines, live on the Train page and stored on the Runs page, in Chinese.
    void aTrainedRunsLogReadsInChinese()
    {
        const QList<QTranslator*> translators = Translations::install("zh_CN", this);
        const auto restore = qScopeGuard([&, before = QLocale()] {
            Translations::uninstall(translators);
            QLocale::setDefault(before);
        });
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString workspace = dir.path() + "/workspace";

        TrainingSession session;
        ExperimentDocument document;
        TrainPage page(&session, &document);
        page.setWorkspaceDirectory(workspace);
        QString error;
        QVERIFY2(document.open(csvExperiment(dir.path()), &error), qPrintable(error));
        QSignalSpy finished(&session, &TrainingSession::finished);
        page.startTraining();
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.last()[0].value<TrainingSession::Outcome>(), TrainingSession::Outcome::Finished);
        const qint64 runId = session.currentRun().runId;
        QVERIFY(runId > 0);

        const QString live = page.findChild<QPlainTextEdit*>("logView")->toPlainText();
        for (const char* english : {"loading ", "memory on cpu (planned)", "finished 2 epochs"})
            QVERIFY2(!live.contains(english), qPrintable(live));
        for (const char* chinese : {"正在加载", "cpu 上的内存（计划）", "训练了 2 轮"})
            QVERIFY2(live.contains(QString::fromUtf8(chinese)), qPrintable(live));

        // The store kept the English with the ids; the Runs page words the ids.
        ts::RunReader reader(ts::Workspace::open(workspace.toStdString()));
        const std::vector<ts::LogLine> lines = reader.logs(runId);
        QVERIFY(lines.size() >= 5);  // started, memory, two epochs, checkpoints, the end
        RunsPage runs(ts::Workspace::open(workspace.toStdString()));
        runs.show();
        QVERIFY(QTest::qWaitForWindowExposed(&runs));
        runs.refresh();
        runs.selectRun(runId);
        const QString stored = runs.details()->logView()->toPlainText();
        int known = 0;
        for (const ts::LogLine& line : lines) {
            if (!hasMessageTemplate(line.message.id)) continue;
            ++known;
            const QString zh = renderMessage(line.message);
            QVERIFY2(zh != QString::fromStdString(line.message.text) && hasChinese(zh), qPrintable(zh));
            QVERIFY2(stored.contains(zh), qPrintable(stored));
            QVERIFY2(!stored.contains(QString::fromStdString(line.message.text)), qPrintable(stored));
        }
        QCOMPARE(known, int(lines.size()));  // every line the engine stored has an id
        QVERIFY2(stored.contains(QString::fromUtf8("第 1 轮完成")), qPrintable(stored));
        QVERIFY(runs.details()->fieldText("message").contains(QString::fromUtf8("训练了 2 轮")));
    }
};

int main(int argc, char** argv) { return runStudioSuite<TestEngineMessages>(argc, argv); }

#include "tst_engine_messages.moc"
