// A dataset: indexed samples of fixed shape with targets that are either classes
// (classification: integer labels, or a class per position for sequence data) or values
// (regression and forecasting: floats). Readers for IDX, CIFAR-10, CSV, image folders and
// texts implement it; every get() is thread-safe so the loader's workers can share one instance.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "types/experiment_spec.h"
#include "types/label_overlay.h"
#include "types/message.h"
#include "tensor/dtype.h"
#include "tensor/shape.h"

namespace ts {

// What a dataset's targets are. Classes: get() returns each sample's class index (and
// getTargets() a class per position when targetShape() is not empty); the loader makes i64
// labels. Values: getValues() writes targetShape().numel() floats per sample; the loader
// makes f32 labels [n, targetShape...], which a regression loss (MSE, L1, Huber) compares
// with an output of the same shape, and the trainer reports RegressionMetrics.
enum class TargetKind { Classes, Values };

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
    // Where sample `index` comes from, for messages: "data.csv:10", ".../cat/001.png",
    // ".../train-labels-idx1-ubyte, item 5"; empty when the reader cannot say.
    virtual std::string sampleSource(std::int64_t /*index*/) const { return {}; }

    // Sequence data (a language model's blocks of tokens) has a class per position: the
    // shape of one sample's targets, empty for one class per sample (labels() then says it).
    virtual Shape targetShape() const { return {}; }
    // Token ids are i64 inputs; get() writes them as floats (exact below 2^24), so caches,
    // subsets and statistics handle every dataset alike and the loader converts.
    virtual DType inputDType() const { return DType::F32; }
    // Sequences padded at their end to sampleShape() (texts to classify): the id that pads, so
    // the loader can cut a batch to its longest sample; -1: not padded.
    virtual std::int64_t paddingId() const { return -1; }
    // targetShape().numel() class indices of sample `index` (sequence data only).
    virtual void getTargets(std::int64_t index, std::int64_t* out) const
    {
        (void)index, (void)out;
        throw std::logic_error(description() + " has one class per sample, no targets per position");
    }

    // Regression and forecasting: the targets are floats, not classes. Such a dataset says
    // TargetKind::Values, gives targetShape() (never empty: [targets] for a table's target
    // columns, [horizon, targets] for a forecast window) and getValues(); numClasses() is 0,
    // classNames() empty, labels() all 0 (one stratum for samplers and splits), and get()
    // writes the inputs and returns 0. Values are in the data's own units (not normalised), so
    // losses, metrics and predictions read as the user's numbers; a time series' are normalised
    // (DatasetStatistics::targetMean/targetStddev undo it).
    virtual TargetKind targetKind() const { return TargetKind::Classes; }
    // The targets' names, one per target (the last dimension of targetShape()): CSV columns.
    virtual std::vector<std::string> targetNames() const { return {}; }
    // targetShape().numel() floats of sample `index` (TargetKind::Values only).
    virtual void getValues(std::int64_t index, float* out) const
    {
        (void)index, (void)out;
        throw std::logic_error(description() + " has classes, not values, as targets");
    }
};

// Whether `dataset`'s targets are values (regression, forecasting).
inline bool hasValueTargets(const Dataset& dataset) { return dataset.targetKind() == TargetKind::Values; }

// Per-channel statistics and class counts, computed once and cached (see DatasetSplits).
struct DatasetStatistics {
    std::vector<double> mean, stddev;  // per channel (per feature for tables)
    std::vector<std::int64_t> classCounts;
    // Value targets the dataset normalised (a time series: data/time_series_dataset.h): a
    // prediction p is p * targetStddev + targetMean in the data's units; empty: not normalised.
    std::vector<double> targetMean, targetStddev;
};

