// SHA-256 (FIPS 180-4), for checkpoint checksums. Incremental, so large files hash as they
// stream; checked against the standard's test vectors.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace ts {

class Sha256 {
public:
    Sha256();
    void update(const void* data, std::size_t bytes);
    std::array<std::uint8_t, 32> finish();  // the object is spent afterwards
    std::string finishHex();                // 64 lower-case hex digits

private:
    std::array<std::uint32_t, 8> state_;
    std::array<std::uint8_t, 64> block_{};
    std::size_t blockBytes_ = 0;
    std::uint64_t totalBytes_ = 0;
};

std::string sha256Hex(const void* data, std::size_t bytes);
// Of a whole file; throws std::runtime_error naming the file when it cannot be read.
std::string sha256File(const std::string& path);

}  // namespace ts
