// `trainstudio-cli validate EXPERIMENT.yaml`: every check of train without training, then
// the model summary (per-layer shapes, parameters, FLOPs, planned memory).
#include <cstdio>

#include "commands.h"
#include "data/dataset.h"
#include "io/yaml/experiment_yaml.h"
#include "format.h"
#include "graph/cost_model.h"
#include "memory_fit.h"
#include "model_summary.h"
#include "optim/optimizer.h"
#include "train/data_fit.h"

namespace ts::cli {

int validateCommand(const std::vector<std::string>& args)
{
    const Options o = parseOptions(args, {"--set"}, {"--no-data"});
    if (o.positional.size() != 1) throw std::invalid_argument("validate expects one experiment file");
    const ExperimentSpec spec = loadExperimentWithOverrides(o.positional[0], o.all("--set"));
    std::printf("%s: the experiment file is valid\n", o.positional[0].c_str());
    if (!o.flags.count("--no-data")) {
        const DatasetSplits splits = openExperimentDataset(spec, defaultCacheDirectory());
        std::printf("dataset: %s; validation %lld, test %lld samples\n", splits.train->description().c_str(),
                    static_cast<long long>(splits.validation ? splits.validation->size() : 0),
                    static_cast<long long>(splits.test ? splits.test->size() : 0));
        checkDataFitsModel(splits, spec.model);  // as train does before its first step
    }
    // The model's sizes, its summary, and its plan against the memory it would train in.
    return printModelAndMemoryFit(spec);
}

}  // namespace ts::cli
