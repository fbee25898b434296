// LiveChart's look: series pens, checkpoint/best/threshold marks, axis labels and palette.
#include "live_chart.h"
#include "live_chart_envelope.h"

#include "compact_ticker.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace ts::widgets {

namespace {
// Okabe-Ito orange and vermillion: readable on light and dark backgrounds alike.
const QColor kBestColor(0xe6, 0x9f, 0x00);
const QColor kThresholdColor(0xd5, 0x5e, 0x00);
constexpr int kFaintAlpha = 70;

QColor textColor(const QWidget* w) { return w->palette().color(QPalette::Text); }
}  // namespace

void LiveChart::setTitle(const QString& title) {
    if (!m_title) {
        m_plot->plotLayout()->insertRow(0);
        m_title = new QCPTextElement(m_plot, title, QFont(font().family(), font().pointSize() + 1, QFont::Bold));
        m_plot->plotLayout()->addElement(0, 0, m_title);
        m_title->setTextColor(textColor(this));
    }
    m_title->setText(title);
    scheduleReplot();
}

void LiveChart::setYLabel(const QString& label) {
    m_plot->yAxis->setLabel(label);
    scheduleReplot();
}

QString LiveChart::yLabel() const { return m_plot->yAxis->label(); }

void LiveChart::updateXAxisLabel() {
    QCPAxis* axis = m_plot->xAxis;
    const auto label = [&](const QString& text) { axis->setLabel(m_xLabelVisible ? text : QString()); };
    switch (m_xMode) {
    case XAxisMode::Step:
        label(tr("Step"));
        axis->setTicker(QSharedPointer<CompactTicker>::create());
        break;
    case XAxisMode::Epoch:
        label(tr("Epoch"));
        axis->setTicker(QSharedPointer<CompactTicker>::create());
        break;
    case XAxisMode::WallTime: {
        label(tr("Wall time"));
        axis->setTicker(QSharedPointer<QCPAxisTickerTime>::create());  // format: layoutAxesAndLegend
        break;
    }
    }
}

// Pens wider than one pixel make Qt's raster engine stroke every segment through
// QPainterPath, and antialiasing a noisy curve's thousands of full-height segments is slow too:
// at a million points either costs 10-1000x a cosmetic aliased line. So a dense raw series
// (already a solid band) gets a 1 px aliased pen, a dense smoothed one (smooth, hence cheap to
// antialias) a 1 px antialiased pen; sparse series get wider antialiased pens. A smoothed line
// of noisy data (gradient norms) can still zigzag through every column: antialiasing its
// full-height strokes cost 40 ms of a 90 ms replot of 20 such runs, so a busy one is aliased too.
void LiveChart::updateSeriesPens(Series& s) {
    const bool smoothed = s.data.isSmoothed();
    const bool faintRaw = smoothed || s.style == Style::Faint;
    QColor faint = s.color;
    faint.setAlpha(kFaintAlpha);
    const QColor rawColor = faintRaw ? faint : s.color;
    s.raw->setAntialiased(!s.dense);
    s.raw->setName(s.label);
    if (s.style == Style::Band) {
        s.raw->setLineStyle(QCPGraph::lsLine);
        s.raw->setScatterStyle(QCPScatterStyle());
        s.raw->setPen(Qt::NoPen);
    } else if (s.style == Style::Points) {
        s.raw->setLineStyle(QCPGraph::lsNone);
        s.raw->setPen(QPen(rawColor, 1.5));
        s.raw->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, s.dense ? 3 : 6));
    } else {
        s.raw->setLineStyle(QCPGraph::lsLine);
        s.raw->setScatterStyle(QCPScatterStyle());
        s.raw->setPen(QPen(rawColor, s.dense || faintRaw ? 1.0 : 1.8));
    }
    if (smoothed) {
        s.smooth->setName(s.label);
        s.smooth->setLineStyle(QCPGraph::lsLine);
        s.smooth->setAntialiased(!(s.dense && s.busy));
        s.smooth->setPen(QPen(s.color, s.dense ? 1.0 : 2.0));
        s.smooth->setScatterStyle(QCPScatterStyle());
    }
    // A line through one point draws nothing (an epoch metric of a one-epoch run): the line
    // that names the series shows it as a filled marker instead.
    if (s.lone && s.style != Style::Band && s.style != Style::Points) {
        QCPGraph* shown = smoothed ? s.smooth : s.raw;
        shown->setAntialiased(true);
        shown->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QPen(s.color, 1.5), QBrush(s.color), 7));
    }
}

// Legend in series order, of the series that have points (a chart offers series a run may
// not have, such as validation or test curves); a smoothed series is named by its smoothed
// line (the faint raw line beneath speaks for itself).
void LiveChart::rebuildLegend() {
    m_plot->legend->clearItems();
    for (const auto& s : m_series) {
        if (s->data.size() == 0 || s->style == Style::Band) continue;
        QCPGraph* shown = s->smooth ? s->smooth : s->raw;
        shown->addToLegend();
    }
}

