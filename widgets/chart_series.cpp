#include "chart_series.h"

#include <algorithm>
#include <numeric>

namespace ts::widgets {

double ChartX::in(XAxisMode mode) const {
    switch (mode) {
    case XAxisMode::Step: return step;
    case XAxisMode::Epoch: return epoch;
    case XAxisMode::WallTime: return time;
    }
    return kNone;
}

bool SeriesData::append(const ChartSamples& s) {
    const std::size_t n = s.value.size();
    if (s.step.size() != n || (!s.epoch.empty() && s.epoch.size() != n) || (!s.time.empty() && s.time.size() != n))
        return false;
    if (n == 0) return true;
    // A mode stays available only while every batch carries its x; once a batch lacks it the
    // stored values for that mode are no longer sorted or complete, so it is dropped for good.
    m_hasEpoch = m_hasEpoch && !s.epoch.empty();
    m_hasTime = m_hasTime && !s.time.empty();

    const bool inOrder = m_step.empty() || s.step.front() >= m_step.back();
    const bool sortedBatch = std::is_sorted(s.step.begin(), s.step.end());
    auto add = [n](std::vector<double>& to, const std::vector<double>& from) {
        if (from.empty()) to.insert(to.end(), n, ChartX::kNone);
        else to.insert(to.end(), from.begin(), from.end());
    };
    add(m_step, s.step);
    add(m_epoch, s.epoch);
    add(m_time, s.time);
    add(m_value, s.value);
    ++m_version;

    if (!inOrder || !sortedBatch) {
        sortByStep();
        m_valueBlocks.clear();
        resmooth();
    } else if (m_smoothingOn) {
        for (double v : s.value) m_smoothed.push_back(m_ema.push(v));
        m_smoothedBlocks.update(m_smoothed);
    }
    m_valueBlocks.update(m_value);
    return true;
}

void SeriesData::clear() {
    m_step.clear();
    m_epoch.clear();
    m_time.clear();
    m_value.clear();
    m_smoothed.clear();
    m_valueBlocks.clear();
    m_smoothedBlocks.clear();
    m_hasEpoch = m_hasTime = true;
    m_ema.reset();
    ++m_version;
}

bool SeriesData::hasX(XAxisMode mode) const {
    switch (mode) {
    case XAxisMode::Step: return true;
    case XAxisMode::Epoch: return m_hasEpoch;
    case XAxisMode::WallTime: return m_hasTime;
    }
    return false;
}

std::span<const double> SeriesData::x(XAxisMode mode) const {
    switch (mode) {
    case XAxisMode::Step: return m_step;
    case XAxisMode::Epoch: return m_epoch;
    case XAxisMode::WallTime: return m_time;
    }
    return {};
}

void SeriesData::setSmoothing(double weight) {
    const bool on = weight > 0;
    if (on == m_smoothingOn && (!on || m_ema.weight() == DebiasedEma(weight).weight())) return;
    m_smoothingOn = on;
    m_ema.setWeight(on ? weight : 0.0);
    resmooth();
    ++m_version;
}

void SeriesData::resmooth() {
    m_smoothed.clear();
    m_smoothedBlocks.clear();
    m_ema.reset();
    if (!m_smoothingOn) return;
    m_smoothed.reserve(m_value.size());
    for (double v : m_value) m_smoothed.push_back(m_ema.push(v));
    m_smoothedBlocks.update(m_smoothed);
}

void SeriesData::sortByStep() {
    std::vector<std::size_t> order(m_step.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [this](std::size_t a, std::size_t b) { return m_step[a] < m_step[b]; });
    auto permute = [&order](std::vector<double>& v) {
        std::vector<double> out(v.size());
        for (std::size_t i = 0; i < order.size(); ++i) out[i] = v[order[i]];
        v.swap(out);
    };
    permute(m_step);
    permute(m_epoch);
    permute(m_time);
    permute(m_value);
}

}  // namespace ts::widgets
