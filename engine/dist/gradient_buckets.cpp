#include "dist/gradient_buckets.h"

#include <algorithm>

#include "dist/communicator.h"
#include "exec/executor.h"

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

std::vector<std::size_t> gradientFrontiers(Executor& executor)
{
    const auto& params = executor.parameters();
    const float* base = executor.flatGradients().data<float>();
    const auto count = static_cast<std::size_t>(executor.flatGradients().numel());
    std::vector<std::pair<std::size_t, int>> owned;  // (offset, node), from the end
    for (std::size_t i = 0; i < executor.graph().nodes.size(); ++i)
        for (int p : executor.nodeParameters(i))
            if (params[p].trainable && params[p].grad.defined())
                owned.push_back({static_cast<std::size_t>(params[p].grad.data<float>() - base), int(i)});
    // A tied parameter appears under each node that reads it: its gradient is final only after
    // the earliest one's backward (the last to run), so only that one counts.
    std::sort(owned.begin(), owned.end());
    owned.erase(std::unique(owned.begin(), owned.end(), [](const auto& a, const auto& b) { return a.first == b.first; }),
                owned.end());
    std::sort(owned.rbegin(), owned.rend());
    std::vector<std::size_t> frontier(executor.graph().nodes.size(), count);
    for (std::size_t i = 0; i < frontier.size(); ++i)
        for (const auto& [offset, node] : owned) {
            if (node < int(i)) break;
            frontier[i] = offset;
        }
    return frontier;
}

}  // namespace ts
