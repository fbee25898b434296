#include "studio_app.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>

#include <cstdio>

#include "main_window.h"
#include "screenshot.h"
#include "studio_settings.h"
#include "translations.h"
#include "live_language.h"
#include "version.h"

namespace ts::ui {

class StudioOptions {
    Q_DECLARE_TR_FUNCTIONS(StudioOptions)
public:
    QCommandLineOption screenshot{QStringLiteral("screenshot"),
                                  tr("Show the window, save a picture of it to <file> and quit."), tr("file")};
    QCommandLineOption language{QStringLiteral("lang"),
                                tr("Use this language instead of the system's: %1.")
                                    .arg(Translations::available().join(QStringLiteral(", "))),
                                tr("language")};

    void addTo(QCommandLineParser& parser)
    {
        parser.setApplicationDescription(tr("Design, train and compare neural networks."));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addOption(screenshot);
        parser.addOption(language);
    }

    static QString unknownLanguage(const QString& language)
    {
        return tr("Unknown language \"%1\"; available: %2.")
            .arg(language, Translations::available().join(QStringLiteral(", ")));
    }
};

namespace {
void printError(const QString& message) { std::fprintf(stderr, "trainstudio: %s\n", qPrintable(message)); }
}  // namespace


void setIdentity()
{
    // Organisation and application name decide where the settings live; keep them fixed.
    QCoreApplication::setOrganizationName(QStringLiteral("TrainStudio"));
    QCoreApplication::setApplicationName(QStringLiteral("TrainStudio"));
    QCoreApplication::setApplicationVersion(QString::fromStdString(engineVersion()));
}

// The command line, read with a QCoreApplication: --help, --version and mistakes are answered
// without a display (the GUI platform plugin is only loaded once they are past). Returns the
// exit code to end with, or -1 to go on with `language` and `screenshot` filled.
int parseCommandLine(int argc, char** argv, QString& language, QString& screenshot)
{
    QCoreApplication core(argc, argv);
    setIdentity();
    // A first, silent pass only learns --lang, so the real pass (and --help) speaks that language.
    {
        QCommandLineParser peek;
        StudioOptions options;
        options.addTo(peek);
        peek.parse(QCoreApplication::arguments());
        language = peek.value(options.language).replace(QLatin1Char('-'), QLatin1Char('_'));
    }
    // No --lang: the language chosen in View > Language, else the system's.
    const bool fromCommandLine = !language.isEmpty();
    if (!fromCommandLine) {
        const QString chosen = StudioSettings::language();
        if (Translations::available().contains(chosen)) language = chosen;
    }
    if (fromCommandLine && !Translations::available().contains(language)) {
        printError(StudioOptions::unknownLanguage(language));
        return 2;
    }
    Translations::install(language, &core);

    QCommandLineParser parser;
    StudioOptions options;
    options.addTo(parser);
    parser.process(core);  // exits on --help, --version and unknown options
    screenshot = parser.value(options.screenshot);
    return -1;
}

int runStudio(int argc, char** argv)
{
    QString language, screenshot;
    if (const int code = parseCommandLine(argc, argv, language, screenshot); code >= 0) return code;

    QApplication app(argc, argv);
    setIdentity();
    QGuiApplication::setDesktopFileName(QStringLiteral("trainstudio"));  // packaging/trainstudio.desktop
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/trainstudio.svg")));
    LiveLanguage::use(language);  // switchable later in View > Language
    StudioSettings::keepChartPngSize();

    MainWindow window;
    if (!screenshot.isEmpty()) {
        const QString error = Screenshot::save(&window, screenshot);
        if (!error.isEmpty()) printError(error);
        return error.isEmpty() ? 0 : 1;
    }
    window.show();
    return app.exec();
}

}  // namespace ts::ui
