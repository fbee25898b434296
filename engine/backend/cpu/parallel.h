// Splits [0, n) into contiguous chunks over the CPU threads (OpenMP). Chunks are static,
// so a given thread count always splits the same way; reductions use blockedSum, whose
// blocks do not depend on the thread count at all.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace ts::cpu {

// Inside a parallel region (a lane of a convolution) nested loops run on the calling thread.
inline int threadCount()
{
#ifdef _OPENMP
    return omp_in_parallel() ? 1 : omp_get_max_threads();
#else
    return 1;
#endif
}

// fn(begin, end) over chunks of at least `grain` items; runs inline when n is small.
template <class Fn> void parallelFor(std::int64_t n, std::int64_t grain, Fn&& fn)
{
    if (n <= 0) return;
    const std::int64_t chunks = std::min<std::int64_t>(threadCount(), std::max<std::int64_t>(1, n / std::max<std::int64_t>(grain, 1)));
    if (chunks <= 1) {
        fn(std::int64_t{0}, n);
        return;
    }
#pragma omp parallel for schedule(static) num_threads(static_cast<int>(chunks))
    for (std::int64_t c = 0; c < chunks; ++c) fn(n * c / chunks, n * (c + 1) / chunks);
}

// Lanes: [0, n) is cut into `chunks` contiguous chunks (chunk c: [n*c/chunks, n*(c+1)/chunks)),
// dealt in order to `lanes` lanes that run on the threads; all fixed by the caller's shape,
// never by the thread count. fn(lane, begin, count, first) for every non-empty chunk, a lane's
// in order; `first` marks the lane's first one (where a lane's partial sum starts).
template <class Fn> void forEachLaneChunk(std::int64_t n, std::int64_t chunks, std::int64_t lanes, Fn&& fn)
{
    parallelFor(lanes, 1, [&](std::int64_t l0, std::int64_t l1) {
        for (std::int64_t lane = l0; lane < l1; ++lane) {
            bool first = true;
            for (std::int64_t c = chunks * lane / lanes; c < chunks * (lane + 1) / lanes; ++c) {
                const std::int64_t b0 = n * c / chunks, b1 = n * (c + 1) / chunks;
                if (b1 == b0) continue;  // more chunks than items: some are empty
                fn(lane, b0, b1 - b0, first);
                first = false;
            }
        }
    });
}

// Running sums added pairwise in double, in a fixed order.
template <class Acc, int N> double pairwiseSum(const Acc (&v)[N])
{
    double level[N];
    for (int k = 0; k < N; ++k) level[k] = double(v[k]);
    for (int width = N; width > 1; width /= 2)
        for (int k = 0; k < width / 2; ++k) level[k] = level[2 * k] + level[2 * k + 1];
    return level[0];
}

// The sum of row[0, n) in double, in an order fixed by n: each block of 512 in eight running
// float sums (they vectorise; one chain of adds waits on each add's latency, which was most of
// a bias gradient's time), the blocks in double.
inline double rowSum(const float* row, std::int64_t n)
{
    constexpr std::int64_t kBlock = 512;
    double total = 0;
    for (std::int64_t b = 0; b < n; b += kBlock) {
        const std::int64_t end = std::min(n, b + kBlock);
        float s[8] = {};
        std::int64_t i = b;
        for (; i + 8 <= end; i += 8)
            for (int k = 0; k < 8; ++k) s[k] += row[i + k];
        for (; i < end; ++i) s[0] += row[i];
        total += pairwiseSum(s);
    }
    return total;
}

// The sum of term(i) for i < n, in double: fixed blocks summed in parallel, then the blocks
// in order. The blocks do not depend on the thread count, so neither does the result: a run
// gives the same losses and gradient norms with 1 thread or 2.
template <class Term> double blockedSum(std::int64_t n, Term&& term)
{
    constexpr std::int64_t kBlock = 8192;
    const std::int64_t blocks = (n + kBlock - 1) / kBlock;
    std::vector<double> partial(static_cast<std::size_t>(blocks), 0.0);
    parallelFor(blocks, 1, [&](std::int64_t b0, std::int64_t b1) {
        for (std::int64_t b = b0; b < b1; ++b) {
            double s = 0;
            for (std::int64_t i = b * kBlock; i < std::min(n, (b + 1) * kBlock); ++i) s += term(i);
            partial[static_cast<std::size_t>(b)] = s;
        }
    });
    double total = 0;
    for (double p : partial) total += p;
    return total;
}

}  // namespace ts::cpu
