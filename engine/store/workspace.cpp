#include "store/workspace.h"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace ts {

namespace fs = std::filesystem;

std::string Workspace::databasePath() const { return directory + "/studio.db"; }
std::string Workspace::checkpointsPath() const { return directory + "/checkpoints"; }
std::string Workspace::runCheckpointsPath(std::int64_t runId) const
{
    return checkpointsPath() + "/run_" + std::to_string(runId);
}

std::string Workspace::defaultDirectory()
{
    if (const char* chosen = std::getenv("TRAINSTUDIO_WORKSPACE"); chosen && *chosen) {
        std::error_code ec;
        const fs::path dir = fs::absolute(chosen, ec);
        return ec ? std::string(chosen) : dir.lexically_normal().string();
    }
    // XDG base directories: an empty or relative XDG_DATA_HOME is to be ignored.
    const char* xdg = std::getenv("XDG_DATA_HOME");
    if (xdg && xdg[0] == '/') return std::string(xdg) + "/trainstudio/workspace";
    const char* home = std::getenv("HOME");
    return std::string(home && *home ? home : ".") + "/.local/share/trainstudio/workspace";
}

std::vector<std::string> Workspace::removeStaleCheckpointFiles(std::int64_t runId) const
{
    std::vector<std::string> removed;
    std::error_code ec;
    const fs::path folder = runCheckpointsPath(runId);
    if (!fs::is_directory(folder, ec)) return removed;
    const std::string weights = ".safetensors", state = ".state.safetensors";
    for (const auto& entry : fs::directory_iterator(folder, ec)) {
        const std::string name = entry.path().filename().string();
        bool stale = name.ends_with(".tmp");
        if (!stale && name.ends_with(weights) && !name.ends_with(state)) {
            const std::string statePath = entry.path().string().substr(0, entry.path().string().size() - weights.size()) + state;
            stale = !fs::exists(statePath, ec);
        }
        if (stale && fs::remove(entry.path(), ec)) removed.push_back(entry.path().string());
    }
    return removed;
}

Message staleFilesRemoved(const std::vector<std::string>& removed)
{
    std::string names;
    for (const std::string& f : removed) names += (names.empty() ? "" : ", ") + f;
    return makeMessage(MessageId::RunStaleFilesRemoved, {std::to_string(removed.size()), names});
}

Workspace Workspace::open(const std::string& directory)
{
    std::error_code ec;
    const fs::path dir = fs::absolute(directory, ec);
    if (ec) throw std::runtime_error(directory + ": " + ec.message());
    Workspace w{dir.lexically_normal().string()};
    if (w.directory.size() > 1 && w.directory.back() == '/') w.directory.pop_back();
    for (const std::string& path : {w.directory, w.checkpointsPath()}) {
        fs::create_directories(path, ec);
        if (ec || !fs::is_directory(path))
            throw std::runtime_error(path + ": cannot create the workspace folder: " +
                                     (ec ? ec.message() : std::string("not a directory")));
    }
    return w;
}

}  // namespace ts
