#include "image_grid.h"

#include <QApplication>
#include <QEvent>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QListView>
#include <QPainter>
#include <QScrollBar>
#include <QSlider>
#include <QStyledItemDelegate>
#include <QToolTip>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>

namespace ts::widgets {

namespace {
constexpr int kPadding = 4;       // around the thumbnail and between it and the caption
constexpr int kCaptionLines = 3;

QImage decoration(const QModelIndex& index)
{
    const QVariant v = index.data(Qt::DecorationRole);
    if (v.typeId() == QMetaType::QImage) return v.value<QImage>();
    if (v.typeId() == QMetaType::QPixmap) return v.value<QPixmap>().toImage();
    return {};
}
}  // namespace

QRect thumbnailRect(QSize image, const QRect& box)
{
    if (image.isEmpty() || box.isEmpty()) return {};
    QSize drawn;
    const int factor = std::min(box.width() / image.width(), box.height() / image.height());
    if (factor >= 1)
        drawn = image * factor;
    else
        drawn = image.scaled(box.size(), Qt::KeepAspectRatio);
    drawn = drawn.expandedTo(QSize(1, 1));
    return QRect(box.x() + (box.width() - drawn.width()) / 2, box.y() + (box.height() - drawn.height()) / 2, drawn.width(),
                 drawn.height());
}

QStringList captionLines(const QString& text, const QFont& font, int width, int maxLines)
{
    QStringList lines;
    // Split at plain spaces only: a no-break space (U+00A0) keeps "72 %" on one line.
    QString plain = text;
    plain.replace(QLatin1Char('\n'), QLatin1Char(' ')).replace(QLatin1Char('\t'), QLatin1Char(' '));
    const QStringList words = plain.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (words.isEmpty() || width <= 0 || maxLines <= 0) return lines;
    const QFontMetrics metrics(font);
    // Greedy, at spaces only: "T-shirt/top" is one word, never "T-" and "shirt/top".
    qsizetype next = 0;
    while (next < words.size() && lines.size() < maxLines - 1) {
        QString line = words[next++];
        while (next < words.size() && metrics.horizontalAdvance(line + QLatin1Char(' ') + words[next]) <= width)
            line += QLatin1Char(' ') + words[next++];
        lines << metrics.elidedText(line, Qt::ElideRight, width);  // a word wider than the cell
    }
    if (next < words.size()) lines << metrics.elidedText(words.mid(next).join(QLatin1Char(' ')), Qt::ElideRight, width);
    return lines;
}

// Paints a row as thumbnail + caption; sizes every cell alike (the view then lays out
// 100,000 rows without asking each one).
class ImageGrid::Delegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    int thumbnail = 84;
    int width = 0;       // the cells' width where the grid widens them (pairs); 0: their own
    bool pairs = false;  // frame rows 2k and 2k + 1 as one

