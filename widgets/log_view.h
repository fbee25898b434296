// A read-only log that follows new lines as a terminal does: while it is scrolled to the
// bottom, each new line scrolls into view (also after a resize, and while the view is hidden);
// scrolled up, it stays where the user put it until they scroll back to the bottom.
// (QPlainTextEdit alone follows only while visible, and a resize at the bottom leaves it behind.)
#pragma once

#include <QPlainTextEdit>

namespace ts::widgets {

class LogView : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit LogView(QWidget* parent = nullptr);

    void appendLine(const QString& text);      // plain text
    void appendHtmlLine(const QString& html);  // rich text (a coloured error line)
    // Whether the next line scrolls into view: the view is at the bottom.
    bool followsNewLines() const;

private:
    template <class Append>
    void appendKeepingPlace(Append&& append);

    int m_bottom = 0;          // the scroll bar's maximum when last seen: a view there is at the bottom
    bool m_appending = false;  // the document changes under the scroll bar: appendKeepingPlace places it
};

}  // namespace ts::widgets
