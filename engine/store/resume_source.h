// Finding the checkpoint to resume or fork from, given what a user types: a run id ("12":
// that run's latest checkpoint) or a checkpoint file. Shared by `trainstudio-cli train
// --resume/--fork` and the studio's Runs page.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "io/checkpoint.h"
#include "store/run_reader.h"

namespace ts {

struct ResumeSource {
    std::string weightsPath;     // absolute
    std::string expectedSha256;  // from the store; empty when the store does not know the file
    std::optional<std::int64_t> runId;  // the run the checkpoint belongs to, when known
};

// A run id: its checkpoint with the highest step from the store; when the store has none
// (the process died before the row was committed) the newest weights file in the run's
// checkpoint folder. A path: that file, matched to its run when the store knows it.
// Throws std::invalid_argument saying what exists instead (no such run, no checkpoint yet).
ResumeSource findResumeSource(RunReader& reader, const Workspace& workspace, const std::string& runOrPath);

// What a resumed or forked run starts from: the checkpoint, loaded and verified (against the
// store's checksum when it knows the file), where it came from, and the run it belongs to.
struct Continuation {
    Checkpoint checkpoint;
    std::string source;  // the weights file
    std::optional<std::int64_t> parentRun;
};
// findResumeSource + loadCheckpoint. Throws std::invalid_argument, StoreError or
// CheckpointError, each saying what is wrong and what to do.
Continuation loadContinuation(const Workspace& workspace, const std::string& runOrPath);

// A stored checkpoint path made absolute (paths inside checkpoints/ are stored relative).
std::string absoluteCheckpointPath(const Workspace& workspace, const std::string& stored);

}  // namespace ts
