#include "jobs/evaluated_split.h"
#include "tensor/quote_text.h"

#include <stdexcept>

namespace ts {

std::shared_ptr<Dataset> selectSplit(const DatasetSplits& splits, const std::string& name, const ExperimentSpec& spec)
{
    if (name.empty()) {  // the held-out split there is
        if (splits.test) return splits.test;
        if (splits.validation) return splits.validation;
        throw std::invalid_argument("dataset " + quoteText(spec.dataset.path) + " has no test split and the run no validation split; "
                                    "evaluate the train split");
    }
    if (name == "test") {
        if (!splits.test) throw std::invalid_argument("dataset " + quoteText(spec.dataset.path) + " has no test split; evaluate val or train");
        return splits.test;
    }
    if (name == "val" || name == "validation") {
        if (!splits.validation)
            throw std::invalid_argument("the run trained without a validation split (dataset.validation_fraction 0); "
                                        "evaluate test or train");
        return splits.validation;
    }
    if (name == "train") return splits.train;
    throw std::invalid_argument("split " + quoteText(name) + ": expected test, val or train");
}

std::string splitName(const DatasetSplits& splits, const std::shared_ptr<Dataset>& split)
{
    return split == splits.test ? "test" : split == splits.validation ? "val" : "train";
}

std::shared_ptr<Dataset> openEvaluatedSplit(const ExperimentSpec& spec, const std::string& name, const std::string& cacheDir,
                                            const LabelOverlay& overlay)
{
    const DatasetSplits splits = openExperimentDataset(spec, cacheDir.empty() ? defaultCacheDirectory() : cacheDir, overlay);
    return selectSplit(splits, name, spec);
}

}  // namespace ts
