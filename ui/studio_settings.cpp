#include "studio_settings.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>
#include <QVariant>

#include "chart_grid.h"
#include "live_chart.h"

namespace ts::ui {

namespace {

// A setting: its key in the file and what it reads as while absent.
template <class T> struct Key {
    QString name;
    T fallback;
};

// Every setting. The keys are those of earlier versions, so what they saved still reads.
const Key<QByteArray> kWindowGeometry{QStringLiteral("mainWindow/geometry"), {}};
const Key<QByteArray> kWindowState{QStringLiteral("mainWindow/state"), {}};
const Key<QString> kPage{QStringLiteral("mainWindow/page"), {}};  // a PageInfo::key; page() falls back to Datasets
const Key<QString> kLanguage{QStringLiteral("language"), {}};
const Key<QString> kLastExperiment{QStringLiteral("train/lastExperiment"), {}};
const Key<QStringList> kRecentExperiments{QStringLiteral("train/recentExperiments"), {}};
const Key<int> kProcesses{QStringLiteral("train/processes"), 1};
const Key<QByteArray> kRunsHeader{QStringLiteral("runsPage/header2"), {}};  // 2: since the ID and Result columns
const Key<QByteArray> kRunsSplitter{QStringLiteral("runsPage/splitter"), {}};
const Key<QByteArray> kRunsDetailsSplitter{QStringLiteral("runsPage/detailsSplitter"), {}};
const Key<QString> kOnnxExportFolder{QStringLiteral("runs/onnxExportFolder"), {}};
const StudioSettings::GenerateSettings kGenerateDefaults;
const Key<QString> kGeneratePrompt{QStringLiteral("runs/generate/prompt"), kGenerateDefaults.prompt};
const Key<double> kGenerateTemperature{QStringLiteral("runs/generate/temperature"), kGenerateDefaults.temperature};
const Key<int> kGenerateTopK{QStringLiteral("runs/generate/topK"), kGenerateDefaults.topK};
const Key<int> kGenerateLength{QStringLiteral("runs/generate/length"), kGenerateDefaults.length};
const Key<int> kGenerateSeed{QStringLiteral("runs/generate/seed"), kGenerateDefaults.seed};
const Key<QString> kGenerateCheckpoint{QStringLiteral("runs/generate/checkpoint"), kGenerateDefaults.checkpoint};
const Key<int> kPngWidth{QStringLiteral("charts/pngWidth"), widgets::PngExportSize{}.pixels.width()};
const Key<int> kPngHeight{QStringLiteral("charts/pngHeight"), widgets::PngExportSize{}.pixels.height()};
const Key<int> kPngDpi{QStringLiteral("charts/pngDpi"), widgets::PngExportSize{}.dpi};

Key<QStringList> chartsHidden(StudioSettings::ChartGridId id)
{
    return {id == StudioSettings::ChartGridId::TrainPage ? QStringLiteral("trainPage/charts/hidden")
                                                         : QStringLiteral("runsPage/charts/hidden"),
            {}};
}

Key<QStringList> chartsLogScale(StudioSettings::ChartGridId id)
{
    return {id == StudioSettings::ChartGridId::TrainPage ? QStringLiteral("trainPage/charts/logScale")
                                                         : QStringLiteral("runsPage/charts/logScale"),
            {}};
}

// Before the experiment document, the last experiment was a field of the Train page's edits.
const QString kLegacyTrainEdits = QStringLiteral("train/edits");

QSettings store() { return QSettings(StudioSettings::fileName(), QSettings::IniFormat); }

template <class T> T read(const Key<T>& key)
{
    return store().value(key.name, QVariant::fromValue(key.fallback)).template value<T>();
}

template <class T> void write(const Key<T>& key, const T& value) { store().setValue(key.name, QVariant::fromValue(value)); }

}  // namespace

QString StudioSettings::fileName()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) + QStringLiteral(".conf");
}

