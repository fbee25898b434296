// Near-duplicate search over 64-bit hashes without comparing all pairs: multi-index hashing.
// The hash is cut into d + 1 chunks; two hashes within Hamming distance d differ in at most d
// chunks, so (pigeonhole) they agree exactly on at least one. Items are bucketed by each chunk's
// value, and only items sharing a bucket are compared. A pair agreeing on several chunks is
// kept only in the first of them, so each pair comes out once without a set of seen pairs.
//
// Cost: with b-bit chunks and n items spread evenly, about (d + 1) n^2 / 2^(b+1) comparisons:
// d = 4 gives 13-bit chunks, ~1.5 million comparisons for 70,000 items and ~300 million for
// a million (popcounts, seconds), against 2.5 billion and 500 billion for all pairs.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "data/perceptual_hash.h"

namespace ts {

struct NearPair {
    std::int64_t a = 0, b = 0;  // indices into the hashes, a < b
    int distance = 0;
    bool operator==(const NearPair&) const = default;
};

// What the search saw beyond the pairs it kept.
struct NearStats {
    std::int64_t pairs = 0;                // every pair within the distance
    std::vector<std::int64_t> groupPairs;  // groups x groups: pairs of group (i, j), i <= j, at [i * groups + j]
    std::vector<std::uint8_t> involved;    // per item: 1 in a pair within its group, 2 across groups
};

// Every pair of hashes within `maxDistance` bits (0..31), sorted by (distance, a, b). Uses
// OpenMP threads. `maxPairs` > 0 keeps only the closest that many (by distance, then indices:
// deterministic), so thousands of near-identical images cannot exhaust memory; `stats` still
// counts all. `groups` (empty: one group) gives each item a group (a split), 0..15.
// `accept` (thread-safe; empty: all) confirms a pair within the distance before it counts.
std::vector<NearPair> findNearPairs(const std::vector<std::uint64_t>& hashes, int maxDistance,
                                    std::int64_t maxPairs = 0, const std::vector<std::uint8_t>& groups = {},
                                    NearStats* stats = nullptr,
                                    const std::function<bool(std::int64_t, std::int64_t)>& accept = {});

}  // namespace ts
