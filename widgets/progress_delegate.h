// Draws a model column as a progress bar: the index's Qt::UserRole holds the fraction done
// (0..1, or a negative value for "unknown": a bar without a filled part); the display text is
// drawn on the bar. For job lists and anything else with a done-fraction per row.
#pragma once
#include <QStyledItemDelegate>

namespace ts::widgets {

class ProgressDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

}  // namespace ts::widgets
