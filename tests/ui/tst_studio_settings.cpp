// StudioSettings: the defaults, every setting read back as written, Open Recent's order, cap and
// vanished files, the chart grids' and PNG dialog's choices kept, settings of earlier versions
// (written with QSettings() under the old keys) still read, and test mode keeping the tests'
// settings away from the real file. Offscreen, with a scratch HOME.
#include <QDialog>
#include <QDir>
#include <QFile>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>

#include <functional>

#include "chart_grid.h"
#include "live_chart.h"
#include "studio_suite.h"
#include "ui/studio_settings.h"

using namespace ts::ui;
using ts::widgets::ChartGrid;
using ts::widgets::LiveChart;
using Id = StudioSettings::ChartGridId;

namespace {

// A grid of four charts "c0".."c3", as the pages build theirs.
void fill(ChartGrid& grid)
{
    for (int i = 0; i < 4; ++i) {
        auto* chart = new LiveChart;
        chart->setTitle(QString("Chart %1").arg(i));
        grid.addChart(QString("c%1").arg(i), chart);
    }
}

// Acts on the modal dialog once it is open (askPngSize blocks in its exec()).
void whenDialogOpens(std::function<void(QDialog*)> act)
{
    QTimer::singleShot(10, [act] {
        for (QWidget* w : QApplication::topLevelWidgets())
            if (auto* dialog = qobject_cast<QDialog*>(w); dialog && dialog->isVisible()) return act(dialog);
        whenDialogOpens(act);
    });
}

struct PngDialogValues {
    int width = 0, height = 0, dpi = 0;
};

// Opens the PNG dialog, notes what it starts from, and accepts `answer` (or cancels when its width is 0).
PngDialogValues answerPngDialog(PngDialogValues answer)
{
    PngDialogValues shown;
    whenDialogOpens([&](QDialog* dialog) {
        auto* width = dialog->findChild<QSpinBox*>("pngWidth");
        auto* height = dialog->findChild<QSpinBox*>("pngHeight");
        auto* dpi = dialog->findChild<QSpinBox*>("pngDpi");
        shown = {width->value(), height->value(), dpi->value()};
        if (answer.width == 0) return dialog->reject();
        width->setValue(answer.width);
        height->setValue(answer.height);
        dpi->setValue(answer.dpi);
        dialog->accept();
    });
    LiveChart::askPngSize(nullptr);
    return shown;
}

QString touch(const QDir& dir, const QString& name)
{
    QFile file(dir.filePath(name));
    if (!file.open(QIODevice::WriteOnly)) return {};
    return file.fileName();
}

}  // namespace

class TestStudioSettings : public QObject {
    Q_OBJECT
private slots:
    void init() { QSettings(StudioSettings::fileName(), QSettings::IniFormat).clear(); }

    void defaultsWhenNothingIsSaved()
    {
        QVERIFY(StudioSettings::windowGeometry().isEmpty());
        QVERIFY(StudioSettings::windowState().isEmpty());
        QCOMPARE(StudioSettings::page(), Page::Datasets);
        QCOMPARE(StudioSettings::language(), QString());
        QCOMPARE(StudioSettings::lastExperiment(), QString());
        QCOMPARE(StudioSettings::recentExperiments(), QStringList());
        QCOMPARE(StudioSettings::processes(), 1);
        const StudioSettings::RunsPageLayout layout = StudioSettings::runsPageLayout();
        QVERIFY(layout.header.isEmpty() && layout.splitter.isEmpty() && layout.detailsSplitter.isEmpty());
        QCOMPARE(StudioSettings::onnxExportFolder(), QString());
        const StudioSettings::GenerateSettings generate = StudioSettings::generateSettings();
        QCOMPARE(generate.prompt, QString());
        QCOMPARE(generate.temperature, 0.8);
        QCOMPARE(generate.topK, 0);
        QCOMPARE(generate.length, 200);
        QCOMPARE(generate.seed, 0);
        QCOMPARE(generate.checkpoint, QString("best"));
    }

