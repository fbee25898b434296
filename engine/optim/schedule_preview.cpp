#include "optim/schedule_preview.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

namespace ts {

void checkBatching(const TrainingSpec& training)
{
    if (training.batchSize < 1) throw std::invalid_argument("training.batch_size must be at least 1");
    if (training.accumulationSteps < 1) throw std::invalid_argument("training.accumulation_steps must be at least 1");
}

std::int64_t trainingBatchesPerEpoch(const TrainingSpec& training, std::int64_t trainSamples)
{
    checkBatching(training);
    const std::int64_t batches = std::max<std::int64_t>(trainSamples, 0) / training.batchSize;
    return training.overfitBatches > 0 ? std::min(batches, training.overfitBatches) : batches;
}

StepPlan planSteps(const TrainingSpec& training, std::int64_t batchesPerEpoch, std::int64_t trainSamples,
                   std::int64_t maxSteps)
{
    checkBatching(training);
    if (batchesPerEpoch == 0)
        throw std::invalid_argument("the training split has " + std::to_string(trainSamples) +
                                    " samples, fewer than one batch of " + std::to_string(training.batchSize) +
                                    ": lower training.batch_size");
    StepPlan plan;
    plan.batchesPerEpoch = batchesPerEpoch;
    plan.stepsPerEpoch = (batchesPerEpoch + training.accumulationSteps - 1) / training.accumulationSteps;
    plan.totalSteps = plan.stepsPerEpoch * training.epochs;
    if (maxSteps > 0) plan.totalSteps = std::min(plan.totalSteps, maxSteps);
    return plan;
}

double stepLearningRate(const ExperimentSpec& spec, std::int64_t step, const StepPlan& plan,
                        const PlateauScheduler* plateau)
{
    // Plateau moves the rate after evaluations; warm-up still applies on top of it.
    if (spec.schedule.type == "plateau")
        return (plateau ? plateau->lr() : spec.optimizer.lr) * warmupFactor(spec.schedule, step);
    return scheduledLr(spec.schedule, spec.optimizer.lr, step, plan.stepsPerEpoch, plan.totalSteps);
}

SchedulePreview previewSchedule(const ExperimentSpec& spec, std::int64_t trainSamples)
{
    SchedulePreview preview;
    preview.plan = planSteps(spec.training, trainingBatchesPerEpoch(spec.training, trainSamples), trainSamples);
    preview.isUpperBound = spec.schedule.type == "plateau";
    // A fresh scheduler holds the base rate: the same object the trainer starts from.
    std::optional<PlateauScheduler> plateau;
    if (preview.isUpperBound) plateau.emplace(spec.schedule, spec.optimizer.lr);
    preview.rates.reserve(static_cast<std::size_t>(std::max<std::int64_t>(preview.plan.totalSteps, 0)));
    for (std::int64_t step = 0; step < preview.plan.totalSteps; ++step)
        preview.rates.push_back(stepLearningRate(spec, step, preview.plan, plateau ? &*plateau : nullptr));
    return preview;
}

std::vector<double> previewLearningRates(const ExperimentSpec& spec, std::int64_t trainSamples)
{
    return previewSchedule(spec, trainSamples).rates;
}

}  // namespace ts
