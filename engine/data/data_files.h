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

// Why `path` cannot be read as a file, "" when it is a regular file (links followed): "no such
// file", "is a folder, not a file", "is a named pipe (FIFO), not a regular file", "is a link to
// '...', which does not exist", "cannot be reached: Permission denied". Every reader checks with
// it before opening, so a folder or a FIFO is never "not found" and a FIFO never blocks a read.
std::string whyNotAFile(const std::string& path);
// The same for a folder ("is a file, not a folder", ...), "" when it is one.
std::string whyNotAFolder(const std::string& path);

// The whole file, decompressed when it starts as gzip does (other files are read as they are).
// A missing file, one that is not a regular file, or a corrupt gzip stream throws DataError; the
// position of a gzip error is the byte offset in the compressed file (the message says so, and
// how many bytes were decompressed before it). At most `limit` bytes are read (decompressed): a
// reader that knows its size from a header reads no more, so a small gzip that inflates to
// gigabytes costs what the header announced, not what the stream holds.
std::vector<std::uint8_t> readFileBytes(const std::string& path, std::size_t limit = SIZE_MAX);

// dir/name if it is a file, else dir/name.gz if that is one; else whichever of the two exists
// as something else (a folder, a FIFO: the reader then says what it is); else "" (the caller
// says what belongs there). Throws DataError when `dir` exists but is not a folder.
std::string findDataFile(const std::string& dir, const std::string& name);

// "path size mtime_ns" of a file (for cache keys: a changed file gives another string).
std::string fileFingerprint(const std::string& path);

// v / 255.0f for every byte value v (exact division, looked up: get() is on the hot path).
const float* byteToUnitTable();

std::string joinPath(const std::string& dir, const std::string& name);

}  // namespace ts
