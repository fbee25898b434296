#include "live_chart_envelope.h"

#include <QPaintEngine>

#include <algorithm>
#include <climits>
#include <cmath>

namespace ts::widgets {

namespace {

// An axis' coordToPixel as one multiply-add where the axis is linear: per column, the call
// was a third of the envelope's cost.
class PixelMap {
public:
    explicit PixelMap(const QCPAxis* axis) : m_axis(axis), m_linear(axis->scaleType() == QCPAxis::stLinear) {
        const QCPRange range = axis->range();
        m_origin = range.lower;
        m_originPx = axis->coordToPixel(range.lower);
        m_perUnit = range.size() > 0 ? (axis->coordToPixel(range.upper) - m_originPx) / range.size() : 0.0;
    }
    double operator()(double v) const { return m_linear ? m_originPx + (v - m_origin) * m_perUnit : m_axis->coordToPixel(v); }

private:
    const QCPAxis* m_axis;
    bool m_linear;
    double m_origin = 0, m_originPx = 0, m_perUnit = 0;
};

// One image for every graph's spans: graphs draw one after another on the UI thread.
QImage& scratchImage(QSize size) {
    static QImage image;
    if (image.width() < size.width() || image.height() < size.height())
        image = QImage(size.expandedTo(image.size()), QImage::Format_ARGB32_Premultiplied);
    return image;
}

}  // namespace

EnvelopeGraph::EnvelopeGraph(QCPAxis* keyAxis, QCPAxis* valueAxis) : QCPGraph(keyAxis, valueAxis) {}

void EnvelopeGraph::setEnvelope(const ColumnEnvelope& envelope) {
    // Assigned element-wise so the vectors keep their capacity from frame to frame.
    m_envelope.left.assign(envelope.left.begin(), envelope.left.end());
    m_envelope.right.assign(envelope.right.begin(), envelope.right.end());
    m_envelope.low.assign(envelope.low.begin(), envelope.low.end());
    m_envelope.high.assign(envelope.high.begin(), envelope.high.end());
    m_envelope.first.assign(envelope.first.begin(), envelope.first.end());
    m_envelope.last.assign(envelope.last.begin(), envelope.last.end());
}

void EnvelopeGraph::draw(QCPPainter* painter) {
    m_drewEnvelope = false;
    // Only a thin, plain, aliased line on a raster device: an antialiased, wide or dashed line,
    // a fill or markers would look different, and a vector export keeps its strokes.
    const bool plainLine = !antialiased() && lineStyle() == lsLine && scatterStyle().isNone() &&
                           brush().style() == Qt::NoBrush && pen().style() == Qt::SolidLine && pen().widthF() <= 1.0;
    const bool raster = painter->paintEngine() && painter->paintEngine()->type() == QPaintEngine::Raster &&
                        painter->transform().type() <= QTransform::TxScale;
    if (!plainLine || !raster || m_envelope.size() < 2 || !mKeyAxis || !mValueAxis ||
        mKeyAxis->orientation() != Qt::Horizontal)
        return QCPGraph::draw(painter);
    const double scale = painter->device()->devicePixelRatioF() * std::abs(painter->transform().m22());
    if (!(scale > 0) || !mapColumns(1.0 / scale)) return QCPGraph::draw(painter);
    m_envelopeColor = fillColor();
    paintColumns(painter, m_envelopeColor);
    m_drewEnvelope = true;
}

bool EnvelopeGraph::mapColumns(double devicePixel) {
    const std::size_t n = m_envelope.size();
    const PixelMap pixelX(mKeyAxis.data()), pixelY(mValueAxis.data());
    const QRect rect = mKeyAxis->axisRect()->rect();
    // Far-off values (a spike, a value <= 0 on a log axis) are clamped just outside the plot.
    const double top = rect.top() - 2.0, bottom = rect.bottom() + 2.0;
    m_leftPx.resize(n);
    m_rightPx.resize(n);
    m_topPx.resize(n);
    m_bottomPx.resize(n);
    m_areaPx = 0;
    std::size_t inside = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double a = std::clamp(pixelY(m_envelope.high[i]), top, bottom);
        const double b = std::clamp(pixelY(m_envelope.low[i]), top, bottom);
        m_leftPx[i] = pixelX(m_envelope.left[i]);
        m_rightPx[i] = pixelX(m_envelope.right[i]);
        m_topPx[i] = std::min(a, b);
        m_bottomPx[i] = std::max(a, b);
        if (m_envelope.left[i] != m_envelope.right[i]) {
            m_areaPx += m_bottomPx[i] - m_topPx[i] + devicePixel;  // a flat column still covers a row
            ++inside;
        }
    }
    return inside > 0 && m_areaPx / devicePixel >= (kMinMeanSpanPx + 1.0) * double(inside);
}