    QSize cell(const QFontMetrics& metrics) const
    {
        // Wide enough for "T-shirt/top → Coat" on one line even under small thumbnails.
        const int own = std::max(thumbnail, metrics.averageCharWidth() * 16);
        return {own + 2 * kPadding, thumbnail + 3 * kPadding + kCaptionLines * metrics.lineSpacing()};
    }
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex&) const override
    {
        QSize size = cell(option.fontMetrics);
        if (width > 0) size.setWidth(width);
        return size;
    }
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        QStyle* style = opt.widget ? opt.widget->style() : QApplication::style();
        opt.text.clear();
        opt.icon = QIcon();
        opt.features &= ~QStyleOptionViewItem::HasDecoration;
        // The whole cell shows the selection: without text or icon in the option, an icon-mode
        // view's style would fill neither, and the highlighted caption would be white on white.
        opt.showDecorationSelected = true;
        style->drawPrimitive(QStyle::PE_PanelItemViewItem, &opt, painter, opt.widget);
        if (pairs) {  // one frame around both: the first cell draws its open-right half, the second the rest
            // Inset on the outer sides only, so the two halves' lines meet.
            const QRect f = index.row() % 2 == 0 ? option.rect.adjusted(1, 1, 0, -1) : option.rect.adjusted(-1, 1, -1, -1);
            painter->save();
            painter->setPen(QPen(option.palette.color(QPalette::Mid), 1));
            painter->drawLine(f.topLeft(), f.topRight());
            painter->drawLine(f.bottomLeft(), f.bottomRight());
            if (index.row() % 2 == 0) painter->drawLine(f.topLeft(), f.bottomLeft());
            else painter->drawLine(f.topRight(), f.bottomRight());
            painter->restore();
        }

        const QRect r = option.rect.adjusted(kPadding, kPadding, -kPadding, -kPadding);
        const int edge = std::min(thumbnail, r.width());  // a pair's cells may be narrower than a thumbnail
        const QRect box(r.x() + (r.width() - edge) / 2, r.y(), edge, thumbnail);
        painter->save();
        const QImage image = decoration(index);
        if (!image.isNull()) {
            painter->setRenderHint(QPainter::SmoothPixmapTransform, false);  // nearest neighbour: crisp pixels
            painter->drawImage(thumbnailRect(image.size(), box), image);
        } else {
            painter->setPen(QPen(option.palette.color(QPalette::Mid), 1, Qt::DashLine));
            painter->drawRect(box.adjusted(0, 0, -1, -1));
        }
        const QRect captionRect(r.x(), box.bottom() + 1 + kPadding, r.width(), r.bottom() - box.bottom() - kPadding);
        const QStringList lines = captionLines(index.data(Qt::DisplayRole).toString(), option.font, captionRect.width(),
                                               kCaptionLines);
        // In the colour group the style drew the selection with (an inactive window's differs).
        const QPalette::ColorGroup group = !(option.state & QStyle::State_Enabled) ? QPalette::Disabled
                                           : (option.state & QStyle::State_Active)  ? QPalette::Active
                                                                                    : QPalette::Inactive;
        painter->setPen(option.palette.color(group, option.state & QStyle::State_Selected ? QPalette::HighlightedText
                                                                                          : QPalette::Text));
        painter->setFont(option.font);
        for (int i = 0; i < lines.size(); ++i) {
            const QRect line(captionRect.x(), captionRect.y() + i * option.fontMetrics.lineSpacing(), captionRect.width(),
                             option.fontMetrics.lineSpacing());
            painter->drawText(line, Qt::AlignHCenter | Qt::AlignTop, lines[i]);
        }
        painter->restore();
    }
    bool helpEvent(QHelpEvent* event, QAbstractItemView* view, const QStyleOptionViewItem& option,
                   const QModelIndex& index) override
    {
        if (event->type() == QEvent::ToolTip && index.isValid() && !index.data(Qt::ToolTipRole).isValid()) {
            QToolTip::showText(event->globalPos(), index.data(Qt::DisplayRole).toString(), view);  // the whole caption
            return true;
        }
        return QStyledItemDelegate::helpEvent(event, view, option, index);
    }
};

ImageGrid::ImageGrid(QWidget* parent) : QWidget(parent)
{
    m_title = new QLabel;
    m_title->setObjectName(QStringLiteral("imageGridTitle"));
    m_title->setWordWrap(true);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_note = new QLabel;
    m_note->setObjectName(QStringLiteral("imageGridNote"));
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_note->hide();
    m_zoom = new QSlider(Qt::Horizontal);
    m_zoom->setObjectName(QStringLiteral("imageGridZoom"));
    m_zoom->setRange(kMinThumbnail, kMaxThumbnail);
    m_zoom->setSingleStep(kThumbnailStep);
    m_zoom->setPageStep(2 * kThumbnailStep);
    m_zoom->setValue(m_thumbnail);
    m_zoom->setMaximumWidth(m_zoom->fontMetrics().averageCharWidth() * 16);
    m_zoom->setToolTip(tr("Thumbnail size (Ctrl+wheel over the images)"));
    connect(m_zoom, &QSlider::valueChanged, this, &ImageGrid::setThumbnailSize);

    m_view = new QListView;
    m_view->setObjectName(QStringLiteral("imageGridView"));
    m_view->setViewMode(QListView::IconMode);
    m_view->setMovement(QListView::Static);
    m_view->setResizeMode(QListView::Adjust);
    m_view->setUniformItemSizes(true);
    m_view->setLayoutMode(QListView::Batched);  // a huge model lays out in slices, the UI stays live
    m_view->setBatchSize(2000);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setWordWrap(true);
    m_view->setSpacing(0);
    m_delegate = new Delegate(m_view);
    m_view->setItemDelegate(m_delegate);
    m_view->viewport()->installEventFilter(this);
    connect(m_view, &QListView::activated, this, &ImageGrid::activated);

    auto* header = new QHBoxLayout;
    header->setContentsMargins(0, 0, 0, 0);
    header->addWidget(m_title, 1);
    header->addWidget(m_zoom, 0, Qt::AlignRight | Qt::AlignVCenter);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(header);
    layout->addWidget(m_note);
    layout->addWidget(m_view, 1);
    updateCells();
}

