// `trainstudio-cli runs delete RUN [--yes]`: deleting cannot be undone, so without --yes it
// only says what would go (rows and the checkpoint folder) and exits 2.
#include <filesystem>
#include <stdexcept>

#include "runs_common.h"
#include "runs_output.h"
#include "terminal_text.h"
#include "store/run_writer.h"

namespace fs = std::filesystem;

namespace ts::cli {

namespace {

// Files and bytes under a folder; zeros when it does not exist.
std::pair<std::int64_t, std::int64_t> folderSize(const std::string& folder)
{
    std::int64_t files = 0, bytes = 0;
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) return {0, 0};
    for (auto it = fs::recursive_directory_iterator(folder, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
        if (it->is_regular_file(ec)) ++files, bytes += static_cast<std::int64_t>(it->file_size(ec));
    return {files, bytes};
}

// "1 log line", "12 log lines".
std::string counted(std::size_t n, const std::string& noun) { return formatCount(std::int64_t(n)) + " " + noun + (n == 1 ? "" : "s"); }

std::string describe(const RunInfo& run)
{
    return "run " + std::to_string(run.id) + " (" + terminalCell(run.name, Table::kMaxCellChars) + ", " + runStatusName(run.status) + ")";
}

}  // namespace

int runsDelete(const std::vector<std::string>& args)
{
    const Options o = parseOptions(args, {"--workspace"}, {"--yes"});
    if (o.positional.size() != 1) throw std::invalid_argument("runs delete expects one run id (see `trainstudio-cli runs list`)");
    const Workspace workspace = runsWorkspace(o);
    RunInfo run;
    {
        // The reader is closed before the writer opens: the delete needs no second connection.
        const auto reader = openRunReader(workspace);
        const std::int64_t id = resolveRun(*reader, workspace, o.positional[0]);
        run = *reader->run(id);
        if (!o.flags.count("--yes")) {
            std::int64_t points = 0;
            const auto summaries = reader->summaries(id);
            for (const auto& s : summaries) points += s.count;
            const std::string folder = workspace.runCheckpointsPath(id);
            const auto [files, bytes] = folderSize(folder);
            std::printf("would delete %s from %s:\n", describe(run).c_str(), workspace.databasePath().c_str());
            std::printf("  rows: %s, %s, %s, %s, %s, %s\n", counted(std::size_t(points), "metric point").c_str(),
                        counted(summaries.size(), "metric").c_str(), counted(reader->parameters(id).size(), "parameter").c_str(),
                        counted(reader->checkpoints(id).size(), "checkpoint record").c_str(),
                        counted(reader->logs(id).size(), "log line").c_str(),
                        counted(reader->systemSamples(id).size(), "system sample").c_str());
            if (files) std::printf("  %s: %s, %s\n", folder.c_str(), counted(std::size_t(files), "file").c_str(), formatBytes(double(bytes)).c_str());
            else std::printf("  no checkpoint folder (%s does not exist or is empty)\n", folder.c_str());
            if (run.status == RunStatus::Running) std::printf("the run is still running: the store refuses to delete it while its process lives\n");
            std::printf("nothing deleted: run again with --yes to delete\n");
            return 2;
        }
    }
    RunWriter writer(workspace);
    writer.deleteRun(run.id);
    std::printf("deleted %s and %s\n", describe(run).c_str(), workspace.runCheckpointsPath(run.id).c_str());
    return 0;
}

}  // namespace ts::cli
