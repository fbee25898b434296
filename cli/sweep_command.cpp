// `trainstudio-cli sweep EXPERIMENT.yaml`: the experiment's sweep, headless (jobs/sweep_runner.h).
// Prints each trial's values, what each rung keeps, the skips and the best configuration; the
// trials' epochs as `train` shows them. Ctrl+C stops the running trial with a checkpoint, and
// the same command run again continues where the sweep stopped (its state is the store's).
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "commands.h"
#include "console_listener.h"
#include "format.h"
#include "json_output.h"
#include "terminal_text.h"
#include "io/yaml/experiment_yaml.h"
#include "jobs/sweep_runner.h"
#include "runs_output.h"
#include "store/workspace.h"
#include "train/run_control.h"

namespace ts::cli {

namespace {

volatile std::sig_atomic_t interrupted = 0;
void onInterrupt(int) { interrupted = 1; }

// Turns Ctrl+C (or a polite kill) into a stop at the next event of the sweep or its trial.
void checkInterrupt(RunControl& control)
{
    if (interrupted && !control.stopRequested()) {
        std::fprintf(stderr, "\ninterrupted: stopping the running trial after this step (a checkpoint is saved); "
                             "run the same command again to continue\n");
        control.stop();
    }
}

const char* kindName(SweepEvent::Kind kind)
{
    switch (kind) {
    case SweepEvent::Kind::Planned: return "planned";
    case SweepEvent::Kind::Skipped: return "skipped";
    case SweepEvent::Kind::Training: return "training";
    case SweepEvent::Kind::Result: return "result";
    case SweepEvent::Kind::Failed: return "failed";
    case SweepEvent::Kind::Rung: return "rung";
    case SweepEvent::Kind::Best: return "best";
    case SweepEvent::Kind::Finished: break;
    }
    return "finished";
}

// The sweep's own lines, and its trials' training shown as `train` shows it: the run line,
// the progress bar, one line per epoch and the warnings (with --json, every event).
class SweepConsole final : public TrainListener, public SweepListener {
public:
    SweepConsole(bool json, std::string workspace, RunControl& control)
        : json_(json), workspace_(std::move(workspace)), control_(control)
    {
    }
    void onEvent(const TrainEvent& event) override
    {
        if (std::holds_alternative<StartedEvent>(event)) trial_.emplace(json_, workspace_);  // a fresh clock and plan
        if (!trial_) trial_.emplace(json_, workspace_);
        const auto* log = std::get_if<LogEvent>(&event);
        const bool shown = json_ || std::holds_alternative<StartedEvent>(event) || std::holds_alternative<StepEvent>(event) ||
                           std::holds_alternative<EpochEvent>(event) || (log && log->level != LogEvent::Level::Info);
        if (shown) trial_->onEvent(event);
        checkInterrupt(control_);
    }
    void onSweepEvent(const SweepEvent& e) override
    {
        if (json_) {
            printJson({{"event", "sweep"},
                       {"kind", kindName(e.kind)},
                       {"trial", e.trial},
                       {"rung", e.rung},
                       {"id", e.message.id},
                       {"message", e.message.text}});
        } else {
            const bool problem = e.kind == SweepEvent::Kind::Failed ||
                                 (e.kind == SweepEvent::Kind::Finished && e.message.id != "sweep.finished");
            std::fprintf(problem ? stderr : stdout, "%s%s\n", e.trial > 0 && e.kind == SweepEvent::Kind::Planned ? "  " : "",
                         terminalMessage(e.message.text).c_str());
        }
        std::fflush(stdout);
        checkInterrupt(control_);
    }

private:
    bool json_;
    std::string workspace_;
    RunControl& control_;
    std::optional<ConsoleListener> trial_;
};

std::string metricOr(const std::map<std::string, double>& m, const std::string& key)
{
    const auto it = m.find(key);
    return it == m.end() ? "-" : displayNumber(it->second);
}

void printSummary(const SweepResult& r, const std::string& metric)
{
    std::printf("\nsweep %s: rungs at epochs", r.id.c_str());
    for (std::int64_t e : r.rungs) std::printf(" %lld", static_cast<long long>(e));
    std::printf("\n");
    Table table({"trial", "state", "epochs", metric, "test_acc", "run", "values"}, "rlrrrrl");
    table.setMaxChars(240);  // a trial's values (every swept key=value) are the row's point
    for (const SweepTrialResult& t : r.trials) {
        const std::string mark = t.trial.number == r.best ? " *" : "";
        table.add({std::to_string(t.trial.number) + mark, sweepTrialStateName(t.state), std::to_string(t.epochs),
                   t.metric ? displayNumber(*t.metric) : "-", metricOr(t.lastMetrics, "test_acc"),
                   t.runs.empty() ? "-" : std::to_string(t.runs.back()), t.trial.text()});
    }
    table.print();
    for (const SweepTrialResult& t : r.trials)
        if (t.state == SweepTrialResult::State::Skipped || t.state == SweepTrialResult::State::Failed)
            std::printf("  %s\n", terminalMessage(t.reason.text).c_str());
}

void printSummaryJson(const SweepResult& r)
{
    static const char* outcomes[] = {"finished", "stopped", "early_stopped", "failed"};
    Json json = {{"event", "sweep_summary"},
                 {"sweep", r.id},
                 {"outcome", outcomes[static_cast<int>(r.outcome)]},
                 {"message", r.message.text},
                 {"seconds", r.seconds},
                 {"best", r.best},
                 {"training_jobs", r.trainingJobs},
                 {"rungs", r.rungs},
                 {"trials", Json::array()}};
    for (const SweepTrialResult& t : r.trials) {
        Json trial = {{"trial", t.trial.number},
                      {"state", sweepTrialStateName(t.state)},
                      {"epochs", t.epochs},
                      {"metric", orNull(t.metric)},
                      {"planned_bytes", t.plannedBytes},
                      {"values", Json::object()},
                      {"runs", t.runs},
                      {"metrics", Json::object()}};
        for (const auto& [key, value] : t.trial.values) trial["values"][key] = value;
        for (const auto& [name, value] : t.lastMetrics)
            if (name.starts_with("test_") || name.starts_with("val_") || name.starts_with("train_")) trial["metrics"][name] = value;
        if (!t.reason.text.empty()) trial["reason"] = t.reason.text;
        json["trials"].push_back(trial);
    }
    printJson(json);
}

}  // namespace

int sweepCommand(const std::vector<std::string>& args)
{
    const Options o = parseOptions(args, {"--workspace", "--device", "--set"}, {"--json"});
    if (o.positional.size() != 1)
        throw std::invalid_argument("sweep expects one experiment file with a sweep: section (see experiments/README.md)");
    SweepJob job;
    job.experiment = loadExperimentWithOverrides(o.positional[0], o.all("--set"));
    if (!job.experiment.sweep)
        throw std::invalid_argument(o.positional[0] + " has no sweep: section; add one (see experiments/README.md, Sweeps) "
                                                      "or train it with trainstudio-cli train");
    job.device = o.get("--device", "");
    const bool json = o.flags.count("--json") != 0;

    JobEnvironment env;
    env.workspaceDir = o.workspace();
    RunControl control;
    SweepConsole console(json, env.workspaceDir, control);
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
    const SweepResult result = runSweep(job, env, control, console, console);
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    if (json) printSummaryJson(result);
    else if (!result.trials.empty()) printSummary(result, job.experiment.sweep->metric);
    if (result.outcome == FinishedEvent::Outcome::Stopped) return 130;  // like a shell's Ctrl+C: not done yet
    return result.outcome == FinishedEvent::Outcome::Failed ? 1 : 0;
}

}  // namespace ts::cli