QByteArray StudioSettings::windowGeometry() { return read(kWindowGeometry); }
void StudioSettings::setWindowGeometry(const QByteArray& geometry) { write(kWindowGeometry, geometry); }
QByteArray StudioSettings::windowState() { return read(kWindowState); }
void StudioSettings::setWindowState(const QByteArray& state) { write(kWindowState, state); }
Page StudioSettings::page() { return PageInfo::fromKey(read(kPage)).value_or(Page::Datasets); }
void StudioSettings::setPage(Page page) { write(kPage, PageInfo::key(page)); }

QString StudioSettings::language() { return read(kLanguage); }
void StudioSettings::setLanguage(const QString& code) { write(kLanguage, code); }

QString StudioSettings::lastExperiment()
{
    const QSettings settings = store();
    return settings.value(kLastExperiment.name, settings.value(kLegacyTrainEdits).toMap().value(QStringLiteral("file")))
        .toString();
}

void StudioSettings::setLastExperiment(const QString& file)
{
    QSettings settings = store();
    settings.setValue(kLastExperiment.name, file);
    settings.remove(kLegacyTrainEdits);
}

QStringList StudioSettings::recentExperiments()
{
    QStringList files = read(kRecentExperiments);
    files.removeIf([](const QString& file) { return !QFileInfo::exists(file); });
    return files.mid(0, kMaxRecent);
}

void StudioSettings::addRecentExperiment(const QString& file)
{
    const QString path = QDir::cleanPath(QFileInfo(file).absoluteFilePath());
    QStringList files = recentExperiments();
    files.removeAll(path);
    files.prepend(path);
    write(kRecentExperiments, files.mid(0, kMaxRecent));
}

int StudioSettings::processes() { return read(kProcesses); }
void StudioSettings::setProcesses(int processes) { write(kProcesses, processes); }

StudioSettings::RunsPageLayout StudioSettings::runsPageLayout()
{
    return {read(kRunsHeader), read(kRunsSplitter), read(kRunsDetailsSplitter)};
}

void StudioSettings::setRunsPageLayout(const RunsPageLayout& layout)
{
    write(kRunsHeader, layout.header);
    write(kRunsSplitter, layout.splitter);
    write(kRunsDetailsSplitter, layout.detailsSplitter);
}

QString StudioSettings::onnxExportFolder() { return read(kOnnxExportFolder); }
void StudioSettings::setOnnxExportFolder(const QString& folder) { write(kOnnxExportFolder, folder); }

StudioSettings::GenerateSettings StudioSettings::generateSettings()
{
    GenerateSettings s;
    s.prompt = read(kGeneratePrompt);
    s.temperature = read(kGenerateTemperature);
    s.topK = read(kGenerateTopK);
    s.length = read(kGenerateLength);
    s.seed = read(kGenerateSeed);
    const QString checkpoint = read(kGenerateCheckpoint);
    if (checkpoint == QLatin1String("best") || checkpoint == QLatin1String("last")) s.checkpoint = checkpoint;
    return s;
}

void StudioSettings::setGenerateSettings(const GenerateSettings& s)
{
    write(kGeneratePrompt, s.prompt);
    write(kGenerateTemperature, s.temperature);
    write(kGenerateTopK, s.topK);
    write(kGenerateLength, s.length);
    write(kGenerateSeed, s.seed);
    write(kGenerateCheckpoint, s.checkpoint);
}

void StudioSettings::keepChartGridChoices(widgets::ChartGrid* grid, ChartGridId id)
{
    grid->restoreChoices({read(chartsHidden(id)), read(chartsLogScale(id))});
    QObject::connect(grid, &widgets::ChartGrid::choicesChanged, grid, [grid, id] {
        const widgets::ChartGridChoices choices = grid->choices();
        write(chartsHidden(id), choices.hidden);
        write(chartsLogScale(id), choices.logScale);
    });
}

void StudioSettings::keepChartPngSize()
{
    widgets::LiveChart::setPngSizeStore(
        [] { return widgets::PngExportSize{QSize(read(kPngWidth), read(kPngHeight)), read(kPngDpi)}; },
        [](const widgets::PngExportSize& size) {
            write(kPngWidth, size.pixels.width());
            write(kPngHeight, size.pixels.height());
            write(kPngDpi, size.dpi);
        });
}

}  // namespace ts::ui
