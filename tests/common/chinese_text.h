// Whether a text holds Chinese (CJK Unified Ideographs): the studio suites' check that a
// string was translated rather than left in English.
#pragma once

#include <QString>

#include <algorithm>

inline bool hasChinese(const QString& text)
{
    return std::any_of(text.begin(), text.end(), [](QChar c) { return c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF; });
}
