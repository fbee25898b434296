#include "jobs/diagnostic_actions.h"

#include <cstdio>
#include <cstdlib>
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

TrainJob warmupJob(const Workspace& workspace, std::int64_t runId)
{
    RunReader reader(workspace);
    const std::optional<RunInfo> run = reader.run(runId);
    if (!run) throw std::invalid_argument("the workspace has no run " + std::to_string(runId));
    std::int64_t steps = 0;
    for (const LogLine& line : reader.logs(runId))
        if (line.message.id == "diag.transformer_warmup" && !line.message.args.empty())
            steps = std::strtoll(line.message.args.back().c_str(), nullptr, 10);
    if (steps <= 0) throw std::invalid_argument("run " + std::to_string(runId) + " has no warm-up advice");
    ExperimentSpec spec = parseExperiment(run->experimentYaml, "run " + std::to_string(runId));
    spec.schedule.warmupSteps = steps;
    TrainJob job;
    job.experiment = std::move(spec);
    return job;
}

}  // namespace ts
