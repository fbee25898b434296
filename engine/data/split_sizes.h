// How many samples each split of an experiment's dataset holds, without training: what the
// schedule preview needs to count a run's steps before it starts.
#pragma once
#include <cstdint>
#include <string>

#include "types/experiment_spec.h"

namespace ts {

struct SplitSizes {
    std::int64_t train = 0;       // after the validation carve
    std::int64_t validation = 0;  // 0 when validation_fraction is 0
    std::int64_t test = 0;        // 0 when the data has no test split
};

// Opens the dataset exactly as a training job does (openExperimentDataset: the seeded,
// grouped validation carve) and counts the splits. It reads the files (and, on a first open,
// computes the training statistics into `cacheDir`, where training finds them again), so call
// it off the UI thread. The decoded-sample cache is never built here. Throws DataError.
SplitSizes experimentSplitSizes(const ExperimentSpec& spec, const std::string& cacheDir);

}  // namespace ts
