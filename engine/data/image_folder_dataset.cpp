#include "data/image_folder_dataset.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include "data/data_files.h"
#include "tensor/quote_text.h"

namespace fs = std::filesystem;

namespace ts {
namespace {

std::vector<fs::path> sortedEntries(const fs::path& dir, bool directories)
{
    std::vector<fs::path> out;
    try {
        for (const auto& entry : fs::directory_iterator(dir)) {
            if (directories ? entry.is_directory() : entry.is_regular_file())
                if (entry.path().filename().string()[0] != '.')  // hidden files and folders
                    out.push_back(entry.path());
        }
    } catch (const fs::filesystem_error& e) {
        throw DataError(dir.string(), -1, dir.string() + ": cannot list the directory (" + e.code().message() + ")");
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<ImageSize> readSizes(const std::vector<std::string>& files)
{
    std::vector<ImageSize> sizes(files.size());
#pragma omp parallel for schedule(dynamic, 16)
    for (std::size_t i = 0; i < files.size(); ++i) {
        try {
            sizes[i] = imageFileSize(files[i]);
        } catch (const std::exception&) {  // unreadable: get() says why, naming the file
        }
    }
    return sizes;
}

struct CommonSize {
    int width = 0, height = 0;
    std::int64_t count = 0, readable = 0;
    bool colour = false;  // any readable image has colour
};

// The most common width x height; the first in file order to reach the highest count wins a tie.
CommonSize mostCommonSize(const std::vector<ImageSize>& sizes)
{
    std::map<std::pair<int, int>, std::int64_t> counts;
    CommonSize c;
    for (const ImageSize& s : sizes) {
        if (s.width <= 0 || s.height <= 0) continue;
        ++c.readable;
        c.colour = c.colour || s.colour;
        if (const std::int64_t n = ++counts[{s.width, s.height}]; n > c.count) c.count = n, c.width = s.width, c.height = s.height;
    }
    return c;
}

}  // namespace

ImageFolderDataset::ImageFolderDataset(const std::string& root, std::vector<std::int64_t> shape, std::string name,
                                       std::vector<std::string> classNames, ResizeMode mode)
    : shape_(std::move(shape)), name_(std::move(name)), classNames_(std::move(classNames)), mode_(mode)
{
    if (!shape_.empty() && (shape_.size() != 3 || (shape_[0] != 1 && shape_[0] != 3) || shape_[1] <= 0 || shape_[2] <= 0))
        throw DataError(root, -1, root + ": image folders need dataset.image_shape [C, H, W] with C 1 or 3");
    if (const std::string why = whyNotAFolder(root); !why.empty())
        throw DataError(root, -1, root + ": " + why);
    const bool fixedClasses = !classNames_.empty();
    for (const fs::path& dir : sortedEntries(root, true)) {
        const std::string cls = dir.filename().string();
        auto it = std::find(classNames_.begin(), classNames_.end(), cls);
        if (it == classNames_.end()) {
            if (fixedClasses)
                throw DataError(dir.string(), -1, dir.string() + ": class " + quoteText(cls) + " is not one of the training classes");
            classNames_.push_back(cls);
            it = classNames_.end() - 1;
        }
        const auto label = static_cast<std::int64_t>(it - classNames_.begin());
        for (const fs::path& file : sortedEntries(dir, false))
            if (isImageFileName(file.string())) {
                files_.push_back(file.string());
                labels_.push_back(label);
            }
    }
    if (classNames_.empty())
        throw DataError(root, -1, root + ": no class sub-directories (expected one folder of images per class)");
    if (files_.empty())
        throw DataError(root, -1, root + ": no images (" + imageFormatsText() + ") in its class sub-directories");
    if (shape_.empty()) shape_ = defaultImageShape(imageSizes(), root);
}

const std::vector<ImageSize>& ImageFolderDataset::imageSizes() const
{
    std::call_once(sizesRead_, [this] { sizes_ = readSizes(files_); });
    return sizes_;
}

std::int64_t ImageFolderDataset::get(std::int64_t index, float* out) const
{
    const auto i = static_cast<std::size_t>(index);
    const DecodedImage image = decodeImageFile(files_[i], static_cast<int>(shape_[0]));
    resizeToPlanar(image, static_cast<int>(shape_[1]), static_cast<int>(shape_[2]), mode_, out);
    return labels_[i];
}

std::string ImageFolderDataset::description() const
{
    return name_ + " (" + std::to_string(size()) + " x " + sampleShape().str() + ")";
}

std::vector<std::int64_t> defaultImageShape(const std::vector<ImageSize>& sizes, const std::string& root)
{
    const CommonSize c = mostCommonSize(sizes);
    if (c.count == 0)
        throw DataError(root, -1, root + ": none of its images could be read, so no image size can be chosen: "
                                         "check the files, or give dataset.image_shape");
    int width = c.width, height = c.height;
    if (const int side = std::max(width, height); side > kDefaultImageSide) {
        width = std::max(1, int(std::lround(double(width) * kDefaultImageSide / side)));
        height = std::max(1, int(std::lround(double(height) * kDefaultImageSide / side)));
    }
    return {c.colour ? 3 : 1, height, width};
}

std::vector<Message> imageFolderNotes(const ImageFolderDataset& train, const ImageFolderDataset* test, bool shapeGiven)
{
    const Shape shape = train.sampleShape();
    const int height = int(shape[1]), width = int(shape[2]);
    std::int64_t total = 0, differ = 0;
    for (const ImageFolderDataset* d : {&train, test}) {
        if (!d) continue;
        for (const ImageSize& s : d->imageSizes()) {
            if (s.width <= 0) continue;  // unreadable: its error comes from the reader
            ++total;
            if (s.width != width || s.height != height) ++differ;
        }
    }
    std::vector<Message> notes;
    if (!shapeGiven) {  // the training folder's most common size (defaultImageShape)
        const CommonSize c = mostCommonSize(train.imageSizes());
        notes.push_back(makeMessage(MessageId::DataImageShapeDefault,
                                    {shape.str(), std::to_string(c.width) + "x" + std::to_string(c.height),
                                     std::to_string(c.count), std::to_string(c.readable)}));
    }
    if (differ > 0) {
        const MessageId id = train.resizeMode() == ResizeMode::Crop  ? MessageId::DataImagesResizedCrop
                             : train.resizeMode() == ResizeMode::Pad ? MessageId::DataImagesResizedPad
                                                                     : MessageId::DataImagesResizedStretch;
        notes.push_back(makeMessage(id, {std::to_string(differ), std::to_string(total),
                                         std::to_string(width) + "x" + std::to_string(height)}));
    }
    return notes;
}

}  // namespace ts
