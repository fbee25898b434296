// The studio's wording of the engine's messages (engine/types/message.h): one translatable
// template per message id, with the engine's arguments as %1, %2, ... and %n for the count
// that picks a plural form. Log lines, run messages and tool tips go through renderMessage so
// they read in the user's language. A message without an id (a failure's text), an id the
// studio does not know (a newer engine) or a template without a translation shows the
// engine's English text, whose plurals are right.
#pragma once

#include <QString>

#include <string>

#include "types/message.h"

namespace ts::ui {

QString renderMessage(const ts::Message& message);
// The stored log level ("info", "warning", "error") as a word of the user's language.
QString logLevelText(const std::string& level);
// Whether the studio has a template for the id (the tests check every engine id has one).
bool hasMessageTemplate(const std::string& id);

}  // namespace ts::ui
