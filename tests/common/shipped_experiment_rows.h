// The shipped experiments (every experiments/*.yaml) as Qt Test data rows: one column,
// "file", the full path, one row per file named after it, in name order. Fails the data
// function when fewer than four are found (the folder moved, or the glob broke).
#pragma once

#include <QString>
#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

inline void addShippedExperimentRows(const std::string& directory)
{
    QTest::addColumn<QString>("file");
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(directory))
        if (e.path().extension() == ".yaml") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) QTest::newRow(f.filename().c_str()) << QString::fromStdString(f.string());
    QVERIFY2(files.size() >= 4, qPrintable(QString::fromStdString("too few shipped experiments in " + directory)));
}
