// Text from the store, a file or an exception made safe to print on a terminal: a run name
// holding a newline cannot forge a row of `runs list`, an ESC cannot drive the terminal. The
// escaping is the engine's (tensor/quote_text.h), so a message and the table beside it show a
// control character alike. --json output does not pass through here: nlohmann escapes it and
// it must stay exact.
#pragma once
#include <algorithm>
#include <string>
#include <string_view>

#include "tensor/quote_text.h"

namespace ts::cli {

// Control characters and invalid UTF-8 escaped ("\n", "\x1b", "\xff"); with keepLineBreaks
// '\n' and '\t' stay (a multi-line message, indented notes).
inline std::string terminalText(std::string_view text, bool keepLineBreaks = false)
{
    return escapeControls(text, keepLineBreaks);
}

// One table cell or one-line field: escaped and cut to `maxChars` characters with "…".
inline std::string terminalCell(std::string_view text, std::size_t maxChars)
{
    return clipText(text, maxChars, false);
}

// An error message as printed: its lines kept, control characters escaped, and each line cut
// at 1,000 characters ("… (N bytes)"). The engine quotes values bounded already (quoteText);
// this bounds whatever a message put in whole (an option as typed, a path).
inline std::string terminalMessage(std::string_view text)
{
    std::string out;
    for (std::size_t begin = 0; begin <= text.size();) {
        const std::size_t end = std::min(text.find('\n', begin), text.size());
        out += clipText(text.substr(begin, end - begin), 1000, true, true);
        if (end == text.size()) break;
        out += '\n';
        begin = end + 1;
    }
    return out;
}

// Multi-line text (notes, a log message): its lines kept, the rest escaped, cut to `maxChars`
// characters with "… (N bytes)" (--json has all of it).
inline std::string terminalBlock(std::string_view text, std::size_t maxChars)
{
    return clipText(text, maxChars, true, true);
}

}  // namespace ts::cli
