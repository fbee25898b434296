#include "data/cifar_dataset.h"

#include <fstream>

#include "data/data_files.h"

namespace ts {

CifarDataset::CifarDataset(const std::vector<std::string>& batchFiles, std::vector<std::string> classNames,
                           std::string name)
    : classNames_(std::move(classNames)), name_(std::move(name))
{
    const auto classes = static_cast<std::int64_t>(classNames_.size());
    for (const std::string& path : batchFiles) {
        std::vector<std::uint8_t> bytes = readFileBytes(path);
        const auto n = static_cast<std::int64_t>(bytes.size());
        if (n == 0 || n % kRecordBytes != 0)
            throw byteError(path, n - n % kRecordBytes,
                            "the file is " + std::to_string(n) + " bytes, not a whole number of " +
                                std::to_string(kRecordBytes) + "-byte CIFAR-10 records (" +
                                std::to_string(n % kRecordBytes) + " bytes left over)");
        for (std::int64_t offset = 0; offset < n; offset += kRecordBytes) {
            const std::int64_t label = bytes[static_cast<std::size_t>(offset)];
            if (label >= classes)
                throw byteError(path, offset,
                                "label " + std::to_string(label) + " of record " + std::to_string(offset / kRecordBytes) +
                                    " is outside [0, " + std::to_string(classes) + ")");
            labels_.push_back(label);
        }
        records_.insert(records_.end(), bytes.begin(), bytes.end());
    }
}

std::int64_t CifarDataset::get(std::int64_t index, float* out) const
{
    // The record's planes are already in [C, H, W] order.
    const std::uint8_t* p = records_.data() + static_cast<std::size_t>(index * kRecordBytes) + 1;
    const float* unit = byteToUnitTable();
    for (std::int64_t i = 0; i < kRecordBytes - 1; ++i)
        out[i] = unit[p[i]];
    return labels_[static_cast<std::size_t>(index)];
}

std::string CifarDataset::description() const
{
    return name_ + " (" + std::to_string(size()) + " x " + sampleShape().str() + ")";
}

std::vector<std::string> cifarClassNames(const std::string& directory)
{
    std::ifstream meta(joinPath(directory, "batches.meta.txt"));
    std::vector<std::string> names;
    for (std::string line; std::getline(meta, line);) {
        while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
            line.pop_back();
        if (!line.empty())
            names.push_back(line);
    }
    if (names.empty())
        names = {"airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck"};
    return names;
}

}  // namespace ts