    void everySettingReadsBackAsWritten()
    {
        const QByteArray geometry = QByteArray::fromHex("0100d9d0ff") + "geometry", state = QByteArray::fromHex("ff00");
        StudioSettings::setWindowGeometry(geometry);
        StudioSettings::setWindowState(state);
        StudioSettings::setPage(Page::Runs);
        StudioSettings::setLanguage("zh_CN");
        StudioSettings::setLastExperiment("/somewhere/my_cnn.yaml");
        StudioSettings::setProcesses(3);
        StudioSettings::setRunsPageLayout({"header", "splitter", "details"});
        StudioSettings::setOnnxExportFolder("/somewhere/exports");
        const StudioSettings::GenerateSettings generate{"Q: 问", 1.25, 5, 3000, 42, "last"};
        StudioSettings::setGenerateSettings(generate);

        QCOMPARE(StudioSettings::windowGeometry(), geometry);
        QCOMPARE(StudioSettings::windowState(), state);
        QCOMPARE(StudioSettings::page(), Page::Runs);
        QCOMPARE(StudioSettings::language(), QString("zh_CN"));
        QCOMPARE(StudioSettings::lastExperiment(), QString("/somewhere/my_cnn.yaml"));
        QCOMPARE(StudioSettings::processes(), 3);
        const StudioSettings::RunsPageLayout layout = StudioSettings::runsPageLayout();
        QCOMPARE(layout.header, QByteArray("header"));
        QCOMPARE(layout.splitter, QByteArray("splitter"));
        QCOMPARE(layout.detailsSplitter, QByteArray("details"));
        QCOMPARE(StudioSettings::onnxExportFolder(), QString("/somewhere/exports"));
        QVERIFY(StudioSettings::generateSettings() == generate);

        StudioSettings::setLanguage({});  // back to the system's
        QCOMPARE(StudioSettings::language(), QString());
        for (Page page : kAllPages) {
            StudioSettings::setPage(page);
            QCOMPARE(StudioSettings::page(), page);
        }
    }

    void recentExperimentsAreNewestFirstCappedAndExisting()
    {
        QTemporaryDir dir;
        QStringList files;
        for (int i = 0; i < 10; ++i) files << touch(QDir(dir.path()), QString("e%1.yaml").arg(i));
        for (const QString& file : files) StudioSettings::addRecentExperiment(file);
        // The last eight added, newest first.
        QStringList expected;
        for (int i = 9; i >= 2; --i) expected << files[i];
        QCOMPARE(StudioSettings::kMaxRecent, 8);
        QCOMPARE(StudioSettings::recentExperiments(), expected);

        // Opening one again moves it to the front, once; a path spelled another way is the same file.
        StudioSettings::addRecentExperiment(dir.path() + "/./e5.yaml");
        expected.removeAll(files[5]);
        expected.prepend(files[5]);
        QCOMPARE(StudioSettings::recentExperiments(), expected);

        // A file deleted since is left out, and leaves room for one more.
        QVERIFY(QFile::remove(files[7]));
        expected.removeAll(files[7]);
        QCOMPARE(StudioSettings::recentExperiments(), expected);
        StudioSettings::addRecentExperiment(files[0]);
        expected.prepend(files[0]);
        QCOMPARE(StudioSettings::recentExperiments(), expected);
        QCOMPARE(expected.size(), 8);
    }

    void chartGridChoicesAreKeptPerPage()
    {
        {
            ChartGrid train;
            fill(train);
            StudioSettings::keepChartGridChoices(&train, Id::TrainPage);
            train.setChartVisible("c1", false);
            train.chart("c2")->setLogY(true);
        }
        ChartGrid runs;
        fill(runs);
        StudioSettings::keepChartGridChoices(&runs, Id::RunsPage);
        QVERIFY(runs.isChartVisible("c1"));  // the Runs page's charts are its own
        QVERIFY(!runs.chart("c2")->logY());

        ChartGrid again;
        fill(again);
        StudioSettings::keepChartGridChoices(&again, Id::TrainPage);
        QVERIFY(!again.isChartVisible("c1"));
        QVERIFY(again.isChartVisible("c0"));
        QVERIFY(again.chart("c2")->logY());
        QVERIFY(!again.chart("c0")->logY());
        again.setChartVisible("c1", true);  // changed back, and kept so
        ChartGrid third;
        fill(third);
        StudioSettings::keepChartGridChoices(&third, Id::TrainPage);
        QVERIFY(third.isChartVisible("c1"));
    }

    void pngDialogKeepsItsSizeInTheSettings()
    {
        StudioSettings::keepChartPngSize();
        const PngDialogValues first = answerPngDialog({1234, 777, 200});
        QCOMPARE(first.width, 1600);  // nothing saved: the dialog's own default
        QCOMPARE(first.height, 1000);
        QCOMPARE(first.dpi, 150);
        const PngDialogValues second = answerPngDialog({});  // cancelled
        QCOMPARE(second.width, 1234);
        QCOMPARE(second.height, 777);
        QCOMPARE(second.dpi, 200);
        init();  // kept in the file, not in the process: cleared with it
        QCOMPARE(answerPngDialog({}).width, 1600);
    }

