// How tokens and texts are written on the Datasets page: control characters made visible
// (a line break as ↵, a tab as ⇥, a space inside a token list as ␣, other control characters
// as their code, "<U+0007>"), so a token that is only white space can be seen and told
// apart from its neighbours.
#pragma once

#include <QString>

#include <string>

namespace ts::ui {

// One token's text as a label (the vocabulary table, the token view): spaces as ␣.
QString visibleToken(const std::string& piece);
// A text on one line (a list row): line breaks as ↵ and tabs as ⇥, spaces kept.
QString oneLineText(const QString& text);

}  // namespace ts::ui
