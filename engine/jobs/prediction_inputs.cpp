#include "jobs/prediction_inputs.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "data/csv_dataset.h"
#include "data/data_files.h"
#include "data/idx_dataset.h"
#include "data/image_decode.h"

namespace fs = std::filesystem;

namespace ts {

namespace {

enum class Kind { Image, IdxImages, IdxLabels, Csv, Unknown };

std::string lowered(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

// The image folder reader's extensions: predict takes what training takes.
bool isImageName(const fs::path& p) { return isImageFileName(p.string()); }

// By the name first (a damaged .png is a damaged image, not an unknown file), then the first bytes.
Kind kindOf(const fs::path& path)
{
    const std::string name = lowered(path.filename().string());
    if (isImageName(path)) return Kind::Image;
    if (lowered(path.extension().string()) == ".csv") return Kind::Csv;
    if (name.find("idx3-ubyte") != std::string::npos) return Kind::IdxImages;
    if (name.find("idx1-ubyte") != std::string::npos) return Kind::IdxLabels;
    unsigned char head[4] = {};
    std::ifstream in(path, std::ios::binary);
    in.read(reinterpret_cast<char*>(head), 4);
    if (in.gcount() >= 4) {
        if (head[0] == 0x89 && head[1] == 'P' && head[2] == 'N' && head[3] == 'G') return Kind::Image;
        if (head[0] == 0xFF && head[1] == 0xD8) return Kind::Image;
        if (head[0] == 0 && head[1] == 0 && head[2] == 8 && head[3] == 3) return Kind::IdxImages;
        if (head[0] == 0 && head[1] == 0 && head[2] == 8 && head[3] == 1) return Kind::IdxLabels;
    }
    return Kind::Unknown;
}

// "t10k-images-idx3-ubyte[.gz]" -> "t10k-labels-idx1-ubyte[.gz]" when such a file is there.
std::string labelsBeside(const fs::path& images)
{
    std::string name = images.filename().string();
    const auto at = name.find("images-idx3");
    if (at == std::string::npos) return {};
    name.replace(at, 11, "labels-idx1");
    const std::string stem = name.size() > 3 && name.ends_with(".gz") ? name.substr(0, name.size() - 3) : name;
    for (const std::string& candidate : {stem, stem + ".gz"}) {
        const fs::path p = images.parent_path() / candidate;
        if (fs::is_regular_file(p)) return p.string();
    }
    return {};
}

std::string imageWords(int width, int height, bool colour)
{
    return std::to_string(width) + "x" + std::to_string(height) + (colour ? " colour" : " grayscale");
}

// Whether any pixel of an RGB decode differs between its channels.
bool hasColour(const DecodedImage& rgb)
{
    for (std::size_t i = 0; i + 2 < rgb.pixels.size(); i += 3)
        if (rgb.pixels[i] != rgb.pixels[i + 1] || rgb.pixels[i] != rgb.pixels[i + 2]) return true;
    return false;
}

std::string trimmed(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t\r");
    return b == std::string::npos ? std::string() : s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

std::string readFirstLine(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::string line;
    std::getline(in, line);
    if (line.size() >= 3 && line.compare(0, 3, "\xEF\xBB\xBF") == 0) line.erase(0, 3);  // a spreadsheet's BOM
    return line;
}

}  // namespace

std::string ModelInput::describe() const
{
    if (readsText()) return "texts of up to " + std::to_string(sampleShape[0]) + " tokens (" + tokenizer->kind() + ")";
    if (sampleShape.rank() == 1) {
        std::string names;
        for (const auto& n : featureNames) names += (names.empty() ? "" : ", ") + n;
        return "rows of " + std::to_string(sampleShape[0]) + " features" + (names.empty() ? "" : " (" + names + ")");
    }
    if (sampleShape.rank() == 3)
        return std::to_string(sampleShape[2]) + "x" + std::to_string(sampleShape[1]) +
               (sampleShape[0] == 1 ? " grayscale" : sampleShape[0] == 3 ? " colour" : "") + " images (" +
               sampleShape.str() + ")";
    return "samples of shape " + sampleShape.str();
}

std::int64_t PredictionInputs::get(std::int64_t index, float* out) const
{
    const auto i = std::size_t(index);
    if (imageSample_[i] >= 0) {
        const std::int64_t n = shape_.numel();
        std::copy_n(images_.begin() + imageSample_[i] * n, n, out);
        return 0;
    }
    for (auto t = tables_.rbegin(); t != tables_.rend(); ++t)
        if (t->first <= index) {
            t->data->get(index - t->first, out);
            break;
        }
    return 0;
}

std::string PredictionInputs::description() const
{
    return "predict inputs (" + std::to_string(size()) + " x " + shape_.str() + ")";
}

void PredictionInputs::addImage(const std::string& path, const ModelInput& model)
{
    if (model.sampleShape.rank() != 3)
        throw std::invalid_argument(path + ": an image, but the model takes " + model.describe() +
                                    "; pass a CSV file of such rows");
    const int channels = int(model.sampleShape[0]), height = int(model.sampleShape[1]), width = int(model.sampleShape[2]);
    if (channels != 1 && channels != 3)
        throw std::invalid_argument(path + ": the model takes " + model.describe() + ", which no image file holds");
    DecodedImage image = decodeImageFile(path, 3);  // DataError naming the file when damaged; RGB shows colour
    const bool colour = hasColour(image);
    const bool sameSize = image.width == width && image.height == height;
    if (model.resizes()) {  // as the image_folder reader does to every training image
        if (!sameSize || (colour && channels == 1))
            notes_.push_back(makeMessage(MessageId::PredictImageConverted,
                                         {path, std::to_string(image.width), std::to_string(image.height),
                                          std::to_string(width), std::to_string(height), std::to_string(channels)}));
    } else {
        const std::string wants = "the model takes " + model.describe() + " and predict resizes only when the "
                                  "experiment does (an image_folder dataset's image_shape); this " + model.format +
                                  " experiment does not";
        if (!sameSize)
            throw DataError(path, -1, path + ": the image is " + imageWords(image.width, image.height, colour) + "; " +
                                          wants + ": resize it to " + std::to_string(width) + "x" +
                                          std::to_string(height) + " first");
        if (colour && channels == 1)
            throw DataError(path, -1, path + ": a colour image; " + wants +
                                          " convert colours either: save it as grayscale first");
    }
    if (channels == 1) image = decodeImageFile(path, 1);  // the reader's own grayscale decoding
    const std::size_t row = images_.size() / std::size_t(shape_.numel());
    images_.resize(images_.size() + std::size_t(shape_.numel()));
    resizeToPlanar(image, height, width, resizeModeFromName(model.resize).value_or(ResizeMode::Crop), images_.data() + row * std::size_t(shape_.numel()));
    imageSample_.push_back(std::int64_t(row));
    sources_.push_back({path, 0, {}});
}

void PredictionInputs::addTable(std::shared_ptr<Dataset> data, const std::string& path, bool labelled)
{
    if (data->sampleShape() != shape_)
        throw DataError(path, -1, path + ": its samples are " + data->sampleShape().str() + ", but the model takes " +
                                      shape_.str() + "; predict does not resize IDX images");
    const std::vector<std::string> names = data->classNames();
    tables_.push_back({data, size()});
    for (std::int64_t i = 0; i < data->size(); ++i) {
        const std::int64_t label = data->labels()[std::size_t(i)];
        sources_.push_back({path, i, labelled ? names[std::size_t(label)] : std::string()});
        imageSample_.push_back(-1);
    }
}

namespace {

// Runs `read` for `path`; with `skipped`, a failure is recorded there instead of thrown.
template <class Read>
void readOrSkip(const std::string& path, std::vector<SkippedInput>* skipped, Read&& read)
{
    if (!skipped) return read();
    try {
        read();
    } catch (const std::exception& e) {  // DataError and invalid_argument name the file already
        skipped->push_back({path, e.what()});
    }
}

}  // namespace

void PredictionInputs::addPath(const std::string& path, const ModelInput& model, std::vector<SkippedInput>* skipped)
{
    std::error_code ec;
    if (fs::is_directory(path, ec) && model.readsText()) {  // its files, by name
        std::vector<fs::path> files;
        for (const auto& entry : fs::directory_iterator(path, ec))
            if (entry.is_regular_file() && entry.path().filename().string()[0] != '.') files.push_back(entry.path());
        if (ec) throw std::invalid_argument(path + ": cannot list the folder (" + ec.message() + ")");
        if (files.empty()) throw std::invalid_argument(path + ": no text files in the folder (sub-folders are not read)");
        std::sort(files.begin(), files.end());
        for (const fs::path& file : files) readOrSkip(file.string(), skipped, [&] { addTextFile(file.string(), model, skipped); });
        return;
    }
    if (fs::is_directory(path, ec)) {
        std::vector<fs::path> images;
        std::int64_t others = 0;
        for (const auto& entry : fs::directory_iterator(path, ec)) {
            if (!entry.is_regular_file() || entry.path().filename().string()[0] == '.') continue;
            if (isImageName(entry.path())) images.push_back(entry.path());
            else ++others;
        }
        if (ec) throw std::invalid_argument(path + ": cannot list the folder (" + ec.message() + ")");
        if (images.empty())
            throw std::invalid_argument(path + ": no images (" + imageFormatsText() + ") in the folder (sub-folders are not read)");
        std::sort(images.begin(), images.end());
        for (const fs::path& image : images)
            readOrSkip(image.string(), skipped, [&] { addImage(image.string(), model); });
        if (others > 0)
            notes_.push_back(makeMessage(MessageId::PredictFolderOthers, {path, std::to_string(others)}));
        return;
    }
    // A FIFO, a socket or a device is named as what it is, not as missing.
    if (const std::string why = whyNotAFile(path); !why.empty())
        throw std::invalid_argument(path + ": " + (why == "no such file" ? std::string("no such file or folder") : why));
    if (model.readsText()) return addTextFile(path, model, skipped);
    switch (kindOf(path)) {
    case Kind::Image: addImage(path, model); break;
    case Kind::IdxImages: {
        if (model.sampleShape.rank() != 3)
            throw std::invalid_argument(path + ": IDX images, but the model takes " + model.describe());
        const std::string labels = labelsBeside(path);
        auto data = std::make_shared<IdxDataset>(path, labels, model.classNames, fs::path(path).filename().string());
        if (!labels.empty()) notes_.push_back(makeMessage(MessageId::PredictLabelsFrom, {path, labels}));
        addTable(data, path, !labels.empty());
        break;
    }
    case Kind::IdxLabels:
        throw std::invalid_argument(path + ": an IDX labels file; pass the images file instead (its labels file "
                                           "beside it, named like it with labels-idx1, is read with it)");
    case Kind::Csv: {
        if (model.sampleShape.rank() != 1)
            throw std::invalid_argument(path + ": a CSV table, but the model takes " + model.describe() +
                                        "; pass image or IDX files");
        // The training table's feature columns by name; its label column is read when the
        // file has one (a table without it names a feature as the label: read, never shown).
        const std::vector<CsvRecord> header = parseCsv(readFirstLine(path), path);
        bool labelled = false;
        if (!header.empty() && !model.labelColumn.empty())
            for (const auto& field : header[0].fields) labelled = labelled || trimmed(field) == model.labelColumn;
        if (model.featureNames.empty()) throw std::invalid_argument("the model's feature columns are unknown");
        auto data = std::make_shared<CsvDataset>(path, labelled ? model.labelColumn : model.featureNames[0],
                                                 model.featureNames, "");
        addTable(data, path, labelled);
        break;
    }
    case Kind::Unknown:
        throw std::invalid_argument(path + ": not a PNG or JPEG image, an IDX images file or a .csv table");
    }
}

std::shared_ptr<PredictionInputs> openPredictionInputs(const std::vector<std::string>& paths, const ModelInput& model,
                                                       std::vector<SkippedInput>* skipped)
{
    if (paths.empty()) throw std::invalid_argument("no input: give image files, a folder of images, IDX files or a CSV file");
    auto inputs = std::make_shared<PredictionInputs>();
    inputs->shape_ = model.sampleShape;
    inputs->targetShape_ = model.targetShape;
    inputs->classNames_ = model.classNames;
    for (const std::string& path : paths) readOrSkip(path, skipped, [&] { inputs->addPath(path, model, skipped); });
    inputs->zeros_.assign(std::size_t(inputs->size()), 0);
    return inputs;
}

}  // namespace ts
