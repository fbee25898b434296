// SHA-256 through OpenSSL's EVP interface (the low-level SHA256_* calls are deprecated in 3.0).
#include "io/checkpoint/sha256.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include <openssl/evp.h>

namespace ts {

struct Sha256::Context {
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    ~Context() { EVP_MD_CTX_free(ctx); }
};

Sha256::Sha256() : context_(std::make_unique<Context>())
{
    // Fails only when OpenSSL is out of memory or built without SHA-256.
    if (!context_->ctx || EVP_DigestInit_ex(context_->ctx, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("SHA-256: OpenSSL could not start a digest");
}

Sha256::~Sha256() = default;
Sha256::Sha256(Sha256&&) noexcept = default;
Sha256& Sha256::operator=(Sha256&&) noexcept = default;

void Sha256::update(const void* data, std::size_t bytes)
{
    if (bytes && EVP_DigestUpdate(context_->ctx, data, bytes) != 1) throw std::runtime_error("SHA-256: OpenSSL failed");
}

std::array<std::uint8_t, 32> Sha256::finish()
{
    std::array<std::uint8_t, 32> digest{};
    unsigned length = 0;
    if (EVP_DigestFinal_ex(context_->ctx, digest.data(), &length) != 1 || length != digest.size())
        throw std::runtime_error("SHA-256: OpenSSL failed");
    return digest;
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
