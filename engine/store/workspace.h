// A workspace is one folder: studio.db (the run store) plus checkpoints/ (rule 5 of
// ARCHITECTURE.md: no other state). The default one lives under the user's data directory.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "types/message.h"

namespace ts {

struct Workspace {
    std::string directory;  // absolute

    std::string databasePath() const;     // directory + "/studio.db"
    std::string checkpointsPath() const;  // directory + "/checkpoints"
    // checkpoints/run_<id>: one folder per run, so deleting a run deletes one folder.
    std::string runCheckpointsPath(std::int64_t runId) const;

    // $TRAINSTUDIO_WORKSPACE when set (made absolute), else $XDG_DATA_HOME/trainstudio/workspace,
    // else $HOME/.local/share/trainstudio/workspace: the one rule of the CLI and the studio.
    static std::string defaultDirectory();
    // Makes the directory and checkpoints/ (std::runtime_error naming the path and the
    // system's reason when that fails). Does not touch the database: RunWriter/RunReader do.
    static Workspace open(const std::string& directory);

    // What a killed save leaves in a run's checkpoint folder: temporary files ("*.tmp") and
    // weights files without their state file (the pair is written weights first). Only for a
    // run whose process is gone (the writer calls it for the runs it marks crashed): a live
    // run's save in progress looks the same. Returns the paths removed; best effort.
    std::vector<std::string> removeStaleCheckpointFiles(std::int64_t runId) const;
};

// The log line naming what removeStaleCheckpointFiles removed (`removed` not empty).
Message staleFilesRemoved(const std::vector<std::string>& removed);

}  // namespace ts
