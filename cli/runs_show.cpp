// `trainstudio-cli runs show RUN`: everything the store knows about one run.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "json_output.h"
#include "runs_common.h"
#include "runs_output.h"
#include "terminal_text.h"
#include "store/resume_source.h"

namespace ts::cli {

namespace {

struct ShownRun {
    RunInfo run;
    std::vector<MetricSummary> summaries;  // by name
    std::vector<CheckpointRecord> checkpoints;
    std::vector<LogLine> logs;  // the last ones asked for
    std::size_t logCount = 0;   // all of them
    std::vector<std::pair<std::string, std::string>> parameters;
};

// Multi-line text (notes, messages) indented under its label; its other control characters
// escaped and its length bounded (terminal_text.h), so no line of it can pass for a line of
// this report. --json has the text whole.
std::string indented(const std::string& text, int indent, std::size_t maxChars = 4000)
{
    std::string out;
    for (char c : terminalBlock(text, maxChars)) {
        out += c;
        if (c == '\n') out.append(static_cast<std::size_t>(indent), ' ');
    }
    return out;
}

std::string joined(const std::vector<std::string>& items)
{
    std::string out;
    for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
    return out;
}

bool checkpointExists(const Workspace& workspace, const CheckpointRecord& c)
{
    std::error_code ec;
    return std::filesystem::exists(absoluteCheckpointPath(workspace, c.path), ec);
}

Json shownRunJson(const ShownRun& s, const Workspace& workspace)
{
    const RunInfo& run = s.run;
    Json json = {{"id", run.id},
                 {"name", run.name},
                 {"experiment_id", run.experimentId},
                 {"experiment", run.experimentName},
                 {"status", runStatusName(run.status)},
                 {"message", run.message.text},
                 {"start_time", jsonValue(run.startTime)},
                 {"started", isoLocalTime(run.startTime)},
                 {"end_time", jsonValue(run.endTime)},
                 {"ended", isoLocalTime(run.endTime)},
                 {"duration_s", jsonValue(runDuration(run))},
                 {"active_s", jsonValue(activeSeconds(run, s.summaries))},
                 {"paused_s", jsonValue(pausedSeconds(s.summaries))},
                 {"heartbeat", jsonValue(run.heartbeat)},
                 {"host", run.host},
                 {"device", run.device},
                 {"seed", run.seed},
                 {"parent", nullptr},
                 {"notes", run.notes},
                 {"tags", run.tags},
                 {"checkpoints_dir", workspace.runCheckpointsPath(run.id)},
                 {"metrics", Json::array()},
                 {"checkpoints", Json::array()},
                 {"log_lines", s.logCount},
                 {"logs", Json::array()},
                 {"parameters", Json::object()},
                 {"experiment_yaml", run.experimentYaml}};
    if (run.parentRunId) json["parent"] = {{"id", *run.parentRunId}, {"relation", run.parentRelation}};
    for (const auto& m : s.summaries) {
        const bool hasBest = metricGoal(m.name) != MetricGoal::None;  // lr, grad_norm have none
        json["metrics"].push_back({{"name", m.name},
                                   {"count", m.count},
                                   {"last", jsonValue(m.last)},
                                   {"last_step", m.lastStep},
                                   {"min", jsonValue(m.min)},
                                   {"max", jsonValue(m.max)},
                                   {"best", hasBest ? jsonValue(m.best) : Json(nullptr)},
                                   {"best_step", hasBest ? Json(m.bestStep) : Json(nullptr)}});
    }
    for (const auto& c : s.checkpoints)
        json["checkpoints"].push_back({{"id", c.id},
                                       {"path", c.path},
                                       {"absolute_path", absoluteCheckpointPath(workspace, c.path)},
                                       {"exists", checkpointExists(workspace, c)},
                                       {"state_path", c.statePath},
                                       {"epoch", c.epoch},
                                       {"step", c.step},
                                       {"metric", c.metricName},
                                       {"metric_value", jsonValue(c.metricValue)},
                                       {"best", c.best},
                                       {"size_bytes", c.sizeBytes},
                                       {"sha256", c.sha256},
                                       {"created", jsonValue(c.createdTime)}});
    for (const auto& l : s.logs)
        json["logs"].push_back({{"time", jsonValue(l.time)}, {"level", l.level}, {"message", l.message.text}});
    for (const auto& [k, v] : s.parameters) json["parameters"][k] = v;
    return json;
}

void printText(const ShownRun& s, const Workspace& workspace)
{
    const RunInfo& run = s.run;
    std::printf("run %lld: %s\n", static_cast<long long>(run.id), clipText(run.name, 200).c_str());
    // Names, tags and paths stay on their row; a message and notes may span lines.
    auto row = [](const char* label, const std::string& value, bool lines = false) {
        if (!value.empty()) std::printf("  %-12s %s\n", label, (lines ? indented(value, 15) : terminalCell(value, 200)).c_str());
    };
    row("experiment", run.experimentName);
    row("status", runStatusName(run.status));
    row("message", run.message.text, true);
    row("started", localTime(run.startTime));
    if (run.endTime > 0) row("ended", localTime(run.endTime));
    const double paused = pausedSeconds(s.summaries);
    row("duration", formatDuration(activeSeconds(run, s.summaries)) + (run.status == RunStatus::Running ? " so far" : "") +
                        (paused > 0 ? " active, paused " + formatDuration(paused) : ""));
    if (run.status == RunStatus::Running || run.status == RunStatus::Crashed) row("heartbeat", localTime(run.heartbeat));
    row("device", run.device + (run.host.empty() ? "" : " on " + run.host));
    row("seed", std::to_string(run.seed));
    if (run.parentRunId)
        row("parent", "run " + std::to_string(*run.parentRunId) + (run.parentRelation.empty() ? "" : " (" + run.parentRelation + ")"));
    row("tags", joined(run.tags));
    row("notes", run.notes, true);
    row("parameters", std::to_string(s.parameters.size()) + " (runs compare RUN RUN shows those that differ; --json lists all)");
    row("checkpoints", workspace.runCheckpointsPath(run.id));

    std::printf("\nmetrics (%zu)\n", s.summaries.size());
    Table metrics({"name", "count", "last", "at step", "min", "max", "best", "at step"}, "lrrrrrrr");
    for (const auto& m : s.summaries) {
        const bool hasGoal = metricGoal(m.name) != MetricGoal::None;  // lr, grad_norm: no "best"
        metrics.add({m.name, std::to_string(m.count), displayNumber(m.last), std::to_string(m.lastStep), displayNumber(m.min),
                     displayNumber(m.max), hasGoal ? displayNumber(m.best) : "-", hasGoal ? std::to_string(m.bestStep) : "-"});
    }
    if (!metrics.empty()) metrics.print(stdout, 2);

    std::printf("\ncheckpoints (%zu)\n", s.checkpoints.size());
    Table checkpoints({"file", "epoch", "step", "metric", "best", "size"}, "lrrllr");
    for (const auto& c : s.checkpoints)
        checkpoints.add({c.path + (checkpointExists(workspace, c) ? "" : " (missing)"), std::to_string(c.epoch),
                         std::to_string(c.step), c.metricName.empty() ? "-" : c.metricName + " " + displayNumber(c.metricValue),
                         c.best ? "best" : "", formatBytes(double(c.sizeBytes))});
    if (!checkpoints.empty()) checkpoints.print(stdout, 2);

    std::printf("\nlog (%s%zu line%s)\n", s.logs.size() < s.logCount ? ("last " + std::to_string(s.logs.size()) + " of ").c_str() : "",
                s.logCount, s.logCount == 1 ? "" : "s");
    for (const auto& l : s.logs) {
        const std::string time = localTime(l.time);
        std::printf("  %s  %-7s  %s\n", time.size() > 11 ? time.substr(11).c_str() : time.c_str(), terminalText(l.level).c_str(),
                    indented(l.message.text, 21, 1000).c_str());
    }
}

}  // namespace

int runsShow(const std::vector<std::string>& args)
{
    const Options o = parseOptions(args, {"--workspace", "--log"}, {"--json"});
    if (o.positional.size() != 1) throw std::invalid_argument("runs show expects one run id (see `trainstudio-cli runs list`)");
    const auto logLines = static_cast<std::size_t>(o.integer("--log", 10, 0));
    const Workspace workspace = runsWorkspace(o);
    const auto reader = openRunReader(workspace);
    const std::int64_t id = resolveRun(*reader, workspace, o.positional[0]);

    ShownRun s;
    s.run = *reader->run(id);
    s.summaries = reader->summaries(id);
    std::sort(s.summaries.begin(), s.summaries.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    s.checkpoints = reader->checkpoints(id);
    s.logs = reader->logs(id);
    s.logCount = s.logs.size();
    if (s.logs.size() > logLines) s.logs.erase(s.logs.begin(), s.logs.end() - static_cast<std::ptrdiff_t>(logLines));
    s.parameters = reader->parameters(id);

    if (o.flags.count("--json")) printJson(shownRunJson(s, workspace));
    else printText(s, workspace);
    return 0;
}

}  // namespace ts::cli
