// A view of some samples of a parent dataset (a split): get(i) is parent.get(indices[i]).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "data/dataset.h"

namespace ts {

class SubsetDataset : public Dataset {
public:
    // `name` is the split's name for description(), e.g. "Fashion-MNIST validation".
    SubsetDataset(std::shared_ptr<const Dataset> parent, std::vector<std::int64_t> indices, std::string name);

    std::int64_t size() const override { return static_cast<std::int64_t>(indices_.size()); }
    Shape sampleShape() const override { return parent_->sampleShape(); }
    std::int64_t numClasses() const override { return parent_->numClasses(); }
    std::vector<std::string> classNames() const override { return parent_->classNames(); }
    std::int64_t get(std::int64_t index, float* out) const override;
    const std::vector<std::int64_t>& labels() const override { return labels_; }
    std::string description() const override;
    std::string sampleSource(std::int64_t index) const override { return parent_->sampleSource(indices_[std::size_t(index)]); }
    Shape targetShape() const override { return parent_->targetShape(); }
    DType inputDType() const override { return parent_->inputDType(); }
    std::int64_t paddingId() const override { return parent_->paddingId(); }
    void getTargets(std::int64_t index, std::int64_t* out) const override
    {
        parent_->getTargets(indices_[std::size_t(index)], out);
    }
    TargetKind targetKind() const override { return parent_->targetKind(); }
    std::vector<std::string> targetNames() const override { return parent_->targetNames(); }
    void getValues(std::int64_t index, float* out) const override
    {
        parent_->getValues(indices_[std::size_t(index)], out);
    }

    const std::vector<std::int64_t>& indices() const { return indices_; }
    const Dataset& parent() const { return *parent_; }

private:
    std::shared_ptr<const Dataset> parent_;
    std::vector<std::int64_t> indices_, labels_;
    std::string name_;
};

// Which parent indices go to training and which to validation (both ascending).
struct SplitIndices {
    std::vector<std::int64_t> train, validation;
};

// round(fraction * n) samples, drawn by a seeded shuffle, go to validation. The shuffle is
// our own (mt19937_64 + Fisher-Yates) so a seed gives the same split on every platform.
SplitIndices splitIndices(std::int64_t n, double fraction, std::uint64_t seed);

// Like splitIndices, but whole groups (groups[i] is sample i's group id) go to one side:
// groups are shuffled and moved to validation until it holds about fraction * n samples.
SplitIndices splitGroups(const std::vector<std::int64_t>& groups, double fraction, std::uint64_t seed);

}  // namespace ts
