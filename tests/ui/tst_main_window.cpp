// The studio shell: the six pages, navigation by sidebar, menu and shortcut, settings that
// survive a restart, the Chinese translation, About, the device line and --screenshot.
// Runs on the offscreen platform with a scratch HOME, so the user's settings are never touched.
#include <QtTest>
#include <QtWidgets>
#include <QUndoStack>

#include "chinese_text.h"
#include "backend/devices.h"
#include "child_process.h"
#include "graph/templates.h"
#include "data/dataset.h"
#include "ui/datasets/datasets_page.h"
#include "ui/datasets/sample_grid_model.h"
#include "ui/experiment_document.h"
#include "ui/main_window.h"
#include "ui/model/model_document.h"
#include "ui/model/model_page.h"
#include "ui/train/train_page.h"
#include "ui/pages.h"
#include "ui/screenshot.h"
#include "ui/system_info.h"
#include "ui/live_language.h"
#include "ui/translations.h"
#include "version.h"

using namespace ts::ui;

namespace {

QString g_home;  // the scratch HOME made in main()

const QStringList kEnglishTitles{"Datasets", "Model", "Hyperparameters", "Train", "Runs", "Learn"};
const QStringList kChineseTitles{"数据集", "模型", "超参数", "训练", "运行记录", "学习"};

QListWidget* sidebarOf(MainWindow& w) { return w.findChild<QListWidget*>("sidebar"); }
QStackedWidget* stackOf(MainWindow& w) { return w.findChild<QStackedWidget*>("pages"); }

// Each row shows its icon and its whole title (a sidebar too narrow for the words is a bug).
bool sidebarTitlesFit(MainWindow& w)
{
    QListWidget* sidebar = sidebarOf(w);
    for (int i = 0; i < sidebar->count(); ++i) {
        const int needed = sidebar->iconSize().width() + sidebar->fontMetrics().horizontalAdvance(sidebar->item(i)->text());
        if (sidebar->visualItemRect(sidebar->item(i)).width() < needed || sidebar->viewport()->width() < needed)
            return false;
    }
    return true;
}

QStringList sidebarTexts(MainWindow& w)
{
    QStringList texts;
    for (int i = 0; i < sidebarOf(w)->count(); ++i) texts << sidebarOf(w)->item(i)->text();
    return texts;
}

// Distinct colours in a sample of pixels: a blank or single-colour grab has very few.
int colourCount(const QImage& image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3) colours.insert(image.pixel(x, y));
    return colours.size();
}

// Every text a window shows in its widgets and actions, counted (a multiset: two windows
// built alike show the same one).
QMap<QString, int> visibleTexts(QWidget& window)
{
    QMap<QString, int> texts;
    // Numbers left out: free memory and timings differ from one look to the next.
    static const QRegularExpression digits(QStringLiteral("[0-9]+"));
    auto add = [&](const QString& kind, const QString& text) {
        if (!text.isEmpty()) ++texts[kind + ": " + QString(text).replace(digits, QStringLiteral("#"))];
    };
    QList<QWidget*> widgets = window.findChildren<QWidget*>();
    widgets << &window;
    QSet<QAction*> actions;
    for (QWidget* w : widgets) {
        add("tooltip", w->toolTip());
        if (auto* label = qobject_cast<QLabel*>(w)) add("label", label->text());
        if (auto* button = qobject_cast<QAbstractButton*>(w)) add("button", button->text());
        if (auto* group = qobject_cast<QGroupBox*>(w)) add("group", group->title());
        if (auto* line = qobject_cast<QLineEdit*>(w)) add("placeholder", line->placeholderText());
        if (auto* bar = qobject_cast<QTabBar*>(w))
            for (int i = 0; i < bar->count(); ++i) add("tab", bar->tabText(i));
        if (auto* combo = qobject_cast<QComboBox*>(w))
            for (int i = 0; i < combo->count(); ++i) add("combo", combo->itemText(i));
        if (auto* view = qobject_cast<QAbstractItemView*>(w); view && view->model()) {
            QAbstractItemModel* model = view->model();
            for (int c = 0; c < model->columnCount(); ++c) add("header", model->headerData(c, Qt::Horizontal).toString());
        }
        if (auto* dock = qobject_cast<QDockWidget*>(w)) add("dock", dock->windowTitle());
        for (QAction* a : w->actions()) actions.insert(a);
    }
    for (QAction* a : window.findChildren<QAction*>()) actions.insert(a);
    for (QAction* a : actions) add("action", a->text());
    return texts;
}

