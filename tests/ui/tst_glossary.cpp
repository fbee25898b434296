// The glossary (issue 19 item 3): its content complete in English and Chinese with every
// related entry there; every option it names is in the option table and every diagnostic rule
// has an entry; search by an English and by a Chinese word; the browser's links, language and
// list; the "more…" of an option's tooltip and of each diagnostic card opening the right entry;
// F1 in the main window on a focused option. Screenshots in both languages (scale 1 and 1.5).
// Offscreen, with a scratch HOME.
#include <QtTest>
#include <QtWidgets>

#include <set>

#include "chinese_text.h"
#include "help_tip.h"
#include "io/yaml/experiment_options.h"
#include "io/yaml/experiment_yaml.h"
#include "scratch_home.h"
#include "train/diagnostics.h"
#include "types/message.h"
#include "ui/glossary/glossary.h"
#include "ui/glossary/glossary_browser.h"
#include "ui/hyperparameters/option_editor.h"
#include "ui/hyperparameters/option_help.h"
#include "ui/main_window.h"
#include "ui/pages.h"
#include "ui/screenshot.h"
#include "ui/train/diagnostic_cards.h"
#include "ui/translations.h"

using namespace ts;
using namespace ts::ui;

namespace {

QStringList listedIds(const GlossaryBrowser& b)
{
    QStringList ids;
    for (int i = 0; i < b.entryList()->count(); ++i) ids << b.entryList()->item(i)->data(Qt::UserRole).toString();
    return ids;
}

// Clicks the text `words` in the entry's text, as a person clicks a link.
void clickText(QTextBrowser* text, const QString& words)
{
    QTextCursor found = text->document()->find(words);
    QVERIFY2(!found.isNull(), qPrintable(words));
    found.setPosition(found.selectionStart() + 1);
    const QPoint at = text->cursorRect(found).center();
    QTest::mouseClick(text->viewport(), Qt::LeftButton, {}, at);
}

QString scaleSuffix()
{
    const QByteArray scale = qgetenv("QT_SCALE_FACTOR");
    return scale.isEmpty() || scale == "1" ? QString() : QStringLiteral("_x") + QString::fromLatin1(scale);
}

}  // namespace

class TestGlossary : public QObject {
    Q_OBJECT
    const Glossary& g_ = Glossary::studio();

private slots:
    void everyEntryHasBothLanguagesAndItsRelatedEntries()
    {
        QVERIFY2(g_.problem().isEmpty(), qPrintable(g_.problem()));
        QVERIFY2(g_.entries().size() >= 30, qPrintable(QString::number(g_.entries().size())));
        const QStringList problems = g_.check();
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
        for (const GlossaryEntry& e : g_.entries()) {
            for (const GlossaryText* t : {&e.title, &e.what, &e.when, &e.numbers}) {
                QVERIFY2(!t->en.isEmpty() && !hasChinese(t->en), qPrintable(e.id));
                QVERIFY2(hasChinese(t->zh), qPrintable(e.id));
            }
            for (const QString& r : e.related) QVERIFY2(g_.entry(r) && r != e.id, qPrintable(e.id + " -> " + r));
        }
        // The practices the issue names, each with the seeds' numbers where they give one.
        for (const char* id : {"learning_rate", "lr_finder", "warmup", "batch_size", "weight_decay", "adamw",
                               "gradient_clipping", "gradient_accumulation", "mixed_precision", "loss_scaling", "batch_norm",
                               "dropout", "data_augmentation", "data_loader", "pinned_memory", "not_converging",
                               "overfit_one_batch", "early_stopping", "class_imbalance", "label_noise", "data_leakage",
                               "activation_checkpointing", "memory_allocated_reserved", "calibration", "onnx_export",
                               "seeds_reproducibility"})
            QVERIFY2(g_.entry(id), id);
        QVERIFY(g_.entry("data_loader")->numbers.en.contains("Half to two thirds of the physical CPU cores"));
        QVERIFY(g_.entry("data_loader")->numbers.zh.contains("一半到三分之二"));
        QVERIFY(g_.entry("gradient_norm")->numbers.en.contains("above 10"));
        QVERIFY(g_.entry("loss_scaling")->numbers.en.contains("65536"));
    }

