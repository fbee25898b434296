// Synchronised batch norm (training.sync_batchnorm): the statistics of the global batch, whose
// shards sit on several ranks. The backend computes each rank's per-channel sums in double; they
// cross the ranks through the communicator's float all-reduce (CrossRankSum, backend.h) as two
// floats each, hi = float(v) and lo = float(v - hi), so a sum keeps about 48 bits instead of
// float's 24 and the global mean and variance equal one process's to within double rounding.
// The communicator adds in a fixed rank order, so every rank gets the same bits.
//
// Shared by the CPU and CUDA backends: these are a few values per channel, handled on the host.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "backend/backend.h"

namespace ts {

// Sums `local` (a count of samples may be among them) over the ranks. `exchange` moves the
// hi/lo floats through `sum` in the backend's memory (a device round trip on CUDA).
std::vector<double> sumOverRanks(std::span<const double> local,
                                 const std::function<void(std::vector<float>&)>& exchange);

// Per-channel sums over `localCount` values on this rank, added over the ranks and divided by
// the global count: one pass of the mean or of the variance. The count comes back too.
struct MeansOverRanks {
    std::vector<double> mean;
    double count = 0;
};
MeansOverRanks meanOverRanks(std::span<const double> localSums, double localCount,
                             const std::function<void(std::vector<float>&)>& exchange);

// The statistics of the global batch from its per-channel sums over count values: the mean
// (first pass, sum of x) and the biased variance (second pass, sum of (x - mean)^2).
struct GlobalMoments {
    std::vector<double> mean, var;
    double count = 0;
};

// Saved mean and 1/sqrt(var + eps), and the running update with the unbiased variance, as the
// local batch norm does (backend.h), from global moments. Host pointers.
void finishBatchNormStatistics(const GlobalMoments& m, float momentum, float eps, float* saveMean, float* saveInvStd,
                               float* runningMean, float* runningVar);

}  // namespace ts
