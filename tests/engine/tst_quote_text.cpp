// Input values quoted in messages (tensor/quote_text.h): bounded (cut on a UTF-8 boundary with
// "…" and the whole size noted), one line, every control character and invalid byte visible.
// Generated sets: every byte value alone and inside text, every length around the limit, long
// values of every width of UTF-8 character, random byte strings.
#include <QtTest>

#include <random>
#include <string>

#include "tensor/quote_text.h"

using namespace ts;

namespace {

// True when `s` is well-formed UTF-8 holding no C0/DEL/C1 control (the promise to a terminal).
bool displaySafe(const std::string& s)
{
    for (std::size_t i = 0; i < s.size();) {
        const auto b = static_cast<unsigned char>(s[i]);
        if (b < 0x20 || b == 0x7F) return false;
        if (b < 0x80) {
            ++i;
            continue;
        }
        const std::size_t n = (b & 0xE0) == 0xC0 ? 2 : (b & 0xF0) == 0xE0 ? 3 : (b & 0xF8) == 0xF0 ? 4 : 0;
        if (n == 0 || i + n > s.size()) return false;
        char32_t cp = b & (0x7F >> n);
        for (std::size_t k = 1; k < n; ++k) {
            const auto c = static_cast<unsigned char>(s[i + k]);
            if ((c & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (c & 0x3F);
        }
        if (cp >= 0x80 && cp <= 0x9F) return false;                      // C1
        if (cp == 0x2028 || cp == 0x2029 || (cp >= 0x202A && cp <= 0x202E)) return false;
        i += n;
    }
    return true;
}

}  // namespace

class TestQuoteText : public QObject {
    Q_OBJECT

private slots:
    void shortValuesAreQuotedAsTheyAre()
    {
        QCOMPARE(quoteText("abc"), std::string("'abc'"));
        QCOMPARE(quoteText(""), std::string("''"));
        QCOMPARE(quoteText("gr\xC3\xB6\xC3\x9F" "e \xE5\xAD\xA6"), std::string("'gr\xC3\xB6\xC3\x9F" "e \xE5\xAD\xA6'"));
        QCOMPARE(quoteText("C:\\new"), std::string("'C:\\new'"));  // a backslash stays
        QCOMPARE(groupDigits(0), std::string("0"));
        QCOMPARE(groupDigits(999), std::string("999"));
        QCOMPARE(groupDigits(1000), std::string("1,000"));
        QCOMPARE(groupDigits(10485760), std::string("10,485,760"));
    }

    // Seen: a 10 MB CSV cell echoed whole.
    void tenMegabytesAreCut()
    {
        const std::string cell(10 * 1024 * 1024, '7');
        const std::string q = quoteText(cell);
        QCOMPARE(q, "'" + std::string(kQuoteChars - 1, '7') + "…' (10,485,760 bytes)");
        QCOMPARE(clipText(cell, 10), std::string("777777777… (10,485,760 bytes)"));
        QCOMPARE(clipText(cell, 10, false), std::string("777777777…"));
    }

    // Every length around the limit: at most kQuoteChars characters inside the quotes, cut only
    // when longer, and the note only when cut.
    void everyLengthAroundTheLimit()
    {
        for (std::size_t n = 0; n <= 3 * kQuoteChars; ++n) {
            const std::string value(n, 'x');
            const std::string q = quoteText(value);
            const bool cut = n > kQuoteChars;
            QVERIFY2(cut == (q.find("…") != std::string::npos), q.c_str());
            QVERIFY2(cut == (q.find(" bytes)") != std::string::npos), q.c_str());
            const std::string inside = q.substr(1, q.rfind('\'') - 1);
            QVERIFY2(textChars(inside) == std::min(n, kQuoteChars), q.c_str());
        }
    }

    // Long values of 1-, 2-, 3- and 4-byte characters: cut on a character boundary, never inside one.
    void cutOnUtf8Boundaries()
    {
        for (const std::string unit : {"a", "\xC3\xB6", "\xE5\xAD\xA6", "\xF0\x9F\x98\x80"})
            for (std::size_t limit : {1u, 2u, 7u, 80u, 81u}) {
                std::string value;
                for (int i = 0; i < 200; ++i) value += unit;
                const std::string c = clipText(value, limit, false);
                QVERIFY2(displaySafe(c), c.c_str());
                QCOMPARE(textChars(c), limit);
                QVERIFY(c.ends_with("…"));
                QCOMPARE(c.size(), (limit - 1) * unit.size() + std::string("…").size());
            }
    }

    // Every byte value, alone and in the middle of text: the result is safe to print, and a
    // byte that was safe is kept as it was.
    void everyByteIsSafe()
    {
        for (int b = 0; b < 256; ++b) {
            const std::string value = std::string("run") + char(b) + "name";
            const std::string q = quoteText(value);
            QVERIFY2(displaySafe(q), qPrintable(QString("byte %1: %2").arg(b).arg(QByteArray::fromStdString(q).toHex())));
            if (b >= 0x20 && b < 0x7F) QCOMPARE(q, "'" + value + "'");
            else QVERIFY2(q.find('\\') != std::string::npos, q.c_str());  // shown as an escape
        }
        QCOMPARE(quoteText("a\nb"), std::string("'a\\nb'"));
        QCOMPARE(quoteText("a\rb\tc"), std::string("'a\\rb\\tc'"));
        QCOMPARE(quoteText("\x1b[31mred"), std::string("'\\x1b[31mred'"));
        QCOMPARE(quoteText("\x7f"), std::string("'\\x7f'"));
        QCOMPARE(quoteText("\xC2\x85 \xC2\x9B" "31m"), std::string("'\\u0085 \\u009b31m'"));  // C1: NEL, CSI
        QCOMPARE(quoteText("\xE2\x80\xAE" "gnp.exe"), std::string("'\\u202egnp.exe'"));       // right-to-left override
        QCOMPARE(quoteText("\xFF\xFE"), std::string("'\\xff\\xfe'"));
        QCOMPARE(quoteText("\xC0\xAF"), std::string("'\\xc0\\xaf'"));          // overlong '/'
        QCOMPARE(quoteText("\xED\xA0\x80"), std::string("'\\xed\\xa0\\x80'"));  // a surrogate
        QCOMPARE(quoteText("\xE5\xAD"), std::string("'\\xe5\\xad'"));          // cut short
        // A message's own lines stay where asked; nothing else does.
        QCOMPARE(escapeControls("line 1\nline 2\t\x1b", true), std::string("line 1\nline 2\t\\x1b"));
    }

    // An escape counts as its length and is never cut in half.
    void escapesAreNotCut()
    {
        const std::string value(100, '\x1b');
        for (std::size_t limit = 1; limit < 20; ++limit) {
            const std::string c = clipText(value, limit, false);
            QVERIFY2(textChars(c) <= limit, c.c_str());
            const std::string body = c.substr(0, c.size() - std::string("…").size());
            QCOMPARE(body.size() % 4, std::size_t(0));  // whole "\x1b" escapes only
        }
    }

    // Random bytes of random lengths: always safe, always bounded.
    void randomBytes()
    {
        std::mt19937 rng(37);
        for (int round = 0; round < 2000; ++round) {
            std::string value(rng() % 400, '\0');
            for (auto& c : value) c = char(rng() % 256);
            const std::string q = quoteText(value);
            QVERIFY(displaySafe(q));
            QVERIFY(textChars(q) <= kQuoteChars + 2 + std::string(" (1,000 bytes)").size());
            QVERIFY(displaySafe(escapeControls(value)));
        }
    }
};

QTEST_GUILESS_MAIN(TestQuoteText)
#include "tst_quote_text.moc"
