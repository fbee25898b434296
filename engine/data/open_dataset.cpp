// openDataset: picks the reader for spec.format, carves validation out of the training data
// and attaches the (cached) training statistics.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <sstream>

#include "data/cifar_dataset.h"
#include "data/csv_dataset.h"
#include "data/data_files.h"
#include "data/dataset_statistics.h"
#include "data/idx_dataset.h"
#include "data/image_folder_dataset.h"
#include "data/sample_cache.h"
#include "data/subset_dataset.h"
#include "ops/init.h"

namespace fs = std::filesystem;

namespace ts {
namespace {

// What a reader produced before splitting.
struct Opened {
    std::shared_ptr<const Dataset> train;  // the whole training data (validation comes out of it)
    std::shared_ptr<Dataset> test;
    std::string name;                      // "Fashion-MNIST"
    std::vector<std::int64_t> groups;      // csv with a group column
    std::vector<std::string> sources;      // files whose change invalidates the statistics
};

Opened openIdx(const std::string& dir)
{
    Opened o;
    const std::string trainImages = findDataFile(dir, "train-images-idx3-ubyte");
    const std::string trainLabels = findDataFile(dir, "train-labels-idx1-ubyte");
    if (trainImages.empty() || trainLabels.empty()) {
        const std::string missing = joinPath(dir, trainImages.empty() ? "train-images-idx3-ubyte" : "train-labels-idx1-ubyte");
        throw DataError(missing, -1, missing + "[.gz] not found. Fashion-MNIST comes with the Debian package "
                                               "dataset-fashion-mnist (sudo apt-get install dataset-fashion-mnist, which "
                                               "installs /usr/share/datasets/fashion-mnist); or point dataset.path at a "
                                               "directory holding the four IDX files");
    }
    const std::vector<std::string> classes = idxClassNames(dir);
    o.name = classes[0] == "0" ? "MNIST" : "Fashion-MNIST";
    o.sources = {trainImages, trainLabels};
    const std::string testImages = findDataFile(dir, "t10k-images-idx3-ubyte");
    const std::string testLabels = findDataFile(dir, "t10k-labels-idx1-ubyte");
    // Inflating gzip is most of the time: the test files inflate alongside the training ones.
    std::future<std::shared_ptr<Dataset>> test;
    if (!testImages.empty() && !testLabels.empty())
        test = std::async(std::launch::async, [=] {
            return std::shared_ptr<Dataset>(std::make_shared<IdxDataset>(testImages, testLabels, classes, o.name + " test"));
        });
    o.train = std::make_shared<IdxDataset>(trainImages, trainLabels, classes, o.name + " train");
    if (test.valid())
        o.test = test.get();
    return o;
}

Opened openCifar(std::string dir)
{
    // The official archive unpacks into cifar-10-batches-bin/: accept its parent too.
    if (findDataFile(dir, "data_batch_1.bin").empty() && fs::is_directory(joinPath(dir, "cifar-10-batches-bin")))
        dir = joinPath(dir, "cifar-10-batches-bin");
    Opened o;
    o.name = "CIFAR-10";
    for (int i = 1; i <= 5; ++i) {
        const std::string f = findDataFile(dir, "data_batch_" + std::to_string(i) + ".bin");
        if (!f.empty())
            o.sources.push_back(f);
    }
    if (o.sources.empty()) {
        const std::string missing = joinPath(dir, "data_batch_1.bin");
        throw DataError(missing, -1, missing + " not found: a CIFAR-10 directory holds data_batch_1.bin .. "
                                               "data_batch_5.bin and test_batch.bin (the binary version)");
    }
    const std::vector<std::string> classes = cifarClassNames(dir);
    o.train = std::make_shared<CifarDataset>(o.sources, classes, o.name + " train");
    const std::string test = findDataFile(dir, "test_batch.bin");
    if (!test.empty())
        o.test = std::make_shared<CifarDataset>(std::vector<std::string>{test}, classes, o.name + " test");
    return o;
}

Opened openCsv(const std::string& path, const DatasetSpec& spec)
{
    Opened o;
    auto csv = std::make_shared<CsvDataset>(path, spec.labelColumn, spec.featureColumns, spec.groupColumn);
    o.name = fs::path(path).filename().string();
    o.groups = csv->groups();
    o.train = csv;
    o.sources = {path};
    return o;
}

Opened openImageFolder(const std::string& root, const DatasetSpec& spec)
{
    Opened o;
    o.name = fs::path(root).filename().string();
    const std::string trainDir = joinPath(root, "train"), testDir = joinPath(root, "test");
    const bool hasTrain = fs::is_directory(trainDir);
    auto train = std::make_shared<ImageFolderDataset>(hasTrain ? trainDir : root, spec.imageShape, o.name + " train");
    o.train = train;
    o.sources = train->files();
    if (hasTrain && fs::is_directory(testDir))
        o.test = std::make_shared<ImageFolderDataset>(testDir, spec.imageShape, o.name + " test", train->classNames());
    return o;
}

std::string settingsText(const DatasetSpec& spec, const std::string& path)
{
    std::ostringstream s;
    s.precision(17);
    s << spec.format << '\n' << path << "\nlabel=" << spec.labelColumn << "\ngroup=" << spec.groupColumn << "\nfeatures=";
    for (const auto& f : spec.featureColumns)
        s << f << ',';
    s << "\nshape=";
    for (auto d : spec.imageShape)
        s << d << ',';
    s << "\nvalidation=" << spec.validationFraction << "\nseed=" << spec.splitSeed << '\n';
    return s.str();
}

}  // namespace

DatasetSplits openDataset(const DatasetSpec& spec, const std::string& baseDir, const std::string& cacheDir)
{
    if (spec.path.empty())
        throw DataError("", -1, "the dataset has no path (dataset.path)");
    fs::path p(spec.path);
    if (p.is_relative() && !baseDir.empty())
        p = fs::path(baseDir) / p;
    const std::string path = p.lexically_normal().string();

    if (!(spec.validationFraction >= 0.0 && spec.validationFraction < 1.0))
        throw DataError(path, -1, "dataset.validation_fraction " + std::to_string(spec.validationFraction) +
                                      " is outside [0, 1)");

    Opened o;
    if (spec.format == "idx")
        o = openIdx(path);
    else if (spec.format == "cifar10")
        o = openCifar(path);
    else if (spec.format == "csv")
        o = openCsv(path, spec);
    else if (spec.format == "image_folder")
        o = openImageFolder(path, spec);
    else
        throw DataError(path, -1, "unknown dataset format '" + spec.format + "' (expected idx, cifar10, csv or image_folder)");

    const SplitIndices split = o.groups.empty() ? splitIndices(o.train->size(), spec.validationFraction, spec.splitSeed)
                                                : splitGroups(o.groups, spec.validationFraction, spec.splitSeed);
    DatasetSplits splits;
    splits.train = std::make_shared<SubsetDataset>(o.train, split.train, o.name + " train");
    if (!split.validation.empty())
        splits.validation = std::make_shared<SubsetDataset>(o.train, split.validation, o.name + " validation");
    splits.test = o.test;

    const std::string settings = settingsText(spec, path);
    std::string key = settings;
    for (const auto& f : o.sources)
        key += fileFingerprint(f) + '\n';
    const std::string cachePath = cacheDir.empty() ? std::string() : statisticsCachePath(cacheDir, settings);
    std::optional<DatasetStatistics> cached;
    if (!cachePath.empty())
        cached = loadCachedStatistics(cachePath, key);
    if (cached && cached->mean.size() == static_cast<std::size_t>(splits.train->sampleShape()[0])) {
        splits.trainStatistics = *cached;
    } else {
        splits.trainStatistics = computeStatistics(*splits.train);
        if (!cachePath.empty())
            saveCachedStatistics(cachePath, key, splits.trainStatistics);
    }
    if (spec.cache && !cacheDir.empty()) {
        // Decoded once into memory-mapped files named by the data's fingerprint, so a changed
        // dataset gets a new cache instead of a stale one.
        char tag[17];
        std::snprintf(tag, sizeof tag, "%016llx", static_cast<unsigned long long>(stableHash(key)));
        auto cacheFile = [&](const char* part) { return joinPath(cacheDir, std::string("samples-") + tag + "-" + part + ".bin"); };
        splits.train = cachedDataset(splits.train, cacheFile("train"));
        if (splits.validation)
            splits.validation = cachedDataset(splits.validation, cacheFile("validation"));
        if (splits.test)
            splits.test = cachedDataset(splits.test, cacheFile("test"));
    }
    return splits;
}

std::string defaultCacheDirectory()
{
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    const char* home = std::getenv("HOME");
    const fs::path dir = xdg && *xdg ? fs::path(xdg) / "trainstudio"
                       : home && *home ? fs::path(home) / ".cache" / "trainstudio"
                                       : fs::temp_directory_path() / "trainstudio-cache";
    std::error_code ec;
    fs::create_directories(dir, ec);
    return dir.string();
}

DatasetSplits openExperimentDataset(const ExperimentSpec& spec, const std::string& cacheDir)
{
    const std::string baseDir = spec.sourceFile.empty() ? "." : fs::path(spec.sourceFile).parent_path().string();
    return openDataset(spec.dataset, baseDir.empty() ? "." : baseDir, cacheDir);
}

}  // namespace ts
