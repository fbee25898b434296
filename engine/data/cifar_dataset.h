// CIFAR-10 binary batches: 3073-byte records (1 label byte, then 32x32 red, green, blue
// planes). The batches are read into memory once; get() scales one image to [0, 1].
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "data/dataset.h"

namespace ts {

class CifarDataset : public Dataset {
public:
    static constexpr std::int64_t kRecordBytes = 3073;
    // Throws DataError naming the file and byte offset (a size that is not a whole number of
    // records, a label above 9).
    CifarDataset(const std::vector<std::string>& batchFiles, std::vector<std::string> classNames, std::string name);

    std::int64_t size() const override { return static_cast<std::int64_t>(labels_.size()); }
    Shape sampleShape() const override { return Shape{3, 32, 32}; }
    std::int64_t numClasses() const override { return static_cast<std::int64_t>(classNames_.size()); }
    std::vector<std::string> classNames() const override { return classNames_; }
    std::int64_t get(std::int64_t index, float* out) const override;
    const std::vector<std::int64_t>& labels() const override { return labels_; }
    std::string description() const override;

private:
    std::vector<std::uint8_t> records_;  // every batch's records, back to back
    std::vector<std::int64_t> labels_;
    std::vector<std::string> classNames_;
    std::string name_;
};

// The class names in dir/batches.meta.txt (one a line) when present, else CIFAR-10's ten.
std::vector<std::string> cifarClassNames(const std::string& directory);

}  // namespace ts
