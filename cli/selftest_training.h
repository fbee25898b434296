// The self-test's training comparison: a short real run of a shipped experiment on the
// candidate backend and on the CPU with the same seed, compared step by step.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ts {
class Backend;
}

namespace ts::cli {

// Relative difference |cand - cpu| / |cpu| of the per-step losses. Floating-point order
// differences grow with every step, so the first steps are held tight and the end loosely.
constexpr double kTrainingEarlyTolerance = 1e-3;  // each of the first 10 steps
constexpr int kTrainingEarlySteps = 10;
constexpr double kTrainingFinalTolerance = 0.02;  // the last step
constexpr int kTrainingSteps = 30;                // fixed batches of kTrainingBatch, one epoch
constexpr int kTrainingBatch = 16;

struct TrainingComparison {
    std::string experiment;           // e.g. "fashion_mnist_cnn"
    std::vector<double> candidate, reference;  // loss per step
    double earlyDifference = 0;       // max over the first kTrainingEarlySteps steps
    double maxDifference = 0;         // max over all steps
    double finalDifference = 0;       // the last step
    bool passed = false;
    std::string detail;               // a failure's reason, or "30 steps"
};

// Trains `experimentFile` for kTrainingSteps steps (training.overfit_batches, so a few hundred
// samples and no validation pass) on `candidate` and on `reference`. Never throws: a run
// that cannot start or fails is a failed comparison naming why.
TrainingComparison compareTraining(const std::string& experimentFile, Backend& candidate, Backend& reference,
                                   std::uint64_t seed);

// The folder holding fashion_mnist_mlp.yaml: `explicitDir` when given, else experiments/ in
// the current directory, else the shipped ones (io/shipped_experiments.h: installed, or the
// source tree's). Throws naming where it looked.
std::string findExperimentsDirectory(const std::string& explicitDir);

}  // namespace ts::cli
