// The dataset health check: pure functions over a dataset's file splits (data/dataset.h's
// DatasetFiles), no store. What the check finds, and how to run it:
//
//     DatasetFiles files = openDatasetFiles(spec.dataset, experimentDataDirectory(spec));
//     HealthOptions options;                      // near-duplicate threshold, limits
//     HealthReport report = checkDatasetHealth(files, options, progress);
//     for (const HealthCount& c : report.counts) ...   // "near_leak train/test: 12 pairs"
//     for (const HealthFinding& f : report.findings) ... // one sample, or a pair side by side
//
// Checks (each finding names its split and sample index, the index a Dataset's get() takes,
// and where the reader says the sample comes from):
//   - unreadable: a sample whose get() throws DataError (the file and byte offset or line are
//     kept), or whose values are not finite; counted per cause; the check goes on past them;
//   - exact_duplicate / exact_leak: equal decoded values (a 64-bit hash of the floats get()
//     writes, confirmed by comparing the values), within a split / across splits;
//   - near_duplicate / near_leak: a 64-bit DCT perceptual hash (data/perceptual_hash.h) within
//     `nearThreshold` bits, found through a multi-index hash (no all-pairs comparison), and
//     confirmed by the images' 16 x 16 thumbnails; exact duplicates are not reported again;
//   - class_imbalance: the largest class / the smallest, per split, with the suggested class
//     weights (n / (k * count_c)) or the class_balanced sampler;
//   - tables (csv): constant_feature, near_constant_feature, too_many_classes, missing_values,
//     ragged_row, read from the file's records with the engine's own CSV parser (parseCsv),
//     so a file the reader refuses is still described.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "types/message.h"

namespace ts {

enum class FindingKind {
    Unreadable,
    ExactDuplicate,   // within one split
    ExactLeak,        // the same sample in two splits (train/test leakage)
    NearDuplicate,    // within one split
    NearLeak,         // across splits
    ClassImbalance,   // one per split whose ratio reaches HealthOptions::imbalanceRatio
    ConstantFeature,  // tables: a feature column with one value
    NearConstantFeature,  // tables: one value in >= nearConstantShare of the rows
    TooManyClasses,   // tables: the label column has more distinct values than maxClasses
    MissingValues,    // tables: one per column with empty / NA cells
    RaggedRow,        // tables: a row with another number of fields than the header
};
constexpr int kFindingKinds = 11;

// "unreadable", "exact_duplicate", "exact_leak", "near_duplicate", "near_leak",
// "class_imbalance", "constant_feature", "near_constant_feature", "too_many_classes",
// "missing_values", "ragged_row": the stable names the store and --json use.
const char* findingKindName(FindingKind kind);
std::optional<FindingKind> findingKindFromName(const std::string& name);
// Pairs (two samples side by side) rather than single samples.
inline bool isPairKind(FindingKind k)
{
    return k == FindingKind::ExactDuplicate || k == FindingKind::ExactLeak || k == FindingKind::NearDuplicate ||
           k == FindingKind::NearLeak;
}

struct HealthFinding {
    FindingKind kind = FindingKind::Unreadable;
    std::string split;               // "train" | "test"; "" for a table-wide finding
    std::int64_t sample = -1;        // index in the split (a table's data row: 0 is line 2); -1: none
    std::string otherSplit;          // pairs: the other sample (the first one seen, the kept one)
    std::int64_t otherSample = -1;
    // near: the Hamming distance; imbalance: the ratio; near-constant: the top value's share;
    // missing: the count of missing cells; ragged: the row's field count; unreadable: -1.
    double value = 0;
    std::string cause;    // unreadable: damaged_png | damaged_jpeg | unsupported_image | damaged_gzip | image_too_large | not_an_image | non_finite | unreadable (ui words each)
    std::string column;   // tables: the column's name
    // unreadable: the file (DataError::file()); tables: the CSV; pairs: where `sample` comes
    // from (Dataset::sampleSource: an image file, "IDX file, item i", "data.csv:line"), so a
    // report names the files of an image folder's duplicates and leaks
    std::string file;
    std::string otherFile;  // pairs: where `otherSample` comes from; "" otherwise
    std::int64_t position = -1;  // byte offset or line (DataError::position()); -1: none
    std::string detail;   // English: the reader's message, or what the finding means

