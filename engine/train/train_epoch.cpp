// One training epoch: micro-batches, gradient accumulation, non-finite checks, clipping,
// the optimizer step and step events; pause and stop are honoured between batches.
#include <algorithm>
#include <cmath>

#include "backend/backend.h"
#include "dist/bucket_reducer.h"
#include "dist/communicator.h"
#include "optim/schedule_preview.h"
#include "train/trainer.h"

namespace ts {

double Trainer::currentLr() const
{
    // The one rule the schedule preview draws too (optim/schedule_preview.h).
    return stepLearningRate(spec_, step_, StepPlan{batchesPerEpoch_, stepsPerEpoch_, totalSteps_},
                            plateau_ ? &*plateau_ : nullptr);
}

bool Trainer::checkPause()
{
    if (control_->stopRequested()) return false;
    if (!control_->pauseRequested()) return true;
    log(LogEvent::Level::Info, makeMessage(MessageId::TrainPaused, {std::to_string(step_)}));
    const auto pausedAt = std::chrono::steady_clock::now();
    const bool resumed = control_->waitWhilePaused();
    pausedSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - pausedAt).count();
    if (!resumed) return false;
    log(LogEvent::Level::Info, makeMessage(MessageId::TrainResumed, {std::to_string(step_)}));
    return true;
}

bool Trainer::nextBatch(Batch& batch, std::size_t& fixedIndex)
{
    if (fixedBatches_.empty()) return trainLoader_->next(batch);
    if (fixedIndex >= fixedBatches_.size()) return false;
    batch = fixedBatches_[fixedIndex++];
    return true;
}

// The seeds' not-converging checklist, with this run's numbers in it (`diverged`'s template).
// Returns true when the run continues (skipNonFiniteLoss), after a warning.
bool Trainer::handleNonFinite(MessageId diverged, MessageId skipped, std::int64_t epoch, std::int64_t batch)
{
    const std::int64_t step = step_ + 1;  // the step being attempted, as StepEvent would number it
    if (spec_.training.skipNonFiniteLoss) {
        log(LogEvent::Level::Warning,
            makeMessage(skipped, {std::to_string(step), std::to_string(epoch), std::to_string(batch + 1)}));
        return true;
    }
    const double lr = currentLr();
    failure_ = makeMessage(diverged, {std::to_string(step), std::to_string(epoch), std::to_string(batch + 1),
                                      numberArg(lr), numberArg(lr / 10), std::to_string(classes_)});
    return false;
}

