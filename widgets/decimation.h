// Pure numeric helpers behind the live charts: per-pixel-column decimation and TensorBoard's
// debiased exponential moving average. No Qt, so they are tested (and reasoned about) alone.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace ts::widgets {

// Reduces the points of a sorted series that fall in [xMin, xMax] to at most four per pixel
// column: the column's first, minimum, maximum and last point, in x order. Drawn as a polyline
// this is indistinguishable from the full data (each column's vertical extent and its joins to
// the neighbouring columns are kept), and no spike is lost. The nearest point outside each end
// of the range is kept too, so the line runs to the plot's edges.
//
// `x` must be non-decreasing; points whose y is not finite are skipped (they cannot be drawn on
// a log axis and would hide the rest of the column's extent). When the range holds no more than
// four points per column the points are passed through unchanged. Output replaces outX/outY.
// Per-block extremes of a growing y series (indices of each kBlock-point block's finite minimum and
// maximum). With them a pixel column holding thousands of points is summarised by reading a few
// dozen blocks instead of every point, which keeps a live 1M-point chart well inside a frame.
class BlockExtremes {
public:
    static constexpr std::size_t kBlock = 16;  // 16: a column of ~100 points (100k on a chart) reads blocks, not points
    static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
    void clear();
    // `y` is the whole series; it must extend the values seen so far (call clear() otherwise).
    void update(std::span<const double> y);
    std::size_t covered() const { return m_size; }
    std::size_t minIndex(std::size_t block) const { return m_min[block]; }
    std::size_t maxIndex(std::size_t block) const { return m_max[block]; }
    // The values too, so a column reads these small arrays instead of scattered points of y.
    double minValue(std::size_t block) const { return m_minValue[block]; }
    double maxValue(std::size_t block) const { return m_maxValue[block]; }

private:
    std::vector<std::size_t> m_min, m_max;
    std::vector<double> m_minValue, m_maxValue;
    std::size_t m_size = 0;
};

// `blocks`, when given and up to date with `y`, makes the work per frame proportional to the
// number of columns and blocks instead of the number of points; the output is the same.
void decimateMinMax(std::span<const double> x, std::span<const double> y, double xMin, double xMax, int columns,
                    std::vector<double>& outX, std::vector<double>& outY, const BlockExtremes* blocks = nullptr);

// A dense series' outline per pixel column: each column's x extent and the minimum and
// maximum of its points. Filled as one polygon it covers what the decimated polyline's
// full-height strokes cover, painting each pixel once instead of once per stroke.
struct ColumnEnvelope {
    std::vector<double> left, right;  // the column's x extent; a point outside the view: its own x twice
    std::vector<double> low, high;    // the column's finite minimum and maximum
    std::vector<double> first, last;  // its first and last finite value: where the line enters and leaves
    std::size_t size() const { return low.size(); }
    void clear();
};

// Groups sorted points into the columns of decimateMinMax (same xMin, xMax, columns; the
// neighbours outside the view stay single points) and keeps each column's extremes. Fed the
// decimated points it gives the same result as fed all points, since decimation keeps every
// column's minimum and maximum. Points whose y is not finite are skipped.
void columnEnvelope(std::span<const double> x, std::span<const double> y, double xMin, double xMax, int columns,
                    ColumnEnvelope& out);

// Index range [first, last) of the points of sorted `x` that a view of [xMin, xMax] needs,
// including one neighbour on each side.
struct IndexRange {
    std::size_t first = 0;
    std::size_t last = 0;
};
IndexRange visibleRange(std::span<const double> x, double xMin, double xMax);

// TensorBoard's smoothing: last = w*last + (1-w)*y, shown as last / (1 - w^n) where n counts the
// finite values so far. Without the divisor the curve starts near zero; with it the first value is
// y_0 itself. Non-finite values pass through and do not disturb the average. Incremental, so a
// live series pays only for its new points.
class DebiasedEma {
public:
    explicit DebiasedEma(double weight = 0.6) { setWeight(weight); }
    void setWeight(double weight);  // clamped to [0, 0.999]: 1 would freeze the curve at zero
    double weight() const { return m_weight; }
    void reset();
    double push(double y);  // returns the smoothed value for y

private:
    double m_weight = 0.6;
    double m_last = 0;
    double m_weightPow = 1;  // w^n, kept as a running product to avoid pow() per point
};

// Smooths a whole series from scratch (for a new weight or in tests).
std::vector<double> debiasedEma(std::span<const double> y, double weight);

}  // namespace ts::widgets
