// The Train page's diagnostic cards (ui/train/diagnostic_cards.h): a diagnostic becomes a card
// with its title and advice in the user's language (Chinese under the zh_CN translator) and a
// button per action, the buttons ask for their rule's action with the run, and on the Train
// page the NaN card of a run it started that diverged (learning rate 10, trained on the
// session's queue) arrives by itself, and its "resume with learning rate x0.1" queues the fork
// that trains finite, which the page then follows as its own run.
// Offscreen, with a scratch HOME and a temporary workspace.
#include <QtTest>
#include <QtWidgets>

#include <cmath>

#include "chinese_text.h"
#include "diverging_experiment.h"
#include "idx_files.h"
#include "studio_suite.h"
#include "store/run_reader.h"
#include "store/workspace.h"
#include "train/diagnostics.h"
#include "ui/engine_messages.h"
#include "ui/experiment_document.h"
#include "ui/screenshot.h"
#include "ui/train/diagnostic_cards.h"
#include "ui/train/train_page.h"
#include "ui/train/training_session.h"
#include "ui/translations.h"

using namespace ts;
using namespace ts::ui;

namespace {

Message nanMessage() { return makeMessage(MessageId::DiagNonFinite, {"26", "2", "10", "1"}); }

QString cardText(QFrame* card, const char* name)
{
    auto* label = card ? card->findChild<QLabel*>(QString::fromLatin1(name)) : nullptr;
    return label ? label->text() : QString();
}

QStringList buttonNames(QFrame* card)
{
    QStringList out;
    for (auto* b : card->findChildren<QPushButton*>()) out << b->objectName();
    return out;
}

}  // namespace

class TestDiagnosticCards : public QObject {
    Q_OBJECT
private slots:
    void cardShowsTheAdviceAndAsksForItsActions()
    {
        DiagnosticCards cards;
        QVERIFY(cards.isHidden());
        QSignalSpy asked(&cards, &DiagnosticCards::actionRequested);
        cards.addDiagnostic(nanMessage(), 7);
        cards.addDiagnostic(nanMessage(), 7);  // a rule shows once
        QCOMPARE(cards.count(), 1);
        QVERIFY(!cards.isHidden());
        QFrame* card = cards.card("diag.non_finite");
        QVERIFY(card);
        QCOMPARE(cardText(card, "diagnosticText"), QString::fromStdString(nanMessage().text));  // English: the engine's
        QVERIFY(cardText(card, "diagnosticTitle").contains("NaN or infinite"));
        QCOMPARE(buttonNames(card), (QStringList{"diagnosticAction_resume_lower_lr", "diagnosticAction_open_hyperparameters"}));
        auto* resume = card->findChild<QPushButton*>("diagnosticAction_resume_lower_lr");
        QVERIFY(resume->isEnabled());
        QTest::mouseClick(resume, Qt::LeftButton);
        QCOMPARE(asked.count(), 1);
        QCOMPARE(asked.at(0).at(0).toString(), QString("diag.non_finite"));
        QCOMPARE(asked.at(0).at(1).toString(), QString("resume_lower_lr"));
        QCOMPARE(asked.at(0).at(2).toLongLong(), qint64(7));

        // A message that is no diagnostic makes no card; dismissing leaves none.
        cards.addDiagnostic(makeMessage(MessageId::TrainPaused, {"3"}), 7);
        QCOMPARE(cards.count(), 1);
        QTest::mouseClick(card->findChild<QToolButton*>("diagnosticDismiss"), Qt::LeftButton);
        QCOMPARE(cards.count(), 0);
        QVERIFY(cards.isHidden());
    }

    void actionsOnTheStoredRunNeedOne()
    {
        DiagnosticCards cards;
        cards.addDiagnostic(nanMessage(), -1);
        QVERIFY(!cards.card("diag.non_finite")->findChild<QPushButton*>("diagnosticAction_resume_lower_lr")->isEnabled());
        QVERIFY(cards.card("diag.non_finite")->findChild<QPushButton*>("diagnosticAction_open_hyperparameters")->isEnabled());
    }

