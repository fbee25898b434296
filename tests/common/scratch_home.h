// Studio tests run in a scratch HOME with XDG folders of its own, set before Qt starts, so no
// user settings, caches or workspace are read or touched; offscreen unless told otherwise.
#pragma once

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QString>

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

