// Keep-last-K-plus-best bookkeeping and checkpoint file names.
#include "train/checkpoint_policy.h"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "train/early_stopping.h"

namespace ts {

namespace {

// A metric value for a file name: "0.923", "1.2e-05", "nan". std::to_chars, not printf:
// the studio runs under the user's locale, where printf may write "0,923".
std::string metricText(double v)
{
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buffer[64];
    const double a = std::fabs(v);
    const auto r = (a == 0 || (a >= 0.001 && a < 1e6)) ? std::to_chars(buffer, buffer + sizeof buffer, v, std::chars_format::fixed, 3)
                                                       : std::to_chars(buffer, buffer + sizeof buffer, v, std::chars_format::scientific, 2);
    return std::string(buffer, r.ptr);
}

// Metric names come from the experiment file: keep file names to safe characters.
std::string safeName(const std::string& s)
{
    std::string out;
    for (char c : s) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
        out += ok ? c : '_';
    }
    return out;
}

std::string zeroPadded(std::int64_t n, int width)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%0*lld", width, static_cast<long long>(n));  // integers are locale-free
    return buffer;
}

}  // namespace

CheckpointPolicy::CheckpointPolicy(CheckpointSpec spec, std::string directory)
    : spec_(std::move(spec)), directory_(std::move(directory))
{
}

bool CheckpointPolicy::due(std::int64_t epoch, std::int64_t lastEpoch) const
{
    if (spec_.everyEpochs <= 0) return false;
    return epoch % spec_.everyEpochs == 0 || epoch == lastEpoch;
}

std::string CheckpointPolicy::pathFor(std::int64_t epoch, std::optional<double> metric, std::optional<std::int64_t> midEpochStep) const
{
    // Appended piecewise: GCC 12 warns falsely (-Wrestrict) about "literal" + std::string.
    std::string name = "epoch_";
    name += zeroPadded(epoch, 3);
    if (midEpochStep) name.append("_step_").append(zeroPadded(*midEpochStep, 6));
    if (metric) name.append("_").append(safeName(spec_.metric)).append("_").append(metricText(*metric));
    name += ".safetensors";
    if (directory_.empty()) return name;
    return directory_.back() == '/' ? directory_ + name : directory_ + "/" + name;
}

bool CheckpointPolicy::isBetter(std::optional<double> metric) const
{
    if (!metric || std::isnan(*metric)) return false;  // a NaN is never the best
    if (!bestIndex_) return true;
    const double best = *kept_[*bestIndex_].metric;
    return lowerIsBetter(spec_.metric) ? *metric < best : *metric > best;
}

std::vector<std::string> CheckpointPolicy::add(const Entry& entry, bool& best)
{
    best = isBetter(entry.metric);
    std::optional<Entry> previousBest = this->best();
    if (previousBest && previousBest->path == entry.path) previousBest.reset();
    // The same path written again replaces the file: forget the old entry, delete nothing.
    std::vector<Entry> entries;
    for (Entry& e : kept_)
        if (e.path != entry.path) entries.push_back(std::move(e));
    entries.push_back(entry);

    const std::size_t keep = static_cast<std::size_t>(std::max<std::int64_t>(spec_.keepLast, 1));
    const std::string bestPath = best ? entry.path : previousBest ? previousBest->path : std::string();
    std::vector<std::string> removed;
    kept_.clear();
    bestIndex_.reset();
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const bool recent = i + keep >= entries.size();
        const bool isBest = !bestPath.empty() && entries[i].path == bestPath;
        if (!recent && !isBest) {
            removed.push_back(entries[i].path);
            continue;
        }
        if (isBest) bestIndex_ = kept_.size();
        kept_.push_back(std::move(entries[i]));
    }
    return removed;
}

void CheckpointPolicy::restore(std::vector<Entry> kept)
{
    kept_ = std::move(kept);
    bestIndex_.reset();
    for (std::size_t i = 0; i < kept_.size(); ++i)  // strictly better: the earliest of equals stays best, as in add()
        if (isBetter(kept_[i].metric)) bestIndex_ = i;
}

std::optional<CheckpointPolicy::Entry> CheckpointPolicy::best() const
{
    if (!bestIndex_) return std::nullopt;
    return kept_[*bestIndex_];
}

}  // namespace ts
