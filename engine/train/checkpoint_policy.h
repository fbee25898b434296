// Which checkpoints to write and which to keep: every N epochs, keep the last K plus the
// best by a chosen metric (the seeds' keep-last-3-plus-best). Pure bookkeeping: it names
// files and decides deletions; the trainer writes and deletes.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "types/experiment_spec.h"

namespace ts {

class CheckpointPolicy {
public:
    struct Entry {
        std::string path;  // weights file
        std::int64_t epoch = 0, step = 0;
        std::optional<double> metric;  // spec.metric's value; none when not computed
    };

    // directory: where this run's checkpoints go (Workspace::runCheckpointsPath).
    CheckpointPolicy(CheckpointSpec spec, std::string directory);

    // A scheduled checkpoint after this (1-based) epoch? (epoch % everyEpochs == 0, or the
    // last epoch; never when everyEpochs is 0.)
    bool due(std::int64_t epoch, std::int64_t lastEpoch) const;

    // "<dir>/epoch_015_val_acc_0.923.safetensors"; without a metric "<dir>/epoch_015.safetensors";
    // a mid-epoch (final, on stop) checkpoint "<dir>/epoch_015_step_004321.safetensors".
    std::string pathFor(std::int64_t epoch, std::optional<double> metric, std::optional<std::int64_t> midEpochStep = {}) const;

    // Whether `metric` beats the best kept so far (lowerIsBetter by the metric's name).
    bool isBetter(std::optional<double> metric) const;

    // Records a written checkpoint. Returns the paths to delete: everything but the last
    // keepLast entries and the best one. `best` tells whether the new entry is now the best.
    std::vector<std::string> add(const Entry& entry, bool& best);

    // Resume: the entries a previous part of the run kept (oldest first).
    void restore(std::vector<Entry> kept);
    const std::vector<Entry>& kept() const { return kept_; }
    std::optional<Entry> best() const;

private:
    CheckpointSpec spec_;
    std::string directory_;
    std::vector<Entry> kept_;
    std::optional<std::size_t> bestIndex_;
};

}  // namespace ts
