// The safetensors format (readable by the Python safetensors library and other tools):
// 8 bytes little-endian header length N, N bytes of JSON
//   {"__metadata__": {"k": "v", ...}, "name": {"dtype": "F32", "shape": [..],
//    "data_offsets": [begin, end]}, ...}
// padded with spaces to a multiple of 8, then the tensors' bytes back to back.
// TrainStudio adds metadata "ts_data_sha256" (hex SHA-256 of the data section) and
// "ts_header_sha256" (hex SHA-256 of the header's N bytes with that value written as 64 '0's),
// both checked on load when present, so a flipped bit in the tensors or in the metadata
// (where the training state keeps its scalars) is caught. Other tools ignore both keys.
#pragma once
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "tensor/tensor.h"

namespace ts {

using NamedTensors = std::vector<std::pair<std::string, Tensor>>;

// A damaged, unreadable or unwritable checkpoint file. The message names the file and
// what failed: "…/epoch_003.safetensors: truncated: 1,204 bytes, the header says 2,048"
// (size), "…: checksum mismatch in the tensor data" (checksum), "…: header: syntax error while
// parsing object - invalid literal; expected '}' at byte 57" (JSON syntax; bytes count from the
// start of the file), "…: header: tensor 'w': shape: expected a list, got a string" (content),
// "…: cannot write: No space left on device" (disk).
class CheckpointError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct SafetensorsFile {
    NamedTensors tensors;  // host tensors, in file order
    std::map<std::string, std::string> metadata;
};

// Writes host tensors (F32, F16, BF16, I32, I64, U8) atomically: `path`.tmp, flushed and
// fsync'ed, then renamed over `path` (the directory is fsync'ed too). On any failure the
// temporary file is removed, an existing `path` is untouched, and CheckpointError says why.
// Metadata keys ts_data_sha256 and ts_header_sha256 are the writer's own (set, not taken).
// Returns the number of bytes written; fileSha256, when given, receives the whole file's hash.
std::size_t writeSafetensors(const std::string& path, const NamedTensors& tensors,
                             const std::map<std::string, std::string>& metadata, std::string* fileSha256 = nullptr);

// Reads and validates the whole file (header JSON, dtypes, offsets within the file, no
// overlap or gap, sizes matching shapes, both checksums when present). Throws
// CheckpointError. fileSha256, when given, receives the whole file's hash (read once).
SafetensorsFile readSafetensors(const std::string& path, std::string* fileSha256 = nullptr);

}  // namespace ts
