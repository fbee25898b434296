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
#include "tensor/quote_text.h"
#include "data/dataset_statistics.h"
#include "data/idx_dataset.h"
#include "data/image_folder_dataset.h"
#include "data/label_overlay.h"
#include "data/sample_cache.h"
#include "data/subset_dataset.h"
#include "data/text_classification_dataset.h"
#include "data/text_dataset.h"
#include "data/time_series_dataset.h"
#include "ops/init.h"

namespace fs = std::filesystem;

namespace ts {
namespace {

// Damaged test files leave the training files usable (DatasetFiles::testError).
template <class OpenTest>
void keepTestOrItsError(DatasetFiles& o, OpenTest&& openTest)
{
    try {
        o.test = openTest();
    } catch (const DataError& e) {
        o.testError = e;
    }
}

DatasetFiles openIdx(const std::string& dir)
{
    DatasetFiles o;
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
    o.name = idxDatasetName(dir);
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
        keepTestOrItsError(o, [&] { return test.get(); });
    return o;
}

DatasetFiles openCifar(std::string dir)
{
    // The official archive unpacks into cifar-10-batches-bin/: accept its parent too.
    if (findDataFile(dir, "data_batch_1.bin").empty() && fs::is_directory(joinPath(dir, "cifar-10-batches-bin")))
        dir = joinPath(dir, "cifar-10-batches-bin");
    DatasetFiles o;
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
        keepTestOrItsError(o, [&] {
            return std::make_shared<CifarDataset>(std::vector<std::string>{test}, classes, o.name + " test");
        });
    return o;
}

// Classifying texts: only characters and bytes (a learned vocabulary is the language model's).
void refuseLearnedTokenizer(const std::string& path, const DatasetSpec& spec, const std::string& what)
{
    if (Tokenizer::learned(spec.tokenizer))
        throw DataError(path, -1, "dataset.tokenizer: " + spec.tokenizer + " is learned for language modelling (format: text); " +
                                      what + " takes characters or bytes");
}

// A CSV of texts to classify (dataset.text_column): one text and its class per row.
DatasetFiles openTextCsv(const std::string& path, const DatasetSpec& spec)
{
    refuseLearnedTokenizer(path, spec, "a csv of texts");
    if (!spec.featureColumns.empty())
        throw DataError(path, -1, "dataset.feature_columns: a csv of texts (dataset.text_column) has no feature columns, the "
                                  "text is the input; leave feature_columns out");
    DatasetFiles o;
    o.name = fs::path(path).filename().string();
    TextSamples samples = readTextCsv(path, spec.textColumn, spec.labelColumn, spec.groupColumn, spec.classes,
                                      spec.tokenizer != "bytes");
    o.groups = samples.groups;
    o.sources = samples.files;
    o.train = std::make_shared<TextClassificationDataset>(std::move(samples), spec.tokenizer, spec.context, o.name);
    return o;
}

// A time series' windows: the training and validation ones as the training file split.
DatasetFiles openTimeSeriesFiles(const std::string& path, const DatasetSpec& spec)
{
    DatasetSpec all = spec;
    all.validationFraction = 0;
    TimeSeriesSplits series = readTimeSeries(path, all);
    DatasetFiles o;
    o.name = fs::path(path).filename().string();
    o.train = series.train;
    o.test = series.test;
    o.sources = {path};
    return o;
}

DatasetFiles openCsv(const std::string& path, const DatasetSpec& spec)
{
    if (spec.sequence.enabled()) return openTimeSeriesFiles(path, spec);
    if (!spec.textColumn.empty()) return openTextCsv(path, spec);
    DatasetFiles o;
    auto csv = std::make_shared<CsvDataset>(path, spec.labelColumn, spec.featureColumns, spec.groupColumn, spec.targetColumns);
    o.name = fs::path(path).filename().string();
    o.groups = csv->groups();
    o.train = csv;
    o.sources = {path};
    return o;
}

DatasetFiles openImageFolder(const std::string& root, const DatasetSpec& spec)
{
    DatasetFiles o;
    o.name = fs::path(root).filename().string();
    const std::string trainDir = joinPath(root, "train"), testDir = joinPath(root, "test");
    const bool hasTrain = fs::is_directory(trainDir);
    const ResizeMode mode = resizeModeFromName(spec.resize).value_or(ResizeMode::Crop);  // the reader checked the name
    auto train = std::make_shared<ImageFolderDataset>(hasTrain ? trainDir : root, spec.imageShape, o.name + " train",
                                                      std::vector<std::string>{}, mode);
    o.train = train;
    o.sources = train->files();
    // The test images take the training images' shape, chosen from them when not given.
    const Shape shape = train->sampleShape();
    const std::vector<std::int64_t> dims{shape[0], shape[1], shape[2]};
    if (hasTrain && fs::is_directory(testDir))
        keepTestOrItsError(o, [&] {
            return std::make_shared<ImageFolderDataset>(testDir, dims, o.name + " test", train->classNames(), mode);
        });
    return o;
}

// The split keeps 100 contiguous stretches of the text whole (TextDataset::stretches).
DatasetFiles openText(const std::string& path, const DatasetSpec& spec)
{
    if (!(spec.context >= 1)) throw DataError(path, -1, "dataset.context must be at least 1, got " + std::to_string(spec.context));
    DatasetFiles o;
    const TextTokenizing tokenizing{.tokenizer = spec.tokenizer, .vocabSize = spec.vocabSize,
                                    .validationFraction = spec.validationFraction, .splitSeed = spec.splitSeed};
    auto text = std::make_shared<TextDataset>(path, tokenizing, spec.context);
    o.name = fs::path(path).filename().string();
    o.groups = text->stretches();
    o.sources = text->files();
    o.train = text;
    return o;
}

DatasetFiles openTextFolder(const std::string& path, const DatasetSpec& spec)
{
    refuseLearnedTokenizer(path, spec, "a text_folder dataset");
    DatasetFiles o;
    o.name = fs::path(path).filename().string();
    TextSamples samples = readTextFolder(path, spec.classes, spec.separator, spec.tokenizer != "bytes");
    o.sources = samples.files;
    o.train = std::make_shared<TextClassificationDataset>(std::move(samples), spec.tokenizer, spec.context, o.name);
    return o;
}

std::string settingsText(const DatasetSpec& spec, const std::string& path)
{
    std::ostringstream s;
    s.precision(17);
    s << spec.format << '\n' << path << "\nlabel=" << spec.labelColumn << "\ngroup=" << spec.groupColumn << "\nfeatures=";
    for (const auto& f : spec.featureColumns)
        s << f << ',';
    if (!spec.targetColumns.empty()) {  // only then: the keys of classification data stay as they were
        s << "\ntargets=";
        for (const auto& t : spec.targetColumns) s << t << ',';
    }
    s << "\nshape=";
    for (auto d : spec.imageShape)
        s << d << ',';
    const bool textCsv = spec.format == "csv" && !spec.textColumn.empty();
    if (textCsv) s << "\ntext=" << spec.textColumn;
    if (const SequenceSpec& q = spec.sequence; q.enabled()) {  // only then: other keys stay as they were
        s << "\nsequence=" << q.time << ';' << q.length << ';' << q.horizon << ';' << q.stride << ";targets=";
        for (const auto& t : q.target) s << t << ',';
        s << ";features=";
        for (const auto& f : q.features) s << f << ',';
        s << ";test=" << q.testFraction;
    }
    if (spec.format == "text" || spec.format == "text_folder" || textCsv)  // in the dataset key
        s << "\ntokenizer=" << spec.tokenizer << "\ncontext=" << spec.context;
    if (spec.format == "text" && Tokenizer::learned(spec.tokenizer)) s << "\nvocab_size=" << spec.vocabSize;
    if (spec.format == "text_folder") s << "\nseparator=" << spec.separator;
    if (spec.format == "text_folder" || textCsv) {
        s << "\nclasses=";
        for (const auto& c : spec.classes) s << c << '\n';  // a class name may hold a comma
    }
    s << "\nvalidation=" << spec.validationFraction << "\nseed=" << spec.splitSeed << '\n';
    if (spec.format == "image_folder") s << "resize=" << spec.resize << '\n';  // after the dataset key's part

    return s.str();
}

}  // namespace

std::string resolvedDatasetPath(const DatasetSpec& spec, const std::string& baseDir)
{
    if (spec.path.empty())
        throw DataError("", -1, "the dataset has no path (dataset.path)");
    fs::path p(spec.path);
    if (p.is_relative() && !baseDir.empty())
        p = fs::path(baseDir) / p;
    return p.lexically_normal().string();
}

std::string datasetKey(const DatasetSpec& spec, const std::string& baseDir)
{
    DatasetSpec identity;  // only what changes the samples and labels read
    identity.format = spec.format;
    identity.labelColumn = spec.labelColumn;
    identity.featureColumns = spec.featureColumns;
    identity.targetColumns = spec.targetColumns;
    identity.groupColumn = spec.groupColumn;
    identity.textColumn = spec.textColumn;
    identity.sequence = spec.sequence;
    identity.imageShape = spec.imageShape;
    identity.tokenizer = spec.tokenizer;
    identity.context = spec.context;
    identity.vocabSize = spec.vocabSize;
    identity.classes = spec.classes;
    identity.separator = spec.separator;
    const fs::path path = fs::absolute(resolvedDatasetPath(spec, baseDir)).lexically_normal();
    const std::string settings = settingsText(identity, path.string());
    return settings.substr(0, settings.find("\nvalidation="));  // the split is not the dataset's
}

DatasetFiles openDatasetFiles(const DatasetSpec& spec, const std::string& baseDir)
{
    const std::string path = resolvedDatasetPath(spec, baseDir);
    DatasetFiles o;
    if (spec.format == "idx")
        o = openIdx(path);
    else if (spec.format == "cifar10")
        o = openCifar(path);
    else if (spec.format == "csv")
        o = openCsv(path, spec);
    else if (spec.format == "image_folder")
        o = openImageFolder(path, spec);
    else if (spec.format == "text")
        o = openText(path, spec);
    else if (spec.format == "text_folder")
        o = openTextFolder(path, spec);
    else
        throw DataError(path, -1, "unknown dataset format " + quoteText(spec.format) +
                                      " (expected idx, cifar10, csv, image_folder, text or text_folder)");
    o.path = path;
    // Splits of one dataset hold samples of one shape: a test file whose header says 14 x 56
    // has the pixel count of 28 x 28 and would be read as 28 x 28 without a word.
    if (o.test && o.test->sampleShape() != o.train->sampleShape()) {
        const std::string where = o.test->size() > 0 && !o.test->sampleSource(0).empty() ? o.test->sampleSource(0) : path;
        o.testError = DataError(where, -1, where + ": the test split's samples are " + o.test->sampleShape().str() +
                                               ", the training split's " + o.train->sampleShape().str() +
                                               ": both splits must hold samples of one shape; check the test files");
        o.test = nullptr;
    }
    return o;
}

std::string experimentDataDirectory(const ExperimentSpec& spec)
{
    const std::string dir = spec.sourceFile.empty() ? "." : fs::path(spec.sourceFile).parent_path().string();
    return dir.empty() ? "." : dir;
}

DatasetSplits openDataset(const DatasetSpec& spec, const std::string& baseDir, const std::string& cacheDir,
                          const LabelOverlay& overlay)
{
    const std::string path = resolvedDatasetPath(spec, baseDir);
    if (!(spec.validationFraction >= 0.0 && spec.validationFraction < 1.0))
        throw DataError(path, -1, "dataset.validation_fraction " + std::to_string(spec.validationFraction) +
                                      " is outside [0, 1)");

    if (spec.format == "csv" && spec.sequence.enabled()) {  // split by time, normalised by the training period
        if (!overlay.marks.empty())
            throw DataError(path, -1, "label overlay: a time series' windows have no labels to mark; clear the marks");
        return openTimeSeries(path, spec);
    }
    const DatasetFiles o = openDatasetFiles(spec, baseDir);
    if (o.testError) throw *o.testError;
    for (const LabelMark& m : overlay.marks)
        if (m.split != "train" && m.split != "test")
            throw DataError(path, -1, "label overlay: sample " + std::to_string(m.sample) + " of split '" + m.split +
                                          "': marks address the file splits train or test; clear the mark");
    const OverlaidSplit train = applyLabelOverlay(o.train, overlay, "train", path);

    SplitIndices split = o.groups.empty() ? splitIndices(o.train->size(), spec.validationFraction, spec.splitSeed)
                                          : splitGroups(o.groups, spec.validationFraction, spec.splitSeed);
    const auto kept = [](std::vector<std::int64_t>& indices, const std::vector<bool>& excluded) {
        std::erase_if(indices, [&](std::int64_t i) { return excluded[static_cast<std::size_t>(i)]; });
    };
    kept(split.train, train.excluded);
    kept(split.validation, train.excluded);
    if (split.train.empty())
        throw DataError(path, -1, "no training samples are left: the label overlay excludes all " +
                                      std::to_string(train.excludedCount) +
                                      " of the training split's samples; clear some exclusions");
    DatasetSplits splits;
    if (const auto* text = dynamic_cast<const TextDataset*>(o.train.get())) splits.tokenizer = text->tokenizer().serialize();
    if (const auto* texts = dynamic_cast<const TextClassificationDataset*>(o.train.get()))
        splits.tokenizer = texts->tokenizer().serialize();
    if (const auto* folder = dynamic_cast<const ImageFolderDataset*>(o.train.get()))
        splits.notes = imageFolderNotes(*folder, dynamic_cast<const ImageFolderDataset*>(o.test.get()), !spec.imageShape.empty());
    if (const auto* texts = dynamic_cast<const TextClassificationDataset*>(o.train.get()))
        splits.notes = textClassificationNotes(*texts);
    splits.train = std::make_shared<SubsetDataset>(train.data, split.train, o.name + " train");
    if (!split.validation.empty())
        splits.validation = std::make_shared<SubsetDataset>(train.data, split.validation, o.name + " validation");
    splits.trainFileIndex = std::move(split.train);
    splits.validationFileIndex = std::move(split.validation);
    if (o.test) {
        const OverlaidSplit test = applyLabelOverlay(o.test, overlay, "test", path);
        for (std::int64_t i = 0; i < o.test->size(); ++i)
            if (!test.excluded[static_cast<std::size_t>(i)]) splits.testFileIndex.push_back(i);
        if (test.relabelled == 0 && test.excludedCount == 0)
            splits.test = o.test;
        else
            splits.test = std::make_shared<SubsetDataset>(test.data, splits.testFileIndex, o.name + " test");
    } else {
        for (const LabelMark& m : overlay.marks)
            if (m.split == "test")
                throw DataError(path, -1, "label overlay: test sample " + std::to_string(m.sample) +
                                              " is marked but " + path + " has no test split; clear the mark");
    }

    for (const std::string& f : o.sources) {
        std::error_code ec;
        splits.fingerprint += fs::path(f).filename().string() + " " + std::to_string(fs::file_size(f, ec)) + "\n";
    }
    splits.fingerprint += "samples training " + std::to_string(splits.train->size()) + "\nsamples validation " +
                          std::to_string(splits.validation ? splits.validation->size() : 0) + "\nsamples test " +
                          std::to_string(splits.test ? splits.test->size() : 0) + "\n";
    // Relabelled rows leave sizes and counts as they were: the training split's class counts tell.
    std::vector<std::int64_t> perClass(std::size_t(std::max<std::int64_t>(splits.train->numClasses(), 0)));
    for (std::int64_t label : splits.train->labels())
        if (label >= 0 && label < std::int64_t(perClass.size())) ++perClass[std::size_t(label)];
    std::string counts;
    for (std::int64_t n : perClass) counts += (counts.empty() ? "" : "/") + std::to_string(n);
    splits.fingerprint += "classes training " + (counts.empty() ? std::string("none") : counts) + "\n";

    // The overlay changes the samples and labels: its own statistics and decoded caches.
    const std::string settings = settingsText(spec, path) + labelOverlayText(overlay);
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
    if (spec.cache && !cacheDir.empty() && splits.train->inputDType() == DType::F32) {  // text is in memory already
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

std::string dataChange(const std::string& before, const std::string& now)
{
    // name -> value for each line ("name value"), compared by name in the order first seen.
    const auto entries = [](const std::string& text) {
        std::vector<std::pair<std::string, std::string>> out;
        std::istringstream in(text);
        for (std::string line; std::getline(in, line);) {
            const std::size_t space = line.rfind(' ');
            if (space != std::string::npos) out.emplace_back(line.substr(0, space), line.substr(space + 1));
        }
        return out;
    };
    const auto old = entries(before), current = entries(now);
    const auto find = [](const auto& list, const std::string& name) -> const std::string* {
        for (const auto& [n, v] : list)
            if (n == name) return &v;
        return nullptr;
    };
    std::string out;
    const auto add = [&](const std::string& what) { out += (out.empty() ? "" : "; ") + what; };
    for (const auto& [name, value] : old) {
        const std::string* now = find(current, name);
        const bool file = name.rfind("samples ", 0) != 0 && name.rfind("classes ", 0) != 0;
        if (!now) add(name + ": no longer read");
        else if (*now != value) add(file ? name + ": " + value + " -> " + *now + " bytes" : name + " " + value + " -> " + *now);
    }
    for (const auto& [name, value] : current)
        if (!find(old, name)) add(name + ": new");
    return out;
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

DatasetSplits openExperimentDataset(const ExperimentSpec& spec, const std::string& cacheDir, const LabelOverlay& overlay)
{
    return openDataset(spec.dataset, experimentDataDirectory(spec), cacheDir, overlay);
}

}  // namespace ts
