// Samplers: the order in which an epoch visits a dataset, a pure function of (seed, epoch),
// so a resumed run reproduces any epoch exactly. Every sampler yields size() indices.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ts {

class Sampler {
public:
    virtual ~Sampler() = default;
    // The dataset indices visited in epoch `epoch`, in order.
    virtual std::vector<std::int64_t> epochOrder(std::int64_t epoch) const = 0;
    virtual std::int64_t size() const = 0;  // indices per epoch (the dataset size)
};

// 0, 1, ..., n-1 every epoch (evaluation).
class SequentialSampler final : public Sampler {
public:
    explicit SequentialSampler(std::int64_t n) : n_(n) {}
    std::vector<std::int64_t> epochOrder(std::int64_t epoch) const override;
    std::int64_t size() const override { return n_; }

private:
    std::int64_t n_;
};

// A fresh seeded permutation per epoch.
class RandomSampler final : public Sampler {
public:
    RandomSampler(std::int64_t n, std::uint64_t seed) : n_(n), seed_(seed) {}
    std::vector<std::int64_t> epochOrder(std::int64_t epoch) const override;
    std::int64_t size() const override { return n_; }

private:
    std::int64_t n_;
    std::uint64_t seed_;
};

// PyTorch's WeightedRandomSampler with per-class weights: a sample of class c has weight
// classWeights[c], so class c is drawn with probability w_c n_c / sum_k w_k n_k (weights of
// 1/n_c balance the classes). Weights are relative: any positive scale, never normalised
// here. With replacement: n independent draws. Without: a weighted random permutation
// (Efraimidis-Spirakis), so every sample appears exactly once per epoch and heavier classes
// come earlier; the class mix then follows the weights only in a prefix of the epoch.
class WeightedSampler final : public Sampler {
public:
    WeightedSampler(const std::vector<std::int64_t>& labels, const std::vector<double>& classWeights,
                    bool replacement, std::uint64_t seed);
    std::vector<std::int64_t> epochOrder(std::int64_t epoch) const override;
    std::int64_t size() const override { return static_cast<std::int64_t>(weights_.size()); }

private:
    std::vector<double> weights_;     // per sample
    std::vector<double> cumulative_;  // running sums (with replacement)
    bool replacement_;
    std::uint64_t seed_;
};

// Every non-empty class drawn equally often per epoch (counts differ by at most one), in
// shuffled rounds of one sample per class; each class cycles through a fresh shuffle of its
// samples, so minority classes repeat and majority classes are subsampled.
class ClassBalancedSampler final : public Sampler {
public:
    ClassBalancedSampler(const std::vector<std::int64_t>& labels, std::int64_t numClasses, std::uint64_t seed);
    std::vector<std::int64_t> epochOrder(std::int64_t epoch) const override;
    std::int64_t size() const override { return n_; }

private:
    std::int64_t n_;
    std::vector<std::vector<std::int64_t>> byClass_;  // non-empty classes only
    std::uint64_t seed_;
};

// The sampler a spec names: "sequential", "random", "weighted", "class_balanced".
// Throws std::invalid_argument for an unknown name or unusable weights.
std::unique_ptr<Sampler> makeSampler(const std::string& kind, const std::vector<std::int64_t>& labels,
                                     std::int64_t numClasses, const std::vector<double>& classWeights,
                                     bool replacement, std::uint64_t seed);

}  // namespace ts
