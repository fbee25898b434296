// Loading an experiment for a command: the file, then `--set key=value` overrides and the
// dataset, with paths resolved against the experiment's folder.
#pragma once
#include <string>
#include <vector>

#include "data/dataset.h"
#include "io/experiment_spec.h"

namespace ts::cli {

// Applies overrides such as "training.batch_size=64" or "optimizer.lr=3e-4" (YAML values:
// lists and numbers as written) and validates the result like the file itself.
ExperimentSpec loadExperimentWithOverrides(const std::string& path, const std::vector<std::string>& overrides);
// The same for experiment text (a checkpoint's copy of its experiment).
ExperimentSpec parseExperimentWithOverrides(const std::string& yamlText, const std::string& sourceName,
                                            const std::vector<std::string>& overrides);

// $XDG_CACHE_HOME/trainstudio or ~/.cache/trainstudio (created).
std::string cacheDirectory();

DatasetSplits openExperimentDataset(const ExperimentSpec& spec);

}  // namespace ts::cli
