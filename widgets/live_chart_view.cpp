// LiveChart's view: follow, user zoom, x-axis modes, log scale, and the per-frame decimation
// that hands QCustomPlot only what the visible range needs.
#include "live_chart.h"

#include "compact_ticker.h"
#include "live_chart_envelope.h"

#include <QCheckBox>
#include <QLocale>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace ts::widgets {

void LiveChart::setFollow(bool on) {
    if (on == m_follow) return;
    m_follow = on;
    {
        const QSignalBlocker block(m_followBox);
        m_followBox->setChecked(on);
    }
    if (on) scheduleReplot();
    emit followChanged(on);
}

void LiveChart::setXAxisMode(XAxisMode mode) {
    if (mode == m_xMode) return;
    m_xMode = mode;
    updateXAxisLabel();
    updateMarks();
    for (auto& s : m_series) s->drawnVersion = static_cast<std::size_t>(-1);
    // The old range means nothing on the new axis: show everything.
    if (!m_follow) resetZoom();
    scheduleReplot();
    emit xAxisModeChanged(mode);
}

void LiveChart::onUserRange() {
    m_viewDirty = true;
    if (m_programmaticRange > 0) return;
    setFollow(false);  // the user took the view: stop moving it under them
}

int LiveChart::plotColumns() const {
    // Laid out at this size: one column per device pixel of the axis rect, so each pixel column
    // gets exactly its points' extremes (an envelope drawn per column then is the data's).
    if (m_layoutColumns > 0 && m_plot->isVisible() && m_plot->viewport().size() == m_layoutViewport)
        return m_layoutColumns;
    // Otherwise an upper bound of the axis rect's width that holds before the first layout too
    // (a hidden chart's plot is not laid out yet); a few extra columns cost nothing visible.
    const int widest = std::max({m_plot->axisRect()->width(), m_plot->viewport().width(), width(), 1});
    return std::max(1, static_cast<int>(std::ceil(widest * m_plot->devicePixelRatioF())));
}

void LiveChart::onBeforeReplot() {
    m_inReplot = true;
    layoutAxesAndLegend();
    if (m_follow) applyFollowRange();
    updateGraphs(plotColumns());
    if (m_follow) fitY();
    placeMarkerLabels();
}

// The y range was fitted before the layout, from the decimation at the old width: a first
// frame at a new size (or with wider tick labels) decimates again for the axis rect it got.
// The extremes fitY used are kept at any width, so the range stays right. Exports lay the
// plot out at their own size and decimate for it themselves.
void LiveChart::onAfterLayout() {
    if (!m_inReplot) return;
    m_layoutViewport = m_plot->viewport().size();
    m_layoutColumns = std::max(1, static_cast<int>(std::lround(m_plot->axisRect()->width() * m_plot->devicePixelRatioF())));
    if (const int columns = plotColumns(); columns != m_lastColumns) updateGraphs(columns);
}

void LiveChart::updateGraphs(int columns) {
    const QCPRange range = m_plot->xAxis->range();
    const bool viewChanged = m_viewDirty || columns != m_lastColumns || range.lower != m_lastLower ||
                             range.upper != m_lastUpper;
    m_viewDirty = false;
    m_lastColumns = columns;
    m_lastLower = range.lower;
    m_lastUpper = range.upper;

    auto fill = [&](QCPGraph* graph, std::span<const double> x, std::span<const double> y, const BlockExtremes& b) {
        decimateMinMax(x, y, range.lower, range.upper, columns, m_scratchX, m_scratchY, &b);
        QVector<QCPGraphData> points(static_cast<qsizetype>(m_scratchX.size()));
        for (std::size_t i = 0; i < m_scratchX.size(); ++i) points[static_cast<qsizetype>(i)] = {m_scratchX[i], m_scratchY[i]};
        graph->data()->set(points, true);
    };
    for (auto& s : m_series) {
        if (!viewChanged && s->drawnVersion == s->data.version()) continue;
        s->drawnVersion = s->data.version();
        if (const bool lone = s->data.size() == 1; lone != s->lone) {
            s->lone = lone;
            updateSeriesPens(*s);
        }
        const bool shown = s->data.hasX(m_xMode);
        const auto x = shown ? s->data.x(m_xMode) : std::span<const double>{};
        const IndexRange visible = visibleRange(x, range.lower, range.upper);
        const bool dense = visible.last - visible.first > static_cast<std::size_t>(columns) / 4;
        if (dense != s->dense) {
            s->dense = dense;
            updateSeriesPens(*s);
        }
        // Decimated (over four points per column): the graph may fill the columns' envelope.
        const bool decimated = visible.last - visible.first > 4 * static_cast<std::size_t>(columns);
        const bool outline = decimated && (s->style == Style::Line || s->style == Style::Faint);
        auto setEnvelope = [&](EnvelopeGraph* graph) {
            if (!outline) return graph->clearEnvelope();
            columnEnvelope(m_scratchX, m_scratchY, range.lower, range.upper, columns, m_scratchEnvelope);
            graph->setEnvelope(m_scratchEnvelope);
        };
        fill(s->raw, x, shown ? s->data.values() : std::span<const double>{}, s->data.valueBlocks());
        setEnvelope(s->raw);
        if (s->smooth) {
            fill(s->smooth, x, shown ? s->data.smoothed() : std::span<const double>{}, s->data.smoothedBlocks());
            setEnvelope(s->smooth);
            // Busy: its vertical travel averages over 2% of its own range per column (a smooth
            // curve travels its range about once over all the columns).
            double travel = 0, lo = INFINITY, hi = -INFINITY;
            for (std::size_t i = 0; i < m_scratchY.size(); ++i) {
                if (i > 0) travel += std::abs(m_scratchY[i] - m_scratchY[i - 1]);
                lo = std::min(lo, m_scratchY[i]);
                hi = std::max(hi, m_scratchY[i]);
            }
            const bool busy = hi > lo && travel / (hi - lo) > 0.02 * columns;
            if (busy != s->busy) {
                s->busy = busy;
                updateSeriesPens(*s);
            }
        }
    }
    // The best mark moves with the x mode.
    if (m_bestGraph) {
        const double bx = m_bestX.in(m_xMode);
        m_bestGraph->data()->clear();
        if (std::isfinite(bx) && std::isfinite(m_bestY)) m_bestGraph->addData(bx, m_bestY);
    }
}

