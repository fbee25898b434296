// `trainstudio-cli runs`: the workspace's runs from the command line. Every sub-command reads
// through RunReader's read-only connection (it never blocks a run that is training), except
// delete, which goes through RunWriter like every other change to the store.
#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "commands.h"
#include "json_output.h"
#include "runs_common.h"
#include "runs_output.h"
#include "tensor/quote_text.h"

namespace ts::cli {

namespace {

void printRunsHelp()
{
    std::printf(
        "Usage: trainstudio-cli runs <sub-command> [--workspace DIR] [options]\n"
        "\n"
        "The runs stored in a workspace (default %s: $TRAINSTUDIO_WORKSPACE when set).\n"
        "Everything but delete only reads the store, so it is safe while runs train.\n"
        "\n"
        "  list [--status S] [--json]    every run, newest first: id, name, status, start (local\n"
        "                                time), duration, device and its result (val_acc's best,\n"
        "                                else val_loss's; without validation the final test_acc,\n"
        "                                else test_loss); S is one of queued,\n"
        "                                running, finished, failed, stopped, crashed\n"
        "  show RUN [--log N] [--json]   one run: its record, parent, tags, notes, message, every\n"
        "                                metric's last/min/max/best, its checkpoints and its last\n"
        "                                N log lines (default 10; the JSON has the parameters and\n"
        "                                the experiment as run)\n"
        "  compare RUN RUN [RUN...] [--json]\n"
        "                                the parameters that differ between the runs (the identical\n"
        "                                ones are counted), then every metric's final and best value\n"
        "                                side by side\n"
        "  metrics RUN [NAME...] [--json]\n"
        "                                the run's metric names with their point counts; with\n"
        "                                names, the points of those metrics\n"
        "  export RUN [--output FILE.csv] [--metrics a,b]\n"
        "                                the metric points as CSV in long format, one row per point:\n"
        "                                step,metric,value,wall_time (wall_time: seconds since the\n"
        "                                run started). Long, because metrics are logged at different\n"
        "                                steps (loss every step, val_acc every epoch): a wide table\n"
        "                                would be mostly empty. To stdout without --output\n"
        "  delete RUN [--yes]            delete the run's rows and its checkpoint folder; without\n"
        "                                --yes, only show what would be deleted (exit code 2)\n"
        "\n"
        "NaN and infinities are written nan, inf and -inf (as strings in JSON).\n"
        "Exit codes: 0 done; 1 an error (no such run, no workspace, a store error, a bad option);\n"
        "2 an unknown sub-command, or delete without --yes.\n",
        Workspace::defaultDirectory().c_str());
}

}  // namespace

int runsCommand(const std::vector<std::string>& args)
{
    if (args.empty()) {
        printRunsHelp();
        return 2;
    }
    // Help wins anywhere ("runs show --help"); the word only in the sub-command's place.
    if (args[0] == "help" || std::find(args.begin(), args.end(), "--help") != args.end() ||
        std::find(args.begin(), args.end(), "-h") != args.end()) {
        printRunsHelp();
        return 0;
    }
    const std::string sub = args[0];
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (sub == "list") return runsList(rest);
    if (sub == "show") return runsShow(rest);
    if (sub == "compare") return runsCompare(rest);
    if (sub == "metrics") return runsMetrics(rest);
    if (sub == "export") return runsExport(rest);
    if (sub == "delete") return runsDelete(rest);
    std::fprintf(stderr, "trainstudio-cli runs: unknown sub-command '%s' (list, show, compare, metrics, export, delete; "
                         "see trainstudio-cli runs --help)\n", sub.c_str());
    return 2;
}

int runsList(const std::vector<std::string>& args)
{
    const Options o = parseOptions(args, {"--workspace", "--status"}, {"--json"});
    if (!o.positional.empty()) throw std::invalid_argument("runs list takes no run (did you mean `runs show RUN`?)");
    std::optional<RunStatus> status;
    if (o.has("--status")) {
        status = parseRunStatus(o.get("--status", ""));
        if (!status)
            throw std::invalid_argument("unknown status " + quoteText(o.get("--status", "")) +
                                        " (queued, running, finished, failed, stopped or crashed)");
    }
    const Workspace workspace = runsWorkspace(o);
    std::vector<RunListing> runs = openRunReader(workspace)->listRuns();
    const std::size_t total = runs.size();
    if (status) std::erase_if(runs, [&](const RunListing& r) { return r.run.status != *status; });

    if (o.flags.count("--json")) {
        Json json = Json::array();
        for (const auto& [run, summaries] : runs) {
            Json best = nullptr, result = nullptr;  // result: the headline, best validation, else the final test metric
            if (const MetricSummary* b = bestValidation(summaries))
                best = {{"metric", b->name}, {"value", jsonValue(b->best)}, {"step", b->bestStep}};
            if (const HeadlineResult r = headlineResult(summaries); r.summary)
                result = {{"metric", r.summary->name},
                          {"value", jsonValue(r.value)},
                          {"step", r.step},
                          {"kind", r.finalTest ? "final" : "best"}};
            json.push_back({{"id", run.id},
                            {"name", run.name},
                            {"experiment", run.experimentName},
                            {"status", runStatusName(run.status)},
                            {"start_time", jsonValue(run.startTime)},
                            {"started", isoLocalTime(run.startTime)},
                            {"end_time", jsonValue(run.endTime)},
                            {"duration_s", jsonValue(runDuration(run))},
                            {"active_s", jsonValue(activeSeconds(run, summaries))},
                            {"device", run.device},
                            {"tags", run.tags},
                            {"best_validation", best},
                            {"result", result}});
        }
        printJson(json);
        return 0;
    }
    if (runs.empty()) {
        if (status && total)
            std::printf("no %s runs in %s (%zu runs in all)\n", runStatusName(*status), workspace.directory.c_str(), total);
        else
            std::printf("no runs in %s yet: `trainstudio-cli train EXPERIMENT.yaml` makes one\n", workspace.directory.c_str());
        return 0;
    }
    Table table({"id", "name", "status", "started", "duration", "device", "result"}, "rllllll");
    for (const auto& [run, summaries] : runs) {
        const HeadlineResult r = headlineResult(summaries);
        table.add({std::to_string(run.id), run.name, runStatusName(run.status), localTime(run.startTime),
                   formatDuration(activeSeconds(run, summaries)), run.device.empty() ? "-" : run.device,
                   r.summary ? r.summary->name + " " + displayNumber(r.value) + (r.finalTest ? " (final)" : " (best)") : "-"});
    }
    table.print();
    return 0;
}

}  // namespace ts::cli
