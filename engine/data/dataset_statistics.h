// Per-channel mean / standard deviation and class counts of a dataset, and their cache: a
// small text file per dataset and split setting, reused while the dataset files are unchanged.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "data/dataset.h"

namespace ts {

// Decodes every sample once (in parallel, summed in a fixed order so the result does not
// depend on the thread count). Channels are dim 0 of an image's [C, H, W]; a table's
// features are its channels. stddev is the population standard deviation.
DatasetStatistics computeStatistics(const Dataset& dataset);

// The cache file for a dataset: <cacheDir>/stats-<hash of name>.txt. The file stores `key`
// (which should change whenever the files or split settings do) and the statistics.
std::string statisticsCachePath(const std::string& cacheDir, const std::string& name);
// The cached statistics when the file exists, parses and carries `key`; else nothing.
std::optional<DatasetStatistics> loadCachedStatistics(const std::string& path, const std::string& key);
// Writes atomically (temporary file + rename). Failures are ignored: the cache is optional.
void saveCachedStatistics(const std::string& path, const std::string& key, const DatasetStatistics& stats);

// 64-bit FNV-1a, as 16 hex digits (cache file names and keys).
std::string hashHex(const std::string& text);

}  // namespace ts
