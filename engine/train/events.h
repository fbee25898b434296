// What the trainer tells the world: plain structs, copied to listeners (the store writer,
// the UI bridge, the console). Listeners must return quickly; they never block training.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "store/store_types.h"

namespace ts {

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
};

struct EpochEvent {
    std::int64_t epoch = 0;  // 1-based: the epoch just finished
    std::int64_t step = 0;
    std::map<std::string, double> metrics;  // train_loss, train_acc, val_loss, val_acc, val_top5_acc, ...
    double seconds = 0;
    double dataWaitFraction = 0;  // share of the epoch spent waiting for data
};

struct LogEvent {
    enum class Level { Info, Warning, Error } level = Level::Info;
    std::string message;
};

struct FinishedEvent {
    enum class Outcome { Finished, Stopped, EarlyStopped, Failed } outcome = Outcome::Finished;
    std::string message;  // for Failed: what happened, where, and what to try
    std::map<std::string, double> metrics;  // final: test_loss, test_acc when a test split exists
};

// A checkpoint was written (record: files, step, epoch, metric, sizes, checksums; paths are
// absolute) and the policy deleted `removed` (weights paths) to keep the last K plus the best.
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

using TrainEvent = std::variant<StepEvent, EpochEvent, LogEvent, FinishedEvent, CheckpointEvent, SystemEvent>;

class TrainListener {
public:
    virtual ~TrainListener() = default;
    virtual void onEvent(const TrainEvent& event) = 0;
};

}  // namespace ts
