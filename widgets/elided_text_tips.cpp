#include "elided_text_tips.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QHelpEvent>
#include <QStyle>
#include <QStyleOptionViewItem>
#include <QToolTip>

namespace ts::widgets {

void ElidedTextTips::install()
{
    static ElidedTextTips* filter = nullptr;
    if (filter || !qApp) return;
    filter = new ElidedTextTips(qApp);
    qApp->installEventFilter(filter);
}

bool ElidedTextTips::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() != QEvent::ToolTip) return false;
    auto* viewport = qobject_cast<QWidget*>(watched);
    auto* view = viewport ? qobject_cast<QAbstractItemView*>(viewport->parentWidget()) : nullptr;
    if (!view || view->viewport() != viewport || !view->model()) return false;
    const auto* help = static_cast<QHelpEvent*>(event);
    const QModelIndex index = view->indexAt(help->pos());
    if (!index.isValid() || !index.data(Qt::ToolTipRole).toString().isEmpty()) return false;  // its own tip
    const QString text = index.data(Qt::DisplayRole).toString();
    if (text.isEmpty()) return false;

    // The width the view's style gives the text: the cell less its icon, check box and margins.
    const QRect cell = view->visualRect(index);
    QStyleOptionViewItem option;
    option.initFrom(viewport);
    option.rect = cell;
    option.font = view->font();
    option.features = QStyleOptionViewItem::HasDisplay;
    if (!index.data(Qt::DecorationRole).isNull()) {
        option.features |= QStyleOptionViewItem::HasDecoration;
        option.decorationSize = view->iconSize().isValid() ? view->iconSize() : QSize(16, 16);
    }
    option.text = text;
    const QRect textRect = view->style()->subElementRect(QStyle::SE_ItemViewItemText, &option, view);
    const int margin = 2 * (view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1);
    const bool elided = text.contains(QLatin1Char('\n')) ||
                        view->fontMetrics().horizontalAdvance(text) + margin > textRect.width();
    if (!elided) return false;
    // Rich text only so a name with '<' in it shows as typed; pre keeps its line breaks.
    QToolTip::showText(help->globalPos(), QStringLiteral("<p style='white-space:pre'>%1</p>").arg(text.toHtmlEscaped()),
                       viewport, cell);
    return true;
}

}  // namespace ts::widgets