// The texts once the window's background work (dataset statistics, runs, memory figures)
// has settled: nothing says it is opening or computing, and two looks 300 ms apart agree.
QMap<QString, int> settledTexts(QWidget& window)
{
    auto busy = [](const QMap<QString, int>& texts) {
        for (auto it = texts.begin(); it != texts.end(); ++it)
            for (const char* working : {"omputing", "Opening ", "正在计算", "正在打开"})  // statistics, the dataset
                if (it.key().contains(QString::fromUtf8(working))) return true;
        return false;
    };
    QMap<QString, int> before = visibleTexts(window);
    for (int i = 0; i < 100; ++i) {
        QTest::qWait(300);
        QMap<QString, int> now = visibleTexts(window);
        if (now == before && !busy(now)) return now;
        before = now;
    }
    return before;
}

// What `a` holds more often than `b`.
QStringList difference(const QMap<QString, int>& a, const QMap<QString, int>& b)
{
    QStringList missing;
    for (auto it = a.begin(); it != a.end(); ++it)
        if (b.value(it.key()) < it.value()) missing << it.key();
    return missing;
}

// `display`: false runs it as on a machine without one (no DISPLAY, no platform chosen).
ts::test::ProcessResult runStudioExe(const QStringList& args, bool display = true)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (display) {
        env.insert("QT_QPA_PLATFORM", "offscreen");
    } else {
        for (const char* name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"}) env.remove(name);
    }
    return ts::test::runProcess(TS_STUDIO_EXE, args, env, 60000);
}

