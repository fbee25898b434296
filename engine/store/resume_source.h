// Finding the checkpoint to resume or fork from, given what a user types: a run id ("12":
// that run's latest checkpoint) or a checkpoint file. Shared by `trainstudio-cli train
// --resume/--fork` and the studio's Runs page.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "io/checkpoint/checkpoint.h"
#include "store/run_reader.h"
#include "types/message.h"

namespace ts {

struct ResumeSource {
    std::string weightsPath;     // absolute
    std::string expectedSha256;  // from the store; empty when the store does not know the file
    std::optional<std::int64_t> runId;  // the run the checkpoint belongs to, when known
    // Set when a run's newest stored checkpoint is gone (its weights or state file deleted)
    // and an older one was chosen: says which is missing and which is used instead.
    std::optional<Message> fallback;
};

// A run id: its stored checkpoint with the highest step whose files exist (an older one
// when the newest files are gone, saying so in `fallback`); when the store has none (the
// process died before the row was committed) the newest weights file with its state file in
// the run's checkpoint folder. A path: that file, matched to its run when the store knows it.
// Throws std::invalid_argument saying what exists instead (no such run, no checkpoint yet).
ResumeSource findResumeSource(RunReader& reader, const Workspace& workspace, const std::string& runOrPath);

// Refuses (std::invalid_argument) to resume a run that is still training: its process is
// alive (same host) or its heartbeat is fresh. Resuming it would train it twice. `runOrPath`
// as for findResumeSource: a run id, or a checkpoint file in one of the run folders.
void refuseLiveRun(RunReader& reader, const Workspace& workspace, const std::string& runOrPath);
// For a run whose process died (crashed): removes what its killed saves left (a temporary file,
// weights without their state file), so the checkpoint looked for next is a complete one, even
// when no writer has opened the store since. Returns the files removed.
std::vector<std::string> clearKilledSaves(RunReader& reader, const Workspace& workspace, const std::string& runOrPath);

// What a resumed or forked run starts from: the checkpoint, loaded and verified (against the
// store's checksum when it knows the file), where it came from, and the run it belongs to.
struct Continuation {
    Checkpoint checkpoint;
    std::string source;  // the weights file
    std::optional<std::int64_t> parentRun;
    std::optional<Message> fallback;  // ResumeSource::fallback
};
// findResumeSource + loadCheckpoint. Throws std::invalid_argument, StoreError or
// CheckpointError, each saying what is wrong and what to do: a damaged checkpoint of a run
// names the run's newest intact checkpoint and the command that resumes from it.
Continuation loadContinuation(const Workspace& workspace, const std::string& runOrPath);

// A stored checkpoint path made absolute (paths inside checkpoints/ are stored relative).
std::string absoluteCheckpointPath(const Workspace& workspace, const std::string& stored);

}  // namespace ts
