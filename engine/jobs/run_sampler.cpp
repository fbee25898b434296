#include "jobs/run_sampler.h"

#include <filesystem>
#include <stdexcept>

#include "io/checkpoint/checkpoint.h"
#include "io/yaml/experiment_yaml.h"
#include "jobs/job_parts.h"
#include "jobs/log_notes.h"
#include "store/resume_source.h"
#include "store/run_reader.h"

namespace ts {

TextSampler openRunSampler(const PredictorOptions& options, std::vector<Message>& notes)
{
    if (options.workspaceDir.empty()) throw std::invalid_argument("generating needs the workspace that holds the run");
    const Workspace workspace{std::filesystem::absolute(options.workspaceDir).lexically_normal().string()};
    RunReader reader(workspace);
    if (!reader.run(options.runId))
        throw std::invalid_argument("run " + std::to_string(options.runId) + " is not in " + workspace.databasePath() +
                                    " (trainstudio-cli runs list shows the runs there)");
    LogNotes collector(notes, MessageId::PredictNoBestCheckpoint);
    const CheckpointRecord chosen = chooseCheckpoint(reader.checkpoints(options.runId), options.runId, options.checkpoint, collector);
    const std::string weightsPath = absoluteCheckpointPath(workspace, chosen.path);
    const Checkpoint checkpoint = loadCheckpoint(weightsPath, chosen.sha256);
    const ExperimentSpec spec = parseExperiment(checkpoint.state.experimentYaml, weightsPath);
    JobEnvironment env;
    env.cacheDir = options.cacheDir;
    Backend& backend = jobBackend(env, options.device.empty() ? spec.training.device : options.device, collector,
                                  BackendPurpose::Predict);
    return TextSampler(spec, checkpoint.weights, checkpoint.state.tokenizer, backend, weightsPath);
}

}  // namespace ts
