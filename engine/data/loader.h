// The loader: worker threads assemble batches (sample, transform, copy) into a bounded
// prefetch queue; the trainer pops ready batches and the loader counts how long it waited.
// Batches arrive in order whatever the worker count, and are bit-identical for the same
// seed and epoch with 0, 1 or N workers (sampling and augmentation derive from
// (seed, epoch, position), never from a worker's state). Implemented in loader.cpp with
// sampler.h, transforms.h; the decoded-sample cache is sample_cache.h.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "data/dataset.h"
#include "tensor/tensor.h"

namespace ts {

struct Batch {
    // Views of one pooled buffer (from LoaderOptions::batchAllocator). The loader reuses a
    // buffer only once every Tensor of its batch is gone, so a batch may be kept safely.
    Tensor inputs;  // [n, sampleShape...] f32 (i64 token ids for sequence data), host memory
    Tensor labels;  // [n] i64, or [n, targetShape...] for sequence data; f32 for value targets (regression)
    std::int64_t size = 0;  // n (the last batch may be smaller unless dropLast; a shard of a global batch)
    std::int64_t index = 0;  // position in the epoch (of the global batch)
    // The id cut from the end of every sample of a padded sequence dataset (Dataset::paddingId):
    // inputs are then [n, the longest sample's tokens], so a batch of short texts costs what
    // they hold. feedBatch pads back for a model that takes only the full length. -1: none cut.
    std::int64_t paddingId = -1;
};

struct LoaderOptions {
    std::int64_t batchSize = 128;
    bool dropLast = true;   // training drops the ragged last batch; evaluation keeps it
    bool shuffle = true;    // false: sequential (evaluation)
    std::uint64_t seed = 0;
    bool augment = true;    // false: skip random crop / flip (evaluation)
    Allocator* batchAllocator = nullptr;  // pinned host memory on CUDA; null: CpuAllocator.
                                          // Must outlive the loader and its batches.
    // Data parallelism (dist/): every rank walks the same seeded order in global batches of
    // batchSize and keeps its shard of each, samples [k*batchSize + r*n/W, k*batchSize +
    // (r+1)*n/W) of a batch of n for rank r of W, so the ranks' shards are disjoint and together
    // cover the epoch a single process sees. Augmentation draws from the global position, so
    // a sample is transformed as one process would transform it. W = 1: the whole batch.
    int shardIndex = 0, shardCount = 1;
};

class Loader {
public:
    // spec supplies sampler, transforms, workers (0: batches are assembled inside next())
    // and prefetch depth (at most max(prefetchBatches, numWorkers) batches are claimed ahead
    // of the consumer); stats feed normalizeFromStatistics. Throws std::invalid_argument
    // for a spec that does not fit the data (weights per class, normalisation per channel).
    // The destructor cancels in-flight work and joins the workers (at most one get() each).
    Loader(std::shared_ptr<Dataset> dataset, const DatasetSpec& spec, const DatasetStatistics& stats,
           LoaderOptions options);
    ~Loader();
    Loader(const Loader&) = delete;
    Loader& operator=(const Loader&) = delete;

    // Starts producing epoch `epoch` (its shuffle derives from seed and epoch, so any epoch
    // can be reproduced, e.g. on resume). Resets the wait counter. Abandons any unfinished
    // epoch: its in-flight batches are dropped, never delivered. firstBatch skips the
    // epoch's first batches (a run resumed mid-epoch continues where it stopped).
    void startEpoch(std::int64_t epoch, std::int64_t firstBatch = 0);
    // The next batch of the epoch, or false at its end. Blocks while the queue is empty.
    // An exception from the dataset (DataError) is rethrown here, at the batch it belongs
    // to, and again on every later call until startEpoch(). std::logic_error before the
    // first startEpoch().
    bool next(Batch& batch);
    std::int64_t batchesPerEpoch() const;
    // Seconds next() spent blocked since startEpoch().
    double waitSeconds() const;

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace ts
