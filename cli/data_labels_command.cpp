// `trainstudio-cli data labels` (suspect labels: the label check job, in-sample under a run's
// checkpoint or K-fold) and `data mark` (the label overlay: relabel, exclude, clear, list).
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>

#include "commands.h"
#include "console_listener.h"
#include "data/dataset.h"
#include "format.h"
#include "json_output.h"
#include "io/yaml/experiment_yaml.h"
#include "jobs/job.h"
#include "store/label_overlay.h"
#include "store/run_reader.h"
#include "store/workspace.h"
#include "train/run_control.h"

namespace ts::cli {

namespace {

std::optional<std::int64_t> parseInteger(const std::string& text)
{
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return v;
}

std::string className(const std::vector<std::string>& names, std::int64_t c)
{
    return c >= 0 && c < std::int64_t(names.size()) ? names[std::size_t(c)] : std::to_string(c);
}

void printScores(const LabelCheckRecord& check, const std::vector<LabelScore>& scores,
                 const std::vector<std::string>& classes, bool json)
{
    if (json) {
        Json document = {{"event", "label_check"},
                         {"id", check.id},
                         {"method", check.method},
                         {"run_id", check.runId},
                         {"folds", check.folds},
                         {"epochs", check.epochs},
                         {"samples", check.samples},
                         {"suspects", check.suspects},
                         {"seconds", check.seconds},
                         {"ranking", "by self-confidence p(given), lowest first"},
                         {"top", Json::array()}};
        for (std::size_t i = 0; i < scores.size(); ++i) {
            const LabelScore& s = scores[i];
            document["top"].push_back({{"rank", i + 1},
                                       {"split", "train"},
                                       {"sample", s.sample},
                                       {"label", s.label},
                                       {"label_name", className(classes, s.label)},
                                       {"predicted", s.predicted},
                                       {"predicted_name", className(classes, s.predicted)},
                                       {"confidence", s.confidence},
                                       {"self_confidence", s.selfConfidence},
                                       {"margin", s.margin},
                                       {"suspect", s.suspect}});
        }
        printJson(document);
        return;
    }
    const std::string how = check.method == "k_fold" ? std::to_string(check.folds) + "-fold, " + std::to_string(check.epochs) +
                                                           " epochs per fold"
                                                     : "in-sample under run " + std::to_string(check.runId) + "'s checkpoint";
    std::printf("\nlabel check %lld (%s, %.1f s): %s of %s training samples suspect\n", (long long)check.id, how.c_str(),
                check.seconds, formatCount(check.suspects).c_str(), formatCount(check.samples).c_str());
    std::printf("ranked by p(given), lowest first; suspect: another class beats the label and that class's "
                "mean self-confidence\n\n");
    std::printf("  %6s %8s  %-14s %-14s %10s %10s %8s  %s\n", "rank", "sample", "given", "predicted", "confidence",
                "p(given)", "margin", "suspect");
    for (std::size_t i = 0; i < scores.size(); ++i) {
        const LabelScore& s = scores[i];
        std::printf("  %6zu %8lld  %-14s %-14s %10.4f %10.4f %8.4f  %s\n", i + 1, (long long)s.sample,
                    className(classes, s.label).c_str(), className(classes, s.predicted).c_str(), s.confidence,
                    s.selfConfidence, s.margin, s.suspect ? "yes" : "");
    }
    if (!scores.empty())
        std::printf("\n  fix one: trainstudio-cli data mark EXPERIMENT.yaml --split train --sample %lld --relabel %lld "
                    "(or --exclude)\n",
                    (long long)scores.front().sample, (long long)scores.front().predicted);
}

}  // namespace

int dataLabelsCommand(const std::vector<std::string>& args)
{
    const Options o = parseOptions(args, {"--run", "--folds", "--epochs", "--top", "--checkpoint", "--device", "--workspace",
                                          "--check"},
                                   {"--json"});
    if (o.positional.size() != 1)
        throw std::invalid_argument("data labels expects one experiment file: data labels EXPERIMENT.yaml "
                                    "(--run ID | --folds K [--epochs N] | --check ID) [--top N] [--json]");
    const int ways = int(o.has("--run")) + int(o.has("--folds")) + int(o.has("--check"));
    if (ways != 1)
        throw std::invalid_argument("data labels needs exactly one of --run ID (in-sample, under the run's checkpoint), "
                                    "--folds K (out-of-sample, K-fold training) or --check ID (a stored check)");
    const ExperimentSpec spec = withAbsolutePaths(loadExperiment(o.positional[0]));
    const std::int64_t top = o.integer("--top", 20, 0);  // 0: all
    const bool json = o.flags.count("--json") != 0;
    JobEnvironment env;
    env.workspaceDir = o.workspace();
    env.systemSampleSeconds = 0;

    std::int64_t checkId = 0;
    if (o.has("--check")) {
        checkId = o.integer("--check", 0, 1);
    } else {
        LabelCheckJob job;
        job.experiment = spec;
        job.device = o.get("--device", "");
        job.checkpoint = o.get("--checkpoint", "best");
        if (o.has("--run")) job.runId = o.integer("--run", 0, 1);
        else {
            job.folds = o.integer("--folds", 5, 2);
            job.epochsPerFold = o.integer("--epochs", 0, 1);
        }
        ConsoleListener console(json, env.workspaceDir);
        RunControl control;
        const JobResult result = runJob(job, env, control, console);
        if (result.finished.outcome != FinishedEvent::Outcome::Finished) return result.finished.outcome == FinishedEvent::Outcome::Failed ? 1 : 130;
        checkId = std::int64_t(result.finished.metrics.at("label_check_id"));
    }
    const Workspace workspace{env.workspaceDir};
    const std::optional<LabelCheckRecord> check = labelCheck(workspace, checkId);
    if (!check)
        throw std::invalid_argument("label check " + std::to_string(checkId) + " is not in " + workspace.databasePath());
    const ExperimentSpec checked = check->experimentYaml.empty() ? spec : parseExperiment(check->experimentYaml, o.positional[0]);
    const std::vector<std::string> classes = openDatasetFiles(checked.dataset, experimentDataDirectory(checked)).train->classNames();
    printScores(*check, labelScores(workspace, checkId, top), classes, json);
    return 0;
}

int dataMarkCommand(const std::vector<std::string>& args)
{
    const Options o = parseOptions(args, {"--split", "--sample", "--relabel", "--workspace"}, {"--exclude", "--clear", "--list", "--json"});
    if (o.positional.size() != 1)
        throw std::invalid_argument("data mark expects one experiment file: data mark EXPERIMENT.yaml --split train "
                                    "--sample I (--relabel CLASS | --exclude | --clear), or --list");
    const ExperimentSpec spec = withAbsolutePaths(loadExperiment(o.positional[0]));
    const Workspace workspace = Workspace::open(o.workspace());
    const std::string key = datasetKey(spec.dataset, experimentDataDirectory(spec));
    const bool json = o.flags.count("--json") != 0;
    if (o.flags.count("--list")) {
        const LabelOverlay overlay = readLabelOverlay(workspace, key);
        if (json) {
            Json document = {{"event", "label_overlay"}, {"marks", Json::array()}};
            for (const LabelMark& m : overlay.marks)
                document["marks"].push_back(
                    {{"split", m.split}, {"sample", m.sample}, {"action", labelActionName(m.action)}, {"label", m.label}});
            printJson(document);
        } else {
            std::printf("label overlay of %s: %zu %s\n", spec.dataset.path.c_str(), overlay.marks.size(),
                        overlay.marks.size() == 1 ? "mark" : "marks");
            for (const LabelMark& m : overlay.marks)
                std::printf("  %-5s %8lld  %s%s\n", m.split.c_str(), (long long)m.sample, labelActionName(m.action),
                            m.action == LabelMark::Action::Relabel ? (" to " + std::to_string(m.label)).c_str() : "");
        }
        return 0;
    }
    const int actions = int(o.has("--relabel")) + int(o.flags.count("--exclude")) + int(o.flags.count("--clear"));
    if (actions != 1) throw std::invalid_argument("data mark needs exactly one of --relabel CLASS, --exclude, --clear (or --list)");
    if (!o.has("--split") || !o.has("--sample")) throw std::invalid_argument("data mark needs --split train|test and --sample I");
    LabelMark mark;
    mark.split = o.get("--split", "");
    if (mark.split != "train" && mark.split != "test")
        throw std::invalid_argument("--split " + mark.split + ": marks address the file splits train or test (validation is "
                                    "carved out of train: use the sample's train index)");
    mark.sample = o.integer("--sample", 0, 0);
    if (o.flags.count("--clear")) {
        const bool had = clearLabelMark(workspace, key, mark.split, mark.sample);
        std::printf(had ? "cleared the mark of %s sample %lld\n" : "%s sample %lld had no mark\n", mark.split.c_str(),
                    (long long)mark.sample);
        return 0;
    }
    // Checked against the files now, so a typo fails here and not at the next training.
    const DatasetFiles files = openDatasetFiles(spec.dataset, experimentDataDirectory(spec));
    const std::shared_ptr<const Dataset> split = mark.split == "train" ? files.train : files.test;
    if (!split) throw std::invalid_argument(spec.dataset.path + " has no test split");
    if (mark.sample >= split->size())
        throw std::invalid_argument("--sample " + std::to_string(mark.sample) + ": the " + mark.split + " split holds " +
                                    std::to_string(split->size()) + " samples (0.." + std::to_string(split->size() - 1) + ")");
    const std::vector<std::string> names = split->classNames();
    if (o.has("--relabel")) {
        const std::string text = o.get("--relabel", "");
        const auto named = std::find(names.begin(), names.end(), text);
        const std::optional<std::int64_t> number = parseInteger(text);
        mark.action = LabelMark::Action::Relabel;
        mark.label = named != names.end() ? std::int64_t(named - names.begin()) : number.value_or(-1);
        if (mark.label < 0 || mark.label >= split->numClasses()) {
            std::string known;
            for (std::size_t c = 0; c < names.size(); ++c) known += (c ? ", " : "") + std::to_string(c) + " " + names[c];
            throw std::invalid_argument("--relabel " + text + ": not a class of the dataset (" + known + ")");
        }
    } else {
        mark.action = LabelMark::Action::Exclude;
    }
    setLabelMark(workspace, key, mark);
    const std::int64_t was = split->labels()[std::size_t(mark.sample)];
    if (mark.action == LabelMark::Action::Relabel)
        std::printf("%s sample %lld: %s -> %s (applied by every training job from now on; the files are unchanged)\n",
                    mark.split.c_str(), (long long)mark.sample, className(names, was).c_str(),
                    className(names, mark.label).c_str());
    else
        std::printf("%s sample %lld (%s) excluded from every training job from now on (the files are unchanged)\n",
                    mark.split.c_str(), (long long)mark.sample, className(names, was).c_str());
    return 0;
}

}  // namespace ts::cli
