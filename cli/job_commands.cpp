// `trainstudio-cli eval` and `lr-find`: the engine's evaluate and learning-rate finder jobs,
// shown by the same console listener as training.
#include <cstdio>
#include <filesystem>

#include "commands.h"
#include "console_listener.h"
#include "format.h"
#include "io/experiment_yaml.h"
#include "jobs/job.h"
#include "store/workspace.h"
#include "train/run_control.h"

namespace ts::cli {

namespace {

// Prints the result's metrics; --json lines come from the console listener.
int runAndReport(const Job& job, const JobEnvironment& env, bool json)
{
    ConsoleListener console(json, env.workspaceDir);
    RunControl control;
    const JobResult result = runJob(job, env, control, console);
    if (!json && result.finished.outcome != FinishedEvent::Outcome::Failed)
        for (const auto& [name, value] : result.finished.metrics) std::printf("  %-22s %.6g\n", name.c_str(), value);
    return result.finished.outcome == FinishedEvent::Outcome::Failed ? 1 : 0;
}

}  // namespace

int evalCommand(const std::vector<std::string>& args)
{
    const Options o = parseOptions(args, {"--checkpoint", "--split", "--device", "--workspace"}, {"--json"});
    if (o.positional.size() != 1) throw std::invalid_argument("eval expects one run id (trainstudio-cli runs list shows them)");
    EvaluateJob job;
    try {
        job.runId = std::stoll(o.positional[0]);
    } catch (const std::exception&) {
        throw std::invalid_argument("eval expects a run id, got '" + o.positional[0] + "'");
    }
    job.checkpoint = o.get("--checkpoint", "best");
    job.split = o.get("--split", "");  // test, or val without a test split
    job.device = o.get("--device", "");
    JobEnvironment env;
    env.workspaceDir = std::filesystem::absolute(o.get("--workspace", Workspace::defaultDirectory())).string();
    env.systemSampleSeconds = 0;
    return runAndReport(job, env, o.flags.count("--json") != 0);
}

int lrFindCommand(const std::vector<std::string>& args)
{
    const Options o = parseOptions(args, {"--set", "--device", "--steps", "--min-lr", "--max-lr"}, {"--json"});
    if (o.positional.size() != 1) throw std::invalid_argument("lr-find expects one experiment file");
    LrFindJob job;
    job.experiment = withAbsolutePaths(loadExperimentWithOverrides(o.positional[0], o.all("--set")));
    job.steps = o.integer("--steps", job.steps, 10);
    job.minLr = o.number("--min-lr", job.minLr);
    job.maxLr = o.number("--max-lr", job.maxLr);
    job.device = o.get("--device", "");
    JobEnvironment env;  // nothing is recorded
    env.systemSampleSeconds = 0;
    return runAndReport(job, env, o.flags.count("--json") != 0);
}

}  // namespace ts::cli