void LiveChart::applyFollowRange() {
    double lo = INFINITY, hi = -INFINITY;
    for (const auto& s : m_series) {
        if (s->data.size() == 0 || !s->data.hasX(m_xMode)) continue;
        const auto x = s->data.x(m_xMode);
        lo = std::min(lo, x.front());
        hi = std::max(hi, x.back());
    }
    if (!(lo <= hi)) return;
    // Steps, epochs and seconds count from 0: showing the origin keeps a lone first point (an
    // epoch metric) in context instead of centring it in a range a step wide.
    if (lo > 0) lo = 0;
    if (hi - lo < 1e-9) {
        lo -= 0.5;
        hi += 0.5;
    } else {
        // Air on the right, where new points appear, and room for a last point's marker.
        const int laidOut = m_plot->axisRect()->width();  // 0 or tiny before the first layout
        const double pixels = laidOut > 50 ? laidOut : std::max(width() - 60, 100);
        hi += (hi - lo) * std::max(0.02, 8.0 / pixels);
    }
    ++m_programmaticRange;
    m_plot->xAxis->setRange(lo, hi);
    --m_programmaticRange;
}

void LiveChart::fitY() {
    const QCPRange xr = m_plot->xAxis->range();
    double lo = INFINITY, hi = -INFINITY;
    auto take = [&](double y) {
        if (!std::isfinite(y) || (m_logY && y <= 0)) return;
        lo = std::min(lo, y);
        hi = std::max(hi, y);
    };
    for (int g = 0; g < m_plot->graphCount(); ++g) {
        const auto data = m_plot->graph(g)->data();
        for (auto it = data->constBegin(); it != data->constEnd(); ++it)
            if (it->key >= xr.lower && it->key <= xr.upper) take(it->value);
    }
    if (m_thresholdLine) take(m_thresholdLine->point1->coords().y());
    if (!(lo <= hi)) return;
    if (m_logY) {
        lo /= 1.25;
        hi *= 1.25;
    } else if (hi - lo < 1e-12) {
        const double pad = std::max(std::abs(hi) * 0.1, 1e-3);
        lo -= pad;
        hi += pad;
    } else {
        const double pad = (hi - lo) * 0.05;
        lo -= pad;
        hi += pad;
    }
    ++m_programmaticRange;
    m_plot->yAxis->setRange(lo, hi);
    --m_programmaticRange;
}

void LiveChart::resetZoom() {
    ++m_programmaticRange;
    applyFollowRange();
    --m_programmaticRange;
    m_viewDirty = true;
    updateGraphs(plotColumns());
    fitY();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QString LiveChart::readoutAt(double x) const {
    QStringList lines;
    for (const auto& s : m_series) {
        if (s->data.size() == 0 || !s->data.hasX(m_xMode)) continue;
        const auto xs = s->data.x(m_xMode);
        const auto it = std::lower_bound(xs.begin(), xs.end(), x);
        std::size_t i = std::size_t(it - xs.begin());
        if (i == xs.size() || (i > 0 && x - xs[i - 1] < xs[i] - x)) --i;  // the nearer neighbour
        const auto values = s->data.isSmoothed() ? s->data.smoothed() : s->data.values();
        lines << QStringLiteral("%1: %2").arg(s->label, QLocale().toString(values[i], 'g', 5));
    }
    return lines.join(QLatin1Char('\n'));
}

void LiveChart::setLogY(bool on) {
    if (on == m_logY) return;
    m_logY = on;
    {
        const QSignalBlocker block(m_logBox);
        m_logBox->setChecked(on);
    }
    ++m_programmaticRange;  // switching scale sanitises the range: not a user zoom
    if (on) {
        m_plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
        m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    } else {
        m_plot->yAxis->setScaleType(QCPAxis::stLinear);
        m_plot->yAxis->setTicker(QSharedPointer<CompactTicker>::create());
    }
    fitY();
    --m_programmaticRange;
    scheduleReplot();
    emit logYChanged(on);
}

}  // namespace ts::widgets
