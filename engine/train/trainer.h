// The Trainer: runs one experiment on one backend, start to finish, and tells listeners what
// happens (step, epoch, log and finished events). It runs on the caller's thread, which in
// the studio and CLI is the one long-lived trainer thread (ARCHITECTURE.md, Threads): the
// executor, optimizer and loaders belong to that thread for the whole run.
//
// Listeners are called synchronously from that thread and must be cheap and must not throw:
// the store writer and the UI bridge copy the event into their own queue and return (rule 4).
// Other threads steer the run only through control() (pause, resume, stop).
//
// Determinism: one seed drives parameter initialisation, shuffling (the loader derives each
// epoch's order from seed and epoch, and its worker count never changes the result),
// augmentation and dropout (hashed from seed, step and node). On the CPU backend runs are
// therefore repeatable bit for bit; training.deterministic is recorded for backends with
// non-deterministic algorithms (cuDNN), which must pick deterministic ones when it is set.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "io/checkpoint/checkpoint.h"
#include "data/loader.h"
#include "dist/gradient_buckets.h"
#include "types/experiment_spec.h"
#include "optim/loss_scaler.h"
#include "optim/optimizer.h"
#include "optim/schedule.h"
#include "train/early_stopping.h"
#include "train/evaluation.h"
#include "types/events.h"
#include "train/metrics.h"
#include "train/checkpoint_policy.h"
#include "train/run_control.h"
#include "backend/cpu/cpu_threads.h"
#include "train/system_monitor.h"

namespace ts {

class ClassificationMetrics;
class Backend;
class BucketReducer;
class Communicator;

struct TrainerOptions {
    std::string cacheDir;  // the workspace cache (decoded data); empty: none
    // Where this run's checkpoints go (Workspace::runCheckpointsPath); empty: none are
    // written. The policy is spec.training.checkpoint; a run that stops, early-stops or
    // finishes between scheduled checkpoints also writes a final one, so it can be resumed.
    std::string checkpointDir;
    // Continue from a checkpoint: weights, optimizer state, schedule, early stopping, and the
    // position (epoch, batch, step, dropout stream). With the same spec (resume) the per-step
    // losses continue bit for bit on the CPU; a fork may change settings: optimizer state of
    // another optimizer type is dropped, and a changed batch size starts at the next epoch.
    std::optional<Checkpoint> resume;
    std::string resumeSource;  // the checkpoint file, for messages
    bool fork = false;
    // Publish a SystemEvent (CPU, RAM; GPU with the CUDA backend) at most this often; 0: never.
    double systemSampleSeconds = 1.0;
    std::int64_t runId = -1;  // the store's run, announced in the StartedEvent; -1: not recorded
    // > 0: the run ends after this many optimizer steps (mid-epoch if need be), and schedules
    // span exactly these steps (the learning-rate finder's sweep).
    std::int64_t maxSteps = 0;
    // Steers the run from other threads; null: the trainer's own (control()). Not owned.
    RunControl* control = nullptr;
    // Data parallelism (dist/communicator.h): this process's rank among those training the run
    // together; null: size one. Every rank runs the same Trainer on the same spec: each trains
    // its shard of every global batch (training.batch_size), gradients are averaged between
    // backward and the optimizer step, parameters come from rank 0 at the start and after a
    // resume, epoch metrics are summed into every rank's, and evaluations run on rank 0 and are
    // handed to the others. Only rank 0 writes checkpoints (the other ranks' checkpointDir is
    // ignored); their listeners receive the same events. On CPU ranks each bucket's all-reduce
    // starts as soon as backward has finished its gradients (dist/bucket_reducer.h; the same
    // bits as after backward; TRAINSTUDIO_OVERLAP_ALLREDUCE=0 turns it off, for measuring). Not owned.
    Communicator* communicator = nullptr;
};

class Trainer {
public:
    Trainer(ExperimentSpec spec, DatasetSplits splits, Backend& backend, TrainerOptions options = {});
    ~Trainer();
    Trainer(const Trainer&) = delete;
    Trainer& operator=(const Trainer&) = delete;

    // Not owned; must outlive run().
    void addListener(TrainListener* listener) { listeners_.push_back(listener); }
    // Safe to use from any thread, before or during run(): options.control when given.
    RunControl& control() { return *control_; }

    // One run per Trainer. Trains until the last epoch, an early stop, a stop request or a failure. Never throws:
    // errors (a bad graph, unreadable data, a NaN loss) end in a Failed event. The returned
    // event is the one the listeners received last. Its metrics hold the last epoch's
    // metrics plus test_* when a test split exists and the run was not stopped or failed.
    FinishedEvent run();

    // The training executor (valid after run() has started; for checkpoints and tests).
    Executor* executor() { return exec_.get(); }

private:
    enum class EpochResult { Completed, Stopped, Failed };
    struct EpochTotals {
        TaskMetrics running;  // classification or regression, as the data's targets are
        double seconds = 0, waitSeconds = 0, pausedSeconds = 0;
        double priorSeconds = 0, priorWaitSeconds = 0;  // counted before a resume
    };

