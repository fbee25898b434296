// SHA-256 (FIPS 180-4), for checkpoint checksums: OpenSSL's libcrypto, which uses the CPU's SHA
// instructions where there are any. Incremental, so large files hash as they stream; checked
// against the standard's test vectors.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace ts {

class Sha256 {
public:
    Sha256();
    ~Sha256();
    Sha256(Sha256&&) noexcept;
    Sha256& operator=(Sha256&&) noexcept;
    void update(const void* data, std::size_t bytes);
    std::array<std::uint8_t, 32> finish();  // the object is spent afterwards
    std::string finishHex();                // 64 lower-case hex digits

private:
    struct Context;
    std::unique_ptr<Context> context_;
};

std::string sha256Hex(const void* data, std::size_t bytes);
// Of a whole file; throws std::runtime_error naming the file when it cannot be read.
std::string sha256File(const std::string& path);

}  // namespace ts
