// A studio suite's main: a scratch HOME (scratch_home.h), then the application with the
// studio's names (where QSettings keeps them), then the suite.
#pragma once

#include <QApplication>
#include <QTemporaryDir>
#include <QTest>

#include "scratch_home.h"

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