    // Earlier versions wrote through QSettings() under these keys; the same file and keys still read.
    void settingsOfEarlierVersionsStillRead()
    {
        QCOMPARE(QSettings().fileName(), StudioSettings::fileName());
        QTemporaryDir dir;
        const QString recent = touch(QDir(dir.path()), "mine.yaml");
        {
            QSettings old;
            old.setValue("mainWindow/geometry", QByteArray("g"));
            old.setValue("mainWindow/state", QByteArray("s"));
            old.setValue("mainWindow/page", "train");
            old.setValue("language", "zh_CN");
            old.setValue("train/recentExperiments", QStringList{recent, dir.filePath("gone.yaml")});
            old.setValue("train/edits", QVariantMap{{"file", recent}, {"epochs", 3}});
            old.setValue("train/processes", 2);
            old.setValue("runsPage/header2", QByteArray("h"));
            old.setValue("runsPage/splitter", QByteArray("sp"));
            old.setValue("runsPage/detailsSplitter", QByteArray("ds"));
            old.setValue("runs/onnxExportFolder", dir.path());
            old.setValue("trainPage/charts/hidden", QStringList{"c3"});
            old.setValue("runsPage/charts/logScale", QStringList{"c0", "c1"});
            old.setValue("charts/pngWidth", 640);
            old.setValue("charts/pngHeight", 480);
            old.setValue("charts/pngDpi", 72);
        }
        QCOMPARE(StudioSettings::windowGeometry(), QByteArray("g"));
        QCOMPARE(StudioSettings::windowState(), QByteArray("s"));
        QCOMPARE(StudioSettings::page(), Page::Train);
        QCOMPARE(StudioSettings::language(), QString("zh_CN"));
        QCOMPARE(StudioSettings::recentExperiments(), QStringList{recent});
        QCOMPARE(StudioSettings::lastExperiment(), recent);  // from the Train page's old edits
        QCOMPARE(StudioSettings::processes(), 2);
        QCOMPARE(StudioSettings::runsPageLayout().header, QByteArray("h"));
        QCOMPARE(StudioSettings::runsPageLayout().splitter, QByteArray("sp"));
        QCOMPARE(StudioSettings::runsPageLayout().detailsSplitter, QByteArray("ds"));
        QCOMPARE(StudioSettings::onnxExportFolder(), dir.path());
        ChartGrid train, runs;
        fill(train);
        fill(runs);
        StudioSettings::keepChartGridChoices(&train, Id::TrainPage);
        StudioSettings::keepChartGridChoices(&runs, Id::RunsPage);
        QVERIFY(!train.isChartVisible("c3"));
        QVERIFY(runs.chart("c0")->logY() && runs.chart("c1")->logY() && !runs.chart("c2")->logY());
        StudioSettings::keepChartPngSize();
        const PngDialogValues png = answerPngDialog({});
        QCOMPARE(png.width, 640);
        QCOMPARE(png.height, 480);
        QCOMPARE(png.dpi, 72);

        StudioSettings::setLastExperiment({});  // the old edits go once the new setting is written
        QCOMPARE(StudioSettings::lastExperiment(), QString());
        QVERIFY(!QSettings().contains("train/edits"));
    }

    // The settings file follows QStandardPaths each time: under test mode ~/.qttest, else the
    // XDG config folder (the scratch HOME's here). Writing under test mode leaves the other alone.
    void testModeKeepsTheRealFileUntouched()
    {
        QVERIFY(QStandardPaths::isTestModeEnabled());
        const QString testFile = StudioSettings::fileName();
        QVERIFY2(testFile.startsWith(QDir::homePath() + "/.qttest/"), qPrintable(testFile));
        QStandardPaths::setTestModeEnabled(false);
        const QString realFile = StudioSettings::fileName();
        QStandardPaths::setTestModeEnabled(true);
        QCOMPARE(realFile, qEnvironmentVariable("XDG_CONFIG_HOME") + "/TrainStudio/TrainStudio.conf");
        QCOMPARE(StudioSettings::fileName(), testFile);

        StudioSettings::setLanguage("zh_CN");
        StudioSettings::setProcesses(4);
        QVERIFY(QFile::exists(testFile));
        QVERIFY(!QFile::exists(realFile));
        QSettings real(realFile, QSettings::IniFormat);
        QVERIFY(real.allKeys().isEmpty());
    }
};

int main(int argc, char** argv) { return runStudioSuite<TestStudioSettings>(argc, argv); }
#include "tst_studio_settings.moc"
