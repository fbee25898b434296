// `trainstudio-cli runs compare RUN RUN [RUN...]`: what came of the runs (their results
// first), how their models differ (summarised: layers, parameters, FLOPs, not one row per
// layer attribute), the other settings that differ, then every metric side by side.
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "format.h"
#include "json_output.h"
#include "graph/cost_model.h"
#include "graph/graph.h"
#include "io/yaml/experiment_yaml.h"
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

bool isModelKey(const std::string& key) { return key.rfind("model.", 0) == 0; }

// "Conv2d x2, Linear x2, ReLU x3, ...; 421,834 parameters, 1,114.7 MFLOPs a sample" from the
// experiment stored with the run; empty when it has none that checks.
struct ModelSummary {
    std::string layers, parameters, flops;
};
ModelSummary summariseModel(const RunInfo& run)
{
    if (run.experimentYaml.empty()) return {};
    try {
        const ExperimentSpec spec = parseExperiment(run.experimentYaml, "run " + std::to_string(run.id));
        const CheckedGraph graph = checkGraph(spec.model, 1);
        std::map<std::string, int> ops;
        for (const CheckedNode& n : graph.nodes) ++ops[n.op->type()];
        ModelSummary m;
        for (const auto& [op, count] : ops) m.layers += (m.layers.empty() ? "" : ", ") + op + (count > 1 ? " x" + std::to_string(count) : "");
        const CostReport cost = estimateCost(graph);
        m.parameters = formatCount(cost.parameters);
        char flops[32];
        std::snprintf(flops, sizeof flops, "%.1f", cost.flops / 1e6);
        m.flops = flops;
        return m;
    } catch (const std::exception&) {
        return {};
    }
}

std::set<std::string> metricNames(const std::vector<ComparedRun>& runs)
{
    std::set<std::string> names;
    for (const auto& r : runs)
        for (const auto& s : r.summaries) names.insert(s.name);
    return names;
}

Json comparisonJson(const std::vector<ComparedRun>& runs, const std::vector<ParameterRow>& differing, std::size_t identical)
{
    Json json = {{"runs", Json::array()},
                 {"parameters", {{"identical", identical}, {"differing", Json::array()}}},
                 {"metrics", Json::array()}};
    for (const auto& r : runs)
        json["runs"].push_back({{"id", r.run.id}, {"name", r.run.name}, {"status", runStatusName(r.run.status)}});
    for (const auto& [key, values] : differing) {
        Json row = {{"key", key}, {"values", Json::array()}};
        for (const auto& v : values) row["values"].push_back(orNull(v));
        json["parameters"]["differing"].push_back(row);
    }
    for (const auto& name : metricNames(runs)) {
        Json metric = {{"name", name}, {"runs", Json::array()}};
        for (const auto& r : runs) {
            const MetricSummary* s = findSummary(r.summaries, name);
            metric["runs"].push_back(s ? Json{{"last", jsonValue(s->last)},
                                              {"last_step", s->lastStep},
                                              {"best", jsonValue(s->best)},
                                              {"best_step", s->bestStep}}
                                       : Json(nullptr));
        }
        json["metrics"].push_back(metric);
    }
    return json;
}

void printText(const std::vector<ComparedRun>& runs, const std::vector<ParameterRow>& differing, std::size_t identical)
{
    std::vector<std::string> header{""};
    for (const auto& r : runs) header.push_back("run " + std::to_string(r.run.id));
    // What came of each run first: the question a comparison is asked for.
    Table summary(header, "l" + std::string(runs.size(), 'r'));
    std::vector<std::string> names{"name"}, statuses{"status"}, results{"result"}, durations{"duration"};
    for (const auto& r : runs) {
        names.push_back(r.run.name);
        statuses.push_back(runStatusName(r.run.status));
        const HeadlineResult h = headlineResult(r.summaries);
        results.push_back(h.summary ? h.summary->name + " " + displayNumber(h.value) + (h.finalTest ? " (final)" : " (best)") : "-");
        durations.push_back(formatDuration(activeSeconds(r.run, r.summaries)));
    }
    for (const auto& row : {names, statuses, results, durations}) summary.add(row);
    summary.print();

    // The model: one summary per run, not one row per layer attribute.
    std::vector<ParameterRow> settings;
    std::size_t modelKeys = 0;
    for (const ParameterRow& row : differing) (isModelKey(row.first) ? ++modelKeys : (settings.push_back(row), 0));
    if (modelKeys == 0) {
        const ModelSummary m = summariseModel(runs.front().run);
        std::printf("\nmodel: the same%s\n", m.parameters.empty() ? "" : (" (" + m.parameters + " parameters)").c_str());
    } else {
        std::printf("\nmodel: %zu setting(s) differ\n", modelKeys);
        header[0] = "";
        Table model(header, "l" + std::string(runs.size(), 'r'));
        std::vector<std::string> layers{"layers"}, parameters{"parameters"}, flops{"MFLOPs a sample"};
        for (const auto& r : runs) {
            const ModelSummary m = summariseModel(r.run);
            layers.push_back(m.layers.empty() ? "-" : m.layers);
            parameters.push_back(m.parameters.empty() ? "-" : m.parameters);
            flops.push_back(m.flops.empty() ? "-" : m.flops);
        }
        for (const auto& row : {layers, parameters, flops}) model.add(row);
        model.print(stdout, 2);
    }

    std::printf("\nother settings: %zu differ, %zu identical\n", settings.size(), identical);
    if (!settings.empty()) {
        header[0] = "key";
        Table params(header, "");
        for (const auto& [key, values] : settings) {
            std::vector<std::string> row{key};
            for (const auto& v : values) row.push_back(v ? *v : "(absent)");
            params.add(row);
        }
        params.print(stdout, 2);
    }

    // Metrics with a goal first (losses, accuracies), then the rest; per-parameter gradient
    // norms are counted, not listed (runs metrics RUN grad_norm/<name> reads them).
    std::vector<std::string> ordered, others;
    std::size_t perLayer = 0;
    for (const auto& name : metricNames(runs)) {
        if (name.rfind("grad_norm/", 0) == 0) ++perLayer;
        else (metricGoal(name) != MetricGoal::None ? ordered : others).push_back(name);
    }
    ordered.insert(ordered.end(), others.begin(), others.end());
    std::printf("\nmetrics: final / best (at step)\n");
    if (ordered.empty()) return;
    header[0] = "metric";
    Table table(header, "l" + std::string(runs.size(), 'r'));
    for (const auto& name : ordered) {
        const bool goal = metricGoal(name) != MetricGoal::None;
        std::vector<std::string> row{name};
        for (const auto& r : runs) {
            const MetricSummary* s = findSummary(r.summaries, name);
            if (!s) row.push_back("-");
            else if (!goal) row.push_back(displayNumber(s->last));
            else row.push_back(displayNumber(s->last) + " / " + displayNumber(s->best) + " (" + std::to_string(s->bestStep) + ")");
        }
        table.add(row);
    }
    table.print(stdout, 2);
    if (perLayer) std::printf("  (and %zu per-parameter gradient norms: runs metrics RUN grad_norm/NAME)\n", perLayer);
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
    if (o.flags.count("--json")) printJson(comparisonJson(runs, differing, identical));
    else printText(runs, differing, identical);
    return 0;
}

}  // namespace ts::cli
