#include "runs_common.h"
#include "tensor/quote_text.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <stdexcept>

namespace fs = std::filesystem;

namespace ts::cli {

namespace {

// "1-5, 7, 9-17"; long lists keep their ends ("1-3, 5, ..., 90, 92-99").
std::string idRanges(std::vector<std::int64_t> ids)
{
    std::sort(ids.begin(), ids.end());
    std::vector<std::string> ranges;
    for (std::size_t i = 0; i < ids.size();) {
        std::size_t j = i;
        while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
        std::string range = std::to_string(ids[i]);
        if (j > i) range.append("-").append(std::to_string(ids[j]));
        ranges.push_back(range);
        i = j + 1;
    }
    if (ranges.size() > 8) {
        ranges.erase(ranges.begin() + 3, ranges.end() - 3);
        ranges.insert(ranges.begin() + 3, "...");
    }
    std::string out;
    for (const auto& r : ranges) out += (out.empty() ? "" : ", ") + r;
    return out;
}

}  // namespace

Workspace runsWorkspace(const Options& options)
{
    return Workspace{options.workspace()};
}

std::unique_ptr<RunReader> openRunReader(const Workspace& workspace)
{
    std::error_code ec;
    if (!fs::exists(workspace.databasePath(), ec))
        throw std::runtime_error("no TrainStudio workspace at " + workspace.directory + " (" + workspace.databasePath() +
                                 " does not exist): train something first (`trainstudio-cli train EXPERIMENT.yaml"
                                 " --workspace DIR` creates one), or point --workspace DIR at an existing workspace");
    return std::make_unique<RunReader>(workspace);
}

std::int64_t resolveRun(RunReader& reader, const Workspace& workspace, const std::string& text)
{
    std::int64_t id = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
    if (ec != std::errc() || end != text.data() + text.size() || id < 1)
        throw std::invalid_argument(quoteText(text) + " is not a run id (runs are numbered 1, 2, ...; see `trainstudio-cli runs list`)");
    if (reader.run(id)) return id;
    std::vector<std::int64_t> ids;
    for (const auto& listing : reader.listRuns()) ids.push_back(listing.run.id);
    const std::string where = ids.empty() ? "it has no runs yet; `trainstudio-cli train EXPERIMENT.yaml` makes one"
                                          : std::string(ids.size() == 1 ? "run " : "runs ") + idRanges(ids) +
                                                "; see `trainstudio-cli runs list`";
    throw std::runtime_error("no run " + text + " in " + workspace.directory + " (" + where + ")");
}

const MetricSummary* findSummary(const std::vector<MetricSummary>& summaries, const std::string& name)
{
    for (const auto& s : summaries)
        if (s.name == name) return &s;
    return nullptr;
}

}  // namespace ts::cli