    void badContentIsRefusedWithItsPlace()
    {
        try {
            Glossary::fromYaml("entries:\n  - title: {en: A, zh: 甲}\n", "g.yaml");
            QFAIL("an entry without an id was read");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QString(e.what()).startsWith("g.yaml:2:") && QString(e.what()).contains("without an id"), e.what());
        }
        try {
            Glossary::fromYaml("entries:\n  - {id: a, title: {en: A}}\n  - {id: a, title: {en: B}}\n", "g.yaml");
            QFAIL("a repeated id was read");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QString(e.what()).startsWith("g.yaml:3:") && QString(e.what()).contains("used twice"), e.what());
        }
        // Sound YAML with gaps: read, and check() names each gap.
        const Glossary gappy = Glossary::fromYaml("entries:\n  - {id: a, title: {en: A}, related: [b]}\n", "g.yaml");
        const QStringList problems = gappy.check();
        QVERIFY2(problems.contains("a: title has no Chinese") && problems.contains("a: related entry 'b' does not exist"),
                 qPrintable(problems.join('\n')));
    }

    void optionsAndRulesMapToEntries()
    {
        std::set<QString> mapped;
        for (const GlossaryEntry& e : g_.entries()) {
            for (const QString& key : e.options) {
                QVERIFY2(findExperimentOption(key.toStdString()), qPrintable(e.id + ": " + key));
                mapped.insert(key);
            }
            for (const QString& rule : e.rules) QVERIFY2(diagnosticRule(rule.toStdString()), qPrintable(e.id + ": " + rule));
        }
        for (const DiagnosticRule& rule : diagnosticRules())
            QVERIFY2(!g_.entryForRule(QString::fromLatin1(rule.id)).isEmpty(), rule.id);
        // Every option has an entry, so every option's tooltip has a "more…".
        QVERIFY2(mapped.size() == experimentOptions().size(), qPrintable(QString::number(mapped.size())));
        QCOMPARE(g_.entryForOption("optimizer.lr"), QString("learning_rate"));
        QCOMPARE(g_.entryForOption("dataset.loader.num_workers"), QString("data_loader"));
        QCOMPARE(g_.entryForOption("training.epochs"), QString("epochs"));
        QCOMPARE(g_.entryForOption("training.threads"), QString("cpu_threads"));
        QCOMPARE(g_.entryForRule("diag.gradient_exploding"), QString("gradient_norm"));
    }

    void searchFindsEntriesInEitherLanguage()
    {
        QCOMPARE(g_.search("weight decay").value(0), QString("weight_decay"));
        QCOMPARE(g_.search("Weight DECAY").value(0), QString("weight_decay"));
        QCOMPARE(g_.search("权重衰减").value(0), QString("weight_decay"));
        QCOMPARE(g_.search("num_workers").value(0), QString("data_loader"));
        QVERIFY(g_.search("三分之二").contains("data_loader"));      // a word of the Chinese text, not the title
        QVERIFY(g_.search("pinned memory").contains("pinned_memory"));
        QVERIFY(g_.search("锁页内存").contains("pinned_memory"));
        QVERIFY(g_.search("optimizer.lr").contains("learning_rate"));  // an option key
        QVERIFY(g_.search("   ").isEmpty());
        QVERIFY(g_.search("quaternion").isEmpty());

        // The browser's list follows the search field, typed as a person types.
        GlossaryBrowser browser;
        browser.show();
        QCOMPARE(listedIds(browser).size(), int(g_.entries().size()));
        QTest::keyClicks(browser.searchField(), "gradient accumulation");
        QCOMPARE(listedIds(browser).value(0), QString("gradient_accumulation"));
        browser.searchField()->setText(QString::fromUtf8("梯度累积"));
        QCOMPARE(listedIds(browser).value(0), QString("gradient_accumulation"));
        QTest::keyClick(browser.searchField(), Qt::Key_Return);
        QCOMPARE(browser.currentEntry(), QString("gradient_accumulation"));
        browser.searchField()->setText("quaternion");
        QVERIFY(listedIds(browser).isEmpty());
        QVERIFY(browser.findChild<QLabel*>("glossaryNoMatch")->isVisible());
        browser.searchField()->clear();
        QCOMPARE(listedIds(browser).size(), int(g_.entries().size()));
        QVERIFY(!browser.findChild<QLabel*>("glossaryNoMatch")->isVisible());
    }

    void entryShowsItsPartsAndRelatedLinksOpen()
    {
        GlossaryBrowser browser;
        browser.setShowsChinese(false);
        browser.show();
        QVERIFY(QTest::qWaitForWindowExposed(&browser));
        QVERIFY(!browser.showEntry("no_such_entry"));
        QVERIFY(browser.showEntry("learning_rate"));
        const QString html = browser.entryText()->toHtml();
        QVERIFY(html.contains("glossary:warmup"));
        const QString plain = browser.entryText()->toPlainText();
        QVERIFY2(plain.contains("Start at 1e-3") && plain.contains("optimizer.lr") && plain.contains("The loss is rising") &&
                     plain.contains(QString::fromUtf8("学习率")),  // the other language's title under the heading
                 qPrintable(plain));
        clickText(browser.entryText(), g_.entry("warmup")->title.en);
        QCOMPARE(browser.currentEntry(), QString("warmup"));
        QCOMPARE(browser.entryList()->currentItem()->data(Qt::UserRole).toString(), QString("warmup"));
        // Picking in the list shows that entry.
        QListWidget* list = browser.entryList();
        const int row = int(listedIds(browser).indexOf("calibration"));
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->item(row)).center());
        QCOMPARE(browser.currentEntry(), QString("calibration"));
        QVERIFY(browser.entryText()->toPlainText().contains("temperature", Qt::CaseInsensitive));
    }

    void optionTooltipsMoreOpensTheEntry()
    {
        QWidget window;
        auto* layout = new QVBoxLayout(&window);
        auto* editor = new OptionEditor;
        layout->addWidget(editor);
        editor->setExperiment(loadExperiment(std::string(TS_SOURCE_DIR) + "/experiments/fashion_mnist_mlp.yaml"));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        // Every option with an entry names it (for F1); the others name none.
        for (const ExperimentOption& o : experimentOptions()) {
            const QString entry = g_.entryForOption(QString::fromStdString(o.key));
            QCOMPARE(editor->label(o.key)->property("glossaryEntry").toString(), entry);
            QCOMPARE(editor->field(o.key)->property("glossaryEntry").toString(), entry);
        }

        QLabel* lr = editor->label("optimizer.lr");
        const QPoint inside = lr->rect().center();
        QHelpEvent tooltip(QEvent::ToolTip, inside, lr->mapToGlobal(inside));
        QApplication::sendEvent(lr, &tooltip);
        HelpTip* tip = HelpTip::current();
        QVERIFY(tip);
        QCOMPARE(tip->anchor(), lr);
        QVERIFY(tip->textLabel()->text().contains(optionHelp("optimizer.lr").left(30).toHtmlEscaped()));
        QVERIFY(!QToolTip::isVisible());
        QTest::mouseClick(tip->moreButton(), Qt::LeftButton);
        auto* browser = window.findChild<GlossaryBrowser*>();
        QVERIFY(browser);
        QVERIFY(browser->isVisible());
        QCOMPARE(browser->currentEntry(), QString("learning_rate"));
        QTRY_VERIFY(!HelpTip::current());

        // The same from a field, for another entry; Escape hides the tip.
        QWidget* workers = editor->field("dataset.loader.num_workers");
        QHelpEvent again(QEvent::ToolTip, QPoint(4, 4), workers->mapToGlobal(QPoint(4, 4)));
        QApplication::sendEvent(workers, &again);
        QVERIFY(HelpTip::current());
        QTest::keyClick(workers, Qt::Key_Escape);
        QTRY_VERIFY(!HelpTip::current());
        QApplication::sendEvent(workers, &again);
        QVERIFY(HelpTip::current());
        QTest::mouseClick(HelpTip::current()->moreButton(), Qt::LeftButton);
        QCOMPARE(window.findChildren<GlossaryBrowser*>().size(), 1);  // one glossary window, reused
        QCOMPARE(browser->currentEntry(), QString("data_loader"));

        // The epochs option too (every option has an entry).
        QLabel* epochs = editor->label("training.epochs");
        QHelpEvent onEpochs(QEvent::ToolTip, QPoint(2, 2), epochs->mapToGlobal(QPoint(2, 2)));
        QApplication::sendEvent(epochs, &onEpochs);
        QVERIFY(HelpTip::current());
        QTest::mouseClick(HelpTip::current()->moreButton(), Qt::LeftButton);
        QCOMPARE(browser->currentEntry(), QString("epochs"));
    }

    void everyCardsMoreOpensItsRulesEntry()
    {
        for (const DiagnosticRule& rule : diagnosticRules()) {
            DiagnosticCards cards;
            cards.resize(700, 300);
            cards.show();
            cards.addDiagnostic(makeMessage(rule.message, {"1", "2", "3", "4", "5", "6", "7"}), 3);
            QFrame* card = cards.card(QString::fromLatin1(rule.id));
            QVERIFY2(card, rule.id);
            auto* more = card->findChild<QToolButton*>("diagnosticMore");
            QVERIFY2(more, rule.id);
            QTRY_VERIFY2(more->isVisible(), rule.id);  // a widget added to a shown parent shows a moment later
            QTest::mouseClick(more, Qt::LeftButton);
            auto* browser = cards.findChild<GlossaryBrowser*>();
            QVERIFY2(browser && browser->isVisible(), rule.id);
            QCOMPARE(browser->currentEntry(), g_.entryForRule(QString::fromLatin1(rule.id)));
            QVERIFY2(!browser->currentEntry().isEmpty(), rule.id);
        }
    }

    void chineseByTheStudiosLanguage()
    {
        const QLocale before;
        const QList<QTranslator*> translators = Translations::install("zh_CN", this);
        const auto restore = qScopeGuard([&] {
            Translations::uninstall(translators);
            QLocale::setDefault(before);
        });
        GlossaryBrowser browser;
        browser.show();
        QVERIFY(browser.showsChinese());
        browser.showEntry("data_loader");
        QVERIFY(hasChinese(browser.entryList()->item(0)->text()));
        QVERIFY(browser.entryText()->toPlainText().contains(QString::fromUtf8("物理核心数的一半到三分之二")));
        auto* language = browser.findChild<QToolButton*>("glossaryLanguage");
        QCOMPARE(language->text(), QString("English"));
        QTest::mouseClick(language, Qt::LeftButton);
        QVERIFY(!browser.showsChinese());
        QVERIFY(browser.entryText()->toPlainText().contains("Half to two thirds"));
        QVERIFY(!hasChinese(browser.entryList()->item(0)->text()));
    }

    void f1OnAFocusedOptionOpensItsEntry()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setCurrentPage(Page::Hyperparameters);
        auto* editor = window.findChild<OptionEditor*>();
        QVERIFY(editor && editor->isEnabled());
        QWidget* field = editor->field("optimizer.weight_decay");
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        field->setFocus();
        QTRY_COMPARE(QApplication::focusWidget(), field);
        QTest::keyClick(field, Qt::Key_F1);
        auto* browser = window.findChild<GlossaryBrowser*>();
        QVERIFY(browser && browser->isVisible());
        QCOMPARE(browser->currentEntry(), QString("weight_decay"));
        QVERIFY(window.findChild<QAction*>("actionGlossary"));
        window.close();
    }

    // build/screenshots/glossary_{en,zh_CN}[_x1.5].png, and no title cut short in the list.
    void screenshotsAndNothingTruncated()
    {
        for (const QString& language : {QStringLiteral("en"), QStringLiteral("zh_CN")}) {
            const QLocale before;
            const QList<QTranslator*> translators = Translations::install(language, this);
            const auto restore = qScopeGuard([&] {
                Translations::uninstall(translators);
                QLocale::setDefault(before);
            });
            GlossaryBrowser browser;
            browser.showEntry("data_loader");
            browser.show();
            QVERIFY(QTest::qWaitForWindowExposed(&browser));
            QListWidget* list = browser.entryList();
            for (int i = 0; i < list->count(); ++i) {
                const int needed = list->fontMetrics().horizontalAdvance(list->item(i)->text());
                QVERIFY2(list->viewport()->width() >= needed, qPrintable(list->item(i)->text()));
            }
            QVERIFY(browser.entryText()->verticalScrollBar()->maximum() >= 0);
            const QString path = QStringLiteral(TS_SCREENSHOT_DIR "/glossary_%1%2.png").arg(language, scaleSuffix());
            QDir().mkpath(QStringLiteral(TS_SCREENSHOT_DIR));
            const QString error = Screenshot::save(&browser, path);
            QVERIFY2(error.isEmpty(), qPrintable(error));
        }
    }
};

int main(int argc, char** argv)
{
    QTemporaryDir home;
    if (!home.isValid()) return 1;
    useScratchHome(home.path());
    qputenv("TRAINSTUDIO_WORKSPACE", QFile::encodeName(home.path() + "/workspace"));
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName("TrainStudio");
    QCoreApplication::setApplicationName("TrainStudio");
    TestGlossary test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_glossary.moc"
