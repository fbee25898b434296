// The studio's files written where the user said (Save As, chart and canvas images, the
// screenshot): the engine's gate for user-named files (io/output_file.h), its refusals and
// notes worded in the user's language. installUserFileWriter makes the widgets' exports
// (widgets/file_writer.h) go through it too.
#pragma once
#include <QByteArray>
#include <QString>

#include <exception>

#include "widgets/file_writer.h"

namespace ts::ui {

widgets::WriteResult writeUserFile(const QString& path, const QByteArray& bytes);
void installUserFileWriter();
// An engine failure as the user reads it: a MessageError (types/message.h) in the user's
// language, anything else as the engine worded it.
QString errorText(const std::exception& error);

}  // namespace ts::ui
