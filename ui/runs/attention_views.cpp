#include "attention_views.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace ts::ui {

namespace {

// White to deep blue (ColorBrewer's Blues ends): more weight, darker.
QColor weightColor(float t)
{
    t = std::clamp(t, 0.0f, 1.0f);
    const auto mix = [t](int a, int b) { return int(a + (b - a) * t + 0.5f); };
    return QColor(mix(255, 8), mix(255, 48), mix(255, 107));
}

float largest(const QVector<float>& values)
{
    float top = 0;
    for (float v : values) top = std::max(top, v);
    return top;
}

}  // namespace

QString visibleToken(const QString& token)
{
    if (token.isEmpty()) return QStringLiteral("∅");  // padding
    QString out = token;
    out.replace(QLatin1Char(' '), QChar(0x2423));   // ␣
    out.replace(QLatin1Char('\n'), QChar(0x21B5));  // ↵
    out.replace(QLatin1Char('\t'), QChar(0x21E5));  // ⇥
    return out;
}

// ---- AttentionMatrixView ----------------------------------------------------------------------

AttentionMatrixView::AttentionMatrixView(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
}

void AttentionMatrixView::setMatrix(const QString& title, const QVector<float>& weights, int queries, int keys,
                                    const QStringList& labels, bool compact)
{
    m_title = title;
    m_weights = weights;
    m_queries = queries;
    m_keys = keys;
    m_labels = labels;
    m_compact = compact;
    m_top = largest(weights);
    m_hovered = -1;
    updateGeometry();
    resize(sizeHint());
    update();
}

int AttentionMatrixView::titleHeight() const { return m_title.isEmpty() ? 0 : fontMetrics().height() + 4; }

int AttentionMatrixView::cellSize() const
{
    const int n = std::max({m_queries, m_keys, 1});
    if (m_compact) return std::clamp(fontMetrics().height() * 12 / n, 3, fontMetrics().height());
    return fontMetrics().height() + 4;
}

int AttentionMatrixView::labelWidth() const
{
    if (m_compact) return 0;
    int width = 0;
    for (int i = 0; i < m_queries && i < m_labels.size(); ++i)
        width = std::max(width, fontMetrics().horizontalAdvance(visibleToken(m_labels[i])));
    return width + 8;
}

QRect AttentionMatrixView::cellRect(int query, int key) const
{
    const int cell = cellSize();
    const int top = titleHeight() + (m_compact ? 0 : cell);  // the key labels' row
    return QRect(labelWidth() + key * cell, top + query * cell, cell, cell);
}

QSize AttentionMatrixView::sizeHint() const
{
    const int cell = cellSize();
    const int titleWidth = fontMetrics().horizontalAdvance(m_title) + 4;
    return QSize(std::max(labelWidth() + m_keys * cell + 1, titleWidth),
                 titleHeight() + (m_compact ? 0 : cell) + m_queries * cell + 1);
}

void AttentionMatrixView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const int cell = cellSize();
    if (!m_title.isEmpty())
        p.drawText(QRect(0, 0, width(), titleHeight()), Qt::AlignLeft | Qt::AlignVCenter, m_title);
    if (m_queries == 0 || m_keys == 0) return;
    if (!m_compact) {
        // Keys along the top, queries down the left: the token each row and column stands for.
        for (int j = 0; j < m_keys && j < m_labels.size(); ++j) {
            const QRect r = cellRect(0, j).translated(0, -cell);
            p.drawText(r, Qt::AlignCenter, visibleToken(m_labels[j]));
        }
        QFont bold = font();
        bold.setBold(true);
        for (int i = 0; i < m_queries && i < m_labels.size(); ++i) {
            const QRect r = cellRect(i, 0);
            p.setFont(i == m_hovered ? bold : font());
            p.drawText(QRect(0, r.top(), labelWidth() - 4, cell), Qt::AlignRight | Qt::AlignVCenter,
                       visibleToken(m_labels[i]));
        }
        p.setFont(font());
    }
    for (int i = 0; i < m_queries; ++i)
        for (int j = 0; j < m_keys; ++j) {
            const float w = m_weights.value(i * m_keys + j);
            // The square root lifts small weights: a causal map's first row is 1, the rest far less.
            p.fillRect(cellRect(i, j), weightColor(m_top > 0 ? std::sqrt(w / m_top) : 0));
        }
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(QRect(cellRect(0, 0).topLeft(), cellRect(m_queries - 1, m_keys - 1).bottomRight()));
    if (m_hovered >= 0) {
        p.setPen(QPen(palette().color(QPalette::Highlight), 2));
        p.drawRect(QRect(cellRect(m_hovered, 0).topLeft(), cellRect(m_hovered, m_keys - 1).bottomRight()));
    }
}

