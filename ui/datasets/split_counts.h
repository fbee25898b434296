// Class counts per split (train / validation / test) of an opened dataset, computed from the
// labels alone with the engine's own split functions (splitIndices, or splitGroups when the
// CSV has a group column, exactly as openDataset carves validation), so what the Datasets
// page shows is what a training run will get. No sample is decoded.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "data/dataset.h"

namespace ts::ui {

struct SplitClassCounts {
    std::string split;                  // "train", "validation", "test"
    std::vector<std::int64_t> counts;   // per class
    std::int64_t total = 0;
};

// The three splits, in that order; validation and test only when they hold samples. The
// groups used are `files.groups` (what the files were opened with). Throws DataError for a
// validation fraction outside [0, 1), naming the dataset.
std::vector<SplitClassCounts> splitClassCounts(const ts::DatasetFiles& files, const ts::DatasetSpec& spec);

// Counts per class of `labels` (labels outside [0, classes) are not counted).
std::vector<std::int64_t> classCounts(const std::vector<std::int64_t>& labels, std::int64_t classes);

// Largest class count / smallest class count; infinity when a class has no sample, NaN when
// there are no classes or no samples.
double imbalanceRatio(const std::vector<std::int64_t>& counts);

}  // namespace ts::ui
