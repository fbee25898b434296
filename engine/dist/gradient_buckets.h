// Gradient buckets: the flat gradient buffer (exec/executor.h) cut into contiguous ranges that
// are all-reduced one at a time, as PyTorch's DistributedDataParallel does. Backward writes the
// last layers' gradients first, and the flat buffer holds the parameters in forward order, so
// the buckets are cut from the end: a small first bucket (1 MiB) that is complete soonest, then
// buckets of about 25 MiB. Each range is an interval of whole floats; together they cover
// [0, count) exactly, in the order they are listed (the end of the buffer first).
#pragma once
#include <cstddef>
#include <vector>

namespace ts {

class Communicator;
class Executor;

struct GradientBucket {
    std::size_t offset = 0, count = 0;  // floats
};

constexpr std::size_t kFirstBucketBytes = std::size_t(1) << 20;
constexpr std::size_t kBucketBytes = std::size_t(25) << 20;

std::vector<GradientBucket> planGradientBuckets(std::size_t count, std::size_t firstBytes = kFirstBucketBytes,
                                                std::size_t bucketBytes = kBucketBytes);

// Per node i of the executor's graph: the offset in the flat gradient buffer from which every
// gradient is final once backward has run node i (walking the trainable parameters from the
// buffer's end as far as their owners are nodes >= i). Buckets past it can be all-reduced.
std::vector<std::size_t> gradientFrontiers(Executor& executor);

// Replaces each rank's gradients by their mean over the ranks, bucket by bucket.
void allReduceGradients(Communicator& comm, float* gradients, const std::vector<GradientBucket>& buckets);

}  // namespace ts
