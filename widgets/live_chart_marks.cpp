// LiveChart's look: series pens, checkpoint/best/threshold marks, axis labels and palette.
#include "live_chart.h"

#include <qcustomplot.h>

#include <cmath>

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

void LiveChart::updateXAxisLabel() {
    QCPAxis* axis = m_plot->xAxis;
    switch (m_xMode) {
    case XAxisMode::Step:
        axis->setLabel(tr("Step"));
        axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        break;
    case XAxisMode::Epoch:
        axis->setLabel(tr("Epoch"));
        axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        break;
    case XAxisMode::WallTime: {
        axis->setLabel(tr("Wall time"));
        auto ticker = QSharedPointer<QCPAxisTickerTime>::create();
        ticker->setTimeFormat(QStringLiteral("%h:%m:%s"));
        axis->setTicker(ticker);
        break;
    }
    }
}

// Pens wider than one pixel make Qt's raster engine stroke every segment through
// QPainterPath, and antialiasing a noisy curve's thousands of full-height segments is slow too:
// at a million points either costs 10-1000x a cosmetic aliased line. So a dense raw series
// (already a solid band) gets a 1 px aliased pen, a dense smoothed one (smooth, hence cheap to
// antialias) a 1 px antialiased pen; sparse series get wider antialiased pens.
void LiveChart::updateSeriesPens(Series& s) {
    const bool smoothed = s.data.isSmoothed();
    const bool faintRaw = smoothed || s.style == Style::Faint;
    QColor faint = s.color;
    faint.setAlpha(kFaintAlpha);
    const QColor rawColor = faintRaw ? faint : s.color;
    s.raw->setAntialiased(!s.dense);
    s.raw->setName(s.label);
    if (s.style == Style::Points) {
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
        s.smooth->setAntialiased(true);
        s.smooth->setPen(QPen(s.color, s.dense ? 1.0 : 2.0));
    }
}

// Legend in series order, of the series that have points (a chart offers series a run may
// not have, such as validation or test curves); a smoothed series is named by its smoothed
// line (the faint raw line beneath speaks for itself).
void LiveChart::rebuildLegend() {
    m_plot->legend->clearItems();
    for (const auto& s : m_series) {
        if (s->data.size() == 0) continue;
        QCPGraph* shown = s->smooth ? s->smooth : s->raw;
        shown->addToLegend();
    }
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
        // Two staggered rows so neighbouring checkpoints' labels overlap less.
        m.text->position->setCoords(x, 0.01 + 0.06 * static_cast<double>(i % 2));
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

// A label right of its line would be cut off at the plot's right edge: put it on the left there.
void LiveChart::placeMarkerLabels() {
    const double right = m_plot->axisRect()->right();
    for (Marker& m : m_markers) {
        if (!m.text->visible()) continue;
        const double px = m_plot->xAxis->coordToPixel(m.x.in(m_xMode));
        const double needed = QFontMetricsF(m.text->font()).horizontalAdvance(m.text->text()) + 8;
        m.text->setPositionAlignment((px + needed > right ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
    }
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
    QColor legendBg = bg;
    legendBg.setAlpha(170);  // the data shows through
    m_plot->legend->setBrush(legendBg);
    m_plot->legend->setBorderPen(QPen(pal.color(QPalette::Mid)));
    m_plot->legend->setTextColor(fg);
    if (m_title) m_title->setTextColor(fg);
    updateMarks();
}

}  // namespace ts::widgets
