#include "data/dataset_health_index.h"

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <utility>

namespace ts {
namespace {

struct Chunking {
    int chunks;
    std::uint64_t value(std::uint64_t hash, int c) const
    {
        const int lo = c * 64 / chunks, hi = (c + 1) * 64 / chunks;
        const std::uint64_t mask = hi - lo == 64 ? ~std::uint64_t(0) : ((std::uint64_t(1) << (hi - lo)) - 1);
        return (hash >> lo) & mask;
    }
};

bool closer(const NearPair& x, const NearPair& y)
{
    if (x.distance != y.distance) return x.distance < y.distance;
    return x.a != y.a ? x.a < y.a : x.b < y.b;
}

// Keeps the `keep` smallest pairs (by distance, then indices) once there are twice as many:
// the union of trimmed lists still holds the overall smallest `keep`.
void trim(std::vector<NearPair>& pairs, std::int64_t keep, bool force = false)
{
    if (keep <= 0 || std::int64_t(pairs.size()) <= (force ? keep : 2 * keep)) return;
    std::nth_element(pairs.begin(), pairs.begin() + keep, pairs.end(), closer);
    pairs.resize(static_cast<std::size_t>(keep));
}

}  // namespace

std::vector<NearPair> findNearPairs(const std::vector<std::uint64_t>& hashes, int maxDistance, std::int64_t maxPairs,
                                    const std::vector<std::uint8_t>& groups, NearStats* stats,
                                    const std::function<bool(std::int64_t, std::int64_t)>& accept)
{
    if (maxDistance < 0 || maxDistance > 31) throw std::invalid_argument("near-duplicate distance must be 0..31 bits");
    const Chunking chunking{maxDistance + 1};
    const std::int64_t n = std::int64_t(hashes.size());
    if (!groups.empty() && std::int64_t(groups.size()) != n) throw std::invalid_argument("one group per hash");
    constexpr int kGroups = 16;
    auto groupOf = [&](std::int64_t i) { return groups.empty() ? 0 : std::min<int>(groups[std::size_t(i)], kGroups - 1); };
    std::vector<NearPair> found;
    std::int64_t total = 0;
    std::vector<std::int64_t> groupPairs(kGroups * kGroups, 0);
    std::vector<std::uint8_t> involved(static_cast<std::size_t>(n), 0);
    std::vector<std::pair<std::uint64_t, std::int64_t>> keyed(static_cast<std::size_t>(n));
    for (int c = 0; c < chunking.chunks; ++c) {
        for (std::int64_t i = 0; i < n; ++i) keyed[std::size_t(i)] = {chunking.value(hashes[std::size_t(i)], c), i};
        std::sort(keyed.begin(), keyed.end());
        std::vector<std::pair<std::int64_t, std::int64_t>> runs;  // [begin, end) of equal chunk values, 2 or more
        for (std::int64_t b = 0, e = 0; b < n; b = e) {
            e = b + 1;
            while (e < n && keyed[std::size_t(e)].first == keyed[std::size_t(b)].first) ++e;
            if (e - b > 1) runs.emplace_back(b, e);
        }
#pragma omp parallel
        {
            std::vector<NearPair> local;
            std::int64_t localCount = 0;
            std::vector<std::int64_t> localGroups(kGroups * kGroups, 0);
#pragma omp for schedule(dynamic, 16) nowait
            for (std::int64_t r = 0; r < std::int64_t(runs.size()); ++r) {
                const auto [b, e] = runs[std::size_t(r)];
                for (std::int64_t i = b; i < e; ++i) {
                    const std::int64_t x = keyed[std::size_t(i)].second;
                    const std::uint64_t hx = hashes[std::size_t(x)];
                    for (std::int64_t j = i + 1; j < e; ++j) {
                        const std::int64_t y = keyed[std::size_t(j)].second;
                        const std::uint64_t hy = hashes[std::size_t(y)];
                        const int d = hammingDistance(hx, hy);
                        if (d > maxDistance) continue;
                        bool seenBefore = false;  // agrees on an earlier chunk: counted there
                        for (int k = 0; k < c && !seenBefore; ++k)
                            seenBefore = chunking.value(hx, k) == chunking.value(hy, k);
                        if (seenBefore) continue;
                        if (accept && !accept(x, y)) continue;
                        ++localCount;
                        const int gx = groupOf(x), gy = groupOf(y);
                        ++localGroups[std::size_t(std::min(gx, gy) * kGroups + std::max(gx, gy))];
                        const std::uint8_t flag = gx == gy ? 1 : 2;
                        std::atomic_ref<std::uint8_t>(involved[std::size_t(x)]).fetch_or(flag, std::memory_order_relaxed);
                        std::atomic_ref<std::uint8_t>(involved[std::size_t(y)]).fetch_or(flag, std::memory_order_relaxed);
                        local.push_back({std::min(x, y), std::max(x, y), d});
                        trim(local, maxPairs);
                    }
                }
            }
#pragma omp critical
            {
                total += localCount;
                for (std::size_t g = 0; g < groupPairs.size(); ++g) groupPairs[g] += localGroups[g];
                found.insert(found.end(), local.begin(), local.end());
                trim(found, maxPairs);
            }
        }
    }
    trim(found, maxPairs, true);
    std::sort(found.begin(), found.end(), closer);
    if (stats) {
        stats->pairs = total;
        const int used = groups.empty() ? 1 : 1 + *std::max_element(groups.begin(), groups.end());
        const int g = std::min(used, kGroups);
        stats->groupPairs.assign(std::size_t(g * g), 0);
        for (int i = 0; i < g; ++i)
            for (int j = i; j < g; ++j) stats->groupPairs[std::size_t(i * g + j)] = groupPairs[std::size_t(i * kGroups + j)];
        stats->involved = std::move(involved);
    }
    return found;
}

}  // namespace ts
