// Which split of a run's dataset an evaluation evaluated, as a Dataset: the evaluate job
// picks the split it predicts with it, and the studio reopens the same split later to show
// an evaluation's samples (Prediction::sample is an index into it) and its class names.
// The validation split is carved from the training data by the spec's split seed, so the
// same spec always yields the same samples in the same order.
#pragma once
#include <memory>
#include <string>

#include "data/dataset.h"
#include "types/experiment_spec.h"

namespace ts {

// `name`: "test", "val" (or "validation"), "train", or empty for the held-out split there
// is (test, else validation). Throws std::invalid_argument saying which splits exist.
std::shared_ptr<Dataset> selectSplit(const DatasetSplits& splits, const std::string& name, const ExperimentSpec& spec);

// "test", "val" or "train": the name an evaluation stores for `split`, one of `splits`.
std::string splitName(const DatasetSplits& splits, const std::shared_ptr<Dataset>& split);

// Opens the experiment's dataset (cacheDir empty: defaultCacheDirectory()) and returns the
// split `name` (as selectSplit). The spec is the run's, as the store keeps it (its dataset
// path is absolute). Throws DataError when the files are gone or damaged (the message names
// the file) and std::invalid_argument when the split does not exist.
// `overlay`: the run's label overlay (store/label_overlay.h's runLabelOverlay), so a run
// trained with excluded samples reopens the split its evaluations index.
std::shared_ptr<Dataset> openEvaluatedSplit(const ExperimentSpec& spec, const std::string& name,
                                            const std::string& cacheDir = {}, const LabelOverlay& overlay = {});

}  // namespace ts
