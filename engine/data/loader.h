// The loader: worker threads assemble batches (sample, transform, copy) into a bounded
// prefetch queue; the trainer pops ready batches and the loader counts how long it waited.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "data/dataset.h"
#include "tensor/tensor.h"

namespace ts {

struct Batch {
    Tensor inputs;  // [n, sampleShape...] f32, host memory
    Tensor labels;  // [n] i64
    std::int64_t size = 0;  // n (the last batch may be smaller unless dropLast)
    std::int64_t index = 0;  // position in the epoch
};

struct LoaderOptions {
    std::int64_t batchSize = 128;
    bool dropLast = true;   // training drops the ragged last batch; evaluation keeps it
    bool shuffle = true;    // false: sequential (evaluation)
    std::uint64_t seed = 0;
    bool augment = true;    // false: skip random crop / flip (evaluation)
    Allocator* batchAllocator = nullptr;  // pinned host memory on CUDA; null: CpuAllocator
};

class Loader {
public:
    // spec supplies sampler, transforms, workers and prefetch depth; stats feed
    // normalizeFromStatistics.
    Loader(std::shared_ptr<Dataset> dataset, const DatasetSpec& spec, const DatasetStatistics& stats,
           LoaderOptions options);
    ~Loader();
    Loader(const Loader&) = delete;
    Loader& operator=(const Loader&) = delete;

    // Starts producing epoch `epoch` (its shuffle derives from seed and epoch, so any epoch
    // can be reproduced, e.g. on resume). Resets the wait counter.
    void startEpoch(std::int64_t epoch);
    // The next batch of the epoch, or false at its end. Blocks while the queue is empty.
    bool next(Batch& batch);
    std::int64_t batchesPerEpoch() const;
    // Seconds next() spent blocked since startEpoch().
    double waitSeconds() const;

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace ts
