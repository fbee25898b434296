#include "studio_workspace.h"

#include <stdexcept>

namespace ts::ui {

ts::Workspace studioWorkspace()
{
    const std::string directory = ts::Workspace::defaultDirectory();  // TRAINSTUDIO_WORKSPACE first, as the CLI
    try {
        return ts::Workspace::open(directory);
    } catch (const std::runtime_error&) {
        // Not fatal for the window: the Runs page shows the store's own message instead.
        return ts::Workspace{directory};
    }
}

}  // namespace ts::ui