ts::CudaRuntimeInfo fakeCuda(int devices)
{
    ts::CudaRuntimeInfo info;
    info.compiledIn = true;
    info.runtimeVersion = "13.0";
    info.cublasVersion = "13.0.2";
    info.cudnnVersion = "9.13.1";
    for (int i = 0; i < devices; ++i)
        info.devices.push_back({i, "NVIDIA H200", std::size_t(141) << 30, 9, 0, 132});
    if (devices == 0) info.reason = "no CUDA device (the driver reports none)";
    return info;
}

}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        // The guard every other test relies on: settings live in the scratch HOME.
        const QString file = QSettings().fileName();
        QVERIFY2(file.startsWith(g_home + "/"), qPrintable(file));
    }

    void init()
    {
        QSettings settings;
        settings.clear();
        settings.sync();
    }

    void sixPagesInOrder()
    {
        MainWindow w;
        QListWidget* sidebar = sidebarOf(w);
        QStackedWidget* stack = stackOf(w);
        QVERIFY(sidebar && stack);
        QCOMPARE(sidebarTexts(w), kEnglishTitles);
        QCOMPARE(stack->count(), 6);
        for (int i = 0; i < 6; ++i) QVERIFY(!sidebar->item(i)->icon().isNull());
        // Every page is a real one now.
        QCOMPARE(stack->widget(0)->objectName(), QString("page_datasets"));
        QCOMPARE(stack->widget(1)->objectName(), QString("page_model"));
        QCOMPARE(stack->widget(2)->objectName(), QString("page_hyperparameters"));
        QCOMPARE(stack->widget(3)->objectName(), QString("page_train"));
        QCOMPARE(stack->widget(4)->objectName(), QString("page_runs"));
        QCOMPARE(stack->widget(5)->objectName(), QString("page_learn"));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(sidebarTitlesFit(w));
        QCOMPARE(w.currentPage(), Page::Datasets);  // first start
        QCOMPARE(sidebar->currentRow(), 0);
    }

    // The Model and Train pages are views of one experiment document: a model drawn on one is
    // the one the other trains; New makes a new untitled experiment, which both show.
    void modelPageAndTrainPageShareTheExperiment()
    {
        MainWindow w;
        auto* model = w.findChild<ModelPage*>();
        auto* train = w.findChild<TrainPage*>();
        QVERIFY(model && train);
        QVERIFY(train->experimentForRun());
        QCOMPARE(model->document()->path().toStdString(), train->experimentForRun()->sourceFile);
        model->newFromTemplate("resnet");
        QVERIFY(w.document()->path().isEmpty());
        QCOMPARE(model->document()->state().model, ts::templateGraph("resnet", ts::TemplateInput{{1, 28, 28}, 10}));
        QCOMPARE(train->experimentForRun()->model, model->document()->state().model);
        model->addOp("Flatten", {});  // a node without inputs: the model no longer checks, and both pages show it
        QCOMPARE(train->experimentForRun()->model, model->document()->state().model);
        model->document()->undoStack()->undo();
        QCOMPARE(train->experimentForRun()->model, ts::templateGraph("resnet", ts::TemplateInput{{1, 28, 28}, 10}));
    }

    // The Datasets page in the window: it opens the Train page's experiment's dataset (the
    // shipped Fashion-MNIST one), File > Open Dataset… reaches it, and an edit it makes is the
    // Train page's experiment.
    void datasetsPageShowsTheExperimentsDataset()
    {
        MainWindow w;
        auto* page = w.findChild<DatasetsPage*>();
        auto* train = w.findChild<TrainPage*>();
        QVERIFY(page && train);
        auto* open = w.findChild<QAction*>("actionOpenDataset");
        QVERIFY(open);
        QCOMPARE(open->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
        QVERIFY(w.findChild<QMenu*>("fileMenu")->actions().contains(open));
        // ... and File > Open Dataset Folder… beside it (issue 44: a folder of class folders opens).
        QVERIFY(w.findChild<QMenu*>("fileMenu")->actions().contains(page->openFolderAction()));
        const auto spec = train->experimentForRun();
        QVERIFY(spec);
        QVERIFY(page->experiment());
        QCOMPARE(page->experiment()->sourceFile, spec->sourceFile);
        if (!QFile::exists(QString::fromStdString(ts::resolvedDatasetPath(spec->dataset, ts::experimentDataDirectory(*spec))) +
                           "/train-images-idx3-ubyte.gz"))
            QSKIP("the experiment's dataset is not installed");
        QTRY_VERIFY_WITH_TIMEOUT(!page->isOpening(), 30000);
        QVERIFY2(page->opened().ok(), qPrintable(page->opened().error));
        QVERIFY(page->showsExperimentDataset());
        QCOMPARE(page->gridModel()->rowCount(), int(page->opened().files->train->size()));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        ts::DatasetSpec edited = page->experiment()->dataset;
        edited.validationFraction = 0.25;
        page->applyDatasetEdit(edited);
        QCOMPARE(train->experimentForRun()->dataset.validationFraction, 0.25);
        // "New model for this dataset": a new experiment on the Model page, with a template for
        // [1, 28, 28] and 10 classes (the shipped file, edited, is not saved: Discard).
        auto* model = w.findChild<ModelPage*>();
        QTimer::singleShot(0, [] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (box) box->button(QMessageBox::Discard)->click();
        });
        page->newModelAction()->trigger();
        QCOMPARE(w.currentPage(), Page::Model);
        QVERIFY(w.document()->path().isEmpty());
        QCOMPARE(model->document()->state().model, ts::templateGraph("cnn", ts::TemplateInput{{1, 28, 28}, 10}));
        QCOMPARE(train->experimentForRun()->dataset.validationFraction, 0.25);
    }

    void pageKeysRoundTrip()
    {
        for (Page p : kAllPages) QCOMPARE(PageInfo::fromKey(PageInfo::key(p)), std::optional<Page>(p));
        QVERIFY(!PageInfo::fromKey("nonsense"));
    }

    void sidebarClickSwitchesPage()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QListWidget* sidebar = sidebarOf(w);
        QStackedWidget* stack = stackOf(w);
        QSignalSpy spy(&w, &MainWindow::currentPageChanged);
        for (int row : {3, 1, 4, 0}) {
            const QRect rect = sidebar->visualItemRect(sidebar->item(row));
            QTest::mouseClick(sidebar->viewport(), Qt::LeftButton, {}, rect.center());
            QCOMPARE(stack->currentIndex(), row);
            QCOMPARE(stack->currentWidget()->objectName(), "page_" + PageInfo::key(kAllPages[row]));
            QCOMPARE(w.currentPage(), kAllPages[row]);
        }
        QCOMPARE(spy.count(), 4);

        sidebar->setFocus();
        QTest::keyClick(sidebar, Qt::Key_Down);  // the list is keyboard-navigable too
        QCOMPARE(stack->currentIndex(), 1);
    }

    void viewMenuAndShortcutsSwitchPage()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        for (int i = 0; i < 5; ++i) {
            auto* action = w.findChild<QAction*>("actionPage_" + PageInfo::key(kAllPages[i]));
            QVERIFY(action);
            QCOMPARE(action->text(), kEnglishTitles[i]);
            QCOMPARE(action->shortcut(), QKeySequence(QString("Ctrl+%1").arg(i + 1)));
        }

        QTest::keyClick(&w, Qt::Key_3, Qt::ControlModifier);
        QCOMPARE(w.currentPage(), Page::Hyperparameters);
        QCOMPARE(stackOf(w)->currentIndex(), 2);
        QCOMPARE(sidebarOf(w)->currentRow(), 2);
        QVERIFY(w.findChild<QAction*>("actionPage_hyperparameters")->isChecked());

        QTest::keyClick(&w, Qt::Key_5, Qt::ControlModifier);
        QCOMPARE(w.currentPage(), Page::Runs);
        QVERIFY(!w.findChild<QAction*>("actionPage_hyperparameters")->isChecked());

        w.findChild<QAction*>("actionPage_model")->trigger();
        QCOMPARE(stackOf(w)->currentIndex(), 1);

        auto* quit = w.findChild<QAction*>("actionQuit");
        QVERIFY(quit);
        QCOMPARE(quit->shortcut(), QKeySequence(QKeySequence::Quit));
    }

    void fileMenuOpensExperimentsAndRecentOnes()
    {
        QTemporaryDir dir;
        const QString recent = dir.filePath("recent.yaml");
        QFile f(recent);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        QSettings().setValue("train/recentExperiments", QStringList{recent, dir.filePath("gone.yaml")});
        MainWindow w;
        auto* open = w.findChild<QAction*>("actionOpenExperiment");
        QVERIFY(open);
        QCOMPARE(open->shortcut(), QKeySequence(QKeySequence::Open));
        auto* menu = w.findChild<QMenu*>("recentMenu");
        QVERIFY(menu);
        emit menu->aboutToShow();
        QCOMPARE(menu->actions().size(), 1);  // the missing file is not offered
        QCOMPARE(menu->actions().first()->text(), QString("recent.yaml"));
        QSettings().remove("train/recentExperiments");
        emit menu->aboutToShow();
        QCOMPARE(menu->actions().size(), 1);
        QVERIFY(!menu->actions().first()->isEnabled());  // "No recent experiments"
    }

    void languageMenuSavesTheChoice()
    {
        MainWindow w;
        auto* menu = w.findChild<QMenu*>("languageMenu");
        QVERIFY(menu);
        QAction* chinese = nullptr;
        for (QAction* a : menu->actions())
            if (a->data().toString() == "zh_CN") chinese = a;
        QVERIFY(chinese);
        QCOMPARE(chinese->text(), QString("简体中文"));
        const auto restore = qScopeGuard([] { LiveLanguage::use(QString()); });
        chinese->trigger();
        QCOMPARE(QSettings().value("language").toString(), QString("zh_CN"));
        QCOMPARE(LiveLanguage::current(), QString("zh_CN"));
        QVERIFY(!w.findChild<QMessageBox*>());  // no restart asked for: it switched
        menu->actions().first()->trigger();  // System Language
        QCOMPARE(QSettings().value("language").toString(), QString());
        QCOMPARE(LiveLanguage::current(), QString());
    }

    // Switching language while the studio runs gives the window a fresh start in that
    // language would have, and switching back gives the original texts.
    void languageSwitchesLive()
    {
        const auto restore = qScopeGuard([] { LiveLanguage::use(QString()); });
        QVERIFY(LiveLanguage::use("en"));
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QMap<QString, int> english = settledTexts(w);
        QVERIFY(english.size() > 100);

        QAction* chinese = nullptr;
        for (QAction* a : w.findChild<QMenu*>("languageMenu")->actions())
            if (a->data().toString() == "zh_CN") chinese = a;
        QVERIFY(chinese && !chinese->isChecked());
        chinese->trigger();
        QCoreApplication::processEvents();
        QVERIFY(chinese->isChecked());
        QCOMPARE(sidebarTexts(w), kChineseTitles);
        QVERIFY(sidebarTitlesFit(w));
        const QMap<QString, int> switched = settledTexts(w);

        MainWindow fresh;  // started in Chinese
        fresh.show();
        QVERIFY(QTest::qWaitForWindowExposed(&fresh));
        const QMap<QString, int> started = settledTexts(fresh);
        // What the switched window shows and the restarted one does not must not be English:
        // background work (statistics, memory figures) may finish at other times in the two.
        QStringList untranslated;
        for (const QString& text : difference(switched, started))
            if (!hasChinese(text)) untranslated << text;
        if (!untranslated.isEmpty()) qWarning().noquote() << "left in English:\n" << untranslated.join('\n');
        QCOMPARE(untranslated.size(), 0);

        QVERIFY(LiveLanguage::use("en"));
        QCoreApplication::processEvents();
        QCOMPARE(sidebarTexts(w), kEnglishTitles);
        QVERIFY(sidebarTitlesFit(w));
        const QMap<QString, int> back = settledTexts(w);
        // Every English text comes back as it was; what background work finished meanwhile
        // (statistics) may add texts, none of them Chinese.
        const QStringList lost = difference(english, back);
        QStringList stillChinese;
        for (const QString& text : difference(back, english))
            if (hasChinese(text)) stillChinese << text;
        if (!lost.isEmpty() || !stillChinese.isEmpty())
            qWarning().noquote() << lost.join('\n') << "\n--- Chinese left:\n" << stillChinese.join('\n');
        QCOMPARE(stillChinese.size(), 0);
        QCOMPARE(lost.size(), 0);
    }

    void quitClosesTheWindow()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.setCurrentPage(Page::Runs);
        w.findChild<QAction*>("actionQuit")->trigger();
        QVERIFY(!w.isVisible());
        QCOMPARE(QSettings().value("mainWindow/page").toString(), QString("runs"));  // saved on the way out
    }

    void firstStartUsesDefaultSize()
    {
        MainWindow w;
        QCOMPARE(w.size(), MainWindow::defaultSize());
        QVERIFY(MainWindow::defaultSize().width() >= 640);
    }

    void settingsRestoreGeometryAndPage()
    {
        const QSize size(700, 500);
        {
            MainWindow first;
            first.show();
            QVERIFY(QTest::qWaitForWindowExposed(&first));
            first.resize(size);
            QTRY_COMPARE(first.size(), size);
            first.setCurrentPage(Page::Train);
            QVERIFY(first.close());
        }
        MainWindow second;
        QCOMPARE(second.currentPage(), Page::Train);
        QCOMPARE(sidebarOf(second)->currentRow(), 3);
        QCOMPARE(stackOf(second)->currentIndex(), 3);
        second.show();
        QVERIFY(QTest::qWaitForWindowExposed(&second));
        QCOMPARE(second.size(), size);
        QVERIFY(second.size() != MainWindow::defaultSize());  // else the check above proves nothing

        // A page key from some other version falls back to the first page.
        QSettings().setValue("mainWindow/page", "nonsense");
        MainWindow third;
        QCOMPARE(third.currentPage(), Page::Datasets);
    }

    void chineseTranslation()
    {
        const QLocale before;
        const QList<QTranslator*> translators = Translations::install("zh_CN", this);
        const auto restore = qScopeGuard([&] {
            Translations::uninstall(translators);
            QLocale::setDefault(before);
        });
        QVERIFY(!translators.isEmpty());
        const QString qtbase = QLibraryInfo::path(QLibraryInfo::TranslationsPath) + "/qtbase_zh_CN.qm";
        if (QFile::exists(qtbase)) QCOMPARE(translators.size(), 2);  // Qt's own strings too

        MainWindow w;
        QCOMPARE(sidebarTexts(w), kChineseTitles);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(sidebarTitlesFit(w));
        QCOMPARE(stackOf(w)->widget(0)->objectName(), QString("page_datasets"));  // no placeholder title left
        QCOMPARE(w.menuBar()->actions().at(0)->text(), QString("文件(&F)"));
        QVERIFY(w.findChild<QLabel*>("deviceLabel")->text().startsWith("设备："));

        // Nothing visible is left in English: every text holds Chinese or is a proper name.
        QStringList texts;
        for (QLabel* label : w.findChildren<QLabel*>())
            if (!label->text().isEmpty()) texts << label->text();  // empty: a status line not yet filled
        // Languages are listed in their own names ("English"), as language menus do.
        const QList<QAction*> languages = w.findChild<QMenu*>("languageMenu")->actions();
        for (QAction* action : w.findChildren<QAction*>())
            if (!action->isSeparator() && !action->text().isEmpty() && !(languages.contains(action) && action->data().isValid() &&
                                                                         !action->data().toString().isEmpty()))
                texts << action->text();
        texts << sidebarTexts(w);
        QVERIFY(texts.size() >= 5 + 5 + 5 + 3);
        // A value without words (421,834, or 8.71 MFLOP: a number and a unit) is in no language.
        static const QRegularExpression unit(QStringLiteral("\\b[kMG]?(FLOP|iB|B)\\b"));
        static const QRegularExpression word(QStringLiteral("[A-Za-z]"));
        for (const QString& text : texts)
            QVERIFY2(hasChinese(text) || !QString(text).remove(unit).contains(word), qPrintable("untranslated: " + text));

        const QString about = SystemInfo::aboutHtml();
        QVERIFY(about.contains(QString::fromLatin1(qVersion())));
        QVERIFY(about.contains("许可证"));
        QVERIFY(hasChinese(SystemInfo::deviceSummary(fakeCuda(0), 4)));
        QVERIFY(Translations::available().contains("zh_CN"));
    }

    void resourcesAreCompiledIn()
    {
        // An uninstalled build must find its translations and icon inside the binary.
        QVERIFY(QFile::exists(":/i18n/trainstudio_zh_CN.qm"));
        const QIcon icon(":/icons/trainstudio.svg");
        QVERIFY(!icon.pixmap(64, 64).isNull());  // needs the SVG icon engine at run time
    }

    void englishIsTheDefaultWithoutTranslators()
    {
        MainWindow w;
        QCOMPARE(sidebarTexts(w), kEnglishTitles);
        QCOMPARE(w.menuBar()->actions().at(0)->text(), QString("&File"));
    }

    void aboutBoxShowsVersions()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.findChild<QAction*>("actionAbout")->trigger();
        QMessageBox* box = nullptr;
        QTRY_VERIFY((box = w.findChild<QMessageBox*>("aboutBox")));
        const QString text = box->text();
        QVERIFY2(text.contains(QString::fromLatin1(qVersion())), qPrintable(text));
        QVERIFY(text.contains(QString::fromStdString(ts::engineVersion())));
        QVERIFY(text.contains("CUDA runtime") && text.contains("cuBLAS") && text.contains("cuDNN"));
        QVERIFY(text.contains("GPL-3.0-or-later"));
        const ts::CudaRuntimeInfo& cuda = SystemInfo::cuda();
        if (cuda.compiledIn)
            QVERIFY(text.contains(QString::fromStdString(cuda.runtimeVersion)));
        else
            QVERIFY(text.contains("not built in"));
        box->close();
        QTRY_VERIFY(!w.findChild<QMessageBox*>("aboutBox"));  // deleted on close
        QVERIFY(w.findChild<QAction*>("actionAboutQt"));
    }

    void aboutAndDeviceLineFromEngineInfo()
    {
        const QString about = SystemInfo::aboutHtml(fakeCuda(1));
        for (const char* part : {"13.0", "13.0.2", "9.13.1", "NVIDIA H200", "141.0 GiB", "compute capability 9.0"})
            QVERIFY2(about.contains(part), part);
        QVERIFY(SystemInfo::aboutHtml(fakeCuda(0)).contains("the driver reports none"));

        QCOMPARE(SystemInfo::deviceSummary(fakeCuda(0), 8), QString("CPU (8 threads)"));
        QCOMPARE(SystemInfo::deviceSummary(fakeCuda(1), 8), QString("NVIDIA H200"));
        QCOMPARE(SystemInfo::deviceSummary(fakeCuda(3), 8), QString("NVIDIA H200 and 2 more"));
    }

    void statusBarShowsDevice()
    {
        MainWindow w;
        auto* label = w.findChild<QLabel*>("deviceLabel");
        QVERIFY(label);
        QCOMPARE(label->text(), "Device: " + SystemInfo::deviceSummary());
        if (SystemInfo::cuda().devices.empty()) QVERIFY(label->text().contains("CPU ("));
    }

    void screenshotOfAWindow()
    {
        QTemporaryDir dir;
        MainWindow w;
        w.resize(640, 480);
        const QString path = dir.filePath("shot.png");
        QCOMPARE(Screenshot::save(&w, path), QString());
        const QImage image(path);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), QSize(640, 480) * w.devicePixelRatio());
        QVERIFY2(colourCount(image) > 8, "the grab looks blank");

        // Already shown: it repaints, so the grab is fresh and an unwritable path fails at once.
        QElapsedTimer clock;
        clock.start();
        const QString error = Screenshot::save(&w, dir.filePath("no/such/dir/shot.png"));
        QVERIFY2(error.startsWith("cannot write " + dir.filePath("no/such/dir/shot.png")) && error.contains("does not exist"),
                 qPrintable(error));
        QVERIFY(clock.elapsed() < 5000);
    }

    void screenshotFromTheCommandLine_data()
    {
        QTest::addColumn<QString>("language");
        QTest::newRow("en") << "en";
        QTest::newRow("zh_CN") << "zh_CN";
    }
    void screenshotFromTheCommandLine()
    {
        QFETCH(QString, language);
        QTemporaryDir dir;
        const QString path = dir.filePath("studio.png");
        const ts::test::ProcessResult r = runStudioExe({"--screenshot", path, "--lang", language});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(QFileInfo(path).size() > 0);
        const QImage image(path);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), MainWindow::defaultSize());  // no saved geometry in the scratch HOME
        QVERIFY2(colourCount(image) > 8, "the screenshot looks blank");
        // A headless check leaves no settings behind.
        QVERIFY(!QFile::exists(g_home + "/config/TrainStudio/TrainStudio.conf"));
    }

    void commandLineOptions()
    {
        ts::test::ProcessResult r = runStudioExe({"--version"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("TrainStudio " + QString::fromStdString(ts::engineVersion())), qPrintable(r.out));

        r = runStudioExe({"--help"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("--screenshot <file>") && r.out.contains("--lang <language>"));
        QVERIFY(r.out.contains("zh_CN"));

        r = runStudioExe({"--lang", "zh_CN", "--help"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("截图"), qPrintable(r.out));

        r = runStudioExe({"--lang", "xx", "--screenshot", QDir::temp().filePath("never.png")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("Unknown language \"xx\""), qPrintable(r.err));

        r = runStudioExe({"--no-such-option"});
        QVERIFY(r.exitCode != 0);

        // Without a display: help and version still answer (no xcb plugin abort).
        r = runStudioExe({"--help"}, false);
        QVERIFY2(r.exitCode == 0 && r.out.contains("--screenshot <file>"), qPrintable(r.err));
        r = runStudioExe({"--version"}, false);
        QVERIFY2(r.exitCode == 0 && r.out.contains("TrainStudio"), qPrintable(r.err));
        r = runStudioExe({"--lang", "zh_CN", "--help"}, false);
        QVERIFY2(r.exitCode == 0 && r.out.contains("截图"), qPrintable(r.err));
    }
};

int main(int argc, char** argv)
{
    // A scratch HOME and XDG dirs before Qt starts: QSettings, caches and the child
    // `trainstudio` processes all land here. Test mode adds ~/.qttest on top for this process.
    QTemporaryDir home;
    if (!home.isValid()) return 1;
    g_home = home.path();
    qputenv("HOME", QFile::encodeName(g_home));
    for (const char* var : {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"}) {
        const QString dir = g_home + "/" + QString::fromLatin1(var).section('_', 1, 1).toLower();
        QDir().mkpath(dir);
        qputenv(var, QFile::encodeName(dir));
    }
    const QString runtime = g_home + "/runtime";  // private (0700), as Qt expects it
    QDir().mkpath(runtime);
    QFile::setPermissions(runtime, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    qputenv("XDG_RUNTIME_DIR", QFile::encodeName(runtime));
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QStandardPaths::setTestModeEnabled(true);

    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName("TrainStudio");
    QCoreApplication::setApplicationName("TrainStudio");
    TestMainWindow test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_main_window.moc"
