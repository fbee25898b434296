#include "data/subset_dataset.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

namespace ts {

SubsetDataset::SubsetDataset(std::shared_ptr<const Dataset> parent, std::vector<std::int64_t> indices, std::string name)
    : parent_(std::move(parent)), indices_(std::move(indices)), name_(std::move(name))
{
    const auto& all = parent_->labels();
    labels_.reserve(indices_.size());
    for (std::int64_t i : indices_) {
        if (i < 0 || i >= parent_->size())
            throw std::out_of_range("SubsetDataset: index " + std::to_string(i) + " outside the parent's " +
                                    std::to_string(parent_->size()) + " samples");
        labels_.push_back(all[static_cast<std::size_t>(i)]);
    }
}

std::int64_t SubsetDataset::get(std::int64_t index, float* out) const
{
    return parent_->get(indices_[static_cast<std::size_t>(index)], out);
}

std::string SubsetDataset::description() const
{
    return name_ + " (" + std::to_string(size()) + " x " + sampleShape().str() + ")";
}

namespace {

// Fisher-Yates with a rejection-free multiply-shift draw: std::shuffle and
// std::uniform_int_distribution differ between standard libraries.
void seededShuffle(std::vector<std::int64_t>& v, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    for (std::size_t i = v.size(); i > 1; --i) {
        const auto j = static_cast<std::size_t>((static_cast<unsigned __int128>(rng()) * i) >> 64);
        std::swap(v[i - 1], v[j]);
    }
}

std::int64_t validationCount(std::int64_t n, double fraction)
{
    if (!(fraction >= 0.0 && fraction < 1.0))
        throw std::invalid_argument("validation fraction " + std::to_string(fraction) + " is outside [0, 1)");
    return static_cast<std::int64_t>(std::llround(fraction * static_cast<double>(n)));
}

}  // namespace

SplitIndices splitIndices(std::int64_t n, double fraction, std::uint64_t seed)
{
    const std::int64_t nVal = validationCount(n, fraction);
    std::vector<std::int64_t> order(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i)
        order[static_cast<std::size_t>(i)] = i;
    seededShuffle(order, seed);
    SplitIndices s;
    s.validation.assign(order.begin(), order.begin() + nVal);
    s.train.assign(order.begin() + nVal, order.end());
    // Ascending: sequential passes then read the parent in file order.
    std::sort(s.validation.begin(), s.validation.end());
    std::sort(s.train.begin(), s.train.end());
    return s;
}

SplitIndices splitGroups(const std::vector<std::int64_t>& groups, double fraction, std::uint64_t seed)
{
    const std::int64_t target = validationCount(static_cast<std::int64_t>(groups.size()), fraction);
    std::map<std::int64_t, std::int64_t> sizes;
    for (std::int64_t g : groups)
        ++sizes[g];
    std::vector<std::int64_t> order;
    for (const auto& [g, count] : sizes)
        order.push_back(g);
    seededShuffle(order, seed);
    std::map<std::int64_t, bool> toValidation;
    std::int64_t taken = 0;
    const auto n = static_cast<std::int64_t>(groups.size());
    for (std::int64_t g : order) {
        if (taken + sizes[g] >= n)  // training keeps at least one group
            continue;
        // Stop when adding the next group would overshoot more than stopping undershoots.
        if (taken >= target || (taken + sizes[g] - target > target - taken && taken > 0))
            break;
        toValidation[g] = true;
        taken += sizes[g];
    }
    SplitIndices s;
    for (std::size_t i = 0; i < groups.size(); ++i)
        (toValidation.count(groups[i]) ? s.validation : s.train).push_back(static_cast<std::int64_t>(i));
    return s;
}

}  // namespace ts
