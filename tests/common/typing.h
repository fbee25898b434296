// Typing into a studio field as a user does: the old text selected and deleted, the new one
// typed key by key, then Enter (which is when a line edit's value is taken).
#pragma once
#include <QLineEdit>
#include <QTest>

inline void typeReplacing(QLineEdit* edit, const QString& text)
{
    edit->setFocus();
    edit->selectAll();
    QTest::keyClick(edit, Qt::Key_Backspace);
    QTest::keyClicks(edit, text);
    QTest::keyClick(edit, Qt::Key_Return);
}
