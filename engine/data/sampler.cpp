#include "data/sampler.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "data/rng.h"
#include "tensor/quote_text.h"

namespace ts {

namespace {

// Stream ids keep samplers' draws apart from each other and from augmentation.
constexpr std::uint64_t kRandomStream = 1, kWeightedStream = 2, kBalancedStream = 3;

template <class T, class Rng> void shuffle(std::vector<T>& v, Rng& rng)
{
    for (std::size_t i = v.size(); i > 1; --i)
        std::swap(v[i - 1], v[datarng::below(rng, i)]);
}

void checkLabel(std::int64_t label, std::int64_t numClasses, std::size_t index)
{
    if (label < 0 || label >= numClasses)
        throw std::invalid_argument("sample " + std::to_string(index) + " has label " + std::to_string(label) +
                                    ", outside the " + std::to_string(numClasses) + " classes");
}

}  // namespace

std::vector<std::int64_t> SequentialSampler::epochOrder(std::int64_t) const
{
    std::vector<std::int64_t> order(static_cast<std::size_t>(n_));
    std::iota(order.begin(), order.end(), 0);
    return order;
}

std::vector<std::int64_t> RandomSampler::epochOrder(std::int64_t epoch) const
{
    std::vector<std::int64_t> order(static_cast<std::size_t>(n_));
    std::iota(order.begin(), order.end(), 0);
    auto rng = datarng::epochEngine(seed_, epoch, kRandomStream);
    shuffle(order, rng);
    return order;
}

WeightedSampler::WeightedSampler(const std::vector<std::int64_t>& labels, const std::vector<double>& classWeights,
                                 bool replacement, std::uint64_t seed)
    : replacement_(replacement), seed_(seed)
{
    const auto numClasses = static_cast<std::int64_t>(classWeights.size());
    if (numClasses == 0) throw std::invalid_argument("the weighted sampler needs class weights (one per class)");
    for (double w : classWeights)
        if (!std::isfinite(w) || w < 0) throw std::invalid_argument("class weights must be finite and >= 0");
    weights_.reserve(labels.size());
    double total = 0;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        checkLabel(labels[i], numClasses, i);
        weights_.push_back(classWeights[static_cast<std::size_t>(labels[i])]);
        total += weights_.back();
        cumulative_.push_back(total);
    }
    if (!labels.empty() && !(total > 0))
        throw std::invalid_argument("every present class has weight 0: nothing to sample");
}

std::vector<std::int64_t> WeightedSampler::epochOrder(std::int64_t epoch) const
{
    auto rng = datarng::epochEngine(seed_, epoch, kWeightedStream);
    const std::size_t n = weights_.size();
    std::vector<std::int64_t> order(n);
    if (n == 0) return order;
    if (replacement_) {
        // Inverse CDF: the first sample whose running sum exceeds u * total (zero-weight
        // samples have empty intervals and are never chosen).
        const double total = cumulative_.back();
        for (auto& index : order) {
            const double u = datarng::unit(rng) * total;
            auto it = std::upper_bound(cumulative_.begin(), cumulative_.end(), u);
            if (it == cumulative_.end()) --it;  // u rounded up to total
            while (weights_[static_cast<std::size_t>(it - cumulative_.begin())] == 0) --it;
            index = it - cumulative_.begin();
        }
        return order;
    }
    // Efraimidis-Spirakis: key log(u)/w, largest first, is a weighted draw without
    // replacement; zero weights get -inf and go last.
    std::vector<std::pair<double, std::int64_t>> keyed(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double u = 1.0 - datarng::unit(rng);  // (0, 1]: log stays finite
        const double w = weights_[i];
        keyed[i] = {w > 0 ? std::log(u) / w : -INFINITY, static_cast<std::int64_t>(i)};
    }
    std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    for (std::size_t i = 0; i < n; ++i) order[i] = keyed[i].second;
    return order;
}

ClassBalancedSampler::ClassBalancedSampler(const std::vector<std::int64_t>& labels, std::int64_t numClasses,
                                           std::uint64_t seed)
    : n_(static_cast<std::int64_t>(labels.size())), seed_(seed)
{
    std::vector<std::vector<std::int64_t>> all(static_cast<std::size_t>(std::max<std::int64_t>(numClasses, 0)));
    for (std::size_t i = 0; i < labels.size(); ++i) {
        checkLabel(labels[i], numClasses, i);
        all[static_cast<std::size_t>(labels[i])].push_back(static_cast<std::int64_t>(i));
    }
    for (auto& members : all)
        if (!members.empty()) byClass_.push_back(std::move(members));
}

std::vector<std::int64_t> ClassBalancedSampler::epochOrder(std::int64_t epoch) const
{
    auto rng = datarng::epochEngine(seed_, epoch, kBalancedStream);
    std::vector<std::int64_t> order;
    order.reserve(static_cast<std::size_t>(n_));
    if (byClass_.empty()) return order;
    std::vector<std::vector<std::int64_t>> pools = byClass_;
    std::vector<std::size_t> cursor(pools.size(), 0);
    for (auto& pool : pools) shuffle(pool, rng);
    std::vector<std::size_t> round(pools.size());
    std::iota(round.begin(), round.end(), 0);
    while (order.size() < static_cast<std::size_t>(n_)) {
        shuffle(round, rng);  // a random class order per round, so a ragged last round is fair
        for (std::size_t c : round) {
            if (order.size() == static_cast<std::size_t>(n_)) break;
            auto& pool = pools[c];
            if (cursor[c] == pool.size()) {  // class exhausted: cycle through a new shuffle
                shuffle(pool, rng);
                cursor[c] = 0;
            }
            order.push_back(pool[cursor[c]++]);
        }
    }
    return order;
}

std::unique_ptr<Sampler> makeSampler(const std::string& kind, const std::vector<std::int64_t>& labels,
                                     std::int64_t numClasses, const std::vector<double>& classWeights,
                                     bool replacement, std::uint64_t seed)
{
    const auto n = static_cast<std::int64_t>(labels.size());
    if (kind == "sequential") return std::make_unique<SequentialSampler>(n);
    if (kind == "random") return std::make_unique<RandomSampler>(n, seed);
    if (kind == "weighted") {
        if (numClasses > 0 && static_cast<std::int64_t>(classWeights.size()) != numClasses)
            throw std::invalid_argument("the weighted sampler needs " + std::to_string(numClasses) +
                                        " class weights, got " + std::to_string(classWeights.size()));
        return std::make_unique<WeightedSampler>(labels, classWeights, replacement, seed);
    }
    if (kind == "class_balanced") return std::make_unique<ClassBalancedSampler>(labels, numClasses, seed);
    throw std::invalid_argument("unknown sampler " + quoteText(kind) + " (sequential, random, weighted or class_balanced)");
}

}  // namespace ts
