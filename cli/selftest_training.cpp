#include "selftest_training.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "io/yaml/experiment_yaml.h"
#include "io/yaml/shipped_experiments.h"
#include "jobs/job.h"
#include "train/run_control.h"

namespace ts::cli {

namespace fs = std::filesystem;

namespace {

class LossRecorder final : public TrainListener {
public:
    std::vector<double> losses;
    void onEvent(const TrainEvent& e) override
    {
        if (const auto* step = std::get_if<StepEvent>(&e)) losses.push_back(step->loss);
    }
};

double relative(double cand, double ref)
{
    const double d = std::abs(cand - ref) / std::max(std::abs(ref), 1e-30);
    return std::isnan(d) ? INFINITY : d;
}

}  // namespace

TrainingComparison compareTraining(const std::string& experimentFile, Backend& candidate, Backend& reference,
                                   std::uint64_t seed)
{
    TrainingComparison c;
    c.experiment = fs::path(experimentFile).stem().string();
    try {
        ExperimentSpec spec = loadExperimentWithOverrides(experimentFile, {});
        c.experiment = spec.name;
        // Overfit mode is the existing way to train on a fixed handful of batches: no
        // validation or test pass, one epoch of kTrainingSteps steps.
        TrainingSpec& t = spec.training;
        t.epochs = 1;
        t.overfitBatches = kTrainingSteps;
        t.batchSize = kTrainingBatch;
        t.seed = seed;
        t.precision = "f32";  // the primitives are checked at every precision; training in exact f32
        t.logEverySteps = 1;
        t.earlyStopping.enabled = false;
        for (Backend* backend : {&candidate, &reference}) {
            JobEnvironment env;  // no workspace: nothing is written anywhere
            env.backend = backend;
            env.systemSampleSeconds = 0;  // no monitor thread
            LossRecorder recorder;
            RunControl control;
            const FinishedEvent done = runJob(TrainJob{.experiment = spec}, env, control, recorder).finished;
            if (done.outcome == FinishedEvent::Outcome::Failed) {
                c.detail = (backend == &candidate ? "candidate run failed: " : "reference run failed: ") + done.message.text;
                return c;
            }
            (backend == &candidate ? c.candidate : c.reference) = std::move(recorder.losses);
        }
    } catch (const std::exception& e) {
        c.detail = e.what();
        return c;
    }
    if (c.candidate.size() != c.reference.size() || c.reference.empty()) {
        c.detail = "step counts differ: " + std::to_string(c.candidate.size()) + " vs " + std::to_string(c.reference.size());
        return c;
    }
    for (std::size_t i = 0; i < c.reference.size(); ++i) {
        const double d = relative(c.candidate[i], c.reference[i]);
        c.maxDifference = std::max(c.maxDifference, d);
        if (i < kTrainingEarlySteps) c.earlyDifference = std::max(c.earlyDifference, d);
    }
    c.finalDifference = relative(c.candidate.back(), c.reference.back());
    c.passed = c.earlyDifference < kTrainingEarlyTolerance && c.finalDifference < kTrainingFinalTolerance;
    c.detail = std::to_string(c.reference.size()) + " steps of batch " + std::to_string(kTrainingBatch) + ", final loss " +
               std::to_string(c.candidate.back()) + " vs " + std::to_string(c.reference.back());
    return c;
}

std::string findExperimentsDirectory(const std::string& explicitDir)
{
    const char* probe = "fashion_mnist_mlp.yaml";
    if (!explicitDir.empty()) {
        if (!fs::exists(fs::path(explicitDir) / probe))
            throw std::runtime_error("--experiments " + explicitDir + " holds no " + probe);
        return explicitDir;
    }
    // experiments/ here first (the help says so), then where the studio looks.
    if (std::error_code ec; fs::is_regular_file(fs::current_path() / "experiments" / probe, ec))
        return (fs::current_path() / "experiments").string();
    if (const fs::path shipped = shippedExperimentsDirectory(); !shipped.empty()) return shipped.string();
    throw std::runtime_error(std::string("cannot find experiments/") + probe +
                             " in the current directory, the installed share/trainstudio/ or the source tree "
                             "this binary was built from; pass --experiments DIR, "
                             "or --no-training to check the primitives only");
}

}  // namespace ts::cli
