#include "jobs/sweep_trials.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <stdexcept>

#include "data/rng.h"
#include "io/yaml/experiment_yaml.h"
#include "io/checkpoint/sha256.h"
#include "io/yaml/sweep_reader.h"

namespace ts {

namespace {

// A range's points: `count` evenly spaced (log-spaced for log_uniform), ends included, each
// value once. Only for counts a grid may have (sweepGridTooLarge refuses more).
std::vector<std::string> rangePoints(const SweepParameter& p)
{
    std::vector<std::string> out;
    std::set<std::string> seen;
    for (std::int64_t i = 0; i < p.count; ++i)
        if (std::string text = sweepRangePoint(p, i); seen.insert(text).second) out.push_back(std::move(text));
    return out;
}

// The discrete values a parameter takes: its list, or its range's points (count given).
std::vector<std::string> points(const SweepParameter& p) { return p.values.empty() ? rangePoints(p) : p.values; }

// One value per parameter -> the trial: the parameters whose conditions hold.
std::vector<std::pair<std::string, std::string>> applying(const SweepSpec& sweep, const std::vector<std::string>& chosen)
{
    const auto& params = sweep.parameters;
    std::vector<int> active(params.size(), -1);  // -1 unknown; conditions never loop (the reader checks)
    std::function<bool(std::size_t)> applies = [&](std::size_t i) {
        if (active[i] >= 0) return active[i] == 1;
        bool ok = true;
        for (const auto& condition : params[i].when) {
            // Named references, not a structured binding: clang cannot capture one under -fopenmp.
            const auto& key = condition.first;
            const auto& accepted = condition.second;
            const auto j = std::find_if(params.begin(), params.end(), [&](const SweepParameter& q) { return q.key == key; });
            const std::size_t jj = static_cast<std::size_t>(j - params.begin());
            ok = ok && j != params.end() && applies(jj) &&
                 std::any_of(accepted.begin(), accepted.end(), [&](const std::string& v) { return sweepValuesEqual(v, chosen[jj]); });
        }
        active[i] = ok ? 1 : 0;
        return ok;
    };
    std::vector<std::pair<std::string, std::string>> out;
    for (std::size_t i = 0; i < params.size(); ++i)
        if (applies(i)) out.emplace_back(params[i].key, chosen[i]);
    return out;
}

void addDistinct(std::vector<SweepTrial>& trials, std::set<std::vector<std::pair<std::string, std::string>>>& seen,
                 std::vector<std::pair<std::string, std::string>> values)
{
    if (!seen.insert(values).second) return;
    SweepTrial t;
    t.values = std::move(values);
    trials.push_back(std::move(t));
}

std::vector<SweepTrial> gridTrials(const SweepSpec& sweep)
{
    // The reader refuses such a grid; a spec made in code is held to the same limit.
    if (const std::string tooLarge = sweepGridTooLarge(sweep); !tooLarge.empty()) throw std::invalid_argument("sweep: " + tooLarge);
    std::vector<std::vector<std::string>> axes;
    for (const SweepParameter& p : sweep.parameters) axes.push_back(points(p));
    std::vector<SweepTrial> trials;
    std::set<std::vector<std::pair<std::string, std::string>>> seen;
    if (axes.empty() || std::any_of(axes.begin(), axes.end(), [](const auto& a) { return a.empty(); })) return trials;
    std::vector<std::size_t> index(axes.size(), 0);
    for (;;) {
        std::vector<std::string> chosen;
        for (std::size_t i = 0; i < axes.size(); ++i) chosen.push_back(axes[i][index[i]]);
        addDistinct(trials, seen, applying(sweep, chosen));
        std::size_t d = axes.size();  // odometer: the last parameter varies fastest
        while (d > 0 && ++index[d - 1] == axes[d - 1].size()) index[--d] = 0;
        if (d == 0) break;
    }
    if (sweep.budget > 0 && static_cast<std::size_t>(sweep.budget) < trials.size()) {
        // A seeded partial Fisher-Yates picks which points stay; they keep the grid's order.
        std::vector<std::size_t> order(trials.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        datarng::Counter rng{datarng::key(sweep.seed, 0x67726964 /* "grid" */)};
        const std::size_t keep = static_cast<std::size_t>(sweep.budget);
        for (std::size_t i = 0; i < keep; ++i) std::swap(order[i], order[i + datarng::below(rng, order.size() - i)]);
        order.resize(keep);
        std::sort(order.begin(), order.end());
        std::vector<SweepTrial> kept;
        for (std::size_t i : order) kept.push_back(trials[i]);
        trials = std::move(kept);
    }
    return trials;
}

// A parameter's values for drawing: listed ones, a range's points when few enough to list, or
// none (a continuous range, or a count past kMaxSweepTrials drawn by index, never listed).
std::vector<std::string> drawablePoints(const SweepParameter& p)
{
    if (!p.values.empty() || (p.count > 0 && p.count <= kMaxSweepTrials)) return points(p);
    return {};
}

std::string draw(const SweepParameter& p, const std::vector<std::string>& choices, datarng::Counter& rng)
{
    if (!choices.empty()) return choices[datarng::below(rng, choices.size())];
    if (p.count > 0) return sweepRangePoint(p, static_cast<std::int64_t>(datarng::below(rng, static_cast<std::uint64_t>(p.count))));
    const double u = datarng::unit(rng);
    double v = p.distribution == "log_uniform" ? std::exp(std::log(p.low) + u * (std::log(p.high) - std::log(p.low)))
                                               : p.low + u * (p.high - p.low);
    if (p.integer) v = std::clamp(std::round(v), std::ceil(p.low), std::floor(p.high));
    return sweepPoint(v, p.integer);
}

std::vector<SweepTrial> randomTrials(const SweepSpec& sweep)
{
    if (sweep.budget > kMaxSweepTrials)
        throw std::invalid_argument("sweep: budget " + std::to_string(sweep.budget) + " is more than the " +
                                    std::to_string(kMaxSweepTrials) + " trials a sweep may run");
    std::vector<SweepTrial> trials;
    std::set<std::vector<std::pair<std::string, std::string>>> seen;
    const std::size_t wanted = static_cast<std::size_t>(std::max<std::int64_t>(sweep.budget, 0));
    // Each parameter's listable values once, not per draw; the trials are drawn one at a time,
    // so no grid is ever built, whatever the ranges' counts.
    std::vector<std::vector<std::string>> choices;
    for (const SweepParameter& p : sweep.parameters) choices.push_back(drawablePoints(p));
    // A small discrete space runs out of new configurations: stop drawing well after that.
    const std::uint64_t attempts = 1000 + 100 * static_cast<std::uint64_t>(wanted);
    for (std::uint64_t a = 0; a < attempts && trials.size() < wanted; ++a) {
        std::vector<std::string> chosen;
        for (std::size_t i = 0; i < sweep.parameters.size(); ++i) {
            datarng::Counter rng{datarng::key(sweep.seed, a, i, 0x72616e64 /* "rand" */)};
            chosen.push_back(draw(sweep.parameters[i], choices[i], rng));
        }
        addDistinct(trials, seen, applying(sweep, chosen));
    }
    return trials;
}

}  // namespace

std::vector<std::string> SweepTrial::overrides() const
{
    std::vector<std::string> out;
    for (const auto& [key, value] : values) out.push_back(sweepOverride(key, value));
    return out;
}

std::string SweepTrial::text() const
{
    std::string out;
    for (const auto& [key, value] : values) out.append(out.empty() ? "" : " ").append(key).append("=").append(value);
    return out;
}

std::vector<SweepTrial> sweepTrials(const SweepSpec& sweep)
{
    std::vector<SweepTrial> trials = sweep.method == "random" ? randomTrials(sweep) : gridTrials(sweep);
    for (std::size_t i = 0; i < trials.size(); ++i) trials[i].number = static_cast<int>(i + 1);
    return trials;
}

std::vector<std::int64_t> sweepRungs(const SweepSpec& sweep, std::int64_t epochs)
{
    std::vector<std::int64_t> rungs;
    if (sweep.halving)
        for (std::int64_t e = std::max<std::int64_t>(1, sweep.halving->minEpochs); e < epochs;
             e *= std::max<std::int64_t>(2, sweep.halving->eta))
            rungs.push_back(e);
    rungs.push_back(epochs);
    return rungs;
}

std::string sweepId(const ExperimentSpec& spec)
{
    const std::string text = experimentToYaml(spec);
    return spec.name + "-" + sha256Hex(text.data(), text.size()).substr(0, 8);
}

std::vector<std::string> sweepTrialTags(const std::string& sweepId, int trial)
{
    return {"sweep:" + sweepId, "trial:" + std::to_string(trial)};
}

}  // namespace ts