void LiveChart::fillBetween(const QString& lowerId, const QString& upperId, const QColor& color) {
    Series* lower = find(lowerId);
    Series* upper = find(upperId);
    if (!lower || !upper) return;
    QColor shade = color;
    shade.setAlpha(50);
    upper->raw->setBrush(shade);
    upper->raw->setChannelFillGraph(lower->raw);
    scheduleReplot();
}

void LiveChart::addMarker(double step, const QString& label) {
    ChartX x;
    x.step = step;
    addMarker(x, label);
}

void LiveChart::addMarker(const ChartX& x, const QString& label) {
    Marker m;
    m.x = x;
    m.line = new QCPItemStraightLine(m_plot);
    // y in axis-rect ratios: a full-height line that survives a log axis (y = 0 would not).
    m.line->point1->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m.line->point2->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m.text = new QCPItemText(m_plot);
    m.text->setText(label);
    m.text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m.text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    m.text->setPadding(QMargins(3, 1, 3, 1));
    m_markers.push_back(m);
    updateMarks();
    scheduleReplot();
}

void LiveChart::markBest(const ChartX& x, double y, const QString& label) {
    m_bestX = x;
    m_bestY = y;
    if (!m_bestGraph) {
        m_bestGraph = m_plot->addGraph();
        m_bestGraph->removeFromLegend();
        m_bestGraph->setLineStyle(QCPGraph::lsNone);
        m_bestGraph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(kBestColor, 2.0), Qt::NoBrush, 11));
        m_bestText = new QCPItemText(m_plot);
        m_bestText->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        m_bestText->setPadding(QMargins(8, 0, 0, 6));
    }
    m_bestText->setText(label);
    updateMarks();
    m_viewDirty = true;
    scheduleReplot();
}

void LiveChart::setThreshold(double y, const QString& label) {
    if (!std::isfinite(y)) {
        if (m_thresholdLine) {
            m_plot->removeItem(m_thresholdLine);
            m_plot->removeItem(m_thresholdText);
            m_thresholdLine = nullptr;
            m_thresholdText = nullptr;
            scheduleReplot();
        }
        return;
    }
    if (!m_thresholdLine) {
        m_thresholdLine = new QCPItemStraightLine(m_plot);
        m_thresholdLine->point1->setTypeX(QCPItemPosition::ptAxisRectRatio);
        m_thresholdLine->point2->setTypeX(QCPItemPosition::ptAxisRectRatio);
        m_thresholdText = new QCPItemText(m_plot);
        m_thresholdText->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
        m_thresholdText->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        m_thresholdText->setPadding(QMargins(3, 1, 3, 1));
    }
    m_thresholdLine->point1->setCoords(0, y);
    m_thresholdLine->point2->setCoords(1, y);
    m_thresholdText->position->setCoords(0.99, y);
    m_thresholdText->setText(label);
    updateMarks();
    scheduleReplot();
}

// Places marks for the current x mode and colours them from the palette.
void LiveChart::updateMarks() {
    const QColor fg = textColor(this);
    QColor markerColor = fg;
    markerColor.setAlpha(140);
    for (std::size_t i = 0; i < m_markers.size(); ++i) {
        Marker& m = m_markers[i];
        const double x = m.x.in(m_xMode);
        const bool shown = std::isfinite(x);
        m.line->setVisible(shown);
        m.text->setVisible(shown);
        m.line->setPen(QPen(markerColor, 1.0, Qt::DashLine));
        m.text->setColor(markerColor);
        if (!shown) continue;
        m.line->point1->setCoords(x, 0);
        m.line->point2->setCoords(x, 1);
    }
    placeMarkerLabels();
    if (m_bestText) {
        const double x = m_bestX.in(m_xMode);
        const bool shown = std::isfinite(x) && std::isfinite(m_bestY);
        m_bestText->setVisible(shown);
        m_bestText->setColor(kBestColor);
        m_bestText->setFont(QFont(font().family(), font().pointSize(), QFont::Bold));
        if (shown) m_bestText->position->setCoords(x, m_bestY);
    }
    if (m_thresholdLine) {
        m_thresholdLine->setPen(QPen(kThresholdColor, 1.2, Qt::DashLine));
        m_thresholdText->setColor(kThresholdColor);
    }
}

