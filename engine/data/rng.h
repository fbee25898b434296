// Reproducible randomness for the data pipeline. Everything here is specified bit for bit
// (no std::uniform_int_distribution / std::shuffle, whose output differs between standard
// libraries), so a run resumed on another build reproduces the same epochs.
#pragma once
#include <cstdint>
#include <random>

namespace ts::datarng {

// SplitMix64's finaliser: a strong 64-bit mixer, used to derive independent seeds.
inline std::uint64_t mix64(std::uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// A key for (seed, a, b, stream): distinct streams (sampler, augmentation) never share draws.
inline std::uint64_t key(std::uint64_t seed, std::uint64_t a, std::uint64_t b = 0, std::uint64_t stream = 0)
{
    return mix64(mix64(mix64(mix64(seed) ^ a) ^ b) ^ stream);
}

// Uniform in [0, n), n > 0, without modulo bias (Lemire's multiply-and-reject).
template <class Rng> std::uint64_t below(Rng& rng, std::uint64_t n)
{
    unsigned __int128 m = static_cast<unsigned __int128>(rng()) * n;
    auto low = static_cast<std::uint64_t>(m);
    if (low < n) {
        const std::uint64_t threshold = (0 - n) % n;
        while (low < threshold) {
            m = static_cast<unsigned __int128>(rng()) * n;
            low = static_cast<std::uint64_t>(m);
        }
    }
    return static_cast<std::uint64_t>(m >> 64);
}

// Uniform in [0, 1) with 53 random bits.
template <class Rng> double unit(Rng& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

// A counter-based stream: the n-th draw is mix64(state + n), cheap to create per sample.
struct Counter {
    std::uint64_t state;
    std::uint64_t operator()() { return mix64(state++); }
};

inline std::mt19937_64 epochEngine(std::uint64_t seed, std::int64_t epoch, std::uint64_t stream)
{
    return std::mt19937_64(key(seed, static_cast<std::uint64_t>(epoch), 0, stream));
}

}  // namespace ts::datarng
