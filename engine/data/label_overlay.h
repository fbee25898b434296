// Applying the label overlay (types/label_overlay.h) to a file split: relabelled samples get
// their new label (a RelabelledDataset over the reader's dataset), excluded ones are left out
// of the splits openDataset carves (data/dataset.h). The files themselves stay untouched.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "types/label_overlay.h"

namespace ts {

// A dataset whose labels are its parent's with some replaced; samples are the parent's.
class RelabelledDataset : public Dataset {
public:
    RelabelledDataset(std::shared_ptr<const Dataset> parent, std::vector<std::int64_t> labels);

    std::int64_t size() const override { return parent_->size(); }
    Shape sampleShape() const override { return parent_->sampleShape(); }
    std::int64_t numClasses() const override { return parent_->numClasses(); }
    std::vector<std::string> classNames() const override { return parent_->classNames(); }
    std::int64_t get(std::int64_t index, float* out) const override;
    const std::vector<std::int64_t>& labels() const override { return labels_; }
    std::string description() const override { return parent_->description() + " (relabelled)"; }
    std::string sampleSource(std::int64_t index) const override { return parent_->sampleSource(index); }
    Shape targetShape() const override { return parent_->targetShape(); }
    DType inputDType() const override { return parent_->inputDType(); }
    std::int64_t paddingId() const override { return parent_->paddingId(); }
    void getTargets(std::int64_t index, std::int64_t* out) const override { parent_->getTargets(index, out); }
    TargetKind targetKind() const override { return parent_->targetKind(); }
    std::vector<std::string> targetNames() const override { return parent_->targetNames(); }
    void getValues(std::int64_t index, float* out) const override { parent_->getValues(index, out); }

private:
    std::shared_ptr<const Dataset> parent_;
    std::vector<std::int64_t> labels_;
};

// One file split with the overlay's marks for it applied.
struct OverlaidSplit {
    std::shared_ptr<const Dataset> data;  // the file split itself when no sample is relabelled
    std::vector<bool> excluded;           // one per sample of the file split
    std::int64_t relabelled = 0, excludedCount = 0;
};

// Applies the marks of `split` ("train" / "test") to `files`. A mark outside the split or
// relabelling to a class the dataset lacks is a DataError naming `path`, the mark and the way
// out (clear it), never silently dropped.
OverlaidSplit applyLabelOverlay(std::shared_ptr<const Dataset> files, const LabelOverlay& overlay,
                                const std::string& split, const std::string& path);

// The overlay in a canonical form (marks sorted by split and sample, one per line); empty for
// an empty overlay. Cache keys include it, so statistics and decoded caches follow the overlay.
std::string labelOverlayText(const LabelOverlay& overlay);

// 16 hex digits of the canonical text ("" for an empty overlay): what a label check records
// of the overlay it saw.
std::string labelOverlayHash(const LabelOverlay& overlay);

}  // namespace ts
