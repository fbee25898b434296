// `trainstudio-cli train`: the headless way to train. Every run lands in the workspace's
// studio.db (metrics, logs, checkpoints); --resume continues a stopped or crashed run and
// --fork starts a new one from a checkpoint with changed settings.
#include <csignal>
#include <cstdio>

#include "backend/select_backend.h"
#include "commands.h"
#include "console_listener.h"
#include "experiment_loading.h"
#include "format.h"
#include "io/experiment_yaml.h"
#include "store/resume_source.h"
#include "store/run_recorder.h"
#include "train/trainer.h"

namespace ts::cli {

namespace {

volatile std::sig_atomic_t interrupted = 0;
void onInterrupt(int) { interrupted = 1; }

// Turns Ctrl+C into a clean stop: the handler only sets a flag (all it may safely do);
// the trainer thread sees it at the next event and asks the run to stop.
class InterruptListener final : public TrainListener {
public:
    explicit InterruptListener(RunControl& control) : control_(control) {}
    void onEvent(const TrainEvent&) override
    {
        if (interrupted && !control_.stopRequested()) {
            std::fprintf(stderr, "\ninterrupted: stopping after this step (a checkpoint is saved)\n");
            control_.stop();
        }
    }

private:
    RunControl& control_;
};

}  // namespace

int trainCommand(const std::vector<std::string>& args)
{
    const Options o = parseOptions(args, {"--device", "--epochs", "--set", "--workspace", "--resume", "--fork", "--name", "--tag"},
                                   {"--json"});
    const bool resume = o.has("--resume"), fork = o.has("--fork");
    if (resume && fork) throw std::invalid_argument("use --resume or --fork, not both");
    if (resume && (!o.positional.empty() || o.has("--set")))
        throw std::invalid_argument("--resume continues a run exactly as it was (only --epochs and --device may change); "
                                    "to change settings use --fork RUN_OR_CHECKPOINT [EXPERIMENT.yaml] --set key=value");
    if (!resume && !fork && o.positional.size() != 1)
        throw std::invalid_argument("train expects one experiment file (e.g. experiments/fashion_mnist_mlp.yaml)");
    if (o.positional.size() > 1) throw std::invalid_argument("train takes at most one experiment file");

    const Workspace workspace = Workspace::open(o.get("--workspace", Workspace::defaultDirectory()));
    std::optional<Continuation> from;
    ExperimentSpec spec;
    if (resume || fork) {
        from = loadContinuation(workspace, o.get(resume ? "--resume" : "--fork", ""));
        spec = o.positional.empty()
                   ? parseExperimentWithOverrides(from->checkpoint.state.experimentYaml, from->source, o.all("--set"))
                   : loadExperimentWithOverrides(o.positional[0], o.all("--set"));
    } else {
        spec = loadExperimentWithOverrides(o.positional[0], o.all("--set"));
    }
    spec = withAbsolutePaths(spec);
    if (o.has("--epochs")) spec.training.epochs = o.integer("--epochs", spec.training.epochs, 1);
    if (o.has("--device")) spec.training.device = o.get("--device", "auto");
    const bool json = o.flags.count("--json") != 0;

    std::string notice;
    Backend& backend = selectBackend(spec.training.device, &notice);
    if (!notice.empty()) std::fprintf(stderr, "%s\n", notice.c_str());
    DatasetSplits splits = openExperimentDataset(spec);

    RunWriter writer(workspace);
    NewRun run = newRunFor(spec, backend.name());
    run.name = o.get("--name", "");
    run.tags = o.all("--tag");
    if (from) {
        run.parentRunId = from->parentRun;
        run.parentRelation = resume ? "resume" : "fork";
    }
    const std::int64_t runId = writer.createRun(run);
    if (json)
        std::printf("{\"event\":\"run\",\"run_id\":%lld,\"workspace\":%s}\n", static_cast<long long>(runId),
                    jsonString(workspace.directory).c_str());
    else
        std::printf("run %lld: training %s on %s: %s, %lld epochs, batch %lld\n", static_cast<long long>(runId),
                    spec.name.c_str(), backend.name().c_str(), splits.train->description().c_str(),
                    static_cast<long long>(spec.training.epochs), static_cast<long long>(spec.training.batchSize));
    std::fflush(stdout);

    const std::int64_t samples = splits.train->size();
    const std::int64_t steps = spec.training.overfitBatches > 0 ? spec.training.overfitBatches : samples / spec.training.batchSize;
    ConsoleListener console(json, spec.training.epochs, steps, samples);
    TrainerOptions options;
    options.cacheDir = cacheDirectory();
    options.checkpointDir = workspace.runCheckpointsPath(runId);
    if (from) {
        options.resume = std::move(from->checkpoint);
        options.resumeSource = from->source;
        options.fork = fork;
    }
    Trainer trainer(spec, std::move(splits), backend, std::move(options));
    RunRecorder recorder(writer, runId);
    InterruptListener interrupt(trainer.control());
    trainer.addListener(&recorder);
    trainer.addListener(&console);
    trainer.addListener(&interrupt);
    std::signal(SIGINT, onInterrupt);
    const FinishedEvent done = trainer.run();
    std::signal(SIGINT, SIG_DFL);
    writer.flush();
    if (!json)
        std::fprintf(stderr, "run %lld saved in %s (trainstudio-cli runs show %lld --workspace ...)\n",
                     static_cast<long long>(runId), workspace.databasePath().c_str(), static_cast<long long>(runId));
    return done.outcome == FinishedEvent::Outcome::Failed ? 1 : 0;
}

}  // namespace ts::cli
