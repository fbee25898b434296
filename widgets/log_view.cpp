#include "log_view.h"

#include <QScrollBar>

namespace ts::widgets {

LogView::LogView(QWidget* parent) : QPlainTextEdit(parent)
{
    setReadOnly(true);
    // A resize or a wrapped line moves the bottom: a view that was at the old bottom goes to
    // the new one. (Its position is read, not tracked: paging up moves it without valueChanged.)
    QScrollBar* bar = verticalScrollBar();
    connect(bar, &QScrollBar::rangeChanged, this, [this, bar](int, int maximum) {
        if (m_appending) return;
        if (bar->value() == m_bottom) bar->setValue(maximum);
        m_bottom = maximum;
    });
}

bool LogView::followsNewLines() const { return verticalScrollBar()->value() >= verticalScrollBar()->maximum(); }

template <class Append>
void LogView::appendKeepingPlace(Append&& append)
{
    QScrollBar* bar = verticalScrollBar();
    const bool follow = followsNewLines();
    const int value = bar->value();
    m_appending = true;
    append();
    m_appending = false;
    bar->setValue(follow ? bar->maximum() : value);  // where the user left it (dropping the oldest line must not move it)
    m_bottom = bar->maximum();
}

void LogView::appendLine(const QString& text)
{
    appendKeepingPlace([&] { appendPlainText(text); });
}

void LogView::appendHtmlLine(const QString& html)
{
    appendKeepingPlace([&] { appendHtml(html); });
}

}  // namespace ts::widgets
