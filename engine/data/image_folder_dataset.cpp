#include "data/image_folder_dataset.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "data/data_files.h"
#include "tensor/quote_text.h"

namespace fs = std::filesystem;

namespace ts {
namespace {

bool isImageName(const fs::path& p)
{
    std::string ext = p.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    return ext == ".png" || ext == ".jpg" || ext == ".jpeg";
}

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

}  // namespace

ImageFolderDataset::ImageFolderDataset(const std::string& root, std::vector<std::int64_t> shape, std::string name,
                                       std::vector<std::string> classNames, ResizeMode mode)
    : shape_(std::move(shape)), name_(std::move(name)), classNames_(std::move(classNames)), mode_(mode)
{
    if (shape_.size() != 3 || (shape_[0] != 1 && shape_[0] != 3) || shape_[1] <= 0 || shape_[2] <= 0)
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
            if (isImageName(file)) {
                files_.push_back(file.string());
                labels_.push_back(label);
            }
    }
    if (classNames_.empty())
        throw DataError(root, -1, root + ": no class sub-directories (expected one folder of images per class)");
    if (files_.empty())
        throw DataError(root, -1, root + ": no .png or .jpg images in its class sub-directories");
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

}  // namespace ts
