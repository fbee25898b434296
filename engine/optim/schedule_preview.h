// A run's optimizer steps and the learning rate of each, as ONE piece of code: the Trainer
// plans its steps and asks for each step's rate through these functions, and the studio's
// schedule preview calls the very same ones with the training split's size (data/split_sizes.h)
// instead of a loader, so the drawn curve is the curve the run will log, bit for bit.
#pragma once
#include <cstdint>
#include <vector>

#include "optim/schedule.h"
#include "types/experiment_spec.h"

namespace ts {

struct StepPlan {
    std::int64_t batchesPerEpoch = 0;  // micro-batches per epoch
    std::int64_t stepsPerEpoch = 0;    // optimizer steps: batches / accumulation, rounded up
    std::int64_t totalSteps = 0;       // stepsPerEpoch * epochs, capped by maxSteps
};

// Throws std::invalid_argument unless training.batch_size and accumulation_steps are >= 1.
void checkBatching(const TrainingSpec& training);

// The micro-batches a training split of `trainSamples` samples yields per epoch: the training
// loader drops the ragged last batch (LoaderOptions::dropLast), and overfit mode keeps at most
// overfitBatches of them. What Loader::batchesPerEpoch() gives the Trainer.
std::int64_t trainingBatchesPerEpoch(const TrainingSpec& training, std::int64_t trainSamples);

// The run's step counts from its batches per epoch; maxSteps > 0 ends the run there (the
// learning-rate finder). Throws std::invalid_argument, naming trainSamples, when not even
// one batch fits.
StepPlan planSteps(const TrainingSpec& training, std::int64_t batchesPerEpoch, std::int64_t trainSamples,
                   std::int64_t maxSteps = 0);

// The learning rate of optimizer step `step` (0-based: the step about to be taken; the
// trainer's StepEvent numbers it step + 1). Plateau: `plateau`'s current rate (null: the
// undecayed base rate), times the warm-up; every other type: scheduledLr.
double stepLearningRate(const ExperimentSpec& spec, std::int64_t step, const StepPlan& plan,
                        const PlateauScheduler* plateau);

struct SchedulePreview {
    StepPlan plan;
    std::vector<double> rates;  // one per optimizer step: rates[k] is logged at step k + 1
    // The plateau schedule lowers its rate only when validation stops improving, which no
    // preview can know: its rates are the upper bound (no decay ever).
    bool isUpperBound = false;
};

// Every step's learning rate of a new run of `spec` whose training split has `trainSamples`
// samples. Throws std::invalid_argument for settings the trainer would refuse (batching, a
// schedule's range) with the same message.
SchedulePreview previewSchedule(const ExperimentSpec& spec, std::int64_t trainSamples);
std::vector<double> previewLearningRates(const ExperimentSpec& spec, std::int64_t trainSamples);

}  // namespace ts
