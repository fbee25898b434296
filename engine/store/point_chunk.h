// Internal to engine/store: metric points are stored in chunks, one BLOB of up to
// kChunkPoints records per row, keyed (run, metric, chunk number). Measured on the dev
// machine, a row per point read at ~200 ns a row (1M points: ~230 ms of CPU, ~120 ms just to
// step through the rows); a chunk row is a memcpy, so a million points read in milliseconds.
// Records keep the raw IEEE bits, so NaN and the infinities round-trip exactly.
#pragma once
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace ts::store {

constexpr std::size_t kChunkPoints = 1024;

struct PointRecord {
    std::int64_t step;
    double value;
    double wallTime;
};
static_assert(sizeof(PointRecord) == 24);
// The blob is the records' memory image: little-endian, which every target platform is.
static_assert(std::endian::native == std::endian::little);

inline std::string encodePoints(const PointRecord* records, std::size_t n)
{
    return std::string(reinterpret_cast<const char*>(records), n * sizeof(PointRecord));
}

inline void decodePoints(const void* blob, std::size_t bytes, std::vector<PointRecord>& out)
{
    const std::size_t n = bytes / sizeof(PointRecord), at = out.size();
    out.resize(at + n);
    std::memcpy(out.data() + at, blob, n * sizeof(PointRecord));
}

}  // namespace ts::store
