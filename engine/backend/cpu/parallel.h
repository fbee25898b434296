// Splits [0, n) into contiguous chunks over the CPU threads (OpenMP). Chunks are static,
// so a given thread count always splits the same way (deterministic reductions).
#pragma once
#include <algorithm>
#include <cstdint>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace ts::cpu {

inline int threadCount()
{
#ifdef _OPENMP
    return omp_get_max_threads();
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

}  // namespace ts::cpu
