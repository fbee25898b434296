// IDX files (MNIST, Fashion-MNIST): an idx3 image file of u8 pixels and an idx1 label file,
// plain or gzip. Both are read into memory once; get() scales one image to [0, 1].
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "data/dataset.h"

namespace ts {

class IdxDataset : public Dataset {
public:
    // Throws DataError naming the file and byte offset for a damaged or mismatched pair.
    // An empty labelsPath reads the images alone, every label 0 (predict's unlabelled inputs).
    IdxDataset(const std::string& imagesPath, const std::string& labelsPath, std::vector<std::string> classNames,
               std::string name);

    std::int64_t size() const override { return count_; }
    Shape sampleShape() const override { return Shape{1, rows_, cols_}; }
    std::int64_t numClasses() const override { return static_cast<std::int64_t>(classNames_.size()); }
    std::vector<std::string> classNames() const override { return classNames_; }
    std::int64_t get(std::int64_t index, float* out) const override;
    const std::vector<std::int64_t>& labels() const override { return labels_; }
    std::string description() const override;
    std::string sampleSource(std::int64_t index) const override
    {
        return imagesPath_ + ", image " + std::to_string(index);
    }

private:
    std::string imagesPath_;
    std::vector<std::uint8_t> images_;  // the whole (decompressed) file, header included
    std::vector<std::int64_t> labels_;
    std::vector<std::string> classNames_;
    std::string name_;
    std::int64_t count_ = 0, rows_ = 0, cols_ = 0;
    static constexpr std::size_t kImageHeader = 16;
};

// The class names IDX data gets: Fashion-MNIST's ten when the directory name says "fashion",
// else "0".."9".
std::vector<std::string> idxClassNames(const std::string& directory);
// The name IDX data goes by: "Fashion-MNIST" or "MNIST" when the directory's name says so,
// else the directory's own name (a copy in "flipped-labels" is not called MNIST).
std::string idxDatasetName(const std::string& directory);

}  // namespace ts
