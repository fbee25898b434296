#include "data/split_sizes.h"

#include "data/dataset.h"

namespace ts {

SplitSizes experimentSplitSizes(const ExperimentSpec& spec, const std::string& cacheDir)
{
    ExperimentSpec counted = spec;
    counted.dataset.cache = false;  // decoding every sample into a cache file is training's job
    const DatasetSplits splits = openExperimentDataset(counted, cacheDir);
    SplitSizes sizes;
    sizes.train = splits.train ? splits.train->size() : 0;
    sizes.validation = splits.validation ? splits.validation->size() : 0;
    sizes.test = splits.test ? splits.test->size() : 0;
    return sizes;
}

}  // namespace ts