    bool operator==(const HealthFinding&) const = default;
};

// How many findings of one kind a split (or a pair of splits) has; counts stay exact when
// the stored findings are capped.
struct HealthCount {
    FindingKind kind = FindingKind::Unreadable;
    std::string split, otherSplit;  // otherSplit: leaks ("train", "test")
    std::string cause;              // unreadable: per cause; else ""
    std::int64_t count = 0;         // findings (pairs for the pair kinds)
    std::int64_t samples = 0;       // distinct samples of `split` involved

    bool operator==(const HealthCount&) const = default;
};

struct SplitHealth {
    std::string split;                       // "train" | "test"
    std::string description;                 // the Dataset's description()
    std::int64_t samples = 0;
    std::vector<std::int64_t> classCounts;   // by class index
    double imbalanceRatio = 1;               // largest / smallest class (inf when a class is empty)
    std::vector<double> suggestedClassWeights;  // n / (k * count_c), 0 for an empty class

    bool operator==(const SplitHealth&) const = default;
};

struct HealthReport {
    std::vector<std::string> classNames;
    std::vector<SplitHealth> splits;      // train first
    std::vector<HealthCount> counts;      // kinds in enum order, then splits
    std::vector<HealthFinding> findings;  // kinds in enum order; capped per kind (maxFindingsPerKind)
    bool findingsCapped = false;          // some kind had more findings than were kept
    int nearThreshold = 0;                // bits, as checked
    double nearThumbnailDifference = 0;   // as checked (HealthOptions)
    std::string perceptualHash;           // "dct64" (data/perceptual_hash.h), "" for tables
    bool images = false;                  // image checks ran (near duplicates)
    bool table = false;                   // table checks ran
    std::string openError;                // the reader refused the data (the table checks still ran)
    double seconds = 0;

    // The count of `kind` over every split (0 when none).
    std::int64_t total(FindingKind kind) const;
    bool operator==(const HealthReport&) const = default;
};

struct HealthOptions {
    int nearThreshold = 4;                 // Hamming distance in bits (of 64) for near duplicates
    // ... and a confirmed pair's 16 x 16 thumbnails differ by at most this (data/perceptual_hash.h)
    double nearThumbnailDifference = 8.0;
    double imbalanceRatio = 1.5;           // a split at or above it gets a class_imbalance finding
    double nearConstantShare = 0.99;       // tables
    std::int64_t maxClasses = 100;         // tables: more distinct labels than this is suspicious
    std::int64_t maxFindingsPerKind = 20000;  // stored findings per kind (counts stay exact)
};

// done of total, and what is being done ("reading train", as a Message a front end words);
// return false to stop the check (it then throws HealthCheckStopped). Called from the calling
// thread only.
using HealthProgress = std::function<bool(std::int64_t done, std::int64_t total, const Message& what)>;

class HealthCheckStopped : public std::runtime_error {
public:
    HealthCheckStopped() : std::runtime_error("the data check was stopped") {}
};

// A csv dataset's file and columns, for the table checks (read with parseCsv, so a file the
// reader refuses, ragged rows or missing cells, is still described row by row).
struct TableSource {
    std::string path;  // the resolved CSV path
    std::string labelColumn, groupColumn;
    std::vector<std::string> featureColumns;  // empty: every numeric column but label and group
};

// Runs every check that fits the data: the samples of every split through get() (OpenMP
// threads), and the table checks when `table` is given. `files.train` may be null when the
// reader refused the data: then only the table checks run, and `openError` is kept in the
// report. Throws HealthCheckStopped when progress returns false.
HealthReport checkDatasetHealth(const DatasetFiles& files, const HealthOptions& options = {},
                                const HealthProgress& progress = {}, const TableSource* table = nullptr,
                                const std::string& openError = {});

// The fingerprint of a dataset's files (fileFingerprint of each, hashed): a stored check is
// current while this is unchanged. The files are files.sources and, when files.path is a
// folder, every file under it: the readers list only the training files as sources, and a
// changed test split must make a check stale too.
std::string datasetFingerprint(const DatasetFiles& files);
std::string datasetFingerprint(const std::vector<std::string>& files);

// Suggested class weights for counts: n / (k * count_c) over the k non-empty classes (so a
// balanced dataset gets 1 everywhere), 0 for an empty class.
std::vector<double> balancedClassWeights(const std::vector<std::int64_t>& counts);

}  // namespace ts
