// `trainstudio-cli data check EXPERIMENT.yaml [--json] [--force] [--threshold BITS]
// [--show N] [--workspace DIR]`: the data check job (jobs/job.h), then its stored report read
// back from the workspace as the studio reads it; and the `data` dispatch (labels and mark are
// in data_labels_command.cpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <unistd.h>

#include "commands.h"
#include "format.h"
#include "json_output.h"
#include "terminal_text.h"
#include "io/yaml/experiment_yaml.h"
#include "jobs/job.h"
#include "store/dataset_catalog.h"
#include "store/workspace.h"
#include "train/run_control.h"

namespace ts::cli {

namespace {

// Logs and progress on stderr (a progress line only on a terminal); the outcome is printed
// by the command from the result.
class CheckListener final : public TrainListener {
public:
    void onEvent(const TrainEvent& event) override
    {
        if (const auto* p = std::get_if<ProgressEvent>(&event)) {
            if (!terminal_ || p->total <= 0) return;
            std::fprintf(stderr, "\r\033[K%s %3d%% (%s of %s)", terminalCell(p->what.text, 200).c_str(), int(100 * p->done / p->total),
                         formatCount(p->done).c_str(), formatCount(p->total).c_str());
            drawn_ = true;
        } else if (const auto* l = std::get_if<LogEvent>(&event)) {
            clear();
            std::fprintf(stderr, "%s: %s\n", l->level == LogEvent::Level::Error ? "error"
                                             : l->level == LogEvent::Level::Warning ? "warning" : "info",
                         terminalMessage(l->message.text).c_str());
        } else if (std::holds_alternative<FinishedEvent>(event)) {
            clear();
        }
    }

private:
    void clear()
    {
        if (drawn_) std::fprintf(stderr, "\r\033[K");
        drawn_ = false;
    }
    bool terminal_ = isatty(STDERR_FILENO) != 0, drawn_ = false;
};

std::string sampleRef(const std::string& split, std::int64_t sample)
{
    return split + " " + std::to_string(sample);
}

// "train 12 (cat/a.png)": a pair's sample with its file when the reader names one.
std::string pairSide(const std::string& split, std::int64_t sample, const std::string& file)
{
    return sampleRef(split, sample) + (file.empty() ? std::string() : " (" + file + ")");
}

std::string findingLine(const HealthFinding& f)
{
    switch (f.kind) {
    case FindingKind::ExactDuplicate:
    case FindingKind::ExactLeak:
        return pairSide(f.split, f.sample, f.file) + " = " + pairSide(f.otherSplit, f.otherSample, f.otherFile);
    case FindingKind::NearDuplicate:
    case FindingKind::NearLeak:
        return pairSide(f.split, f.sample, f.file) + " ~ " + pairSide(f.otherSplit, f.otherSample, f.otherFile) + " (" +
               std::to_string(int(f.value)) + " bits)";
    case FindingKind::Unreadable: return sampleRef(f.split, f.sample) + " [" + f.cause + "] " + f.detail;
    default: return f.detail;
    }
}

Json findingJson(const HealthFinding& f)
{
    Json json = {{"kind", findingKindName(f.kind)}, {"split", f.split}, {"sample", f.sample}};
    if (isPairKind(f.kind)) {
        json["other_split"] = f.otherSplit;
        json["other_sample"] = f.otherSample;
    }
    json["value"] = f.value;
    if (!f.cause.empty()) json["cause"] = f.cause;
    if (!f.column.empty()) json["column"] = f.column;
    if (isPairKind(f.kind)) {  // where each sample of the pair comes from; no byte offset
        if (!f.file.empty()) json["file"] = f.file;
        if (!f.otherFile.empty()) json["other_file"] = f.otherFile;
    } else if (!f.file.empty()) {
        json["file"] = f.file;
        json["position"] = f.position;
    }
    json["detail"] = f.detail;
    return json;
}

Json checkJson(const DatasetRecord& dataset, const StoredCheck& check, bool reused,
               const std::vector<std::vector<HealthFinding>>& shown)
{
    const HealthReport& r = check.report;
    Json json = {{"check_id", check.id},
                 {"dataset", dataset.description},
                 {"key", dataset.key},
                 {"location", dataset.location},
                 {"reused", reused},
                 {"seconds", r.seconds},
                 {"perceptual_hash", r.perceptualHash},
                 {"near_threshold", r.nearThreshold},
                 {"near_thumbnail_difference", r.nearThumbnailDifference},
                 {"findings_capped", r.findingsCapped}};
    if (!r.openError.empty()) json["open_error"] = r.openError;
    json["classes"] = r.classNames;
    json["splits"] = Json::array();
    for (const SplitHealth& s : r.splits)
        json["splits"].push_back({{"split", s.split},
                                  {"samples", s.samples},
                                  {"class_counts", s.classCounts},
                                  {"imbalance_ratio", std::isinf(s.imbalanceRatio) ? Json("inf") : Json(s.imbalanceRatio)},
                                  {"suggested_class_weights", s.suggestedClassWeights}});
    json["counts"] = Json::array();
    for (const HealthCount& c : r.counts)
        json["counts"].push_back({{"kind", findingKindName(c.kind)},
                                  {"split", c.split},
                                  {"other_split", c.otherSplit},
                                  {"cause", c.cause},
                                  {"count", c.count},
                                  {"samples", c.samples}});
    json["findings"] = Json::array();
    for (const auto& kind : shown)
        for (const HealthFinding& f : kind) json["findings"].push_back(findingJson(f));
    return json;
}

void printHuman(const DatasetRecord& dataset, const StoredCheck& check, bool reused,
                const std::vector<std::vector<HealthFinding>>& shown)
{
    const HealthReport& r = check.report;
    std::printf("%s\n  %s check %lld, %.2f s%s\n", terminalCell(dataset.description, 1000).c_str(), reused ? "stored" : "new", (long long)check.id,
                r.seconds, reused ? " (the files are unchanged; --force checks again)" : "");
    if (!r.openError.empty()) std::printf("  the reader refuses the data: %s\n", terminalMessage(r.openError).c_str());
    if (r.images)
        std::printf("  near duplicates: 64-bit DCT perceptual hashes within %d bits, 16 x 16 thumbnails within %.1f of 255;\n"
                    "  exact copies are not counted again\n",
                    r.nearThreshold, r.nearThumbnailDifference);

    std::printf("\n  %-22s %-12s %-14s %10s %10s\n", "finding", "split", "cause/with", "count", "samples");
    if (r.counts.empty()) std::printf("  (none)\n");
    for (const HealthCount& c : r.counts)
        std::printf("  %-22s %-12s %-14s %10s %10s\n", findingKindName(c.kind), c.split.empty() ? "-" : c.split.c_str(),
                    !c.cause.empty() ? c.cause.c_str() : !c.otherSplit.empty() ? c.otherSplit.c_str() : "",
                    formatCount(c.count).c_str(), c.samples > 0 ? formatCount(c.samples).c_str() : "-");

    // A language model's splits have no classes (no counts): nothing to balance.
    const bool classes = std::any_of(r.splits.begin(), r.splits.end(), [](const SplitHealth& s) { return !s.classCounts.empty(); });
    if (classes) std::printf("\n  class balance (largest / smallest class):\n");
    for (const SplitHealth& s : r.splits) {
        if (!classes) break;
        std::printf("  %-6s %10s samples  ", s.split.c_str(), formatCount(s.samples).c_str());
        if (std::isinf(s.imbalanceRatio)) std::printf("ratio inf (a class has no samples)");
        else std::printf("ratio %.2f", s.imbalanceRatio);
        std::printf("  counts");
        for (std::int64_t n : s.classCounts) std::printf(" %lld", (long long)n);
        std::printf("\n");
    }
    for (const HealthFinding& f : [&] {
             std::vector<HealthFinding> all;
             for (const auto& k : shown)
                 for (const auto& f : k)
                     if (f.kind == FindingKind::ClassImbalance) all.push_back(f);
             return all;
         }()) {
        const auto s = std::find_if(r.splits.begin(), r.splits.end(), [&](const SplitHealth& x) { return x.split == f.split; });
        // The experiment file's own keys (tst_data_command applies them with --set).
        std::printf("  fix for %s: dataset.loader.sampler: class_balanced, or class_weights on the CrossEntropy loss",
                    f.split.c_str());
        if (s != r.splits.end()) {
            std::printf(" [");
            for (std::size_t i = 0; i < s->suggestedClassWeights.size(); ++i)
                std::printf("%s%.3g", i ? ", " : "", s->suggestedClassWeights[i]);
            std::printf("] (n / (k * count))");
        }
        std::printf("\n");
    }

    bool header = false;
    for (const auto& kind : shown)
        for (const HealthFinding& f : kind) {
            if (f.kind == FindingKind::ClassImbalance) continue;
            if (!header) std::printf("\n  first findings:\n"), header = true;
            std::printf("  %-22s %s\n", findingKindName(f.kind), terminalCell(findingLine(f), 1000).c_str());
        }
    if (r.findingsCapped) std::printf("\n  (the store keeps the first 20,000 findings of a kind; the counts are exact)\n");
}

int dataCheckCommand(const std::vector<std::string>& args)
{
    const Options o = parseOptions(args, {"--workspace", "--threshold", "--show", "--set"}, {"--json", "--force"});
    if (o.positional.size() != 1) throw std::invalid_argument("data check expects one experiment file");
    DataCheckJob job;
    job.experiment = withAbsolutePaths(loadExperimentWithOverrides(o.positional[0], o.all("--set")));
    job.force = o.flags.count("--force") != 0;
    job.nearThreshold = int(o.integer("--threshold", job.nearThreshold, 0, 31));  // findNearPairs' limit (of 64 bits)
    const std::int64_t show = o.integer("--show", 5, 0);
    const bool json = o.flags.count("--json") != 0;
    JobEnvironment env;
    env.workspaceDir = o.workspace();
    CheckListener listener;
    RunControl control;
    const JobResult result = runJob(job, env, control, listener);
    if (result.finished.outcome != FinishedEvent::Outcome::Finished || result.dataCheckId < 0) {
        std::fprintf(stderr, "trainstudio-cli data check: %s\n", terminalMessage(result.finished.message.text).c_str());
        return 1;
    }
    // Read back from the store, as the studio reads it.
    DatasetCatalog catalog(Workspace::open(env.workspaceDir));
    const std::optional<StoredCheck> check = catalog.check(result.dataCheckId);
    if (!check) throw std::runtime_error("check " + std::to_string(result.dataCheckId) + " is not in the store after it was written");
    const std::optional<DatasetRecord> dataset = catalog.dataset(check->datasetId);
    std::vector<std::vector<HealthFinding>> shown;
    for (int k = 0; k < kFindingKinds; ++k)
        shown.push_back(catalog.findings(check->id, static_cast<FindingKind>(k), show));
    const bool reused = result.finished.metrics.count("reused") && result.finished.metrics.at("reused") > 0;
    if (json) printJson(checkJson(dataset.value_or(DatasetRecord{}), *check, reused, shown));
    else printHuman(dataset.value_or(DatasetRecord{}), *check, reused, shown);
    return 0;
}

}  // namespace

int dataCommand(const std::vector<std::string>& args)
{
    const std::string sub = args.empty() ? "" : args[0];
    const std::vector<std::string> rest(args.begin() + (args.empty() ? 0 : 1), args.end());
    if (sub == "check") return dataCheckCommand(rest);
    if (sub == "labels") return dataLabelsCommand(rest);
    if (sub == "mark") return dataMarkCommand(rest);
    throw std::invalid_argument(sub.empty() ? "data expects a sub-command: check, labels or mark"
                                            : "unknown data sub-command '" + sub + "' (expected check, labels or mark)");
}

}  // namespace ts::cli
