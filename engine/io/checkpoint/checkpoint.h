// A checkpoint is two safetensors files side by side:
//   <stem>.safetensors        the weights: every parameter and buffer by graph name
//                             ("conv1.weight", "bn1.running_mean"), f32; loadable anywhere
//   <stem>.state.safetensors  the training state: optimizer buffers as tensors, everything
//                             else (positions, schedules, RNG, the experiment) in metadata
// Both are written atomically (safetensors.h), weights first, so a crash mid-save leaves the
// previous checkpoint whole. Loading always lands on the host: a GPU checkpoint loads on
// the CPU (the executor copies it to its device).
//
// Every random stream in TrainStudio is a pure function of (seed, position): shuffling and
// augmentation of (seed, epoch, sample position), dropout of (seed, micro-step, node). So
// "every RNG state" is the seed plus the positions below, and restoring them continues the
// same random sequence bit for bit.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "io/checkpoint/safetensors.h"
#include "optim/schedule.h"
#include "types/metric_sums.h"

namespace ts {

class Executor;

struct TrainingState {
    // Position: continue with batch `batchInEpoch` (0-based, batches already consumed) of
    // epoch `epoch` (1-based). After a completed epoch e that is {e + 1, 0}.
    std::int64_t epoch = 1;
    std::int64_t batchInEpoch = 0;
    std::int64_t step = 0;           // optimizer steps taken
    std::uint64_t microStep = 0;     // forwards run (the dropout stream)
    std::uint64_t seed = 0;
    NamedTensors optimizerState;     // Optimizer::state()
    std::optional<PlateauState> plateau;
    // Early stopping (train/early_stopping.h).
    bool earlyHasBest = false;
    double earlyBest = 0;
    std::int64_t earlyBestEpoch = -1, earlyBad = 0, earlyUpdates = 0;
    // Dynamic loss scaler (fp16 on CUDA; 1 and 0 otherwise).
    double lossScale = 1.0;
    std::int64_t scalerGoodSteps = 0;
    // The checkpoint policy's best so far, so "best" survives a resume.
    std::string bestMetricName;
    std::optional<double> bestMetricValue;
    std::int64_t bestEpoch = 0;
    std::map<std::string, double> lastEpochMetrics;  // the last EpochEvent's metrics
    // Written mid-epoch (batchInEpoch > 0): the epoch's running metric sums and time so far.
    std::optional<MetricSums> epochSums;
    std::string experimentYaml;  // experimentToYaml of the spec being trained
    std::string dataFingerprint; // DatasetSplits::fingerprint of the data trained on; empty: older checkpoint
    std::string tokenizer;       // DatasetSplits::tokenizer (text data; data/tokenizer.h); empty: none
    // Exact equality, as a save and load must give: doubles bit for bit except that any NaN
    // equals any NaN; optimizer tensors by name, dtype, shape and bytes (host tensors).
    bool operator==(const TrainingState&) const;
};

struct Checkpoint {
    NamedTensors weights;
    TrainingState state;
};

struct SavedCheckpoint {
    std::string weightsPath, statePath;
    std::int64_t sizeBytes = 0;              // both files
    std::string sha256, stateSha256;         // of each whole file, hex
};

// "<dir>/epoch_015.safetensors" -> "<dir>/epoch_015.state.safetensors"
std::string checkpointStatePath(const std::string& weightsPath);

// Writes both files (CheckpointError on failure: disk full, unwritable folder; any older
// checkpoint is untouched). Metadata of the weights file: format version, step, epoch.
SavedCheckpoint saveCheckpoint(const std::string& weightsPath, const NamedTensors& weights, const TrainingState& state);

// Reads both files and validates them (CheckpointError naming the file and what failed:
// size, header, checksum, a missing state file, an unknown format version, a state file
// from another save than the weights beside it). Both files must carry TrainStudio's
// checksums (safetensors.h), so every single flipped bit is refused.
// When expectedSha256 is given (from the store), the weights file must match it.
Checkpoint loadCheckpoint(const std::string& weightsPath, const std::string& expectedSha256 = {});

// The executor's parameters and buffers as host tensors (copied off the device), and back.
// restoreWeights throws CheckpointError naming the first missing/extra/mis-shaped parameter.
NamedTensors captureWeights(Executor& executor);
void restoreWeights(Executor& executor, const NamedTensors& weights, const std::string& fileForErrors);

}  // namespace ts
