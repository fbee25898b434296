// Small helpers shared by the dataset readers: whole-file reads (plain or gzip), locating
// "name" or "name.gz", file fingerprints for cache keys, and DataError messages that
// name the file and the byte offset or line.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "data/dataset.h"

namespace ts {

// "<file>: byte <offset>: <what>" as a DataError (position = offset).
DataError byteError(const std::string& file, std::int64_t offset, const std::string& what);
// "<file>:<line>: <what>" as a DataError (position = line).
DataError lineError(const std::string& file, std::int64_t line, const std::string& what);

// The whole file, decompressed when it is gzip (zlib reads plain files through unchanged).
// A missing file or a corrupt gzip stream throws DataError (the position of a gzip error is
// the offset in the decompressed data where the stream broke). At most `limit` bytes are read
// (decompressed): a reader that knows its size from a header reads no more, so a small gzip
// that inflates to gigabytes costs what the header announced, not what the stream holds.
std::vector<std::uint8_t> readFileBytes(const std::string& path, std::size_t limit = SIZE_MAX);

// dir/name if it exists, else dir/name.gz if that exists, else "".
std::string findDataFile(const std::string& dir, const std::string& name);

// "path size mtime_ns" of a file (for cache keys: a changed file gives another string).
std::string fileFingerprint(const std::string& path);

// v / 255.0f for every byte value v (exact division, looked up: get() is on the hot path).
const float* byteToUnitTable();

std::string joinPath(const std::string& dir, const std::string& name);

}  // namespace ts
