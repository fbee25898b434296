#include "token_text.h"

namespace ts::ui {

namespace {

// A control character made visible: a line break as ↵, a tab as ⇥, any other as its code
// ("<U+0007>": Unicode's control pictures are missing from common fonts, DejaVu Sans among
// them); empty for the printable.
QString controlPicture(char32_t c)
{
    if (c == U'\n') return QStringLiteral("↵");
    if (c == U'\t') return QStringLiteral("⇥");
    if (c < 0x20 || (c >= 0x7f && c < 0xa0))
        return QStringLiteral("<U+%1>").arg(QString::number(uint(c), 16).toUpper().rightJustified(4, QLatin1Char('0')));
    return {};
}

QString visible(const QString& text, bool spaces)
{
    QString out;
    for (const char32_t c : text.toUcs4()) {
        if (spaces && c == U' ') {
            out += QStringLiteral("␣");
        } else if (const QString picture = controlPicture(c); !picture.isEmpty()) {
            out += picture;
        } else {
            out += QString::fromUcs4(&c, 1);
        }
    }
    return out;
}

}  // namespace

QString visibleToken(const std::string& piece)
{
    return visible(QString::fromStdString(piece), true);
}

QString oneLineText(const QString& text)
{
    return visible(text, false);
}

}  // namespace ts::ui