void ImageGrid::setModel(QAbstractItemModel* model)
{
    disconnect(m_resetConnection);
    m_view->setModel(model);
    // Other content: start where it starts (the view keeps the old scroll offset otherwise).
    if (model)
        m_resetConnection = connect(model, &QAbstractItemModel::modelReset, this, [this] {
            m_view->verticalScrollBar()->setValue(0);
            m_view->horizontalScrollBar()->setValue(0);
        });
}

void ImageGrid::setPairs(bool on)
{
    if (on == m_pairs) return;
    m_pairs = on;
    updateCells();
    m_view->viewport()->update();
}
QAbstractItemModel* ImageGrid::model() const { return m_view->model(); }

void ImageGrid::setThumbnailSize(int pixels)
{
    pixels = std::clamp(pixels, kMinThumbnail, kMaxThumbnail);
    if (pixels == m_thumbnail) return;
    m_thumbnail = pixels;
    m_zoom->setValue(pixels);  // re-enters with the same value: returns above
    updateCells();
    emit thumbnailSizeChanged(pixels);
}

QSize ImageGrid::cellSize() const { return m_delegate->cell(m_view->fontMetrics()); }

void ImageGrid::updateCells()
{
    m_delegate->thumbnail = m_thumbnail;
    m_delegate->pairs = m_pairs;
    QSize cell = cellSize();
    if (m_pairs) {  // an even number of cells a row, widened to fill it
        const int available = m_view->viewport()->width() - 2;  // the view wraps a row that fills it exactly
        const int fit = available / std::max(1, cell.width());
        const int columns = std::max(2, fit - fit % 2);
        // Narrower than two cells: two narrower cells (thumbnails shrink to fit), never one a row.
        cell.setWidth(std::max(available / columns, 2 * kPadding + 8));
    }
    m_delegate->width = m_pairs ? cell.width() : 0;
    if (m_view->gridSize() != cell) m_view->setGridSize(cell);  // relayouts; uniform cells need no per-row size
    m_view->setIconSize(QSize(m_thumbnail, m_thumbnail));
}

void ImageGrid::setTitle(const QString& title) { m_title->setText(title); }
QString ImageGrid::title() const { return m_title->text(); }

void ImageGrid::setNote(const QString& note)
{
    m_note->setText(note);
    m_note->setVisible(!note.isEmpty());
}
QString ImageGrid::note() const { return m_note->text(); }

bool ImageGrid::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_view->viewport() && event->type() == QEvent::Resize && m_pairs) updateCells();
    if (watched == m_view->viewport() && event->type() == QEvent::Wheel) {
        auto* wheel = static_cast<QWheelEvent*>(event);
        if (wheel->modifiers() & Qt::ControlModifier) {
            m_wheelDelta += wheel->angleDelta().y();  // a touchpad's small deltas add up to whole notches
            const int notches = m_wheelDelta / 120;
            m_wheelDelta -= notches * 120;
            if (notches != 0) setThumbnailSize(m_thumbnail + notches * kThumbnailStep);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void ImageGrid::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) updateCells();
    QWidget::changeEvent(event);
}

}  // namespace ts::widgets