void AttentionMatrixView::mouseMoveEvent(QMouseEvent* event)
{
    const int cell = cellSize();
    const QPoint at = event->position().toPoint() - cellRect(0, 0).topLeft();
    const int row = at.y() >= 0 && at.x() >= -labelWidth() ? at.y() / cell : -1;
    setHovered(row >= 0 && row < m_queries ? row : -1);
}

void AttentionMatrixView::leaveEvent(QEvent*) { setHovered(-1); }

void AttentionMatrixView::setHovered(int row)
{
    if (row == m_hovered) return;
    m_hovered = row;
    update();
    emit rowHovered(row);
}

// ---- AttentionImageView -----------------------------------------------------------------------

AttentionImageView::AttentionImageView(QWidget* parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    setCursor(Qt::PointingHandCursor);
}

void AttentionImageView::setPicture(const QString& title, const QImage& image, int rows, int cols,
                                    const QVector<float>& weights, int selected, int side)
{
    m_title = title;
    m_image = image;
    m_rows = std::max(rows, 1);
    m_cols = std::max(cols, 1);
    m_weights = weights;
    m_selected = selected;
    m_side = side;
    updateGeometry();
    resize(sizeHint());
    update();
}

int AttentionImageView::titleHeight() const { return m_title.isEmpty() ? 0 : fontMetrics().height() + 4; }

QRect AttentionImageView::imageRect() const
{
    // The image's aspect kept within side x side.
    const QSize size = m_image.isNull() ? QSize(m_side, m_side) : m_image.size().scaled(m_side, m_side, Qt::KeepAspectRatio);
    return QRect(QPoint(0, titleHeight()), size);
}

QRect AttentionImageView::patchRect(int patch) const
{
    const QRect image = imageRect();
    const int row = patch / m_cols, col = patch % m_cols;
    const int x0 = image.left() + image.width() * col / m_cols, x1 = image.left() + image.width() * (col + 1) / m_cols;
    const int y0 = image.top() + image.height() * row / m_rows, y1 = image.top() + image.height() * (row + 1) / m_rows;
    return QRect(QPoint(x0, y0), QPoint(x1 - 1, y1 - 1));
}

QSize AttentionImageView::sizeHint() const
{
    const QRect image = imageRect();
    return QSize(std::max(image.width(), fontMetrics().horizontalAdvance(m_title) + 4), image.bottom() + 2);
}

void AttentionImageView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    if (!m_title.isEmpty())
        p.drawText(QRect(0, 0, width(), titleHeight()), Qt::AlignLeft | Qt::AlignVCenter, m_title);
    const QRect image = imageRect();
    if (!m_image.isNull()) p.drawImage(image, m_image);  // pixels stay sharp: no smoothing
    const float top = largest(m_weights);
    for (int k = 0; k < m_weights.size() && k < m_rows * m_cols; ++k) {
        // Orange over the grey image, as opaque as the patch is attended to.
        const int alpha = top > 0 ? int(215.0f * m_weights[k] / top + 0.5f) : 0;
        p.fillRect(patchRect(k), QColor(255, 110, 0, alpha));
    }
    p.setPen(QColor(255, 255, 255, 90));
    for (int c = 1; c < m_cols; ++c) p.drawLine(patchRect(c).left(), image.top(), patchRect(c).left(), image.bottom());
    for (int r = 1; r < m_rows; ++r)
        p.drawLine(image.left(), patchRect(r * m_cols).top(), image.right(), patchRect(r * m_cols).top());
    if (m_selected >= 0) {
        p.setPen(QPen(QColor(0, 200, 255), 2));
        p.drawRect(patchRect(m_selected).adjusted(1, 1, -1, -1));
    }
}

void AttentionImageView::mousePressEvent(QMouseEvent* event)
{
    for (int k = 0; k < m_rows * m_cols; ++k)
        if (patchRect(k).contains(event->position().toPoint())) {
            emit patchClicked(k);
            return;
        }
}

}  // namespace ts::ui
