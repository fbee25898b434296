#include "store/resume_source.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <stdexcept>

#include "io/checkpoint/checkpoint.h"

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

// The folder's weights files that have their state file, newest first (by modification time).
std::vector<std::string> checkpointsIn(const std::string& folder)
{
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) return {};
    std::vector<std::pair<fs::file_time_type, std::string>> found;
    for (const auto& entry : fs::directory_iterator(folder, ec)) {
        const std::string name = entry.path().filename().string();
        if (!name.ends_with(".safetensors") || name.ends_with(".state.safetensors")) continue;
        if (!fs::exists(checkpointStatePath(entry.path().string()))) continue;  // half-written pair
        found.emplace_back(entry.last_write_time(ec), entry.path().string());
    }
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<std::string> paths;
    for (auto& f : found) paths.push_back(std::move(f.second));
    return paths;
}

bool pairExists(const std::string& weights)
{
    std::error_code ec;
    return fs::exists(weights, ec) && fs::exists(checkpointStatePath(weights), ec);
}

// A run's checkpoints to resume from, newest first: the stored ones whose files exist (by
// step), then files of its folder the store does not list (rows lost in a crash).
std::vector<ResumeSource> candidatesOf(RunReader& reader, const Workspace& workspace, std::int64_t id)
{
    std::vector<CheckpointRecord> records = reader.checkpoints(id);
    std::stable_sort(records.begin(), records.end(), [](const auto& a, const auto& b) { return a.step > b.step; });
    std::vector<ResumeSource> out;
    for (const auto& r : records) {
        const std::string path = absoluteCheckpointPath(workspace, r.path);
        if (pairExists(path)) out.push_back({path, r.sha256, id, std::nullopt});
    }
    for (const std::string& path : checkpointsIn(workspace.runCheckpointsPath(id)))
        if (std::none_of(out.begin(), out.end(), [&](const ResumeSource& s) { return s.weightsPath == path; }))
            out.push_back({path, {}, id, std::nullopt});
    return out;
}

std::string epochOf(const CheckpointRecord& r) { return "epoch " + std::to_string(r.epoch) + ", step " + std::to_string(r.step); }

}  // namespace

namespace {

// The run a resume names: its id, or the run folder a checkpoint file is in.
std::optional<std::int64_t> runNamed(const Workspace& workspace, const std::string& runOrPath)
{
    std::optional<std::int64_t> id = fs::exists(runOrPath) ? std::nullopt : parseRunId(runOrPath);
    if (!id && fs::exists(runOrPath)) {  // a file in checkpoints/run_<id>/
        const fs::path rel = fs::absolute(runOrPath).lexically_normal().lexically_relative(workspace.checkpointsPath());
        const std::string first = rel.empty() ? std::string() : rel.begin()->string();
        if (first.starts_with("run_")) id = parseRunId(first.substr(4));
    }
    return id;
}

}  // namespace

std::vector<std::string> clearKilledSaves(RunReader& reader, const Workspace& workspace, const std::string& runOrPath)
{
    const std::optional<std::int64_t> id = runNamed(workspace, runOrPath);
    if (!id) return {};
    const std::optional<RunInfo> run = reader.run(*id);
    if (!run || run->status != RunStatus::Crashed) return {};  // a live run's save in progress looks the same
    return workspace.removeStaleCheckpointFiles(*id);
}

void refuseLiveRun(RunReader& reader, const Workspace& workspace, const std::string& runOrPath)
{
    const std::optional<std::int64_t> id = runNamed(workspace, runOrPath);
    if (!id) return;
    const std::int64_t runId = *id;
    const std::optional<RunInfo> run = reader.run(runId);
    if (!run || run->status != RunStatus::Running) return;  // a dead process reads as crashed already
    const double age = std::max(0.0, std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count() -
                                         run->heartbeat);
    throw std::invalid_argument("run " + std::to_string(runId) + " is still training (on " + run->host +
                                ", last sign of life " + std::to_string(std::int64_t(age)) +
                                " s ago): resuming it now would train it twice. Stop it first (Ctrl+C in its terminal, "
                                "`kill -TERM` of its process, or Stop in the studio; its last checkpoint is saved), then "
                                "run `trainstudio-cli train --resume " + std::to_string(runId) + " --workspace " +
                                workspace.directory + "` again");
}

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
        const std::vector<ResumeSource> candidates = candidatesOf(reader, workspace, *id);
        if (!candidates.empty()) {
            ResumeSource chosen = candidates.front();
            if (latest != records.end() && absoluteCheckpointPath(workspace, latest->path) != chosen.weightsPath) {
                const std::string gone = absoluteCheckpointPath(workspace, latest->path);
                const std::string missing = fs::exists(gone) ? checkpointStatePath(gone) : gone;
                chosen.fallback = makeMessage(MessageId::JobResumeFallback,
                                              {runOrPath, gone, epochOf(*latest), missing, chosen.weightsPath});
            }
            return chosen;
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
    try {
        return {loadCheckpoint(found.weightsPath, found.expectedSha256), found.weightsPath, found.runId, found.fallback};
    } catch (const CheckpointError& e) {
        if (!found.runId) throw;
        // The way out: the newest checkpoint of the run that loads (each verified in full).
        for (const ResumeSource& older : candidatesOf(reader, workspace, *found.runId)) {
            if (older.weightsPath == found.weightsPath) continue;
            try {
                loadCheckpoint(older.weightsPath, older.expectedSha256);
            } catch (const CheckpointError&) {
                continue;
            }
            throw CheckpointError(std::string(e.what()) + "\nThe newest intact checkpoint of run " +
                                  std::to_string(*found.runId) + " is " + older.weightsPath +
                                  "; resume from it with:\n  trainstudio-cli train --resume " + older.weightsPath +
                                  " --workspace " + workspace.directory);
        }
        throw CheckpointError(std::string(e.what()) + "\nRun " + std::to_string(*found.runId) +
                              " has no other intact checkpoint; start it again, or fork it from another run");
    }
}

}  // namespace ts
