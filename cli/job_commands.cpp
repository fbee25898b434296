// `trainstudio-cli eval` and `lr-find`: the engine's evaluate and learning-rate finder jobs
// (lr-find --seeds N: one job per seed, and their band),
// shown by the same console listener as training; eval then prints the evaluation's report.
#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "commands.h"
#include "console_listener.h"
#include "data/dataset.h"
#include "eval_report.h"
#include "format.h"
#include "json_output.h"
#include "io/yaml/experiment_yaml.h"
#include "io/output_file.h"
#include "jobs/job.h"
#include "store/run_reader.h"
#include "store/workspace.h"
#include "train/lr_range_test.h"
#include "train/run_control.h"

namespace ts::cli {

namespace {

// Prints the result's metrics; --json lines come from the console listener.
int runAndReport(const Job& job, const JobEnvironment& env, bool json)
{
    ConsoleListener console(json, env.workspaceDir);
    RunControl control;
    const JobResult result = runJob(job, env, control, console);
    if (!json && result.finished.outcome != FinishedEvent::Outcome::Failed)
        for (const auto& [name, value] : result.finished.metrics) std::printf("  %-22s %.6g\n", name.c_str(), value);
    return result.finished.outcome == FinishedEvent::Outcome::Failed ? 1 : 0;
}

// The names of the run's classes, as predict and the studio show them; empty (numbers are
// printed) when its dataset cannot be opened any more.
std::vector<std::string> runClassNames(RunReader& reader, std::int64_t runId)
{
    try {
        const std::optional<RunInfo> run = reader.run(runId);
        if (!run) return {};
        const ExperimentSpec spec = parseExperiment(run->experimentYaml, "run " + std::to_string(runId));
        return openDatasetFiles(spec.dataset, experimentDataDirectory(spec)).train->classNames();
    } catch (const std::exception&) {
        return {};
    }
}

// The stored evaluation, read back as the studio reads it: its report and, with --output, its predictions.
void reportEvaluation(const JobEnvironment& env, std::int64_t runId, std::int64_t evaluationId, bool json,
                      const std::string& csvPath)
{
    RunReader reader(Workspace::open(env.workspaceDir));
    const std::vector<EvaluationRecord> evaluations = reader.evaluations(runId);
    const auto record = std::find_if(evaluations.begin(), evaluations.end(),
                                     [&](const EvaluationRecord& r) { return r.id == evaluationId; });
    if (record == evaluations.end())
        throw std::runtime_error("evaluation " + std::to_string(evaluationId) + " is not in the store after it was written");
    const std::vector<Prediction> predictions = reader.predictions(evaluationId);
    if (record->classes == 0) {  // regression: values, not classes
        printRegressionReport(*record, json);
        if (!csvPath.empty()) {
            const std::optional<RunInfo> run = reader.run(runId);
            const ExperimentSpec spec = parseExperiment(run->experimentYaml, "run " + std::to_string(runId));
            writeRegressionPredictionsCsv(csvPath, predictions, spec.dataset.targetColumns);
            if (!json) std::printf("\n  %s predictions written to %s\n", formatCount(std::int64_t(predictions.size())).c_str(), csvPath.c_str());
        }
        return;
    }
    const EvaluationReport report = evaluationReport(predictions, record->classes, fittedTemperature(*record));
    const std::vector<std::string> names = runClassNames(reader, runId);
    if (json) printEvaluationReportJson(*record, report, names);
    else printEvaluationReport(*record, report, names);
    if (!csvPath.empty()) {
        writePredictionsCsv(csvPath, predictions, record->classes);
        if (!json) std::printf("\n  %s predictions written to %s\n", formatCount(std::int64_t(predictions.size())).c_str(), csvPath.c_str());
    }
}

}  // namespace

int evalCommand(const std::vector<std::string>& args)
{
    const Options o = parseOptions(args, {"--checkpoint", "--split", "--device", "--workspace", "--output"}, {"--json"});
    if (o.positional.size() != 1) throw std::invalid_argument("eval expects one run id (trainstudio-cli runs list shows them)");
    EvaluateJob job;
    try {
        job.runId = std::stoll(o.positional[0]);
    } catch (const std::exception&) {
        throw std::invalid_argument("eval expects a run id, got '" + o.positional[0] + "'");
    }
    job.checkpoint = o.get("--checkpoint", "best");
    job.split = o.get("--split", "");  // test, or val without a test split
    job.device = o.get("--device", "");
    const std::string csvPath = o.get("--output", "");
    if (!csvPath.empty()) checkOutputPath(csvPath);  // before the evaluation runs, not after
    JobEnvironment env;
    env.workspaceDir = o.workspace();
    env.systemSampleSeconds = 0;
    const bool json = o.flags.count("--json") != 0;
    ConsoleListener console(json, env.workspaceDir);
    RunControl control;
    const JobResult result = runJob(job, env, control, console);
    if (result.finished.outcome == FinishedEvent::Outcome::Failed) return 1;
    if (result.evaluationId >= 0) reportEvaluation(env, job.runId, result.evaluationId, json, csvPath);
    return 0;
}

namespace {

// Shows the events and keeps each step's (lr, loss): the points the seeds' band is made of.
class RangeTestCollector final : public TrainListener {
public:
    explicit RangeTestCollector(TrainListener& next) : next_(next) {}
    void onEvent(const TrainEvent& event) override
    {
        next_.onEvent(event);
        if (const auto* s = std::get_if<StepEvent>(&event)) lrs.push_back(s->lr), losses.push_back(s->loss);
    }
    std::vector<double> lrs, losses;

private:
    TrainListener& next_;
};

void printBand(const LrRangeBand& band, std::uint64_t firstSeed, bool json)
{
    const LrSuggestions& m = band.suggestions;
    if (json) {
        Json document = {{"event", "lr_find_seeds"},
                         {"seeds", band.perCurve.size()},
                         {"suggested_lr", m.suggested},
                         {"steepest_lr", m.steepest},
                         {"min_loss_lr", m.minimum * 10},
                         {"valley_lr", m.valley},
                         {"rules_spread", m.spread},
                         {"seed_spread", band.seedSpread()},
                         {"per_seed_suggested_lr", Json::array()}};
        for (const LrSuggestions& curve : band.perCurve) document["per_seed_suggested_lr"].push_back(curve.suggested);
        printJson(document);
        return;
    }
    std::printf("\nover %zu seeds (mean of the smoothed losses over the %zu steps all reached):\n", band.perCurve.size(),
                band.lrs.size());
    for (std::size_t i = 0; i < band.perCurve.size(); ++i)
        std::printf("  seed %-4llu suggested %.3g  (steepest %.3g, lowest / 10 %.3g, valley %.3g)\n",
                    static_cast<unsigned long long>(firstSeed + i), band.perCurve[i].suggested, band.perCurve[i].steepest,
                    band.perCurve[i].minimum, band.perCurve[i].valley);
    std::printf("  mean      suggested %.3g  (steepest %.3g, lowest / 10 %.3g, valley %.3g)\n", m.suggested, m.steepest,
                m.minimum, m.valley);
    std::printf("  the seeds' suggestions differ by %.2fx; the rules on the mean curve by %.2fx%s\n", band.seedSpread(),
                m.spread, m.rulesDisagree() || band.seedSpread() > 3 ? ": more than 3x, no clear answer" : "");
}

}  // namespace

int lrFindCommand(const std::vector<std::string>& args)
{
    const Options o = parseOptions(args, {"--set", "--device", "--steps", "--min-lr", "--max-lr", "--seeds", "--workspace"}, {"--json"});
    if (o.positional.size() != 1) throw std::invalid_argument("lr-find expects one experiment file");
    LrFindJob job;
    job.experiment = withAbsolutePaths(loadExperimentWithOverrides(o.positional[0], o.all("--set")));
    job.steps = o.integer("--steps", job.steps, 10);
    job.minLr = o.positiveNumber("--min-lr", job.minLr);
    job.maxLr = o.positiveNumber("--max-lr", job.maxLr);
    job.device = o.get("--device", "");
    const std::int64_t seeds = o.integer("--seeds", 1, 1);
    const bool json = o.flags.count("--json") != 0;
    JobEnvironment env;  // nothing is recorded; the workspace's label marks apply, as in training
    env.workspaceDir = o.workspace();
    env.systemSampleSeconds = 0;
    if (seeds == 1) return runAndReport(job, env, json);
    // The same sweep from several initialisations and batch orders: one job per seed.
    const std::uint64_t firstSeed = job.experiment.training.seed;
    std::vector<LrRangeCurve> curves;
    for (std::int64_t k = 0; k < seeds; ++k) {
        job.experiment.training.seed = firstSeed + std::uint64_t(k);
        ConsoleListener console(json, env.workspaceDir);
        RangeTestCollector collector(console);
        RunControl control;
        if (runJob(job, env, control, collector).finished.outcome == FinishedEvent::Outcome::Failed) return 1;
        curves.push_back(smoothRangeTest(collector.lrs, collector.losses));
    }
    printBand(combineRangeTests(curves), firstSeed, json);
    return 0;
}

}  // namespace ts::cli