    void setup();
    void announce();  // the StartedEvent
    void loadFixedBatches();
    void restoreFrom(const Checkpoint& checkpoint);
    EpochResult trainEpoch(std::int64_t epoch, EpochTotals& totals, std::int64_t firstBatch);
    // Writes a checkpoint whose training resumes at (nextEpoch, batchInEpoch) and applies the
    // keep-last-K-plus-best policy. Throws std::runtime_error with what to do when it fails.
    // `unfinished`: the epoch's totals so far, kept when the checkpoint is mid-epoch.
    void writeCheckpoint(std::int64_t nextEpoch, std::int64_t batchInEpoch, const EpochTotals* unfinished = nullptr);
    TrainingState captureState(std::int64_t nextEpoch, std::int64_t batchInEpoch, const EpochTotals* epoch) const;
    void maybePublishSystem();
    void adaptCpuThreads();  // between steps: follow the cores other programs leave idle
    bool nextBatch(Batch& batch, std::size_t& fixedIndex);
    // Metrics of `loader`'s split named with `prefix` ("val", "test"); `stopped` when a stop
    // request interrupted the pass.
    std::map<std::string, double> evaluateSplit(Loader& loader, const std::string& prefix, bool& stopped);
    // m's summary, with perplexity and bits per character for a language model's data
    // (pieceCharacters: how many characters each token id stands for).
    std::map<std::string, double> summary(const TaskMetrics& m, const std::string& prefix) const;
    TaskMetrics newMetrics() const { return TaskMetrics::forDataset(*splits_.train, spec_.training.topK); }
    const std::vector<int>& pieceCharacters() const;
    void publishTextSample(std::int64_t epoch);  // a language model's writing after `epoch`
    // A loss or gradient norm became non-finite: `diverged` is the failure's message, `skipped` the
    // warning when the step is skipped.
    bool handleNonFinite(MessageId diverged, MessageId skipped, std::int64_t epoch, std::int64_t batch);
    double currentLr() const;
    bool checkPause();
    // Distributed runs (no-ops at size one): rank 0's parameters and buffers on every rank;
    // the group's outcome agreed between ranks (any rank's non-finite loss skips or fails the
    // step everywhere; the loss and sample count become the global ones); the epoch's sums.
    void broadcastParameters();
    // Collectives from the trainer's thread in the middle of a step: through the comm thread
    // while one runs (bucket_reducer.h), directly otherwise.
    void collective(const std::function<void()>& fn);
    bool anyRankTrue(bool local);
    // Every rank's samples per second of its own busy time, in rank order (empty at size one).
    std::vector<double> rankThroughputs(std::int64_t localSamples, double busySeconds);
    void agreeOnGroup(bool& bad, double& loss, std::int64_t& samples);
    void reduceEpochSums(EpochTotals& totals);

    // (Not "emit": Qt defines that as a macro for code that includes this header.)
    void publish(const TrainEvent& event);
    void log(LogEvent::Level level, Message message);
    double elapsed() const;

    ExperimentSpec spec_;
    DatasetSplits splits_;
    mutable std::vector<int> pieceCharacters_;  // pieceCharacters(), filled on first use
    Backend& backend_;
    TrainerOptions options_;
    std::vector<TrainListener*> listeners_;
    RunControl ownControl_;
    RunControl* control_;

    Communicator* comm_ = nullptr;  // never null after construction
    std::vector<GradientBucket> buckets_;
    // Overlap (CPU ranks): the comm thread, and per node the lowest flat-gradient offset from
    // which every gradient is final once that node's backward is done.
    std::unique_ptr<BucketReducer> reducer_;
    std::vector<std::size_t> frontierAfter_;
    bool syncBatchNorm_ = false;  // training.sync_batchnorm over more than one rank
    double allReduceSeconds_ = 0, allReduceWaitSeconds_ = 0;  // since the last StepEvent

    std::unique_ptr<Executor> exec_;
    std::unique_ptr<Optimizer> optimizer_;
    std::unique_ptr<Evaluator> evaluator_;
    std::unique_ptr<Loader> trainLoader_, valLoader_, testLoader_;
    std::optional<PlateauScheduler> plateau_;
    std::optional<EarlyStopping> early_;
    std::optional<CheckpointPolicy> policy_;
    LossScaler scaler_{false};  // on with training.precision f16
    std::unique_ptr<SystemMonitor> monitor_;
    std::optional<CpuThreadGovernor> cpuThreads_;  // the CPU backend only
    std::chrono::steady_clock::time_point lastSystemEvent_{};
    std::map<std::string, double> lastMetrics_;  // the last epoch's metrics
    std::int64_t firstEpoch_ = 1, firstBatch_ = 0;  // where this run starts (resume)
    std::optional<MetricSums> resumedSums_;         // the first epoch's sums so far (resume mid-epoch)
    std::int64_t stopBatch_ = 0;  // batches of the current epoch consumed when a stop arrived
    std::vector<Batch> fixedBatches_;  // overfit mode: the same batches every epoch
    GraphBinding binding_;
    std::int64_t classes_ = 0;
    std::int64_t step_ = 0;            // optimizer steps taken
    double pausedSeconds_ = 0;         // paused so far in this run (checkPause)
    std::uint64_t microStep_ = 0;      // forwards run (dropout stream)
    std::int64_t batchesPerEpoch_ = 0, stepsPerEpoch_ = 0, totalSteps_ = 0;
    Message failure_;                  // set when an epoch ends Failed
    std::chrono::steady_clock::time_point start_;
};

}  // namespace ts
