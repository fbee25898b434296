#include "comparison_reads.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "run_comparison.h"

namespace ts::ui {

namespace {

constexpr int kMaxGridPoints = 4096;  // the charts decimate to the pixel anyway

widgets::ChartSamples samplesOf(const MetricSeries& read)
{
    widgets::ChartSamples samples;
    samples.step.assign(read.steps.begin(), read.steps.end());
    samples.time = read.wallTimes;
    samples.value = read.values;
    return samples;
}

GroupBand bandOf(const RunComparison::Band& b)
{
    GroupBand band;
    band.x = b.steps;
    band.mean = b.mean;
    band.low.resize(b.mean.size());
    band.high.resize(b.mean.size());
    for (std::size_t i = 0; i < b.mean.size(); ++i) {
        band.low[i] = b.mean[i] - b.std[i];
        band.high[i] = b.mean[i] + b.std[i];
    }
    return band;
}

}  // namespace

ComparedPointsRead readComparedPoints(RunReader& reader, std::vector<ComparedSeries> wanted,
                                      const std::atomic<bool>& cancelled)
{
    ComparedPointsRead out;
    for (ComparedSeries& s : wanted) {
        if (cancelled) {
            out.cancelled = true;
            return out;
        }
        const MetricSeries read = reader.metric(s.runId, s.metric.toStdString(), s.lastStep);
        if (read.steps.empty()) continue;
        const bool whole = s.lastStep < 0;
        s.lastStep = read.steps.back();
        s.samples = samplesOf(read);
        if (whole) {
            s.whole.emplace().setSmoothing(s.smoothing);
            s.whole->append(s.samples);
            s.samples = {};
        }
        out.series.push_back(std::move(s));
    }
    return out;
}

std::vector<double> epochsAt(const std::vector<std::int64_t>& steps, const MetricSeries& epochEnds)
{
    // Knots (step, epoch) from (0, 0) through every epoch's end, in step order.
    std::vector<std::pair<double, double>> knots{{0.0, 0.0}};
    for (std::size_t i = 0; i < epochEnds.steps.size(); ++i)
        if (std::isfinite(epochEnds.values[i]) && double(epochEnds.steps[i]) > knots.back().first)
            knots.emplace_back(double(epochEnds.steps[i]), epochEnds.values[i]);
    std::vector<double> out(steps.size(), std::nan(""));
    if (knots.size() < 2) return out;  // no epoch ended yet: no pace to go by
    std::size_t k = 1;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const double s = double(steps[i]);
        while (k + 1 < knots.size() && s > knots[k].first) ++k;  // steps ascend: the knot only moves on
        const auto& [s0, e0] = knots[k - 1];
        const auto& [s1, e1] = knots[k];
        out[i] = e0 + (s - s0) * (e1 - e0) / (s1 - s0);  // past the last end: that epoch's pace
    }
    return out;
}

GroupBand meanAndSpreadOnGrid(const std::vector<XYSeries>& series, int gridPoints)
{
    GroupBand band;
    double lo = INFINITY, hi = -INFINITY;
    for (const XYSeries& s : series)
        if (!s.x.empty()) lo = std::min(lo, s.x.front()), hi = std::max(hi, s.x.back());
    if (!(lo <= hi) || gridPoints < 1) return band;
    const int n = hi > lo ? std::max(gridPoints, 2) : 1;
    // Welford's running mean and squared deviations per grid x: no cancellation in the spread.
    std::vector<double> mean(std::size_t(n), 0.0), m2(std::size_t(n), 0.0);
    std::vector<int> count(std::size_t(n), 0);
    auto gridX = [&](int g) { return n == 1 ? lo : lo + (hi - lo) * double(g) / double(n - 1); };
    for (const XYSeries& s : series) {
        std::size_t i = 0;
        for (int g = 0; g < n; ++g) {
            const double x = gridX(g);
            if (s.x.empty() || x < s.x.front() || x > s.x.back()) continue;
            while (i + 1 < s.x.size() && s.x[i + 1] < x) ++i;
            const std::size_t j = std::min(i + 1, s.x.size() - 1);
            double y;
            if (s.x[i] == x || j == i) y = s.y[i];
            else if (s.x[j] == x) y = s.y[j];
            else y = s.y[i] + (s.y[j] - s.y[i]) * (x - s.x[i]) / (s.x[j] - s.x[i]);
            if (!std::isfinite(y)) continue;
            const auto k = std::size_t(g);
            ++count[k];
            const double delta = y - mean[k];
            mean[k] += delta / count[k];
            m2[k] += delta * (y - mean[k]);
        }
    }
    for (int g = 0; g < n; ++g) {
        const auto k = std::size_t(g);
        if (count[k] == 0) continue;
        const double sd = count[k] > 1 ? std::sqrt(m2[k] / double(count[k] - 1)) : 0.0;
        band.x.push_back(gridX(g));
        band.mean.push_back(mean[k]);
        band.low.push_back(mean[k] - sd);
        band.high.push_back(mean[k] + sd);
    }
    return band;
}

GroupBandsRead readGroupBands(RunReader& reader, const std::vector<QString>& metrics,
                              const std::vector<std::vector<qint64>>& groups, widgets::XAxisMode mode,
                              const std::atomic<bool>& cancelled)
{
    GroupBandsRead out;
    std::map<qint64, MetricSeries> epochEnds;  // read once per run, for the epoch axis
    if (mode == widgets::XAxisMode::Epoch)
        for (const auto& runs : groups)
            for (qint64 id : runs) epochEnds[id] = reader.metric(id, "epoch");
    for (const QString& metric : metrics) {
        for (std::size_t g = 0; g < groups.size(); ++g) {
            if (cancelled) {
                out.cancelled = true;
                return out;
            }
            std::vector<MetricSeries> read;
            for (qint64 id : groups[g]) read.push_back(reader.metric(id, metric.toStdString()));
            GroupBand band;
            if (mode == widgets::XAxisMode::Step) {
                band = bandOf(RunComparison::meanAndSpread(read));
            } else {
                std::vector<XYSeries> aligned;
                std::size_t longest = 0;
                for (std::size_t r = 0; r < read.size(); ++r) {
                    XYSeries s;
                    s.x = mode == widgets::XAxisMode::WallTime ? read[r].wallTimes
                                                               : epochsAt(read[r].steps, epochEnds[groups[g][r]]);
                    s.y = read[r].values;
                    if (s.x.empty() || !std::isfinite(s.x.front())) continue;  // no such x for this run
                    if (!std::is_sorted(s.x.begin(), s.x.end())) continue;     // a clock that went back
                    longest = std::max(longest, s.x.size());
                    aligned.push_back(std::move(s));
                }
                band = meanAndSpreadOnGrid(aligned, int(std::min<std::size_t>(longest, kMaxGridPoints)));
            }
            band.metric = metric;
            band.group = int(g);
            out.bands.push_back(std::move(band));
        }
    }
    return out;
}

}  // namespace ts::ui
