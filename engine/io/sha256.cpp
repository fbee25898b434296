// SHA-256 as specified in FIPS 180-4, section 6.2.
#include "io/sha256.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace ts {

namespace {

constexpr std::uint32_t kRound[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

constexpr std::uint32_t rotr(std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

void compress(std::array<std::uint32_t, 8>& h, const std::uint8_t* block)
{
    std::uint32_t w[64];
    for (int t = 0; t < 16; ++t)  // the message is big-endian
        w[t] = std::uint32_t(block[4 * t]) << 24 | std::uint32_t(block[4 * t + 1]) << 16 |
               std::uint32_t(block[4 * t + 2]) << 8 | std::uint32_t(block[4 * t + 3]);
    for (int t = 16; t < 64; ++t) {
        const std::uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
        const std::uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (int t = 0; t < 64; ++t) {
        const std::uint32_t t1 = k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + kRound[t] + w[t];
        const std::uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        k = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += k;
}

}  // namespace

Sha256::Sha256()
    : state_{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19}
{
}

void Sha256::update(const void* data, std::size_t bytes)
{
    if (bytes == 0) return;  // data may then be null
    const auto* p = static_cast<const std::uint8_t*>(data);
    totalBytes_ += bytes;
    if (blockBytes_ > 0) {  // top up a partial block first
        const std::size_t take = std::min(bytes, block_.size() - blockBytes_);
        std::memcpy(block_.data() + blockBytes_, p, take);
        blockBytes_ += take, p += take, bytes -= take;
        if (blockBytes_ < block_.size()) return;
        compress(state_, block_.data());
        blockBytes_ = 0;
    }
    for (; bytes >= 64; p += 64, bytes -= 64) compress(state_, p);  // straight from the input
    std::memcpy(block_.data(), p, bytes);
    blockBytes_ = bytes;
}

std::array<std::uint8_t, 32> Sha256::finish()
{
    // Padding: 0x80, zeros up to 56 mod 64, then the message length in bits, big-endian.
    const std::uint64_t bits = totalBytes_ * 8;
    block_[blockBytes_++] = 0x80;
    if (blockBytes_ > 56) {
        std::memset(block_.data() + blockBytes_, 0, 64 - blockBytes_);
        compress(state_, block_.data());
        blockBytes_ = 0;
    }
    std::memset(block_.data() + blockBytes_, 0, 56 - blockBytes_);
    for (int i = 0; i < 8; ++i) block_[56 + i] = std::uint8_t(bits >> (56 - 8 * i));
    compress(state_, block_.data());
    blockBytes_ = 0;
    std::array<std::uint8_t, 32> out{};
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 4; ++j) out[4 * i + j] = std::uint8_t(state_[i] >> (24 - 8 * j));
    return out;
}

std::string Sha256::finishHex()
{
    static const char* digits = "0123456789abcdef";
    std::string hex;
    for (std::uint8_t b : finish()) hex += digits[b >> 4], hex += digits[b & 15];
    return hex;
}

std::string sha256Hex(const void* data, std::size_t bytes)
{
    Sha256 h;
    h.update(data, bytes);
    return h.finishHex();
}

std::string sha256File(const std::string& path)
{
    std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!f) throw std::runtime_error(path + ": cannot open: " + std::strerror(errno));
    Sha256 h;
    std::unique_ptr<char[]> buffer(new char[1 << 20]);
    while (const std::size_t n = std::fread(buffer.get(), 1, 1 << 20, f.get())) h.update(buffer.get(), n);
    if (std::ferror(f.get())) throw std::runtime_error(path + ": cannot read: " + std::strerror(errno));
    return h.finishHex();
}

}  // namespace ts
