// A dataset: indexed samples of fixed shape with integer labels (classification). Readers
// for IDX, CIFAR-10, CSV and image folders implement it; every get() is thread-safe so the
// loader's workers can share one instance.
#pragma once
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "types/experiment_spec.h"
#include "tensor/shape.h"

namespace ts {

// A damaged or unreadable dataset file. what() names the file and the byte offset or line.
class DataError : public std::runtime_error {
public:
    DataError(std::string file, std::int64_t position, const std::string& message)
        : std::runtime_error(message), file_(std::move(file)), position_(position)
    {
    }
    const std::string& file() const { return file_; }
    std::int64_t position() const { return position_; }  // byte offset, or line for text; -1: none

private:
    std::string file_;
    std::int64_t position_;
};

class Dataset {
public:
    virtual ~Dataset() = default;
    virtual std::int64_t size() const = 0;
    // One sample's shape: [C, H, W] for images, [F] for tables.
    virtual Shape sampleShape() const = 0;
    virtual std::int64_t numClasses() const = 0;
    virtual std::vector<std::string> classNames() const = 0;
    // Writes sampleShape().numel() floats (images scaled to [0, 1]) and returns the label.
    virtual std::int64_t get(std::int64_t index, float* out) const = 0;
    // All labels, in index order (samplers and statistics use them without decoding).
    virtual const std::vector<std::int64_t>& labels() const = 0;
    virtual std::string description() const = 0;  // "Fashion-MNIST train (60000 x [1, 28, 28])"
};

// Per-channel statistics and class counts, computed once and cached (see DatasetSplits).
struct DatasetStatistics {
    std::vector<double> mean, stddev;  // per channel (per feature for tables)
    std::vector<std::int64_t> classCounts;
};

struct DatasetSplits {
    // validation is null when validationFraction is 0; test is null when the data has none
    // (CSV, or no test files / test/ folder).
    std::shared_ptr<Dataset> train, validation, test;
    DatasetStatistics trainStatistics;
};

// Opens the dataset a spec names, splits off validation (seeded; grouped for CSV) and
// computes or loads the cached statistics of the training split. `baseDir` resolves relative
// paths; `cacheDir` holds statistics and decoded caches (empty: no caching). Throws DataError.
DatasetSplits openDataset(const DatasetSpec& spec, const std::string& baseDir, const std::string& cacheDir);
// The experiment's dataset, relative paths resolved against its sourceFile's folder.
DatasetSplits openExperimentDataset(const ExperimentSpec& spec, const std::string& cacheDir);

// $XDG_CACHE_HOME/trainstudio, else ~/.cache/trainstudio (created): decoded data and
// statistics, outside the workspace (rule 5: a workspace holds only the store and checkpoints).
std::string defaultCacheDirectory();

}  // namespace ts
