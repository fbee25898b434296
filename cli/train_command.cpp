// `trainstudio-cli train`: the headless way to train. Every run lands in the workspace's
// studio.db (metrics, logs, checkpoints); --resume continues a stopped or crashed run and
// --fork starts a new one from a checkpoint with changed settings.
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "commands.h"
#include "console_listener.h"
#include "dist/communicator.h"
#include "format.h"
#include "terminal_text.h"
#include "io/yaml/experiment_yaml.h"
#include "jobs/job.h"
#include "store/workspace.h"
#include "train/run_control.h"

namespace ts::cli {

namespace {

volatile std::sig_atomic_t interrupted = 0;  // the signal's number
void onInterrupt(int signal) { interrupted = signal; }

// Turns Ctrl+C and SIGTERM (what a desktop session or a scheduler sends) into a clean stop:
// the handler only sets a flag (all it may safely do); this thread sees it within 50 ms and
// asks the run to stop, also while it is paused (the disk full) and sends no events.
class InterruptWatch {
public:
    explicit InterruptWatch(RunControl& control) : control_(control)
    {
        interrupted = 0;
        std::signal(SIGINT, onInterrupt);
        std::signal(SIGTERM, onInterrupt);
        thread_ = std::thread([this] {
            while (!done_) {
                if (interrupted && !control_.stopRequested()) {
                    std::fprintf(stderr, "\n%s: stopping after this step (a checkpoint is saved)\n",
                                 interrupted == SIGTERM ? "terminated (SIGTERM)" : "interrupted");
                    control_.stop();
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
            }
        });
    }
    ~InterruptWatch()
    {
        done_ = true;
        thread_.join();
        std::signal(SIGINT, SIG_DFL);
        std::signal(SIGTERM, SIG_DFL);
    }

private:
    RunControl& control_;
    std::atomic<bool> done_{false};
    std::thread thread_;
};

// Ranks other than 0 of a distributed run (mpirun, srun) train silently beside rank 0, which
// shows the run; they say only what went wrong on them.
class OtherRankListener final : public TrainListener {
public:
    explicit OtherRankListener(int rank) : rank_(rank) {}
    void onEvent(const TrainEvent& event) override
    {
        if (const auto* log = std::get_if<LogEvent>(&event); log && log->level == LogEvent::Level::Error)
            std::fprintf(stderr, "rank %d: %s\n", rank_, terminalMessage(log->message.text).c_str());
        if (const auto* f = std::get_if<FinishedEvent>(&event); f && f->outcome == FinishedEvent::Outcome::Failed)
            std::fprintf(stderr, "rank %d: failed: %s\n", rank_, terminalMessage(f->message.text).c_str());
    }

private:
    int rank_;
};

}  // namespace

int trainCommand(const std::vector<std::string>& args)
{
    const Options o = parseOptions(args, {"--device", "--epochs", "--threads", "--set", "--workspace", "--resume", "--fork", "--name", "--tag"},
                                   {"--json", "--allow-changed-data"});
    const bool resume = o.has("--resume"), fork = o.has("--fork");
    if (resume && fork) throw std::invalid_argument("use --resume or --fork, not both");
    if (resume && (!o.positional.empty() || o.has("--set")))
        throw std::invalid_argument("--resume continues a run exactly as it was (only --epochs, --device and --threads may change); "
                                    "to change settings use --fork RUN_OR_CHECKPOINT [EXPERIMENT.yaml] --set key=value");
    if (!resume && !fork && o.positional.size() != 1)
        throw std::invalid_argument("train expects one experiment file (e.g. experiments/fashion_mnist_mlp.yaml)");
    if (o.positional.size() > 1) throw std::invalid_argument("train takes at most one experiment file");

    TrainJob job;
    job.resume = o.get("--resume", "");
    job.fork = o.get("--fork", "");
    if (!o.positional.empty()) job.experiment = loadExperimentWithOverrides(o.positional[0], o.all("--set"));
    else job.overrides = o.all("--set");  // a fork of the checkpoint's own experiment
    if (o.has("--epochs")) job.epochs = o.integer("--epochs", 1, 1);
    job.device = o.get("--device", "");
    if (o.has("--threads")) {
        job.threads = o.integer("--threads", 0, 0, kMaxThreads);  // 0: automatic
        warnAboveHardwareThreads("--threads", *job.threads);
    }
    job.name = o.get("--name", "");
    job.tags = o.all("--tag");
    job.allowChangedData = o.flags.count("--allow-changed-data") != 0;
    const bool json = o.flags.count("--json") != 0;

    JobEnvironment env;
    env.workspaceDir = o.workspace();
    ConsoleListener console(json, env.workspaceDir);
    const int rank = launchEnvironment().rank;
    OtherRankListener otherRank(rank);
    RunControl control;
    JobResult result;
    {
        InterruptWatch watch(control);
        result = runJob(job, env, control, rank == 0 ? static_cast<TrainListener&>(console) : otherRank);
    }
    const bool stored = result.finished.message.id != "job.save_failed";
    if (!json && result.runId >= 0 && stored)
        std::fprintf(stderr, "run %lld saved in %s (trainstudio-cli runs show %lld --workspace ...)\n",
                     static_cast<long long>(result.runId), Workspace{env.workspaceDir}.databasePath().c_str(),
                     static_cast<long long>(result.runId));
    return result.finished.outcome == FinishedEvent::Outcome::Failed ? 1 : 0;
}

}  // namespace ts::cli
