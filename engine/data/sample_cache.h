// The precomputed cache: every sample decoded once into one file (float32 samples, then
// i64 labels, behind a checksummed header) and memory-mapped, so later epochs and later runs
// skip decoding and the page cache, not the process, holds the data.
//
// File layout (native byte order, little-endian on every target):
//   [0, 128)    CacheHeader: magic "TSDCACHE", version, sizes, shape, FNV-1a checksum
//   [128, ..)   the source's description (UTF-8), then zeros up to a 64-byte boundary
//   dataOffset  count x sampleNumel float32
//   labelOffset count x int64 (64-byte aligned)
#pragma once
#include <memory>
#include <string>

#include "data/dataset.h"

namespace ts {

// Returns a Dataset that reads `source`'s samples from `cacheFile`, building the file first
// when it is missing, damaged (bad magic, version, checksum or size) or stale (a different
// count, shape, description or labels than `source`). The file is built under a temporary
// name and renamed into place, so a crash never leaves a half file that looks valid.
// Throws DataError when the file cannot be written or mapped, or whatever source.get() throws.
std::shared_ptr<Dataset> cachedDataset(std::shared_ptr<Dataset> source, const std::string& cacheFile);

// True when `cacheFile` holds a valid cache of `source` (what cachedDataset checks).
bool sampleCacheValid(const Dataset& source, const std::string& cacheFile);

}  // namespace ts
