// The workspace the studio shows and records into (ARCHITECTURE.md rule 5: one folder,
// studio.db plus checkpoints/). One function so every page agrees on where runs live.
#pragma once

#include "store/workspace.h"

namespace ts::ui {

// Workspace::defaultDirectory() ($TRAINSTUDIO_WORKSPACE when set, the CLI's rule too). The folder is created when possible; when it cannot be
// (read-only disk) the path is still returned, and the pages report the store's error.
ts::Workspace studioWorkspace();

}  // namespace ts::ui
