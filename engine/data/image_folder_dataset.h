// Image folders: one sub-directory per class (sorted names are the class names), PNG or
// JPEG files inside. Images are decoded in get() (the folder may not fit in memory), converted
// to the requested channels and resized to [C, H, W].
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "data/image_decode.h"

namespace ts {

class ImageFolderDataset : public Dataset {
public:
    // Lists `root` (class sub-directories, images by extension .png/.jpg/.jpeg). When
    // `classNames` is given, the sub-directories must be among them (a test split uses the
    // training split's classes). Throws DataError when there are no classes or images, or a
    // sub-directory names an unknown class. Damaged images throw from get(), naming the file.
    ImageFolderDataset(const std::string& root, std::vector<std::int64_t> shape, std::string name,
                       std::vector<std::string> classNames = {}, ResizeMode mode = ResizeMode::Bilinear);

    std::int64_t size() const override { return static_cast<std::int64_t>(files_.size()); }
    Shape sampleShape() const override { return Shape(shape_); }
    std::int64_t numClasses() const override { return static_cast<std::int64_t>(classNames_.size()); }
    std::vector<std::string> classNames() const override { return classNames_; }
    std::int64_t get(std::int64_t index, float* out) const override;
    const std::vector<std::int64_t>& labels() const override { return labels_; }
    std::string description() const override;

    const std::vector<std::string>& files() const { return files_; }
    std::string sampleSource(std::int64_t index) const override { return files_[std::size_t(index)]; }

private:
    std::vector<std::int64_t> shape_;
    std::string name_;
    std::vector<std::string> classNames_, files_;
    std::vector<std::int64_t> labels_;
    ResizeMode mode_;
};

}  // namespace ts
