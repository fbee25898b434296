#include "store/resume_source.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <stdexcept>

#include "io/checkpoint.h"

namespace fs = std::filesystem;

namespace ts {

std::string absoluteCheckpointPath(const Workspace& workspace, const std::string& stored)
{
    if (stored.empty() || fs::path(stored).is_absolute()) return stored;
    return (fs::path(workspace.checkpointsPath()) / stored).string();
}

namespace {

std::optional<std::int64_t> parseRunId(const std::string& text)
{
    std::int64_t id = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
    if (ec != std::errc() || end != text.data() + text.size() || id < 1) return std::nullopt;
    return id;
}

// The newest weights file (by the step in the state, falling back to modification time).
std::optional<std::string> newestCheckpointIn(const std::string& folder)
{
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) return std::nullopt;
    std::optional<std::pair<fs::file_time_type, std::string>> newest;
    for (const auto& entry : fs::directory_iterator(folder, ec)) {
        const std::string name = entry.path().filename().string();
        if (!name.ends_with(".safetensors") || name.ends_with(".state.safetensors")) continue;
        if (!fs::exists(checkpointStatePath(entry.path().string()))) continue;  // half-written pair
        const auto time = entry.last_write_time(ec);
        if (!newest || time > newest->first) newest = {time, entry.path().string()};
    }
    if (!newest) return std::nullopt;
    return newest->second;
}

}  // namespace

ResumeSource findResumeSource(RunReader& reader, const Workspace& workspace, const std::string& runOrPath)
{
    ResumeSource source;
    if (auto id = parseRunId(runOrPath); id && !fs::exists(runOrPath)) {
        if (!reader.run(*id))
            throw std::invalid_argument("no run " + runOrPath + " in " + workspace.databasePath() +
                                        " (see `trainstudio-cli runs list`)");
        source.runId = id;
        const auto records = reader.checkpoints(*id);
        const auto latest = std::max_element(records.begin(), records.end(),
                                             [](const auto& a, const auto& b) { return a.step < b.step; });
        if (latest != records.end() && fs::exists(absoluteCheckpointPath(workspace, latest->path))) {
            source.weightsPath = absoluteCheckpointPath(workspace, latest->path);
            source.expectedSha256 = latest->sha256;
            return source;
        }
        if (auto file = newestCheckpointIn(workspace.runCheckpointsPath(*id))) {
            source.weightsPath = *file;
            return source;
        }
        throw std::invalid_argument("run " + runOrPath + " has no checkpoint to resume from (none is written before the "
                                    "first epoch ends or the run is stopped); start it again instead");
    }
    if (!fs::exists(runOrPath))
        throw std::invalid_argument(runOrPath + ": no such checkpoint file or run id");
    source.weightsPath = fs::absolute(runOrPath).lexically_normal().string();
    // The store knows which run wrote it when it lives in the workspace's run folders.
    const fs::path rel = fs::path(source.weightsPath).lexically_relative(workspace.checkpointsPath());
    const std::string first = rel.empty() ? std::string() : rel.begin()->string();
    if (first.starts_with("run_"))
        if (auto id = parseRunId(first.substr(4)); id && reader.run(*id)) {
            source.runId = id;
            for (const auto& r : reader.checkpoints(*id))
                if (absoluteCheckpointPath(workspace, r.path) == source.weightsPath) source.expectedSha256 = r.sha256;
        }
    return source;
}

Continuation loadContinuation(const Workspace& workspace, const std::string& runOrPath)
{
    RunReader reader(workspace);
    const ResumeSource found = findResumeSource(reader, workspace, runOrPath);
    return {loadCheckpoint(found.weightsPath, found.expectedSha256), found.weightsPath, found.runId};
}

}  // namespace ts
