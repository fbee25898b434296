#include "file_writer.h"

#include <QCoreApplication>
#include <QDir>
#include <QSaveFile>

#include <utility>

namespace ts::widgets {

namespace {

FileWriter& installed()
{
    static FileWriter writer;
    return writer;
}

WriteResult saveFile(const QString& path, const QByteArray& bytes)
{
    QSaveFile file(path);
    if (file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size() && file.commit()) return {true, {}};
    return {false, QCoreApplication::translate("FileWriter", "Could not write %1: %2")
                       .arg(QDir::toNativeSeparators(path), file.errorString())};
}

}  // namespace

void setFileWriter(FileWriter writer) { installed() = std::move(writer); }

WriteResult writeFile(const QString& path, const QByteArray& bytes)
{
    return installed() ? installed()(path, bytes) : saveFile(path, bytes);
}

}  // namespace ts::widgets
