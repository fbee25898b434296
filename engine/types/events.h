// What the trainer and the other jobs (engine/jobs) tell the world: plain structs, copied to
// listeners (the store recorder, the UI bridge, the console). Listeners must return quickly;
// they never block training.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "types/message.h"
#include "types/run_memory.h"
#include "types/run_records.h"

namespace ts {

// The run's plan, announced once before its first step (after a resumed run's checkpoint is
// loaded): what every front end needs for progress bars, ETAs and status lines, so none of
// them recomputes it. Steps are optimizer steps (accumulated micro-batches count once).
struct StartedEvent {
    std::int64_t runId = -1;        // the store's run; -1 when the run is not recorded
    std::string experiment;         // the experiment's name
    std::string device;             // the backend's name: "cpu", "cuda:0"
    std::string dataset;            // the training split's description
    std::string precision;          // training.precision
    std::int64_t epochs = 0;        // the last epoch (training.epochs)
    std::int64_t firstEpoch = 1;    // 1, or where a resumed run continues
    std::int64_t firstStep = 0;     // optimizer steps already taken (resume, fork)
    std::int64_t stepsPerEpoch = 0; // optimizer steps per epoch (batches / accumulation, rounded up)
    std::int64_t totalSteps = 0;    // the step count at the end: stepsPerEpoch * epochs
    std::int64_t batchesPerEpoch = 0;
    std::int64_t batchSize = 0, accumulationSteps = 1;  // batchSize: the global batch (all ranks)
    int ranks = 1;  // processes training the run together (data parallel, dist/)
    std::int64_t trainSamples = 0, validationSamples = 0, testSamples = 0;  // per epoch / pass
    RunMemory memory;               // planned: parameters, gradients, optimizer state, activations, workspace
    int cpuNodes = 0;               // nodes with a pass the backend lacks, run on the CPU (the log says which)

    std::int64_t stepsThisRun() const { return totalSteps > firstStep ? totalSteps - firstStep : 0; }
};

struct StepEvent {
    std::int64_t step = 0;  // optimizer steps so far (1 for the first step)
    std::int64_t epoch = 0;  // 1-based: the epoch this step belongs to
    double loss = 0;  // mean over the step's samples (all micro-batches when accumulating)
    double lr = 0;
    double gradNorm = 0;  // global, before clipping
    std::vector<std::pair<std::string, double>> layerGradNorms;  // per parameter
    double samplesPerSecond = 0;
    double dataWaitSeconds = 0;  // wait for the loader since the previous StepEvent
    double wallTime = 0;         // seconds since the run started
    // Distributed runs, since the previous StepEvent: seconds the gradient all-reduce took, and
    // of them the seconds the step waited for it (the rest overlapped backward).
    double allReduceSeconds = 0, allReduceWaitSeconds = 0;
    // Distributed runs: each rank's own samples per second, in rank order, over its time less
    // the time it waited for the others (a slow rank shows here). Empty in a single process.
    std::vector<double> rankSamplesPerSecond;
};

struct EpochEvent {
    std::int64_t epoch = 0;  // 1-based: the epoch just finished
    std::int64_t step = 0;
    std::map<std::string, double> metrics;  // train_loss, train_acc, val_loss, val_acc, val_top5_acc, ...
    double seconds = 0;            // active: training time, pauses left out
    double pausedSeconds = 0;      // paused during the epoch (not in seconds)
    double dataWaitFraction = 0;   // share of the active time spent waiting for data
};

// Progress of work that is not optimizer steps (an evaluation's batches): `done` of `total`.
struct ProgressEvent {
    std::int64_t done = 0, total = 0;
    Message what;  // what is being done: "evaluating test", "reading train", ... (a front end words it)
};

struct LogEvent {
    enum class Level { Info, Warning, Error } level = Level::Info;
    Message message;
};

struct FinishedEvent {
    enum class Outcome { Finished, Stopped, EarlyStopped, Failed } outcome = Outcome::Finished;
    // How it ended ("finished 2 epochs at step 3750"); for Failed: what happened, where, and
    // what to try (an exception's text, English only).
    Message message;
    std::map<std::string, double> metrics;  // final: test_loss, test_acc when a test split exists
};

// A checkpoint was written (record: files, step, epoch, metric, sizes, checksums; paths are
// absolute); the policy deletes `removed` (weights paths, to keep the last K plus the best)
// once the listeners have seen the event.
struct CheckpointEvent {
    CheckpointRecord record;
    std::vector<std::string> removed;
};

// Machine load, published from the trainer thread at most every `sampleSeconds` with the
// monitor's latest reading (the monitor samples on its own thread; the loop never waits).
struct SystemEvent {
    std::int64_t step = 0;
    SystemSample sample;
};

using TrainEvent = std::variant<StartedEvent, StepEvent, EpochEvent, LogEvent, FinishedEvent, CheckpointEvent,
                                SystemEvent, ProgressEvent>;

class TrainListener {
public:
    virtual ~TrainListener() = default;
    virtual void onEvent(const TrainEvent& event) = 0;
};

}  // namespace ts
