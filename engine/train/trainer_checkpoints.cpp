// The trainer's checkpoints: what a checkpoint holds (captureState), resuming from one
// (restoreFrom), writing one under the keep-last-K-plus-best policy, and the system samples
// published between steps.
#include <filesystem>

#include <sys/statvfs.h>

#include "io/yaml/experiment_yaml.h"
#include "tensor/format_bytes.h"
#include "train/trainer.h"

namespace ts {

TrainingState Trainer::captureState(std::int64_t nextEpoch, std::int64_t batchInEpoch, const EpochTotals* epoch) const
{
    TrainingState s;
    s.epoch = nextEpoch;
    s.batchInEpoch = batchInEpoch;
    s.step = step_;
    s.microStep = microStep_;
    s.seed = spec_.training.seed;
    s.optimizerState = optimizer_->state();
    s.lossScale = scaler_.scale();
    s.scalerGoodSteps = scaler_.cleanSteps();
    if (plateau_) s.plateau = plateau_->state();
    if (early_) {
        s.earlyHasBest = early_->hasBest();
        s.earlyBest = early_->best();
        s.earlyBestEpoch = early_->bestEpoch();
        s.earlyBad = early_->epochsWithoutImprovement();
        s.earlyUpdates = early_->updates();
    }
    s.bestMetricName = spec_.training.checkpoint.metric;
    if (policy_)
        if (auto best = policy_->best(); best && best->metric) {
            s.bestMetricValue = best->metric;
            s.bestEpoch = best->epoch;
        }
    s.lastEpochMetrics = lastMetrics_;
    if (batchInEpoch > 0 && epoch) {
        s.epochSums = epoch->running.sums();
        s.epochSums->seconds = epoch->seconds;
        s.epochSums->waitSeconds = epoch->waitSeconds;
    }
    s.experimentYaml = experimentToYaml(withAbsolutePaths(spec_));
    s.dataFingerprint = splits_.fingerprint;
    s.tokenizer = splits_.tokenizer;
    return s;
}

void Trainer::restoreFrom(const Checkpoint& checkpoint)
{
    const TrainingState& s = checkpoint.state;
    restoreWeights(*exec_, checkpoint.weights, options_.resumeSource);
    try {
        optimizer_->loadState(s.optimizerState);
    } catch (const std::invalid_argument& e) {
        if (!options_.fork) throw;
        log(LogEvent::Level::Warning, makeMessage(MessageId::TrainOptimizerStateReset, {e.what()}));
    }
    step_ = s.step;
    microStep_ = s.microStep;
    if (scaler_.enabled() && s.lossScale > 0 && s.lossScale != 1.0) scaler_ = LossScaler(true, s.lossScale, s.scalerGoodSteps);
    firstEpoch_ = s.epoch;
    firstBatch_ = s.batchInEpoch;
    resumedSums_ = s.epochSums;
    // Changed data (a fork, or a resume allowed to: jobs/job.cpp refuses it otherwise) moves
    // every batch boundary: continue at the next epoch rather than at a batch that may not exist.
    if (const std::string change = s.dataFingerprint.empty() ? std::string() : dataChange(s.dataFingerprint, splits_.fingerprint);
        !change.empty()) {
        log(LogEvent::Level::Warning, makeMessage(MessageId::TrainDataChanged, {change}));
        if (firstBatch_ > 0) {
            ++firstEpoch_;
            firstBatch_ = 0;
            resumedSums_.reset();
        }
    }
    if (options_.fork && firstBatch_ > 0) {
        // A fork may change the batch size, which moves every batch boundary: start clean.
        const ExperimentSpec parent = parseExperiment(s.experimentYaml, options_.resumeSource);
        if (parent.training.batchSize != spec_.training.batchSize) {
            ++firstEpoch_;
            firstBatch_ = 0;
            resumedSums_.reset();
            log(LogEvent::Level::Info, makeMessage(MessageId::TrainForkBatchChanged));
        }
    }
    if (plateau_ && s.plateau) plateau_->restore(*s.plateau);
    if (early_) early_->restore(s.earlyHasBest, s.earlyBest, s.earlyBestEpoch, s.earlyBad, s.earlyUpdates);
    lastMetrics_ = s.lastEpochMetrics;
    log(LogEvent::Level::Info, makeMessage(options_.fork ? MessageId::TrainForkedFrom : MessageId::TrainResumedFrom,
                                           {options_.resumeSource, std::to_string(firstEpoch_), std::to_string(firstBatch_),
                                            std::to_string(step_)}));
    if (firstEpoch_ > spec_.training.epochs)
        log(LogEvent::Level::Warning, makeMessage(MessageId::TrainNothingLeft, {std::to_string(firstEpoch_ - 1),
                                                                                std::to_string(spec_.training.epochs)}));
}

void Trainer::writeCheckpoint(std::int64_t nextEpoch, std::int64_t batchInEpoch, const EpochTotals* unfinished)
{
    if (!policy_) return;
    const bool midEpoch = batchInEpoch > 0;
    const std::int64_t epoch = midEpoch ? nextEpoch : nextEpoch - 1;  // the epoch it belongs to
    std::optional<double> metric;
    if (auto it = lastMetrics_.find(spec_.training.checkpoint.metric); it != lastMetrics_.end() && !midEpoch)
        metric = it->second;
    const std::string path = policy_->pathFor(epoch, metric, midEpoch ? std::optional(step_) : std::nullopt);
    SavedCheckpoint saved;
    const NamedTensors weights = captureWeights(*exec_);
    const TrainingState state = captureState(nextEpoch, batchInEpoch, unfinished);
    const std::string folder = std::filesystem::path(path).parent_path().string();
    try {
        std::filesystem::create_directories(folder);
        saved = saveCheckpoint(path, weights, state);
    } catch (const std::exception& e) {
        // How much the pair needs (its tensors; headers and metadata add a little) against
        // what the file system has left, so the user knows how much to free.
        double need = 0;
        for (const auto* tensors : {&weights, &state.optimizerState})
            for (const auto& [name, t] : *tensors) need += double(t.bytes());
        struct statvfs fs {};
        const std::string room = ::statvfs(folder.c_str(), &fs) == 0
                                     ? formatBytes(double(fs.f_bavail) * double(fs.f_frsize)) + " are free there"
                                     : "the free space there is unknown";
        throw std::runtime_error(std::string("could not save the checkpoint ") + path + " at step " +
                                 std::to_string(step_) + ": " + e.what() + "\nIt needs about " + formatBytes(need) +
                                 " (weights and training state); " + room +
                                 ". The run stopped; the earlier checkpoints are intact (a failed save leaves none "
                                 "half-written). Free disk space or choose another workspace, then resume from the last "
                                 "checkpoint.");
    }
    bool best = false;
    CheckpointEvent event;
    event.removed = policy_->add({path, epoch, step_, metric}, best);
    CheckpointRecord& r = event.record;
    r.path = saved.weightsPath;
    r.statePath = saved.statePath;
    r.step = step_;
    r.epoch = epoch;
    r.metricName = metric ? spec_.training.checkpoint.metric : std::string();
    r.metricValue = metric.value_or(0.0);
    r.best = best;
    r.sizeBytes = saved.sizeBytes;
    r.sha256 = saved.sha256;
    r.stateSha256 = saved.stateSha256;
    r.createdTime = static_cast<double>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                            std::chrono::system_clock::now().time_since_epoch())
                                            .count()) /
                    1000.0;
    publish(event);
    // Deleted after the event: the store's recorder commits the new checkpoint (and forgets
    // the old ones) first, so a kill in between never leaves the store pointing at files
    // that are gone while the newer ones are unlisted.
    for (const std::string& old : event.removed) {
        std::error_code ignored;  // a file already gone is what we wanted
        std::filesystem::remove(old, ignored);
        std::filesystem::remove(checkpointStatePath(old), ignored);
    }
}

void Trainer::adaptCpuThreads()
{
    if (cpuThreads_ && cpuThreads_->update())
        log(LogEvent::Level::Info, makeMessage(MessageId::TrainCpuThreadsChanged, {std::to_string(cpuThreads_->threads())}));
}

void Trainer::maybePublishSystem()
{
    if (!monitor_) return;
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - lastSystemEvent_).count() < options_.systemSampleSeconds) return;
    lastSystemEvent_ = now;
    SystemEvent e;
    e.step = step_;
    e.sample = monitor_->latest();
    e.sample.wallTime = elapsed();
    publish(e);
}

}  // namespace ts
