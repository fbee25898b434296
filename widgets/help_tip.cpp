#include "help_tip.h"

#include <QApplication>
#include <QCursor>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QScreen>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>

namespace {

QPointer<HelpTip> g_current;  // one tip at a time, like QToolTip

constexpr int kFollowMs = 200;
constexpr int kAwayChecks = 3;  // time to cross the gap between widget and tip

class HelpTipFilter : public QObject {
public:
    HelpTipFilter(QWidget* widget, QString moreText, std::function<void()> onMore)
        : QObject(widget), m_widget(widget), m_moreText(std::move(moreText)), m_onMore(std::move(onMore))
    {
    }

    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (watched != m_widget || event->type() != QEvent::ToolTip || m_widget->toolTip().isEmpty()) return false;
        const auto* help = static_cast<QHelpEvent*>(event);
        QToolTip::hideText();
        if (HelpTip* tip = HelpTip::current(); tip && tip->anchor() == m_widget) return true;  // already there
        HelpTip::showFor(m_widget, help->globalPos(), m_widget->toolTip(), m_moreText, m_onMore);
        return true;
    }

private:
    QWidget* m_widget;
    QString m_moreText;
    std::function<void()> m_onMore;
};

}  // namespace

HelpTip::HelpTip() : QFrame(nullptr, Qt::ToolTip | Qt::FramelessWindowHint)
{
    setObjectName(QStringLiteral("helpTip"));
    setAttribute(Qt::WA_DeleteOnClose);
    setAttribute(Qt::WA_ShowWithoutActivating);
    // The look of a tooltip: its palette and a thin frame.
    QPalette p = QToolTip::palette();
    p.setColor(QPalette::Window, p.color(QPalette::ToolTipBase));
    p.setColor(QPalette::WindowText, p.color(QPalette::ToolTipText));
    setPalette(p);
    setAutoFillBackground(true);
    setFrameShape(QFrame::Box);
    setLineWidth(1);

    m_text = new QLabel(this);
    m_text->setObjectName(QStringLiteral("helpTipText"));
    m_text->setTextFormat(Qt::RichText);
    m_text->setWordWrap(true);
    m_more = new QPushButton(this);
    m_more->setObjectName(QStringLiteral("helpTipMore"));
    m_more->setFlat(true);
    m_more->setCursor(Qt::PointingHandCursor);
    QPalette link = m_more->palette();
    link.setColor(QPalette::ButtonText, palette().color(QPalette::Link));
    m_more->setPalette(link);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 4);
    layout->setSpacing(2);
    layout->addWidget(m_text);
    layout->addWidget(m_more, 0, Qt::AlignRight);
    connect(m_more, &QPushButton::clicked, this, [this] {
        const auto onMore = m_onMore;  // close() deletes this
        const bool anchored = m_anchor;  // the callback speaks of the anchor: not once it is gone
        close();
        if (onMore && anchored) onMore();
    });

    m_follow = new QTimer(this);
    m_follow->setInterval(kFollowMs);
    connect(m_follow, &QTimer::timeout, this, &HelpTip::follow);
}

HelpTip* HelpTip::current() { return g_current && g_current->isVisible() ? g_current.data() : nullptr; }

HelpTip* HelpTip::showFor(QWidget* anchor, const QPoint& pos, const QString& html, const QString& moreText,
                          std::function<void()> onMore)
{
    if (g_current) g_current->close();
    auto* tip = new HelpTip;
    g_current = tip;
    tip->m_anchor = anchor;
    tip->m_onMore = std::move(onMore);
    tip->m_more->setText(moreText);
    tip->m_text->setText(html);
    // Tooltip-wide: about 60 characters a line, as Qt's own rich-text tooltips wrap.
    tip->m_text->setFixedWidth(tip->fontMetrics().averageCharWidth() * 60);
    tip->adjustSize();

    // Below and right of the pointer, kept on its screen.
    QPoint at = pos + QPoint(2, 16);
    if (const QScreen* screen = QGuiApplication::screenAt(pos)) {
        const QRect room = screen->availableGeometry();
        if (at.x() + tip->width() > room.right()) at.setX(std::max(room.left(), room.right() - tip->width()));
        if (at.y() + tip->height() > room.bottom()) at.setY(std::max(room.top(), pos.y() - tip->height() - 4));
    }
    tip->move(at);
    qApp->installEventFilter(tip);  // removed with the tip
    tip->show();
    tip->m_follow->start();
    return tip;
}

void HelpTip::follow()
{
    const QPoint mouse = QCursor::pos();
    const bool overAnchor = m_anchor && m_anchor->isVisible() &&
                            QRect(m_anchor->mapToGlobal(QPoint(0, 0)), m_anchor->size()).contains(mouse);
    if (!m_anchor || (!overAnchor && !frameGeometry().contains(mouse))) {
        if (++m_away >= kAwayChecks || !m_anchor) close();
    } else {
        m_away = 0;
    }
}

bool HelpTip::eventFilter(QObject* watched, QEvent* event)
{
    const auto inside = [this, watched] {
        auto* w = qobject_cast<QWidget*>(watched);
        return w && (w == this || isAncestorOf(w));
    };
    switch (event->type()) {
    case QEvent::KeyPress:
        if (static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) {
            close();
            return true;
        }
        break;
    case QEvent::MouseButtonPress:
    case QEvent::Wheel:
        if (!inside()) close();
        break;
    default: break;
    }
    return false;
}

void installHelpTip(QWidget* widget, const QString& moreText, std::function<void()> onMore)
{
    widget->installEventFilter(new HelpTipFilter(widget, moreText, std::move(onMore)));
}