struct DatasetSplits {
    // validation is null when validationFraction is 0; test is null when the data has none
    // (CSV, or no test files / test/ folder).
    std::shared_ptr<Dataset> train, validation, test;
    DatasetStatistics trainStatistics;
    // Which sample of its file split each split's sample i is (train and validation index the
    // training file split, test the test file split): evaluations and suspect-label lists
    // address samples in a split, the label overlay and the Datasets page in the files.
    std::vector<std::int64_t> trainFileIndex, validationFileIndex, testFileIndex;
    // What the data was, kept with checkpoints so a resume can tell a changed dataset: one line
    // per file read ("name bytes"), per split ("samples training N") and the training split's
    // class counts ("classes training 60/58/62"). See dataChange.
    std::string fingerprint;
    // What the reader did to the data that a run's log should say (an image folder's resized
    // images, its chosen image_shape).
    std::vector<Message> notes;
    // Text data: how its tokens map to text (Tokenizer::serialize), kept with checkpoints so
    // generation, prediction and attention maps encode and decode as the model was trained
    // (a language model's, or a text classifier's padded one); empty for other data.
    std::string tokenizer;
};

// What differs between two fingerprints, for a message ("train-labels-idx1-ubyte: 60,008 ->
// 1,024 bytes; training samples 48,000 -> 819"); empty when they agree.
std::string dataChange(const std::string& before, const std::string& now);

// A dataset's file splits as its reader produced them, before validation is carved out of the
// training data: what the health checks and the label overlay work on.
struct DatasetFiles {
    std::shared_ptr<const Dataset> train;  // every training sample (validation comes out of it)
    std::shared_ptr<Dataset> test;         // null when the data has none
    std::string name;                      // "Fashion-MNIST"
    std::string path;                      // the dataset's path, resolved
    std::vector<std::int64_t> groups;      // csv with a group column: one per training row
    std::vector<std::string> sources;      // the files read: their fingerprints tell a change
    // The test files are there but cannot be read (test is null): the training files stay usable
    // for looking at and checking, while openDataset refuses to train on a damaged dataset.
    std::optional<DataError> testError;
};

// spec.path resolved against baseDir (an absolute path stays). Throws DataError when empty.
std::string resolvedDatasetPath(const DatasetSpec& spec, const std::string& baseDir);
// Opens the files with the reader of spec.format. Throws DataError.
DatasetFiles openDatasetFiles(const DatasetSpec& spec, const std::string& baseDir);
// What identifies a dataset across experiments (the store's datasets.key): the format, the
// absolute path and the options that change which samples and labels are read (CSV columns,
// an image folder's shape); not the split, transforms or loader, which only change its use.
std::string datasetKey(const DatasetSpec& spec, const std::string& baseDir);
// The folder an experiment's relative dataset path resolves against (its file's folder).
std::string experimentDataDirectory(const ExperimentSpec& spec);

// Opens the dataset a spec names, splits off validation (seeded; grouped for CSV) and
// computes or loads the cached statistics of the training split. `baseDir` resolves relative
// paths; `cacheDir` holds statistics and decoded caches (empty: no caching). Throws DataError.
// `overlay` (the store's label_overlay rows for datasetKey(spec), passed in by the jobs) is
// applied to the file splits: relabelled samples carry their new label, excluded ones are in
// no split. Validation is carved from the training file split by index before exclusion, so
// excluding a sample never moves another between training and validation. The statistics
// and decoded caches are keyed by the overlay too.
DatasetSplits openDataset(const DatasetSpec& spec, const std::string& baseDir, const std::string& cacheDir,
                          const LabelOverlay& overlay = {});
// The experiment's dataset, relative paths resolved against its sourceFile's folder.
DatasetSplits openExperimentDataset(const ExperimentSpec& spec, const std::string& cacheDir,
                                    const LabelOverlay& overlay = {});

// $XDG_CACHE_HOME/trainstudio, else ~/.cache/trainstudio (created): decoded data and
// statistics, outside the workspace (rule 5: a workspace holds only the store and checkpoints).
std::string defaultCacheDirectory();

}  // namespace ts
