// Per-sample transforms, in the spec's order: random resized crop, random crop with zero
// padding, horizontal flip, per-channel normalisation. The random choices of a sample are a pure function of
// (seed, epoch, position in the epoch), so they do not depend on which worker handles it.
#pragma once
#include <cstdint>
#include <vector>

#include "data/dataset.h"
#include "tensor/shape.h"

namespace ts {

// The random choices for one sample.
struct Augmentation {
    std::int64_t cropY = 0, cropX = 0;  // offset into the padded image, in [0, 2 * padding]
    bool flip = false;
    // Random resized crop: the part (top, left, rows x cols) resized to the whole; rows 0: none.
    std::int64_t partTop = 0, partLeft = 0, partRows = 0, partCols = 0;
};

class Transforms {
public:
    // `augment` false (evaluation) skips the resized crop, crop and flip but keeps normalisation. Throws
    // std::invalid_argument when the spec does not fit the sample shape.
    Transforms(const DatasetSpec& spec, const DatasetStatistics& stats, const Shape& sampleShape, bool augment);

    // The choices for the sample at `position` of epoch `epoch` (the epoch position, not the
    // dataset index, so a sample drawn twice with replacement is augmented twice).
    Augmentation draw(std::uint64_t seed, std::int64_t epoch, std::int64_t position) const;
    // Transforms one sample in place; `scratch` is reused between calls (crop needs a copy).
    void apply(float* sample, const Augmentation& a, std::vector<float>& scratch) const;

    bool resizedCropping() const { return minArea_ > 0; }
    bool cropping() const { return padding_ > 0; }
    bool flipping() const { return flip_; }
    bool normalizing() const { return !scale_.empty(); }
    bool identity() const { return !resizedCropping() && !cropping() && !flipping() && !normalizing(); }

private:
    void crop(float* sample, const Augmentation& a, std::vector<float>& scratch) const;
    void flipRows(float* sample) const;

    std::int64_t channels_ = 1, height_ = 1, width_ = 1, plane_ = 1;
    double minArea_ = 0;  // random resized crop: the smallest fraction of the area kept; 0: off
    std::int64_t padding_ = 0;
    bool flip_ = false;
    std::vector<float> shift_, scale_;  // x' = (x - mean) * (1 / std), per channel
};

}  // namespace ts
