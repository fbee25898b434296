// A tooltip that can be clicked. Qt's own tooltip vanishes when the mouse moves onto it, so a
// link in one can never be reached; a HelpTip shows the widget's tooltip text with a "more…"
// button, and stays while the mouse is over the widget or over the tip. It hides once the
// mouse has left both, on Escape, when the widget goes away, and when "more…" is clicked.
//
// installHelpTip(widget, ...) replaces that widget's standard tooltip: whatever
// widget->toolTip() says when the tooltip is due is shown, plus the button.
#pragma once

#include <QFrame>
#include <QPointer>

#include <functional>

class QLabel;
class QPushButton;
class QTimer;

class HelpTip : public QFrame {
    Q_OBJECT
public:
    // Shows the one tip (replacing any other) for `anchor`, near global position `pos`.
    static HelpTip* showFor(QWidget* anchor, const QPoint& pos, const QString& html, const QString& moreText,
                            std::function<void()> onMore);
    // The tip shown now; null when none is.
    static HelpTip* current();

    QWidget* anchor() const { return m_anchor; }
    QLabel* textLabel() const { return m_text; }
    QPushButton* moreButton() const { return m_more; }

protected:
    // While shown: Escape, a click elsewhere or the wheel hide it, as they hide a tooltip.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    HelpTip();
    void follow();  // hides once the mouse has been away from anchor and tip for a moment

    QPointer<QWidget> m_anchor;
    QLabel* m_text = nullptr;
    QPushButton* m_more = nullptr;
    QTimer* m_follow = nullptr;
    std::function<void()> m_onMore;
    int m_away = 0;  // consecutive checks with the mouse elsewhere
};

// From now on `widget`'s tooltip shows as a HelpTip whose "more…" button calls `onMore`.
void installHelpTip(QWidget* widget, const QString& moreText, std::function<void()> onMore);
