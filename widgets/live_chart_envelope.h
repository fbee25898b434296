// The graph a LiveChart draws a series with. Where the series is dense and its columns span
// many pixels (noise covering the plot's height), it paints each column's min/max span once,
// straight into an image, instead of stroking the decimated zigzag through it three or four
// times: the same pixels in the same colour. 20 overlaid runs of full-height noise then replot
// in about 10 ms instead of 40 (bench_runs_page), decimation included. Elsewhere (sparse or
// thin series, markers, fills, a vector export) it is a plain QCPGraph.
#pragma once

#include "decimation.h"

#include <qcustomplot.h>

#include <vector>

namespace ts::widgets {

class EnvelopeGraph : public QCPGraph {
public:
    // Columns must span this many device pixels on average for the spans to replace the line:
    // thinner, the line already paints each pixel about once.
    static constexpr double kMinMeanSpanPx = 3.0;

    EnvelopeGraph(QCPAxis* keyAxis, QCPAxis* valueAxis);

    // The envelope of the points in data(), per decimation column; empty: always a line.
    void setEnvelope(const ColumnEnvelope& envelope);
    void clearEnvelope() { m_envelope.clear(); }
    const ColumnEnvelope& envelope() const { return m_envelope; }
    // Whether the last draw painted the envelope rather than the line (tests).
    bool drewEnvelope() const { return m_drewEnvelope; }
    // The colour the last envelope was painted in (tests).
    QColor envelopeColor() const { return m_envelopeColor; }

protected:
    void draw(QCPPainter* painter) override;

private:
    // Maps the columns to pixels; false when they are too thin to gain from spans.
    bool mapColumns(double devicePixel);
    QColor fillColor() const;
    void paintColumns(QCPPainter* painter, const QColor& color);

    ColumnEnvelope m_envelope;
    bool m_drewEnvelope = false;
    QColor m_envelopeColor;
    // Per draw, kept to reuse their memory: each column's edges and extremes in painter units.
    std::vector<double> m_leftPx, m_rightPx, m_topPx, m_bottomPx;
    double m_areaPx = 0;  // the columns' spans summed, in painter units
    std::vector<int> m_rowTop, m_rowBottom;  // per device column: the rows it covers
};

}  // namespace ts::widgets
