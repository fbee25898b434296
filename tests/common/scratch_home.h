// Studio tests run in a scratch HOME with XDG folders of its own, set before Qt starts, so no
// user settings, caches or workspace are read or touched; offscreen unless told otherwise.
#pragma once

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

inline void useScratchHome(const QString& home)
{
    qputenv("HOME", QFile::encodeName(home));
    for (const char* var : {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"}) {
        const QString dir = home + "/" + QString::fromLatin1(var).section('_', 1, 1).toLower();
        QDir().mkpath(dir);
        qputenv(var, QFile::encodeName(dir));
    }
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QStandardPaths::setTestModeEnabled(true);
}

// A studio suite's main: the scratch HOME, then the application with the studio's names
// (where QSettings keeps them), then the suite.
template <class Suite> int runStudioSuite(int argc, char** argv)
{
    QTemporaryDir home;
    if (!home.isValid()) return 1;
    useScratchHome(home.path());
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName("TrainStudio");
    QCoreApplication::setApplicationName("TrainStudio");
    Suite suite;
    return QTest::qExec(&suite, argc, argv);
}
