#include "jobs/diagnostic_actions.h"

#include <cstdio>
#include <stdexcept>

#include "io/yaml/experiment_yaml.h"
#include "store/run_reader.h"
#include "store/workspace.h"

namespace ts {

TrainJob lowerLearningRateJob(const Workspace& workspace, std::int64_t runId, double factor)
{
    RunReader reader(workspace);
    const std::optional<RunInfo> run = reader.run(runId);
    if (!run) throw std::invalid_argument("the workspace has no run " + std::to_string(runId));
    const std::string source = "run " + std::to_string(runId);
    ExperimentSpec spec = parseExperiment(run->experimentYaml, source);
    const double lr = spec.optimizer.lr * factor;
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", lr);  // "0.0001", not 1.0000000000000002e-04
    TrainJob job;
    if (!reader.checkpoints(runId).empty()) {
        job.fork = std::to_string(runId);
        job.overrides = {std::string("optimizer.lr=") + text};
    } else {
        spec.optimizer.lr = std::strtod(text, nullptr);
        job.experiment = std::move(spec);
    }
    return job;
}

}  // namespace ts
