// Everything the studio remembers between sessions, in one place: every setting's key, type
// and default are in studio_settings.cpp, and no other file names a key.
//
// The file is QStandardPaths' AppConfigLocation + ".conf" (~/.config/TrainStudio/TrainStudio.conf,
// the file QSettings() used before), looked up on every access: with
// QStandardPaths::setTestModeEnabled(true) it moves under ~/.qttest whenever test mode is turned
// on, where QSettings() fixes its folder at its first use.
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include "pages.h"

namespace ts::widgets {
class ChartGrid;
}

namespace ts::ui {

class StudioSettings {
public:
    static QString fileName();

    // The main window: its geometry and state (QMainWindow's saveGeometry/saveState), the page shown.
    static QByteArray windowGeometry();
    static void setWindowGeometry(const QByteArray& geometry);
    static QByteArray windowState();
    static void setWindowState(const QByteArray& state);
    static Page page();  // Datasets when none, or an unknown one, was saved
    static void setPage(Page page);

    // View > Language: a code of Translations::available(); empty for the system's.
    static QString language();
    static void setLanguage(const QString& code);

    // The experiment open when the studio closed; empty when none.
    static QString lastExperiment();
    static void setLastExperiment(const QString& file);
    // Open Recent: newest first, at most kMaxRecent, only files that still exist (absolute, clean paths).
    static constexpr int kMaxRecent = 8;
    static QStringList recentExperiments();
    static void addRecentExperiment(const QString& file);
    // The processes the Train page trains on (data-parallel when more than one).
    static int processes();
    static void setProcesses(int processes);

    // The Runs page's table header (columns, sort order) and splitters, as their saveState() gives them.
    struct RunsPageLayout {
        QByteArray header;
        QByteArray splitter;
        QByteArray detailsSplitter;
    };
    static RunsPageLayout runsPageLayout();
    static void setRunsPageLayout(const RunsPageLayout& layout);

    // The folder the last ONNX export went to; empty when none.
    static QString onnxExportFolder();
    static void setOnnxExportFolder(const QString& folder);

    // The Runs page's Generate tab: what it last generated with. `checkpoint` is "best" or
    // "last" (an epoch belongs to one run, so it is not kept).
    struct GenerateSettings {
        QString prompt;
        double temperature = 0.8;
        int topK = 0;  // 0: every token
        int length = 200;
        int seed = 0;
        QString checkpoint = QStringLiteral("best");
        bool operator==(const GenerateSettings&) const = default;
    };
    static GenerateSettings generateSettings();
    static void setGenerateSettings(const GenerateSettings& settings);

    // Restores the charts hidden and the log scales chosen on `grid`, and keeps them as they change.
    enum class ChartGridId { TrainPage, RunsPage };
    static void keepChartGridChoices(widgets::ChartGrid* grid, ChartGridId id);
    // Makes every chart's PNG export dialog start from, and keep, the size chosen last (start-up).
    static void keepChartPngSize();
};

}  // namespace ts::ui
