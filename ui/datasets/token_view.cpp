#include "token_view.h"

#include <QEvent>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace ts::ui {

namespace {

constexpr int kPadX = 3, kPadY = 2, kGap = 2;

// a blended over b by `share` (0..1).
QColor blend(const QColor& a, const QColor& b, double share)
{
    return QColor::fromRgbF(float(a.redF() * share + b.redF() * (1 - share)), float(a.greenF() * share + b.greenF() * (1 - share)),
                            float(a.blueF() * share + b.blueF() * (1 - share)));
}

}  // namespace

TokenView::TokenView(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
}

void TokenView::setTokens(std::vector<TokenCell> cells)
{
    m_cells = std::move(cells);
    m_hovered = -1;
    m_rects = layoutFor(width());
    updateGeometry();
    update();
}

std::vector<QRect> TokenView::layoutFor(int width) const
{
    std::vector<QRect> rects;
    rects.reserve(m_cells.size());
    const QFontMetrics fm(font());
    const int h = fm.height() + 2 * kPadY;
    const int right = std::max(width, 1);
    int x = 0, y = 0;
    bool rowStarted = false;
    for (const TokenCell& c : m_cells) {
        const int w = std::min(fm.horizontalAdvance(c.text) + 2 * kPadX, right);
        if (rowStarted && x + w > right) {  // wrap
            x = 0;
            y += h + kGap;
        }
        rects.emplace_back(x, y, w, h);
        x += w + kGap;
        rowStarted = true;
        if (c.lineBreak) {
            x = 0;
            y += h + kGap;
            rowStarted = false;
        }
    }
    return rects;
}

int TokenView::heightForWidth(int width) const
{
    const auto rects = layoutFor(width);
    int bottom = 0;
    for (const QRect& r : rects) bottom = std::max(bottom, r.bottom() + 1);
    return bottom;
}

QSize TokenView::sizeHint() const
{
    const int w = std::max(200, width());
    return {w, heightForWidth(w)};
}

QSize TokenView::minimumSizeHint() const
{
    const QFontMetrics fm(font());
    return {fm.averageCharWidth() * 8, fm.height() + 2 * kPadY};
}

QRect TokenView::tokenRect(int index) const
{
    return index >= 0 && index < int(m_rects.size()) ? m_rects[std::size_t(index)] : QRect();
}

int TokenView::tokenAt(const QPoint& pos) const
{
    for (int i = 0; i < int(m_rects.size()); ++i)
        if (m_rects[std::size_t(i)].contains(pos)) return i;
    return -1;
}

// Two tints of the base colour, one blue and one amber, strong enough to tell apart on a light
// or a dark base while the text over them keeps its contrast; a faint token is nearly the base.
QColor TokenView::background(int index) const
{
    const QColor base = palette().color(QPalette::Base);
    const bool dark = base.lightness() < 128;
    const QColor tint = index % 2 == 0 ? QColor(66, 133, 244) : QColor(240, 160, 20);
    const bool faint = index >= 0 && index < int(m_cells.size()) && m_cells[std::size_t(index)].faint;
    return blend(tint, base, faint ? 0.08 : dark ? 0.42 : 0.26);
}

QString TokenView::describe(int index) const
{
    if (index < 0 || index >= int(m_cells.size())) return {};
    const TokenCell& c = m_cells[std::size_t(index)];
    QString text = tr("Token %1 of %2: id %3, “%4”").arg(index + 1).arg(m_cells.size()).arg(c.id).arg(c.text);
    if (c.faint) text += QLatin1Char(' ') + tr("(cut: past the context, the model does not see it)");
    return text;
}

void TokenView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QColor text = palette().color(QPalette::Text);
    const QColor base = palette().color(QPalette::Base);
    for (int i = 0; i < int(m_cells.size()); ++i) {
        const QRect r = m_rects[std::size_t(i)];
        const TokenCell& c = m_cells[std::size_t(i)];
        p.fillRect(r, background(i));
        if (i == m_hovered) {
            p.setPen(QPen(palette().color(QPalette::Highlight), 2));
            p.drawRect(r.adjusted(1, 1, -1, -1));
        }
        if (c.faint && (i == 0 || !m_cells[std::size_t(i) - 1].faint)) {  // where the context cuts the text
            p.setPen(QPen(QColor(210, 40, 40), 2));
            const int x = std::max(r.left() - 1, 1);
            p.drawLine(x, r.top() - 1, x, r.bottom() + 1);
        }
        p.setPen(c.faint ? blend(text, base, 0.45) : text);
        p.drawText(r.adjusted(kPadX, 0, -kPadX, 0), Qt::AlignCenter,
                   p.fontMetrics().elidedText(c.text, Qt::ElideRight, r.width() - 2 * kPadX));
    }
}

bool TokenView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int i = tokenAt(help->pos());
        if (i >= 0)
            QToolTip::showText(help->globalPos(), describe(i), this, tokenRect(i));
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void TokenView::mouseMoveEvent(QMouseEvent* event)
{
    setHovered(tokenAt(event->position().toPoint()));
    QWidget::mouseMoveEvent(event);
}

void TokenView::leaveEvent(QEvent* event)
{
    setHovered(-1);
    QWidget::leaveEvent(event);
}

void TokenView::setHovered(int index)
{
    if (index == m_hovered) return;
    m_hovered = index;
    update();
    emit hovered(index);
}

void TokenView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    m_rects = layoutFor(width());
}

}  // namespace ts::ui
