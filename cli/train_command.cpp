// `trainstudio-cli train EXPERIMENT.yaml`: the headless way to train.
#include <csignal>
#include <cstdio>

#include "backend/select_backend.h"
#include "commands.h"
#include "console_listener.h"
#include "experiment_loading.h"
#include "format.h"
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
            std::fprintf(stderr, "\ninterrupted: stopping after this step\n");
            control_.stop();
        }
    }

private:
    RunControl& control_;
};

}  // namespace

int trainCommand(const std::vector<std::string>& args)
{
    const Options o = parseOptions(args, {"--device", "--epochs", "--set"}, {"--json"});
    if (o.positional.size() != 1) throw std::invalid_argument("train expects one experiment file (e.g. experiments/fashion_mnist_mlp.yaml)");
    ExperimentSpec spec = loadExperimentWithOverrides(o.positional[0], o.all("--set"));
    if (o.has("--epochs")) spec.training.epochs = o.integer("--epochs", spec.training.epochs, 1);
    if (o.has("--device")) spec.training.device = o.get("--device", "auto");
    const bool json = o.flags.count("--json") != 0;

    std::string notice;
    Backend& backend = selectBackend(spec.training.device, &notice);
    if (!notice.empty()) std::fprintf(stderr, "%s\n", notice.c_str());
    DatasetSplits splits = openExperimentDataset(spec);
    if (!json)
        std::printf("training %s on %s: %s, %lld epochs, batch %lld\n", spec.name.c_str(), backend.name().c_str(),
                    splits.train->description().c_str(), static_cast<long long>(spec.training.epochs),
                    static_cast<long long>(spec.training.batchSize));

    const std::int64_t samples = splits.train->size();
    const std::int64_t steps = spec.training.overfitBatches > 0 ? spec.training.overfitBatches : samples / spec.training.batchSize;
    ConsoleListener console(json, spec.training.epochs, steps, samples);
    TrainerOptions options;
    options.cacheDir = cacheDirectory();
    Trainer trainer(spec, std::move(splits), backend, options);
    InterruptListener interrupt(trainer.control());
    trainer.addListener(&console);
    trainer.addListener(&interrupt);
    std::signal(SIGINT, onInterrupt);
    const FinishedEvent done = trainer.run();
    std::signal(SIGINT, SIG_DFL);
    return done.outcome == FinishedEvent::Outcome::Failed ? 1 : 0;
}

}  // namespace ts::cli