// A translucent zigzag crosses most pixels of its columns more than once (first point to one
// extreme, extreme to extreme, on to the last point, and the step to the next column), so it
// reads darker than its pen's alpha. The spans take the alpha of that mean overlap: the
// strokes' total height over the spans' area, k layers of alpha a showing as 1 - (1 - a)^k.
QColor EnvelopeGraph::fillColor() const {
    QColor color = pen().color();
    if (color.alpha() == 255 || m_areaPx <= 0) return color;
    const PixelMap pixelY(mValueAxis.data());
    const QRect rect = mKeyAxis->axisRect()->rect();
    const double top = rect.top() - 2.0, bottom = rect.bottom() + 2.0;
    double strokes = 0, previous = NAN;
    for (auto it = mDataContainer->constBegin(); it != mDataContainer->constEnd(); ++it) {
        const double y = std::clamp(pixelY(it->value), top, bottom);
        if (!std::isnan(previous)) strokes += std::abs(y - previous);
        previous = y;
    }
    const double layers = std::clamp(strokes / m_areaPx, 1.0, 4.0);
    color.setAlphaF(float(1.0 - std::pow(1.0 - color.alphaF(), layers)));
    return color;
}

// Each column covers the device pixels between its x edges (at least one) and the rows an
// aliased stroke from its maximum to its minimum covers (QCPPainter rounds aliased lines to
// whole pixels; a wider pen adds rows on either side).
// Writing them into an image and blending it once costs the same however ragged the outline:
// Qt fills a polygon span by span, and a noisy envelope has thousands of spans per row.
// Where two columns are not neighbours (a gap in x, or a point outside the view) the line's
// step from one to the next is stroked as the line would.
void EnvelopeGraph::paintColumns(QCPPainter* painter, const QColor& color) {
    const QTransform t = painter->transform();
    const double dpr = painter->device()->devicePixelRatioF();
    const double sx = t.m11() * dpr, sy = t.m22() * dpr, dx = t.dx() * dpr, dy = t.dy() * dpr;
    const QRect plot = mKeyAxis->axisRect()->rect();
    const QRect area = QRectF(plot.left() * sx + dx, plot.top() * sy + dy, (plot.width() + 1) * sx, (plot.height() + 1) * sy)
                           .toAlignedRect();
    if (area.isEmpty()) return;
    // Each device column's rows first (the union of the columns that land on it), then the
    // image row by row: sequential writes that clear what is not covered in the same pass.
    const int width = area.width();
    m_rowTop.assign(std::size_t(width), INT_MAX);
    m_rowBottom.assign(std::size_t(width), INT_MIN);
    const double penWidth = pen().isCosmetic() || pen().widthF() == 0 ? 1.0 : std::max(1.0, pen().widthF() * sy);
    int rowLo = area.height(), rowHi = -1, colLo = width, colHi = -1;
    QVector<QLineF> steps;
    const std::size_t n = m_envelope.size();
    constexpr double eps = 1e-6;  // column edges land on pixel edges up to rounding
    for (std::size_t i = 0; i < n; ++i) {
        if (i + 1 < n && std::abs(m_rightPx[i] - m_leftPx[i + 1]) * sx > 0.5)
            steps.push_back(QLineF(m_rightPx[i], mValueAxis->coordToPixel(m_envelope.last[i]), m_leftPx[i + 1],
                                   mValueAxis->coordToPixel(m_envelope.first[i + 1])));
        if (m_envelope.left[i] == m_envelope.right[i]) continue;  // a point outside the view
        const int c0 = std::max(0, int(std::floor(m_leftPx[i] * sx + dx + eps)) - area.left());
        const int c1 = std::min(width, std::max(c0 + 1, int(std::ceil(m_rightPx[i] * sx + dx - eps)) - area.left()));
        const int r0 = std::max(0, int(std::floor(m_topPx[i] * sy + dy + 0.5 - (penWidth - 1) / 2)) - area.top());
        const int r1 = std::min(area.height() - 1, int(std::floor(m_bottomPx[i] * sy + dy + 0.5 + (penWidth - 1) / 2)) - area.top());
        if (c0 >= c1 || r0 > r1) continue;
        for (int c = c0; c < c1; ++c) {
            m_rowTop[std::size_t(c)] = std::min(m_rowTop[std::size_t(c)], r0);
            m_rowBottom[std::size_t(c)] = std::max(m_rowBottom[std::size_t(c)], r1);
        }
        rowLo = std::min(rowLo, r0);
        rowHi = std::max(rowHi, r1);
        colLo = std::min(colLo, c0);
        colHi = std::max(colHi, c1 - 1);
    }
    if (rowHi >= rowLo) {
        const QRect used(colLo, rowLo, colHi - colLo + 1, rowHi - rowLo + 1);
        QImage& image = scratchImage(used.size());
        const QRgb pixel = qPremultiply(color.rgba());
        const int* top = m_rowTop.data() + colLo;
        const int* bottom = m_rowBottom.data() + colLo;
        for (int r = 0; r < used.height(); ++r) {
            auto* line = reinterpret_cast<QRgb*>(image.scanLine(r));
            const int row = rowLo + r;
            for (int c = 0; c < used.width(); ++c) line[c] = top[c] <= row && row <= bottom[c] ? pixel : QRgb(0);
        }
        painter->save();
        painter->resetTransform();
        // In device-independent pixels now: the image's pixels are the device's.
        painter->drawImage(QRectF(QPointF(area.left() + used.left(), area.top() + used.top()) / dpr, QSizeF(used.size()) / dpr),
                           image, QRect(QPoint(0, 0), used.size()));
        painter->restore();
    }
    if (!steps.isEmpty()) {
        painter->setPen(pen());
        painter->setBrush(Qt::NoBrush);
        painter->drawLines(steps);
    }
}

}  // namespace ts::widgets
