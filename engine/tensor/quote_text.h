// Input values (a CSV cell, a YAML scalar, a label, a run name, a file name) quoted in a message
// that a person reads: one line, bounded, every character visible. Readers quote with
// quoteText() rather than "'" + value + "'", so a 10 MB cell or a name holding an escape
// sequence cannot flood or drive the terminal, and a newline cannot forge a line of output.
// Lowest layer (beside format_bytes.h): every part of the engine may quote.
#pragma once
#include <cstddef>
#include <cstdio>
#include <cstdint>
#include <string>
#include <string_view>

namespace ts {

// The characters of a value a message quotes, at most (escapes count as their length).
inline constexpr std::size_t kQuoteChars = 80;

// Control characters (C0, DEL, the C1 range U+0080..U+009F), the Unicode line and paragraph
// separators and the bidirectional overrides shown escaped: "\n", "\r", "\t", "\x1b", "\u0085",
// "\u202e"; bytes that are not UTF-8 as "\xNN"; valid UTF-8 kept. A backslash is kept as it is
// (Windows paths stay readable). keepLineBreaks: '\n' and '\t' stay (a message's own lines).
inline std::string escapeControls(std::string_view text, bool keepLineBreaks = false);

// escapeControls(text, keepLineBreaks) cut to at most `maxChars` characters, on a character
// boundary and never inside an escape, ending in "…" when cut; noteSize adds the whole value's
// size: "aaaa… (10,485,760 bytes)". A kept line break counts as one character.
inline std::string clipText(std::string_view text, std::size_t maxChars = kQuoteChars, bool noteSize = true,
                            bool keepLineBreaks = false);

// clipText in single quotes: 'abc', 'a\nb', 'aaaa…' (10,485,760 bytes).
inline std::string quoteText(std::string_view text, std::size_t maxChars = kQuoteChars);

// Characters of UTF-8 text as a terminal advances over them (one per code point; an invalid
// byte counts one).
inline std::size_t textChars(std::string_view text);

// 10485760 -> "10,485,760".
inline std::string groupDigits(std::uint64_t n);

// ---- implementation (header-only: every layer and front end includes it) ----

namespace quote_detail {

// The length of the well-formed UTF-8 sequence at s[i] and its code point; 0 when the byte
// there starts none (a stray continuation byte, an overlong form, a surrogate, past U+10FFFF,
// a sequence cut short).
inline std::size_t sequenceAt(std::string_view s, std::size_t i, char32_t& cp)
{
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80) {
        cp = b0;
        return 1;
    }
    std::size_t n = 0;
    char32_t least = 0;
    if ((b0 & 0xE0) == 0xC0) n = 2, cp = b0 & 0x1F, least = 0x80;
    else if ((b0 & 0xF0) == 0xE0) n = 3, cp = b0 & 0x0F, least = 0x800;
    else if ((b0 & 0xF8) == 0xF0) n = 4, cp = b0 & 0x07, least = 0x10000;
    else return 0;
    if (i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k) {
        const auto b = static_cast<unsigned char>(s[i + k]);
        if ((b & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (b & 0x3F);
    }
    if (cp < least || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n;
}

// Code points a terminal or a text view acts on rather than shows: they move the cursor, start
// escape sequences, break lines or reverse the order of what follows.
inline bool isControl(char32_t cp)
{
    return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 ||
           (cp >= 0x200E && cp <= 0x200F) || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

// The visible form of the character (or invalid byte) at s[i]; `length` is how many bytes it took.
inline std::string_view piece(std::string_view s, std::size_t i, bool keepLineBreaks, std::size_t& length, char (&buf)[12])
{
    char32_t cp = 0;
    length = sequenceAt(s, i, cp);
    if (length == 0) {
        length = 1;
        std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(s[i]));
        return buf;
    }
    if (!isControl(cp) || (keepLineBreaks && (cp == '\n' || cp == '\t'))) return s.substr(i, length);
    switch (cp) {
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    default: break;
    }
    std::snprintf(buf, sizeof buf, cp < 0x80 ? "\\x%02x" : "\\u%04x", static_cast<unsigned>(cp));
    return buf;
}

// How many characters a piece of `s` shows: a character kept from `s` one, an escape (ASCII) its length.
inline std::size_t pieceChars(std::string_view s, std::string_view p)
{
    return p.data() >= s.data() && p.data() < s.data() + s.size() ? 1 : p.size();
}

}  // namespace quote_detail

inline std::string escapeControls(std::string_view text, bool keepLineBreaks)
{
    std::string out;
    out.reserve(text.size());
    char buf[12];
    for (std::size_t i = 0, n = 0; i < text.size(); i += n) out += quote_detail::piece(text, i, keepLineBreaks, n, buf);
    return out;
}

namespace quote_detail {
// escapeControls(text) cut as clipText says; `cut` tells whether it was.
inline std::string clip(std::string_view text, std::size_t maxChars, bool& cut, bool keepLineBreaks = false)
{
    std::string out;
    std::size_t chars = 0;
    std::size_t kept = 0;  // the length of `out` while it still leaves room for the "…"
    char buf[12];
    cut = false;
    for (std::size_t i = 0, n = 0; i < text.size(); i += n) {
        const std::string_view p = piece(text, i, keepLineBreaks, n, buf);
        chars += pieceChars(text, p);
        if (chars > maxChars) {
            out.resize(kept);
            cut = true;
            return out + "…";
        }
        out += p;
        if (chars < maxChars) kept = out.size();
    }
    return out;
}
}  // namespace quote_detail

inline std::string clipText(std::string_view text, std::size_t maxChars, bool noteSize, bool keepLineBreaks)
{
    bool cut = false;
    std::string out = quote_detail::clip(text, maxChars, cut, keepLineBreaks);
    if (cut && noteSize) out += " (" + groupDigits(text.size()) + " bytes)";
    return out;
}

inline std::string quoteText(std::string_view text, std::size_t maxChars)
{
    bool cut = false;
    // Appended piece by piece: "'" + std::string&& trips GCC 12's -Wstringop-overflow.
    std::string out(1, '\'');
    out += quote_detail::clip(text, maxChars, cut);
    out += '\'';
    if (cut) out += " (" + groupDigits(text.size()) + " bytes)";
    return out;
}

inline std::size_t textChars(std::string_view text)
{
    std::size_t chars = 0;
    char32_t cp = 0;
    for (std::size_t i = 0; i < text.size(); ++chars) {
        const std::size_t n = quote_detail::sequenceAt(text, i, cp);
        i += n ? n : 1;
    }
    return chars;
}

inline std::string groupDigits(std::uint64_t n)
{
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

}  // namespace ts