Trainer::EpochResult Trainer::trainEpoch(std::int64_t epoch, EpochTotals& totals, std::int64_t firstBatch)
{
    const TrainingSpec& t = spec_.training;
    const auto epochStart = std::chrono::steady_clock::now();
    const double pausedBefore = pausedSeconds_;
    double lastWait = 0;
    // Active time: a pause is not training time (it is reported beside it). A resumed epoch
    // adds the time its checkpoint had counted.
    auto closeTotals = [&] {
        totals.pausedSeconds = pausedSeconds_ - pausedBefore;
        totals.seconds = totals.priorSeconds +
                         std::chrono::duration<double>(std::chrono::steady_clock::now() - epochStart).count() - totals.pausedSeconds;
        totals.waitSeconds = totals.priorWaitSeconds + lastWait;
    };
    if (fixedBatches_.empty()) trainLoader_->startEpoch(epoch - 1, firstBatch);
    exec_->setTraining(true);

    std::size_t fixedIndex = static_cast<std::size_t>(firstBatch);
    std::int64_t micro = 0, groupSize = 1, groupSamples = 0;
    double groupLoss = 0;
    bool groupBad = false;
    MessageId badDiverged = MessageId::TrainDivergedNanLoss, badSkipped = MessageId::TrainSkippedNanLoss;
    double stepWait = 0, intervalSeconds = 0;
    std::int64_t intervalSamples = 0, intervalLocalSamples = 0;  // the global batch's; this rank's shard
    auto intervalStart = std::chrono::steady_clock::now();
    Batch batch;
    for (std::int64_t b = firstBatch; nextBatch(batch, fixedIndex); ++b) {
        if (micro == 0 && options_.maxSteps > 0 && step_ >= options_.maxSteps) break;  // the run's last step is taken
        if (micro == 0) {
            // Stop only between optimizer steps, so a checkpoint never splits a group; in a
            // distributed run every rank stops at the same step when any rank is asked to.
            bool stop = !checkPause();
            if (comm_->size() > 1) stop = comm_->anyTrue(stop);
            if (stop) {
                stopBatch_ = b;
                closeTotals();  // the checkpoint keeps the epoch so far
                return EpochResult::Stopped;
            }
            // The graph's loss is a batch mean; seeding backward with 1/groupSize makes the
            // gradients accumulated over the group the mean over it, as one big batch would.
            // The epoch's last group may be shorter, and is averaged over what it holds.
            // With fp16 the seed also carries the loss scale (undone before clipping).
            groupSize = std::min<std::int64_t>(t.accumulationSteps, batchesPerEpoch_ - b);
            exec_->setLossScale(static_cast<float>(scaler_.scale() / static_cast<double>(groupSize)));
            exec_->zeroGrad();
            if (reducer_) reducer_->begin(exec_->flatGradients().data<float>());
        }
        const double wait = fixedBatches_.empty() ? trainLoader_->waitSeconds() : 0.0;
        stepWait += wait - lastWait;
        lastWait = wait;

        feedBatch(*exec_, binding_, batch);
        exec_->setStep(microStep_++);
        exec_->forward();
        const double loss = exec_->loss();
        // Synchronised batch norm exchanges statistics in backward too: a rank must not skip
        // backward alone, so the ranks agree on the loss first.
        const bool anyNonFinite = syncBatchNorm_ ? anyRankTrue(!std::isfinite(loss)) : !std::isfinite(loss);
        if (anyNonFinite) {
            groupBad = true;
            const bool infinite = std::isinf(loss);  // another rank's is taken as NaN
            badDiverged = infinite ? MessageId::TrainDivergedInfiniteLoss : MessageId::TrainDivergedNanLoss;
            badSkipped = infinite ? MessageId::TrainSkippedInfiniteLoss : MessageId::TrainSkippedNanLoss;
        } else if (!groupBad) {
            // Logits before backward: with activation checkpointing, backward may reuse their buffer.
            const std::vector<float> logits = hostLogits(*exec_, binding_);
            // The group's last backward starts each bucket's all-reduce once its gradients are final.
            const bool overlap = reducer_ && micro + 1 == groupSize;
            if (overlap) exec_->setBackwardHook([this](int node) { reducer_->ready(frontierAfter_[std::size_t(node)]); });
            exec_->backward();  // accumulates into the gradients of this group
            if (overlap) exec_->setBackwardHook({});
            totals.running.add(logits, batch.labels, loss, binding_.logits);
            groupLoss += loss * static_cast<double>(batch.size);
        }
        groupSamples += batch.size;
        intervalLocalSamples += batch.size;
        ++micro;
        if (micro < groupSize) continue;

        // An optimizer step boundary.
        micro = 0;
        if (reducer_) {  // the rest of the buckets (all when backward was skipped), then wait
            allReduceWaitSeconds_ += reducer_->finish();
            allReduceSeconds_ += reducer_->takeBusySeconds();
        }
        agreeOnGroup(groupBad, groupLoss, groupSamples);  // the whole global batch's
        if (!groupBad && comm_->size() > 1 && !reducer_) {
            // Between backward and the optimizer step: every rank's gradients become the mean
            // over the ranks, which is the gradient of the global batch's mean loss.
            const auto t0 = std::chrono::steady_clock::now();
            backend_.synchronize();
            allReduceGradients(*comm_, exec_->flatGradients().data<float>(), buckets_);
            const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            allReduceSeconds_ += took;
            allReduceWaitSeconds_ += took;
        }
        double gradNorm = 0;
        std::vector<std::pair<std::string, double>> layerNorms;
        const bool logStep = t.logEverySteps > 0 && (step_ + 1) % t.logEverySteps == 0;
        if (!groupBad) {
            if (logStep) {  // per parameter, before clipping; the global norm falls out of it
                layerNorms = parameterGradientNorms(*exec_);
                double total = 0;
                for (const auto& [name, norm] : layerNorms) total += norm * norm;
                gradNorm = std::sqrt(total);
            } else {
                gradNorm = gradientNorm(*exec_);
            }
            if (scaler_.enabled()) {
                const double scale = scaler_.scale();
                if (!scaler_.update(gradNorm)) {
                    // fp16 overflow at this scale: not a divergence. Skip and retry smaller.
                    log(LogEvent::Level::Info, makeMessage(MessageId::TrainF16Overflow,
                                                           {std::to_string(step_ + 1), numberArg(scale),
                                                            numberArg(scaler_.scale())}));
                    groupLoss = 0;
                    groupSamples = 0;
                    continue;
                }
                const Tensor& g = exec_->flatGradients();
                backend_.scale(g.data<float>(), g.numel(), static_cast<float>(1.0 / scale));
                gradNorm /= scale;
                for (auto& entry : layerNorms) entry.second /= scale;
            } else if (!std::isfinite(gradNorm)) {
                groupBad = true;
                badDiverged = MessageId::TrainDivergedNonFiniteGradient;
                badSkipped = MessageId::TrainSkippedNonFiniteGradient;
            }
        }
        if (groupBad) {
            groupBad = false;
            groupLoss = 0;
            groupSamples = 0;
            if (!handleNonFinite(badDiverged, badSkipped, epoch, b)) return EpochResult::Failed;
            continue;  // no update: the next group starts from zeroed gradients
        }
        if (t.clipGradNorm > 0) clipGradientNorm(*exec_, t.clipGradNorm);
        if (t.clipGradValue > 0) clipGradientValue(*exec_, t.clipGradValue);
        const double lr = currentLr();
        optimizer_->step(static_cast<float>(lr));
        ++step_;

        intervalSamples += groupSamples;
        if (logStep) {
            const auto now = std::chrono::steady_clock::now();
            intervalSeconds = std::chrono::duration<double>(now - intervalStart).count();
            StepEvent s;
            s.step = step_;
            s.epoch = epoch;
            s.loss = groupLoss / static_cast<double>(groupSamples);
            s.lr = lr;
            s.gradNorm = gradNorm;
            s.layerGradNorms = std::move(layerNorms);
            s.samplesPerSecond = intervalSeconds > 0 ? static_cast<double>(intervalSamples) / intervalSeconds : 0;
            s.dataWaitSeconds = stepWait;
            s.wallTime = elapsed();
            s.allReduceSeconds = allReduceSeconds_;
            s.allReduceWaitSeconds = allReduceWaitSeconds_;
            s.rankSamplesPerSecond = rankThroughputs(intervalLocalSamples, intervalSeconds - allReduceWaitSeconds_);
            allReduceSeconds_ = allReduceWaitSeconds_ = 0;
            publish(s);
            intervalStart = now;
            intervalSamples = intervalLocalSamples = 0;
            stepWait = 0;
        }
        maybePublishSystem();
        adaptCpuThreads();
        groupLoss = 0;
        groupSamples = 0;
    }
    closeTotals();
    return EpochResult::Completed;
}

}  // namespace ts
