// Image folders: one sub-directory per class (sorted names are the class names), image files
// inside (PNG, JPEG, WebP, TIFF, BMP, GIF: data/image_decode.h). Images are decoded in get() (the
// folder may not fit in memory), converted to the requested channels and resized to [C, H, W]
// as dataset.resize says: an image of another size is never distorted unless it says stretch.
#pragma once
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "data/image_decode.h"
#include "types/message.h"

namespace ts {

class ImageFolderDataset : public Dataset {
public:
    // Lists `root` (class sub-directories, images by extension). When `classNames` is given, the
    // sub-directories must be among them (a test split uses the training split's classes). An
    // empty `shape` is the most common image size (defaultImageShape). Throws DataError when there
    // are no classes or images, or a sub-directory names an unknown class. Damaged images throw
    // from get(), naming the file.
    ImageFolderDataset(const std::string& root, std::vector<std::int64_t> shape, std::string name,
                       std::vector<std::string> classNames = {}, ResizeMode mode = ResizeMode::Crop);

    std::int64_t size() const override { return static_cast<std::int64_t>(files_.size()); }
    Shape sampleShape() const override { return Shape(shape_); }
    std::int64_t numClasses() const override { return static_cast<std::int64_t>(classNames_.size()); }
    std::vector<std::string> classNames() const override { return classNames_; }
    std::int64_t get(std::int64_t index, float* out) const override;
    const std::vector<std::int64_t>& labels() const override { return labels_; }
    std::string description() const override;

    const std::vector<std::string>& files() const { return files_; }
    std::string sampleSource(std::int64_t index) const override { return files_[std::size_t(index)]; }
    ResizeMode resizeMode() const { return mode_; }
    // Each file's size from its header (read once, in parallel, on first use); {0, 0} for a file
    // that cannot be read (get() names its problem).
    const std::vector<ImageSize>& imageSizes() const;

private:
    std::vector<std::int64_t> shape_;
    std::string name_;
    std::vector<std::string> classNames_, files_;
    std::vector<std::int64_t> labels_;
    ResizeMode mode_;
    mutable std::once_flag sizesRead_;
    mutable std::vector<ImageSize> sizes_;
};

// The image_shape a folder gets when its experiment names none: the most common width x height
// (the first in file order on a tie), scaled down keeping its aspect ratio to at most
// kDefaultImageSide pixels a side (a folder of photos would make samples of millions of values);
// 1 channel when every image is greyscale, else 3. Throws DataError when no image is readable.
constexpr int kDefaultImageSide = 256;
std::vector<std::int64_t> defaultImageShape(const std::vector<ImageSize>& sizes, const std::string& root);

// For the run's log: how many images of the training and test folders (test may be null) differ
// from the sample size and what was done to them (dataset.resize), and, when the experiment gave
// no image_shape, the one chosen.
std::vector<Message> imageFolderNotes(const ImageFolderDataset& train, const ImageFolderDataset* test, bool shapeGiven);

}  // namespace ts
