#include "decimation.h"

#include <algorithm>
#include <cmath>

namespace ts::widgets {

IndexRange visibleRange(std::span<const double> x, double xMin, double xMax) {
    const auto lo = std::lower_bound(x.begin(), x.end(), xMin);
    const auto hi = std::upper_bound(lo, x.end(), xMax);
    IndexRange r{static_cast<std::size_t>(lo - x.begin()), static_cast<std::size_t>(hi - x.begin())};
    if (r.first > 0) --r.first;  // the neighbour left of the view: the line enters from the edge
    if (r.last < x.size()) ++r.last;
    return r;
}

namespace {

// One pixel column's candidates, as indices so x order is restored cheaply at the end.
struct Column {
    std::size_t first, min, max, last;
};

void emitColumn(const Column& c, std::span<const double> x, std::span<const double> y, std::vector<double>& outX,
                std::vector<double>& outY, double minValue, double maxValue) {
    // first <= min, max <= last already: only min and max may be out of order. The extremes'
    // values are known: only their x is read (a line of y fewer to wait for, twice a column).
    const bool minFirst = c.min <= c.max;
    const std::size_t idx[4] = {c.first, minFirst ? c.min : c.max, minFirst ? c.max : c.min, c.last};
    const double val[4] = {y[c.first], minFirst ? minValue : maxValue, minFirst ? maxValue : minValue, y[c.last]};
    for (int k = 0; k < 4; ++k) {
        if (k > 0 && idx[k] == idx[k - 1]) continue;
        outX.push_back(x[idx[k]]);
        outY.push_back(val[k]);
    }
}

void emitColumn(const Column& c, std::span<const double> x, std::span<const double> y, std::vector<double>& outX,
                std::vector<double>& outY) {
    emitColumn(c, x, y, outX, outY, y[c.min], y[c.max]);
}

}  // namespace

void BlockExtremes::clear() {
    m_min.clear();
    m_max.clear();
    m_minValue.clear();
    m_maxValue.clear();
    m_size = 0;
}

void BlockExtremes::update(std::span<const double> y) {
    const std::size_t start = m_size / kBlock;  // the last partial block is recomputed
    const std::size_t blocks = (y.size() + kBlock - 1) / kBlock;
    m_min.resize(blocks);
    m_max.resize(blocks);
    m_minValue.resize(blocks);
    m_maxValue.resize(blocks);
    for (std::size_t b = start; b < blocks; ++b) {
        std::size_t mn = kNone, mx = kNone;
        const std::size_t end = std::min(y.size(), (b + 1) * kBlock);
        for (std::size_t i = b * kBlock; i < end; ++i) {
            if (!std::isfinite(y[i])) continue;
            if (mn == kNone || y[i] < y[mn]) mn = i;
            if (mx == kNone || y[i] > y[mx]) mx = i;
        }
        m_min[b] = mn;
        m_max[b] = mx;
        m_minValue[b] = mn == kNone ? 0.0 : y[mn];
        m_maxValue[b] = mx == kNone ? 0.0 : y[mx];
    }
    m_size = y.size();
}

namespace {

// Column summaries via binary search for each column's index range and block extremes inside it.
void decimateWithBlocks(std::span<const double> x, std::span<const double> y, IndexRange r, double xMin, double xMax,
                        int columns, const BlockExtremes& blocks, std::vector<double>& outX,
                        std::vector<double>& outY) {
    constexpr std::size_t B = BlockExtremes::kBlock;
    const double scale = xMax > xMin ? columns / (xMax - xMin) : 0;
    auto columnOf = [&](double xv) { return std::min<long>(static_cast<long>((xv - xMin) * scale), columns - 1); };
    auto emitPoint = [&](std::size_t i) {
        if (!std::isfinite(y[i])) return;
        outX.push_back(x[i]);
        outY.push_back(y[i]);
    };
    std::size_t i = r.first, end = r.last;
    const bool rightNeighbour = end > i && x[end - 1] > xMax;
    if (rightNeighbour) --end;
    if (i < end && x[i] < xMin) emitPoint(i++);  // the left neighbour is its own column

    // Where each column ends: 40 series of 100,000 points outgrow the caches, so every probe of
    // x is a likely miss. Evenly spaced x (steps) give the end from the x where the next column
    // starts, checked with two neighbouring points; otherwise a search that gallops from the
    // last column's width keeps its probes near the column instead of across the whole series.
    Column pending{BlockExtremes::kNone, BlockExtremes::kNone, BlockExtremes::kNone, BlockExtremes::kNone};
    double pendingMin = 0, pendingMax = 0;
    const double spacing = end > i + 1 ? (x[end - 1] - x[i]) / double(end - 1 - i) : 0.0;
    std::size_t width = 1;
    for (long c = i < end ? columnOf(x[i]) : columns; c < columns; c = i < end ? columnOf(x[i]) : columns) {
        // The lines a column after next reads first (its end in x, its last partial block in y):
        // fetched now, they have arrived when it comes.
        if (const std::size_t ahead = i + 3 * width; ahead < end) {
            __builtin_prefetch(x.data() + ahead);
            __builtin_prefetch(y.data() + (ahead & ~(B - 1)));
        }
        auto inColumn = [&](std::size_t k) { return columnOf(x[k]) <= c; };
        std::size_t b = end;
        const double ahead = spacing > 0 ? (xMin + double(c + 1) / scale - x[i]) / spacing : -1.0;
        const auto guess = ahead >= 0 && ahead < double(end - i) ? i + 1 + static_cast<std::size_t>(ahead) : end;
        if (c == columns - 1) {
            b = end;  // the last column takes the rest
        } else if (guess < end && inColumn(guess - 1) && !inColumn(guess)) {
            b = guess;
        } else {
            std::size_t lo = i, hi = i + width;  // inColumn(lo); find the first k > lo outside it
            while (hi < end && inColumn(hi)) {
                lo = hi;
                width *= 2;
                hi = lo + width;
            }
            hi = std::min(hi, end);
            b = static_cast<std::size_t>(std::partition_point(x.begin() + static_cast<std::ptrdiff_t>(lo + 1),
                                                              x.begin() + static_cast<std::ptrdiff_t>(hi),
                                                              [&](double xv) { return columnOf(xv) <= c; }) -
                                         x.begin());
        }
        width = std::max<std::size_t>(1, b - i);
        Column col{BlockExtremes::kNone, BlockExtremes::kNone, BlockExtremes::kNone, BlockExtremes::kNone};
        double mnv = INFINITY, mxv = -INFINITY;
        // Strict comparisons in index order keep the first of equal extremes, as the plain path does.
        auto considerMin = [&](std::size_t k, double v) {
            if (v < mnv) mnv = v, col.min = k;
        };
        auto considerMax = [&](std::size_t k, double v) {
            if (v > mxv) mxv = v, col.max = k;
        };
        auto scan = [&](std::size_t from, std::size_t to) {
            for (std::size_t k = from; k < to; ++k) {
                if (!std::isfinite(y[k])) continue;
                considerMin(k, y[k]);
                considerMax(k, y[k]);
            }
        };
        const std::size_t firstFull = (i + B - 1) / B, lastFull = b / B;
        if (firstFull < lastFull) {
            scan(i, firstFull * B);
            for (std::size_t blk = firstFull; blk < lastFull; ++blk) {
                if (blocks.minIndex(blk) == BlockExtremes::kNone) continue;
                considerMin(blocks.minIndex(blk), blocks.minValue(blk));
                considerMax(blocks.maxIndex(blk), blocks.maxValue(blk));
            }
            scan(lastFull * B, b);
        } else {
            scan(i, b);
        }
        if (col.min != BlockExtremes::kNone) {
            col.first = i;
            while (!std::isfinite(y[col.first])) ++col.first;
            col.last = b - 1;
            while (!std::isfinite(y[col.last])) --col.last;
            // The extremes' points lie anywhere in the column, likely in lines not read yet:
            // fetched now and emitted after the next column, their loads overlap its work.
            __builtin_prefetch(x.data() + col.min);
            __builtin_prefetch(x.data() + col.max);
            if (pending.min != BlockExtremes::kNone) emitColumn(pending, x, y, outX, outY, pendingMin, pendingMax);
            pending = col;
            pendingMin = mnv;
            pendingMax = mxv;
        }
        i = b;
    }
    if (pending.min != BlockExtremes::kNone) emitColumn(pending, x, y, outX, outY, pendingMin, pendingMax);
    if (rightNeighbour) emitPoint(end);
}

}  // namespace

void decimateMinMax(std::span<const double> x, std::span<const double> y, double xMin, double xMax, int columns,
                    std::vector<double>& outX, std::vector<double>& outY, const BlockExtremes* blocks) {
    outX.clear();
    outY.clear();
    const std::size_t n = std::min(x.size(), y.size());
    x = x.first(n);
    y = y.first(n);
    if (n == 0 || !(xMax >= xMin)) return;
    columns = std::max(columns, 1);
    const IndexRange r = visibleRange(x, xMin, xMax);

    if (r.last - r.first <= 4 * static_cast<std::size_t>(columns)) {
        for (std::size_t i = r.first; i < r.last; ++i) {
            if (!std::isfinite(y[i])) continue;
            outX.push_back(x[i]);
            outY.push_back(y[i]);
        }
        return;
    }

    outX.reserve(4 * static_cast<std::size_t>(columns) + 2);
    outY.reserve(4 * static_cast<std::size_t>(columns) + 2);
    if (blocks && blocks->covered() == n) {
        decimateWithBlocks(x, y, r, xMin, xMax, columns, *blocks, outX, outY);
        return;
    }
    const double width = xMax - xMin;
    const double scale = width > 0 ? columns / width : 0;
    // Points outside the view (the two neighbours) get columns -1 and `columns`, so each stays
    // its own column and is emitted as is.
    auto columnOf = [&](double xv) -> long {
        if (xv < xMin) return -1;
        if (xv > xMax) return columns;
        return std::min<long>(static_cast<long>((xv - xMin) * scale), columns - 1);
    };

    bool open = false;
    long current = 0;
    Column c{};
    for (std::size_t i = r.first; i < r.last; ++i) {
        const double yv = y[i];
        if (!std::isfinite(yv)) continue;
        const long col = columnOf(x[i]);
        if (!open || col != current) {
            if (open) emitColumn(c, x, y, outX, outY);
            open = true;
            current = col;
            c = Column{i, i, i, i};
            continue;
        }
        if (yv < y[c.min]) c.min = i;
        if (yv > y[c.max]) c.max = i;
        c.last = i;
    }
    if (open) emitColumn(c, x, y, outX, outY);
}

void ColumnEnvelope::clear() {
    left.clear();
    right.clear();
    low.clear();
    high.clear();
    first.clear();
    last.clear();
}

void columnEnvelope(std::span<const double> x, std::span<const double> y, double xMin, double xMax, int columns,
                    ColumnEnvelope& out) {
    out.clear();
    const std::size_t n = std::min(x.size(), y.size());
    if (n == 0 || !(xMax >= xMin)) return;
    columns = std::max(columns, 1);
    // The same column of each x as decimateMinMax, outside points apart (-1 and `columns`).
    const double scale = xMax > xMin ? columns / (xMax - xMin) : 0;
    auto columnOf = [&](double xv) -> long {
        if (xv < xMin) return -1;
        if (xv > xMax) return columns;
        return std::min<long>(static_cast<long>((xv - xMin) * scale), columns - 1);
    };
    long current = 0;
    bool open = false;
    for (std::size_t i = 0; i < n; ++i) {
        if (!std::isfinite(y[i])) continue;
        const long c = columnOf(x[i]);
        if (open && c == current && c >= 0 && c < columns) {
            out.low.back() = std::min(out.low.back(), y[i]);
            out.high.back() = std::max(out.high.back(), y[i]);
            out.last.back() = y[i];
            continue;
        }
        open = true;
        current = c;
        const bool inside = c >= 0 && c < columns;
        out.left.push_back(inside && scale > 0 ? xMin + double(c) / scale : x[i]);
        out.right.push_back(inside && scale > 0 ? xMin + double(c + 1) / scale : x[i]);
        out.low.push_back(y[i]);
        out.high.push_back(y[i]);
        out.first.push_back(y[i]);
        out.last.push_back(y[i]);
    }
}

void DebiasedEma::setWeight(double weight) {
    m_weight = std::isfinite(weight) ? std::clamp(weight, 0.0, 0.999) : 0.0;
    reset();
}

void DebiasedEma::reset() {
    m_last = 0;
    m_weightPow = 1;
}

double DebiasedEma::push(double y) {
    if (!std::isfinite(y)) return y;
    m_last = m_weight * m_last + (1 - m_weight) * y;
    m_weightPow *= m_weight;
    const double debias = 1 - m_weightPow;
    return debias > 0 ? m_last / debias : y;
}

std::vector<double> debiasedEma(std::span<const double> y, double weight) {
    DebiasedEma ema(weight);
    std::vector<double> out;
    out.reserve(y.size());
    for (double v : y) out.push_back(ema.push(v));
    return out;
}

}  // namespace ts::widgets
