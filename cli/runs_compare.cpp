// `trainstudio-cli runs compare RUN RUN [RUN...]`: what was different between runs (their
// parameters) and what came of it (final and best metrics), side by side.
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "runs_common.h"
#include "runs_output.h"

namespace ts::cli {

namespace {

struct ComparedRun {
    RunInfo run;
    std::map<std::string, std::string> parameters;
    std::vector<MetricSummary> summaries;
};

// A parameter's value in each run; nullopt where a run does not have it (a newer option).
using ParameterRow = std::pair<std::string, std::vector<std::optional<std::string>>>;

std::vector<ParameterRow> differingParameters(const std::vector<ComparedRun>& runs, std::size_t& identical)
{
    std::set<std::string> keys;
    for (const auto& r : runs)
        for (const auto& [k, v] : r.parameters) keys.insert(k);
    std::vector<ParameterRow> rows;
    identical = 0;
    for (const auto& key : keys) {
        ParameterRow row{key, {}};
        for (const auto& r : runs) {
            auto it = r.parameters.find(key);
            row.second.push_back(it == r.parameters.end() ? std::nullopt : std::optional(it->second));
        }
        if (std::all_of(row.second.begin(), row.second.end(), [&](const auto& v) { return v == row.second.front(); }))
            ++identical;
        else
            rows.push_back(std::move(row));
    }
    return rows;
}

std::set<std::string> metricNames(const std::vector<ComparedRun>& runs)
{
    std::set<std::string> names;
    for (const auto& r : runs)
        for (const auto& s : r.summaries) names.insert(s.name);
    return names;
}

void printJson(const std::vector<ComparedRun>& runs, const std::vector<ParameterRow>& differing, std::size_t identical)
{
    JsonWriter json;
    json.beginObject().key("runs").beginArray();
    for (const auto& r : runs)
        json.beginObject().field("id", r.run.id).field("name", r.run.name).field("status", runStatusName(r.run.status)).endObject();
    json.endArray().key("parameters").beginObject().field("identical", identical).key("differing").beginArray();
    for (const auto& [key, values] : differing) {
        json.beginObject().field("key", key).key("values").beginArray();
        for (const auto& v : values) v ? json.value(*v) : json.null();
        json.endArray().endObject();
    }
    json.endArray().endObject().key("metrics").beginArray();
    for (const auto& name : metricNames(runs)) {
        json.beginObject().field("name", name).key("runs").beginArray();
        for (const auto& r : runs) {
            if (const MetricSummary* s = findSummary(r.summaries, name))
                json.beginObject()
                    .field("last", s->last)
                    .field("last_step", s->lastStep)
                    .field("best", s->best)
                    .field("best_step", s->bestStep)
                    .endObject();
            else
                json.null();
        }
        json.endArray().endObject();
    }
    json.endArray().endObject().print();
}

void printText(const std::vector<ComparedRun>& runs, const std::vector<ParameterRow>& differing, std::size_t identical)
{
    std::vector<std::string> header{""};
    for (const auto& r : runs) header.push_back("run " + std::to_string(r.run.id));
    Table summary(header, "");
    std::vector<std::string> names{"name"}, statuses{"status"};
    for (const auto& r : runs) names.push_back(r.run.name), statuses.push_back(runStatusName(r.run.status));
    summary.add(names);
    summary.add(statuses);
    summary.print();

    std::printf("\nparameters: %zu differ, %zu identical\n", differing.size(), identical);
    if (!differing.empty()) {
        header[0] = "key";
        Table params(header, "");
        for (const auto& [key, values] : differing) {
            std::vector<std::string> row{key};
            for (const auto& v : values) row.push_back(v ? *v : "(absent)");
            params.add(row);
        }
        params.print(stdout, 2);
    }

    const std::set<std::string> metrics = metricNames(runs);
    std::printf("\nmetrics: final / best (at step)\n");
    if (metrics.empty()) return;
    header[0] = "metric";
    Table table(header, "l" + std::string(runs.size(), 'r'));
    for (const auto& name : metrics) {
        std::vector<std::string> row{name};
        for (const auto& r : runs) {
            const MetricSummary* s = findSummary(r.summaries, name);
            row.push_back(s ? displayNumber(s->last) + " / " + displayNumber(s->best) + " (" + std::to_string(s->bestStep) + ")" : "-");
        }
        table.add(row);
    }
    table.print(stdout, 2);
}

}  // namespace

int runsCompare(const std::vector<std::string>& args)
{
    const Options o = parseOptions(args, {"--workspace"}, {"--json"});
    if (o.positional.size() < 2) throw std::invalid_argument("runs compare expects two or more run ids (see `trainstudio-cli runs list`)");
    const Workspace workspace = runsWorkspace(o);
    const auto reader = openRunReader(workspace);
    std::vector<ComparedRun> runs;
    std::set<std::int64_t> seen;
    for (const auto& text : o.positional) {
        const std::int64_t id = resolveRun(*reader, workspace, text);
        if (!seen.insert(id).second) throw std::invalid_argument("run " + text + " is given twice");
        ComparedRun r;
        r.run = *reader->run(id);
        for (auto& [k, v] : reader->parameters(id)) r.parameters[k] = v;
        r.summaries = reader->summaries(id);
        runs.push_back(std::move(r));
    }
    std::size_t identical = 0;
    const auto differing = differingParameters(runs, identical);
    if (o.flags.count("--json")) printJson(runs, differing, identical);
    else printText(runs, differing, identical);
    return 0;
}

}  // namespace ts::cli
