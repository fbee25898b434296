// `trainstudio-cli plan`: a built-in model's shapes, cost per node and planned memory,
// before anything runs.
#include <cstdio>

#include "commands.h"
#include "format.h"
#include "graph/templates.h"
#include "model_summary.h"

namespace ts::cli {

int planCommand(const std::vector<std::string>& args)
{
    const Options o = parseOptions(args, {"--model", "--batch"}, {"--inference"});
    const std::string model = o.get("--model", "mlp");
    const auto batch = o.integer("--batch", 128, 1);
    const bool training = !o.flags.count("--inference");
    std::printf("model %s, batch %lld, %s\n\n", model.c_str(), batch, training ? "training" : "inference");
    printModelSummary(checkGraph(templateGraph(model), batch), training);
    return 0;
}

}  // namespace ts::cli