    void chineseCardsAndTheChecklist()
    {
        const QLocale before;
        const QList<QTranslator*> translators = Translations::install("zh_CN", this);
        const auto restore = qScopeGuard([&] {
            Translations::uninstall(translators);
            QLocale::setDefault(before);
        });
        QVERIFY(!translators.isEmpty());
        DiagnosticCards cards;
        QSignalSpy asked(&cards, &DiagnosticCards::actionRequested);
        cards.addDiagnostic(makeMessage(MessageId::DiagNotConverging, {"100", "2.303", "2.298"}), 3);
        QFrame* card = cards.card("diag.not_converging");
        QVERIFY(card);
        const QString text = cardText(card, "diagnosticText");
        QVERIFY2(hasChinese(text) && text.contains("100") && text.contains("2.303") && text.contains("2.298"), qPrintable(text));
        QCOMPARE(cardText(card, "diagnosticTitle"), QString::fromUtf8("<b>损失没有下降</b>"));
        // The not-converging checklist: one button per line, each in Chinese.
        const auto buttons = card->findChildren<QPushButton*>();
        QCOMPARE(buttons.size(), 6);
        for (auto* b : buttons) QVERIFY2(hasChinese(b->text()), qPrintable(b->text()));
        QTest::mouseClick(card->findChild<QPushButton*>("diagnosticAction_check_labels"), Qt::LeftButton);
        QCOMPARE(asked.count(), 1);
        QCOMPARE(asked.at(0).at(1).toString(), QString("check_labels"));

        // Every rule has a Chinese title and advice, every action Chinese words.
        for (const DiagnosticRule& rule : diagnosticRules()) {
            const QString id = QString::fromLatin1(rule.id);
            QVERIFY2(hasChinese(DiagnosticCards::title(id)), rule.id);
            for (const char* action : rule.actions) QVERIFY2(hasChinese(DiagnosticCards::actionText(action)), action);
            cards.addDiagnostic(makeMessage(rule.message, std::vector<std::string>(7, "1")), 3);
            QVERIFY2(hasChinese(cardText(cards.card(id), "diagnosticText")), rule.id);
        }
        QCOMPARE(cards.count(), int(diagnosticRules().size()));
        // The Train page with three cards, for a person to look at: build/screenshots/diagnostic_cards_zh_CN.png.
        ExperimentDocument document;
        TrainPage page(nullptr, &document);
        page.resize(1280, 800);
        page.diagnosticCards()->addDiagnostic(makeMessage(MessageId::DiagNonFinite, {"26", "2", "10", "1"}), 3);
        page.diagnosticCards()->addDiagnostic(makeMessage(MessageId::DiagNotConverging, {"100", "2.303", "2.298"}), 3);
        page.diagnosticCards()->addDiagnostic(makeMessage(MessageId::DiagOverfitting, {"val_loss", "3", "0.45", "0.55", "0.3", "0.12", "2"}), 3);
        QDir().mkpath(TS_SCREENSHOT_DIR);
        const QString shot = Screenshot::save(&page, QStringLiteral(TS_SCREENSHOT_DIR "/diagnostic_cards_zh_CN.png"));
        QVERIFY2(shot.isEmpty(), qPrintable(shot));
        // The trainer's divergence, which the NaN card follows in the log, reads in Chinese too.
        for (MessageId id : {MessageId::TrainDivergedNanLoss, MessageId::TrainDivergedInfiniteLoss, MessageId::TrainDivergedNonFiniteGradient})
            QVERIFY(hasChinese(renderMessage(makeMessage(id, {"26", "2", "11", "10", "1", "10"}))));
    }

    void trainPageForksTheDivergedRunWithALowerRate()
    {
        QTemporaryDir dir;
        const std::string data = dir.filePath("data").toStdString();
        QVERIFY(QDir().mkpath(QString::fromStdString(data)));
        test::writeIdxPair(data, "train", 240, 1, 30.0);
        test::writeIdxPair(data, "t10k", 60, 2, 30.0);
        const QString workspace = dir.filePath("ws");

        // The page trains the diverging experiment on the session's queue: its card arrives by itself.
        TrainingSession session;
        ExperimentDocument document;
        document.openUntitled(test::divergingSpec(data));
        TrainPage page(&session, &document);
        page.setWorkspaceDirectory(workspace);
        QSignalSpy pages(&page, &TrainPage::pageRequested);
        QSignalSpy finished(&session, &TrainingSession::finished);
        QSignalSpy raised(&session, &TrainingSession::diagnosticRaised);
        page.startTraining();
        QCOMPARE(session.jobs().size(), 1);
        QCOMPARE(page.followedJob(), session.jobs().front().id);
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.at(0).at(0).value<TrainingSession::Outcome>(), TrainingSession::Outcome::Failed);
        const qint64 failedRun = session.jobs().front().runId;
        QVERIFY(failedRun > 0);
        // At learning rate 10 more rules speak (the gradient norm, the loss's jumps); NaN once.
        QStringList rules;
        for (const auto& args : raised) {
            rules << QString::fromStdString(args.at(0).value<Message>().id);
            QCOMPARE(args.at(1).toLongLong(), failedRun);
        }
        QVERIFY2(rules.count("diag.non_finite") == 1, qPrintable(rules.join(", ")));
        QCOMPARE(page.diagnosticCards()->count(), int(rules.size()));
        qInfo("cards: %s", qPrintable(rules.join(", ")));
        QFrame* card = page.diagnosticCards()->card("diag.non_finite");
        QVERIFY(card);
        QTest::mouseClick(card->findChild<QPushButton*>("diagnosticAction_open_hyperparameters"), Qt::LeftButton);
        QCOMPARE(pages.count(), 1);
        QCOMPARE(pages.at(0).at(0).value<Page>(), Page::Hyperparameters);

        QTest::mouseClick(card->findChild<QPushButton*>("diagnosticAction_resume_lower_lr"), Qt::LeftButton);
        QCOMPARE(session.jobs().size(), 2);
        QCOMPARE(session.jobs().at(1).kind, QString("fork"));
        QVERIFY(finished.wait(60000));
        QCOMPARE(page.followedJob(), session.jobs().at(1).id);  // the page's own run now
        QCOMPARE(finished.at(1).at(0).value<TrainingSession::Outcome>(), TrainingSession::Outcome::Finished);
        QVERIFY(!page.diagnosticCards()->card("diag.non_finite"));  // the new run cleared the old advice
        const qint64 forkId = session.jobs().at(1).runId;

        RunReader reader(Workspace::open(workspace.toStdString()));
        const auto fork = reader.run(forkId);
        QVERIFY(fork && fork->parentRunId.value_or(-1) == failedRun);
        QCOMPARE(fork->parentRelation, std::string("fork"));
        const MetricSeries lr = reader.metric(forkId, "lr");
        QVERIFY(!lr.values.empty());
        for (double v : lr.values) QCOMPARE(v, 1.0);
        for (double v : reader.metric(forkId, "loss").values) QVERIFY(std::isfinite(v));
    }
};

int main(int argc, char** argv) { return runStudioSuite<TestDiagnosticCards>(argc, argv); }

#include "tst_diagnostic_cards.moc"
