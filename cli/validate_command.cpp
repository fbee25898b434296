// `trainstudio-cli validate EXPERIMENT.yaml`: every check of train without training, then
// the model summary (per-layer shapes, parameters, FLOPs, planned memory).
#include <cstdio>

#include "commands.h"
#include "experiment_loading.h"
#include "format.h"
#include "model_summary.h"

namespace ts::cli {

int validateCommand(const std::vector<std::string>& args)
{
    const Options o = parseOptions(args, {"--set"}, {"--no-data"});
    if (o.positional.size() != 1) throw std::invalid_argument("validate expects one experiment file");
    const ExperimentSpec spec = loadExperimentWithOverrides(o.positional[0], o.all("--set"));
    std::printf("%s: the experiment file is valid\n", o.positional[0].c_str());
    if (!o.flags.count("--no-data")) {
        const DatasetSplits splits = openExperimentDataset(spec);
        std::printf("dataset: %s; validation %lld, test %lld samples\n", splits.train->description().c_str(),
                    static_cast<long long>(splits.validation ? splits.validation->size() : 0),
                    static_cast<long long>(splits.test ? splits.test->size() : 0));
    }
    const std::size_t paramFloats = [&] {
        std::size_t n = 0;
        for (const auto& node : checkGraph(spec.model, 1).nodes)
            for (const auto& p : node.params)
                if (p.trainable) n += static_cast<std::size_t>(p.shape.numel());
        return n;
    }();
    const std::string& opt = spec.optimizer.type;
    const int copies = opt == "adam" || opt == "adamw" ? 2 : opt == "rmsprop" ? (spec.optimizer.momentum > 0 ? 2 : 1)
                     : spec.optimizer.momentum > 0 ? 1 : 0;
    std::printf("model (%s, batch %lld):\n\n", opt.c_str(), static_cast<long long>(spec.training.batchSize));
    printModelSummary(checkGraph(spec.model, spec.training.batchSize), true, copies * paramFloats * sizeof(float));
    return 0;
}

}  // namespace ts::cli
