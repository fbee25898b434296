// Parameter initialisation, a pure function of (spec, seed): the same seed gives the same
// weights on every machine and backend (no std:: distributions, whose output varies by library).
#pragma once
#include <cstdint>
#include <string_view>

#include "ops/op.h"

namespace ts {

// Fills host memory `out` of n floats as `spec` says.
void initialise(const InitSpec& spec, float* out, std::int64_t n, std::uint64_t seed);
// A stable 64-bit hash (FNV-1a) to derive per-parameter seeds from names.
std::uint64_t stableHash(std::string_view text);
// Mixes several values into one seed (splitmix64 finaliser).
std::uint64_t mixSeed(std::uint64_t a, std::uint64_t b);

}  // namespace ts
