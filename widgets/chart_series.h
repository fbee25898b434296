// What a live chart remembers about one series: every raw point with all three x values (step,
// epoch, wall time), so switching the x axis needs no help from the caller, plus the smoothed
// curve, kept up to date incrementally. Plain C++; the widget draws from it.
#pragma once

#include "decimation.h"

#include <cstddef>
#include <limits>
#include <span>
#include <vector>

namespace ts::widgets {

enum class XAxisMode { Step, Epoch, WallTime };

// A position on the x axis in all three modes; NaN where the caller does not know it (the mark is
// then hidden in that mode).
struct ChartX {
    static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
    double step = kNone;
    double epoch = kNone;
    double time = kNone;  // seconds since the run started
    double in(XAxisMode mode) const;
};

// Bulk points for append(). `epoch` and `time` may be left empty when unknown: the series is then
// not drawn in that x mode. Otherwise every vector has value.size() entries.
struct ChartSamples {
    std::vector<double> step;
    std::vector<double> epoch;  // fractional epochs for per-step data, whole ones for per-epoch data
    std::vector<double> time;
    std::vector<double> value;
};

class SeriesData {
public:
    // Appends points; returns false (and keeps nothing) when the vector sizes disagree.
    bool append(const ChartSamples& samples);
    void clear();

    std::size_t size() const { return m_value.size(); }
    // Whether every point carries an x for this mode (step always does).
    bool hasX(XAxisMode mode) const;
    std::span<const double> x(XAxisMode mode) const;
    std::span<const double> values() const { return m_value; }

    // Smoothing: weight 0 turns it off. smoothed() is empty while off.
    void setSmoothing(double weight);
    double smoothing() const { return m_smoothingOn ? m_ema.weight() : 0.0; }
    bool isSmoothed() const { return m_smoothingOn; }
    std::span<const double> smoothed() const { return m_smoothed; }
    // Block extremes of values() and smoothed(), kept current for fast decimation.
    const BlockExtremes& valueBlocks() const { return m_valueBlocks; }
    const BlockExtremes& smoothedBlocks() const { return m_smoothedBlocks; }

    // Bumped on every change, so views can tell when their decimated copy is stale.
    std::size_t version() const { return m_version; }

private:
    void sortByStep();  // only when a caller appended out of order (e.g. a resumed run)
    void resmooth();

    std::vector<double> m_step, m_epoch, m_time, m_value, m_smoothed;
    bool m_hasEpoch = true;
    bool m_hasTime = true;
    bool m_smoothingOn = false;
    DebiasedEma m_ema{0.0};
    BlockExtremes m_valueBlocks, m_smoothedBlocks;
    std::size_t m_version = 0;
};

}  // namespace ts::widgets
