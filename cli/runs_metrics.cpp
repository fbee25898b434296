// `trainstudio-cli runs metrics RUN [NAME...]` and `runs export RUN`: a run's metric points,
// read in step order straight from the store.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "output_file.h"
#include "runs_common.h"
#include "json_output.h"
#include "runs_output.h"

namespace ts::cli {

namespace {

// The names asked for, each checked against those the run has (all of them when none is asked).
std::vector<std::string> chosenMetrics(RunReader& reader, std::int64_t runId, const std::vector<std::string>& asked)
{
    std::vector<std::string> names = reader.metricNames(runId);
    std::sort(names.begin(), names.end());
    if (asked.empty()) return names;
    for (const auto& name : asked)
        if (!std::binary_search(names.begin(), names.end(), name)) {
            std::string known;
            for (std::size_t i = 0; i < names.size() && i < 20; ++i) known += (i ? ", " : "") + names[i];
            if (names.size() > 20) known += ", ... (" + std::to_string(names.size()) + " in all)";
            throw std::runtime_error("run " + std::to_string(runId) + " has no metric '" + name + "' (" +
                                     (names.empty() ? std::string("it has none") : "it has " + known) + ")");
        }
    return asked;
}

std::vector<std::string> splitCommas(const std::vector<std::string>& lists)
{
    std::vector<std::string> out;
    for (const auto& list : lists)
        for (std::size_t start = 0; start <= list.size();) {
            const std::size_t comma = std::min(list.find(',', start), list.size());
            if (comma > start) out.push_back(list.substr(start, comma - start));
            start = comma + 1;
        }
    return out;
}

// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled.
std::string csvField(const std::string& s)
{
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

void printNames(RunReader& reader, std::int64_t runId, bool json)
{
    std::vector<MetricSummary> summaries = reader.summaries(runId);
    std::sort(summaries.begin(), summaries.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    if (json) {
        Json document = {{"run", runId}, {"metrics", Json::array()}};
        for (const auto& s : summaries)
            document["metrics"].push_back({{"name", s.name}, {"count", s.count}, {"last_step", s.lastStep}});
        printJson(document);
        return;
    }
    if (summaries.empty()) {
        std::printf("run %lld has no metrics yet\n", static_cast<long long>(runId));
        return;
    }
    Table table({"name", "points", "last step"}, "lrr");
    for (const auto& s : summaries) table.add({s.name, std::to_string(s.count), std::to_string(s.lastStep)});
    table.print();
}

}  // namespace

int runsMetrics(const std::vector<std::string>& args)
{
    const Options o = parseOptions(args, {"--workspace"}, {"--json"});
    if (o.positional.empty()) throw std::invalid_argument("runs metrics expects a run id, then optionally metric names");
    const Workspace workspace = runsWorkspace(o);
    const auto reader = openRunReader(workspace);
    const std::int64_t id = resolveRun(*reader, workspace, o.positional[0]);
    const bool json = o.flags.count("--json") != 0;
    const std::vector<std::string> asked(o.positional.begin() + 1, o.positional.end());
    if (asked.empty()) {
        printNames(*reader, id, json);
        return 0;
    }
    const std::vector<std::string> names = chosenMetrics(*reader, id, asked);
    Json document = {{"run", id}, {"metrics", Json::array()}};
    for (std::size_t n = 0; n < names.size(); ++n) {
        const MetricSeries series = reader->metric(id, names[n]);
        if (json) {
            // Columns, not one object per point: a million points stay a few MB.
            Json values = Json::array(), wallTimes = Json::array();
            for (double v : series.values) values.push_back(jsonValue(v));
            for (double t : series.wallTimes) wallTimes.push_back(jsonValue(t));
            document["metrics"].push_back(
                {{"name", series.name}, {"steps", series.steps}, {"values", values}, {"wall_times", wallTimes}});
            continue;
        }
        std::printf("%s%s (%zu points)\n", n ? "\n" : "", names[n].c_str(), series.steps.size());
        Table table({"step", "value", "wall time"}, "rrr");
        for (std::size_t i = 0; i < series.steps.size(); ++i)
            table.add({std::to_string(series.steps[i]), displayNumber(series.values[i]), formatDuration(series.wallTimes[i])});
        if (!table.empty()) table.print(stdout, 2);
    }
    if (json) printJson(document);
    return 0;
}

int runsExport(const std::vector<std::string>& args)
{
    const Options o = parseOptions(args, {"--workspace", "--output", "--metrics"}, {});
    if (o.positional.size() != 1) throw std::invalid_argument("runs export expects one run id (see `trainstudio-cli runs list`)");
    const Workspace workspace = runsWorkspace(o);
    const auto reader = openRunReader(workspace);
    const std::int64_t id = resolveRun(*reader, workspace, o.positional[0]);
    const std::vector<std::string> names = chosenMetrics(*reader, id, splitCommas(o.all("--metrics")));

    // A named file is checked before anything is read, and replaced only once complete.
    const std::string path = o.get("--output", "");
    std::optional<OutputPlan> plan;
    std::optional<AtomicFile> file;
    if (!path.empty()) file.emplace((plan = checkOutputPath(path))->target);
    std::size_t rows = 0;
    std::string text = "step,metric,value,wall_time\n";
    const auto flush = [&] {
        if (file) file->write(text);
        else if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size())
            throw std::runtime_error(std::string("stdout: write failed: ") + std::strerror(errno));
        text.clear();
    };
    for (const auto& name : names) {
        const MetricSeries series = reader->metric(id, name);
        const std::string field = csvField(name);
        for (std::size_t i = 0; i < series.steps.size(); ++i, ++rows) {
            text += std::to_string(series.steps[i]) + ',' + field + ',' + exactNumber(series.values[i]) + ',' +
                    exactNumber(series.wallTimes[i]) + '\n';
            if (text.size() > (1 << 20)) flush();
        }
    }
    flush();
    if (!file) {
        if (std::fflush(stdout) != 0) throw std::runtime_error(std::string("stdout: write failed: ") + std::strerror(errno));
        return 0;
    }
    file->commit();
    sayOutputNote(*plan);
    std::printf("wrote %zu points of %zu metrics of run %lld to %s\n", rows, names.size(), static_cast<long long>(id), path.c_str());
    return 0;
}

}  // namespace ts::cli