// Checkpoint labels in two rows at the top, each put where it fits: right of its line, or left
// of it at the plot's right edge, and hidden when both rows are taken there (the dashed line
// stays). Many epochs make many marks; overlapping labels would be unreadable.
void LiveChart::placeMarkerLabels() {
    const double left = m_plot->axisRect()->left(), right = m_plot->axisRect()->right();
    std::vector<Marker*> order;
    for (Marker& m : m_markers)
        if (std::isfinite(m.x.in(m_xMode))) order.push_back(&m);
    std::sort(order.begin(), order.end(), [&](Marker* a, Marker* b) { return a->x.in(m_xMode) < b->x.in(m_xMode); });
    double rowEnd[2] = {-INFINITY, -INFINITY};
    for (Marker* m : order) {
        const double px = m_plot->xAxis->coordToPixel(m->x.in(m_xMode));
        const double width = QFontMetricsF(m->text->font()).horizontalAdvance(m->text->text()) + 8;
        const bool flip = px + width > right;
        const double from = flip ? px - width : px, to = flip ? px : px + width;
        int row = -1;
        for (int r = 0; r < 2 && row < 0; ++r)
            if (from > rowEnd[r] + 2) row = r;
        const bool shown = row >= 0 && px >= left - 1 && px <= right + 1;
        m->text->setVisible(shown);
        if (!shown) continue;
        rowEnd[row] = to;
        m->text->setPositionAlignment((flip ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
        const double rowTop = 2 + row * (QFontMetricsF(m->text->font()).height() + 3);
        m->text->position->setCoords(m->x.in(m_xMode), rowTop / std::max(m_plot->axisRect()->height(), 1));
    }
}

// Sizes that depend on the chart's size and font (and so on the scale factor and language):
// as many ticks as their labels have room for, legend entries wrapped to the width, and a
// wall-time format as long as the range needs. Runs before each replot's layout.
void LiveChart::layoutAxesAndLegend(int legendWidth) {
    const QFontMetricsF metrics(m_plot->xAxis->tickLabelFont());
    double widest = metrics.horizontalAdvance(QStringLiteral("00000"));
    for (const QString& label : m_plot->xAxis->tickVectorLabels()) widest = std::max(widest, metrics.horizontalAdvance(label));
    const double em = metrics.height();
    // From the viewport, which is current even in an export (the axis rect is last layout's):
    // minus the y axis' labels and the title, legend and x axis rows.
    const int width = std::max(m_plot->viewport().width() - int(5 * em), 1);
    const int height = std::max(m_plot->viewport().height() - int(5 * em), 1);
    m_plot->xAxis->ticker()->setTickCount(std::clamp(int(width / (widest + 2.5 * em)), 2, 8));
    m_plot->yAxis->ticker()->setTickCount(std::clamp(int(height / (2.5 * em)), 2, 6));
    if (auto time = m_plot->xAxis->ticker().dynamicCast<QCPAxisTickerTime>())
        time->setTimeFormat(m_plot->xAxis->range().upper >= 3600 ? QStringLiteral("%h:%m:%s") : QStringLiteral("%m:%s"));

    QCPLegend* legend = m_plot->legend;
    double widestItem = 1;
    int items = 0;
    for (int i = 0; i < legend->itemCount(); ++i)  // counts a wrapped grid's empty cells too
        if (const QCPAbstractLegendItem* item = legend->item(i)) {
            widestItem = std::max(widestItem, double(item->minimumOuterSizeHint().width()));
            ++items;
        }
    const double available = (legendWidth > 0 ? legendWidth : m_plot->width()) - legend->margins().left() - legend->margins().right();
    const double cell = widestItem + legend->columnSpacing();
    const int perRow = std::clamp(int(available / cell), 1, std::max(items, 1));
    if (perRow != legend->wrap()) {
        legend->setWrap(perRow);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    }
    legend->setMaximumSize(int(perRow * cell + legend->margins().left() + legend->margins().right()), QWIDGETSIZE_MAX);
}

void LiveChart::applyPalette() {
    const QPalette pal = palette();
    const QColor bg = pal.color(QPalette::Base);
    const QColor fg = pal.color(QPalette::Text);
    QColor grid = fg;
    grid.setAlpha(35);
    m_plot->setBackground(bg);
    m_plot->axisRect()->setBackground(bg);
    for (QCPAxis* axis : m_plot->axisRect()->axes()) {
        axis->setBasePen(QPen(fg, 1));
        axis->setTickPen(QPen(fg, 1));
        axis->setSubTickPen(QPen(fg, 1));
        axis->setTickLabelColor(fg);
        axis->setLabelColor(fg);
        axis->grid()->setPen(QPen(grid, 1, Qt::SolidLine));
        axis->grid()->setZeroLinePen(Qt::NoPen);
    }
    m_plot->legend->setBrush(Qt::NoBrush);  // a row of its own above the plot: no frame needed
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->legend->setTextColor(fg);
    if (m_title) m_title->setTextColor(fg);
    QColor faint = fg;
    faint.setAlpha(120);
    m_emptyText->setColor(faint);
    updateMarks();
}

}  // namespace ts::widgets
