#include "dist/gradient_buckets.h"

#include <algorithm>

#include "dist/communicator.h"

namespace ts {

std::vector<GradientBucket> planGradientBuckets(std::size_t count, std::size_t firstBytes, std::size_t bucketBytes)
{
    std::vector<GradientBucket> buckets;
    std::size_t end = count;
    std::size_t limit = std::max<std::size_t>(firstBytes / sizeof(float), 1);
    while (end > 0) {
        const std::size_t n = std::min(limit, end);
        buckets.push_back({end - n, n});
        end -= n;
        limit = std::max<std::size_t>(bucketBytes / sizeof(float), 1);
    }
    return buckets;
}

void allReduceGradients(Communicator& comm, float* gradients, const std::vector<GradientBucket>& buckets)
{
    if (comm.size() == 1) return;
    for (const GradientBucket& b : buckets) comm.allReduceMean(gradients + b.offset, b.count);
}

}  // namespace ts
