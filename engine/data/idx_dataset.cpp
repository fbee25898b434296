#include "data/idx_dataset.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "data/data_files.h"

namespace ts {
namespace {

std::uint32_t bigEndian32(const std::uint8_t* p)
{
    return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | p[3];
}

std::string hex32(std::uint32_t v)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", v);
    return buf;
}

// Checks the magic and the header length; returns the count field.
std::uint32_t readHeader(const std::vector<std::uint8_t>& data, const std::string& path, std::uint32_t expectedMagic,
                         std::size_t headerBytes, const char* kind)
{
    if (data.size() < 4)
        throw byteError(path, 0, "the file is " + std::to_string(data.size()) + " bytes long, too short for an IDX " +
                                     kind + " file");
    const std::uint32_t magic = bigEndian32(data.data());
    if (magic != expectedMagic)
        throw byteError(path, 0, "magic " + hex32(magic) + " is not an IDX " + kind + " file (expected " +
                                     hex32(expectedMagic) + ")");
    if (data.size() < headerBytes)
        throw byteError(path, static_cast<std::int64_t>(data.size()),
                        "the file ends inside its " + std::to_string(headerBytes) + "-byte header");
    return bigEndian32(data.data() + 4);
}

}  // namespace

IdxDataset::IdxDataset(const std::string& imagesPath, const std::string& labelsPath,
                       std::vector<std::string> classNames, std::string name)
    : imagesPath_(imagesPath), classNames_(std::move(classNames)), name_(std::move(name))
{
    // The header first, then no more than it announces: behind a small header a gzip stream
    // may inflate to gigabytes (trailing bytes past the last image were always ignored).
    images_ = readFileBytes(imagesPath, kImageHeader);
    count_ = readHeader(images_, imagesPath, 0x00000803, kImageHeader, "image");
    rows_ = bigEndian32(images_.data() + 8);
    cols_ = bigEndian32(images_.data() + 12);
    if (rows_ == 0 || cols_ == 0 || rows_ > 65536 || cols_ > 65536)
        throw byteError(imagesPath, 8, "image size " + std::to_string(rows_) + "x" + std::to_string(cols_) +
                                           " is not plausible");
    const std::uint64_t pixelBytes = std::uint64_t(count_) * std::uint64_t(rows_) * std::uint64_t(cols_);
    images_ = readFileBytes(imagesPath, kImageHeader + pixelBytes);
    const std::uint64_t available = images_.size() - kImageHeader;
    if (available < pixelBytes)
        throw byteError(imagesPath, kImageHeader, "expected " + std::to_string(pixelBytes) +
                                                      " bytes of pixels, the file ends after " + std::to_string(available));

    if (labelsPath.empty()) {  // images without labels (predict): every label 0
        labels_.assign(static_cast<std::size_t>(count_), 0);
        images_.resize(kImageHeader + pixelBytes);
        return;
    }
    std::vector<std::uint8_t> labelBytes = readFileBytes(labelsPath, 8);
    const std::uint32_t labelCount = readHeader(labelBytes, labelsPath, 0x00000801, 8, "label");
    labelBytes = readFileBytes(labelsPath, 8 + std::size_t(labelCount));
    if (labelCount != static_cast<std::uint64_t>(count_))
        throw byteError(labelsPath, 4, std::to_string(labelCount) + " labels, but " + imagesPath + " holds " +
                                           std::to_string(count_) + " images");
    if (labelBytes.size() - 8 < labelCount)
        throw byteError(labelsPath, 8, "expected " + std::to_string(labelCount) +
                                           " bytes of labels, the file ends after " +
                                           std::to_string(labelBytes.size() - 8));
    labels_.resize(labelCount);
    const auto classes = static_cast<std::int64_t>(classNames_.size());
    for (std::size_t i = 0; i < labelCount; ++i) {
        const std::int64_t label = labelBytes[8 + i];
        if (label >= classes)
            throw byteError(labelsPath, static_cast<std::int64_t>(8 + i),
                            "label " + std::to_string(label) + " of image " + std::to_string(i) + " is outside [0, " +
                                std::to_string(classes) + ")");
        labels_[i] = label;
    }
}

std::int64_t IdxDataset::get(std::int64_t index, float* out) const
{
    const std::int64_t n = rows_ * cols_;
    const std::uint8_t* p = images_.data() + kImageHeader + static_cast<std::size_t>(index * n);
    const float* unit = byteToUnitTable();
    for (std::int64_t i = 0; i < n; ++i)
        out[i] = unit[p[i]];
    return labels_[static_cast<std::size_t>(index)];
}

std::string IdxDataset::description() const
{
    return name_ + " (" + std::to_string(count_) + " x " + sampleShape().str() + ")";
}

namespace {

// Only the last path component counts: /home/fashion/mnist is plain MNIST.
std::string lastComponent(std::string path)
{
    while (path.size() > 1 && path.back() == '/')
        path.pop_back();
    return path.substr(path.find_last_of('/') + 1);
}

std::string lowered(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    return text;
}

}  // namespace

std::string idxDatasetName(const std::string& directory)
{
    const std::string name = lastComponent(directory);
    const std::string lower = lowered(name);
    if (lower.find("fashion") != std::string::npos) return "Fashion-MNIST";
    if (lower.find("mnist") != std::string::npos || name.empty() || name == "/") return "MNIST";
    return name;
}

std::vector<std::string> idxClassNames(const std::string& directory)
{
    const std::string lower = lowered(lastComponent(directory));
    if (lower.find("fashion") != std::string::npos)
        return {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"};
    std::vector<std::string> names;
    for (int i = 0; i < 10; ++i)
        names.push_back(std::to_string(i));
    return names;
}

}  // namespace ts
