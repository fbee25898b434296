// How widgets write the files a user asks for (chart and canvas exports). Widgets know no
// engine, so the application installs its checked writer (ui/user_files.h: the engine's gate
// for user-named files, which refuses a workspace's own files and anything not a regular file,
// and writes atomically); without one, QSaveFile writes.
#pragma once
#include <QByteArray>
#include <QString>

#include <functional>

namespace ts::widgets {

struct WriteResult {
    bool ok = false;
    QString message;  // why it failed; when ok, a note for the user or empty
    explicit operator bool() const { return ok; }
};

using FileWriter = std::function<WriteResult(const QString& path, const QByteArray& bytes)>;

void setFileWriter(FileWriter writer);
WriteResult writeFile(const QString& path, const QByteArray& bytes);

}  // namespace ts::widgets
