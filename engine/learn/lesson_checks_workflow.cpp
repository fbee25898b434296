// The lesson checks about working with data and runs: look at the data, resume a stopped run
// exactly, compare three seeds, calibrate with temperature scaling, export to ONNX.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

#include "data/dataset.h"
#include "learn/lesson_runs.h"
#include "store/dataset_catalog.h"
#include "store/label_overlay.h"
#include "train/evaluation_report.h"

namespace ts {

using namespace learn;
using namespace lesson_goals;

namespace {

// The settings of a run with what does not change its training taken out, and the seed:
// two runs with equal settings differ only by their seed.
ExperimentSpec settingsWithoutSeed(const ExperimentSpec& spec)
{
    ExperimentSpec s = spec;
    s.training.seed = 0;
    s.training.device.clear();
    s.name.clear();
    s.description.clear();
    s.sourceFile.clear();
    s.layout = {};
    return s;
}

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

std::string joined(const std::vector<std::string>& parts)
{
    std::string out;
    for (const std::string& p : parts) out += (out.empty() ? "" : ", ") + p;
    return out;
}

}  // namespace

LessonResult checkLookAtData(const LessonContext& context)
{
    const DatasetSpec& d = context.starting.dataset;
    const std::string key = datasetKey(d, experimentDataDirectory(context.starting));
    const LessonResult noCheck{false, makeMessage(MessageId::LessonDataNoCheck, {d.path}), {}};
    if (!hasStore(context.workspace)) return noCheck;
    std::optional<StoredCheck> check;
    {
        DatasetCatalog catalog(context.workspace);
        if (const std::optional<DatasetRecord> record = catalog.dataset(key)) check = catalog.latestCheck(record->id);
    }
    if (!check) return noCheck;
    const HealthReport& r = check->report;
    const std::string exact = std::to_string(r.total(FindingKind::ExactDuplicate) + r.total(FindingKind::ExactLeak));
    const std::string near = std::to_string(r.total(FindingKind::NearDuplicate) + r.total(FindingKind::NearLeak));
    const LabelOverlay overlay = readLabelOverlay(context.workspace, key);
    if (overlay.marks.empty()) return {false, makeMessage(MessageId::LessonDataNoMark, {exact, near}), {}};
    const auto excluded = std::count_if(overlay.marks.begin(), overlay.marks.end(),
                                        [](const LabelMark& m) { return m.action == LabelMark::Action::Exclude; });
    const auto relabelled = std::int64_t(overlay.marks.size()) - excluded;
    return {true,
            makeMessage(MessageId::LessonDataPassed, {exact, near, std::to_string(overlay.marks.size()),
                                                      std::to_string(excluded), std::to_string(relabelled)}),
            {}};
}

LessonResult checkResumeExactly(const LessonContext& context)
{
    const LessonResult noStop{false, makeMessage(MessageId::LessonResumeNoStop), {}};
    if (!hasStore(context.workspace)) return noStop;
    RunReader reader(context.workspace);
    const std::vector<LessonRun> runs = lessonRuns(reader, context.starting.name);
    std::map<std::int64_t, const LessonRun*> byId;
    for (const LessonRun& r : runs) byId[r.info.id] = &r;
    const auto lastStep = [](const LessonRun& r) {
        const MetricSummary* loss = r.summary("loss");
        return loss ? loss->lastStep : std::int64_t(0);
    };
    const LessonRun* stopped = nullptr;  // the newest interrupted run, for the not-yet message
    for (const LessonRun& r : runs)
        if (r.info.status == RunStatus::Stopped || r.info.status == RunStatus::Crashed) stopped = &r;
    // The newest finished resume of an interrupted run.
    for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
        const LessonRun& resumed = *it;
        if (!resumed.finished() || resumed.info.parentRelation != "resume" || !resumed.info.parentRunId) continue;
        const auto parent = byId.find(*resumed.info.parentRunId);
        if (parent == byId.end()) continue;
        const LessonRun& from = *parent->second;
        if (from.info.status != RunStatus::Stopped && from.info.status != RunStatus::Crashed) continue;
        LessonResult result{true,
                            makeMessage(MessageId::LessonResumePassed,
                                        {std::to_string(resumed.info.id), std::to_string(from.info.id),
                                         runStatusName(from.info.status), std::to_string(lastStep(from)),
                                         std::to_string(lastStep(resumed))}),
                            {}};
        // "Exactly": an uninterrupted run of the same settings and seed ends with the same loss.
        const MetricSummary* mine = resumed.summary("train_loss");
        const ExperimentSpec settings = settingsWithoutSeed(resumed.spec);
        for (const LessonRun& other : runs) {
            if (!other.finished() || other.info.parentRunId || other.spec.training.seed != resumed.spec.training.seed ||
                !(settingsWithoutSeed(other.spec) == settings))
                continue;
            const MetricSummary* theirs = other.summary("train_loss");
            if (!mine || !theirs) break;
            result.details.push_back(sameBits(mine->last, theirs->last)
                                         ? makeMessage(MessageId::LessonResumeSame, {numberArg(mine->last), std::to_string(other.info.id)})
                                         : makeMessage(MessageId::LessonResumeDiffers, {numberArg(mine->last), std::to_string(other.info.id),
                                                                                        numberArg(theirs->last)}));
            break;
        }
        return result;
    }
    if (!stopped) return noStop;
    return {false,
            makeMessage(MessageId::LessonResumeNoResume,
                        {std::to_string(stopped->info.id), runStatusName(stopped->info.status), std::to_string(lastStep(*stopped))}),
            {}};
}

LessonResult checkThreeSeeds(const LessonContext& context)
{
    if (!hasStore(context.workspace)) return noRuns(context);
    RunReader reader(context.workspace);
    const std::vector<LessonRun> runs = lessonRuns(reader, context.starting.name);
    const std::vector<const LessonRun*> done = finishedRuns(runs);
    if (done.empty()) return noRuns(context);
    // Runs grouped by their settings; in each group the newest run of each seed with a score.
    std::vector<std::pair<ExperimentSpec, std::map<std::uint64_t, std::pair<const LessonRun*, RunScore>>>> groups;
    for (const LessonRun* r : done) {
        const std::optional<RunScore> s = runScore(*r, "acc");
        if (!s) continue;
        const ExperimentSpec settings = settingsWithoutSeed(r->spec);
        auto g = std::find_if(groups.begin(), groups.end(), [&](const auto& group) { return group.first == settings; });
        if (g == groups.end()) g = groups.insert(groups.end(), {settings, {}});
        g->second[r->spec.training.seed] = {r, *s};
    }
    if (groups.empty()) return noRuns(context);
    const auto& seeds = std::max_element(groups.begin(), groups.end(), [](const auto& a, const auto& b) {
                            return a.second.size() < b.second.size();
                        })->second;
    std::vector<std::string> names;
    for (const auto& [seed, run] : seeds) names.push_back(std::to_string(seed));
    if (int(seeds.size()) < kSeeds)
        return {false, makeMessage(MessageId::LessonSeedsNotYet, {std::to_string(seeds.size()), joined(names)}), {}};
    double sum = 0, lo = INFINITY, hi = -INFINITY;
    for (const auto& [seed, run] : seeds) sum += run.second.value, lo = std::min(lo, run.second.value), hi = std::max(hi, run.second.value);
    const double mean = sum / double(seeds.size());
    double squares = 0;
    for (const auto& [seed, run] : seeds) squares += (run.second.value - mean) * (run.second.value - mean);
    const double deviation = std::sqrt(squares / double(seeds.size() - 1));  // the sample standard deviation
    return {true,
            makeMessage(MessageId::LessonSeedsPassed, {std::to_string(seeds.size()), joined(names),
                                                       seeds.begin()->second.second.metric, score(mean), score(deviation),
                                                       score(lo), score(hi)}),
            {}};
}

LessonResult checkCalibrate(const LessonContext& context)
{
    if (!hasStore(context.workspace)) return noRuns(context);
    RunReader reader(context.workspace);
    const std::vector<LessonRun> runs = lessonRuns(reader, context.starting.name);
    const std::vector<const LessonRun*> done = finishedRuns(runs);
    if (done.empty()) return noRuns(context);
    // The newest evaluation with a fitted temperature; one that lowers ECE is preferred.
    std::optional<LessonResult> notYet;
    for (auto it = done.rbegin(); it != done.rend(); ++it) {
        const std::vector<EvaluationRecord> evaluations = reader.evaluations((*it)->info.id);
        for (auto e = evaluations.rbegin(); e != evaluations.rend(); ++e) {
            const auto metric = [&](const std::string& name) {
                const auto found = e->metrics.find(name);
                return found == e->metrics.end() ? NAN : found->second;
            };
            const double t = metric(kTemperatureMetric), before = metric(e->split + "_ece"),
                         after = metric(e->split + "_ece_calibrated");
            if (!std::isfinite(t) || !std::isfinite(before) || !std::isfinite(after)) continue;
            const std::string id = std::to_string(e->id), run = std::to_string(e->runId);
            if (after < before)
                return {true,
                        makeMessage(MessageId::LessonCalibratePassed,
                                    {id, run, score(t), score(before), score(after), score(metric(e->split + "_nll")),
                                     score(metric(e->split + "_nll_calibrated"))}),
                        {}};
            if (!notYet)
                notYet = LessonResult{false,
                                      makeMessage(MessageId::LessonCalibrateNotYet, {id, run, score(t), score(before), score(after)}),
                                      {}};
        }
    }
    if (notYet) return *notYet;
    return {false, makeMessage(MessageId::LessonCalibrateNoEval, {std::to_string(done.size())}), {}};
}

LessonResult checkExportOnnx(const LessonContext& context)
{
    if (!hasStore(context.workspace)) return noRuns(context);
    RunReader reader(context.workspace);
    const std::vector<LessonRun> runs = lessonRuns(reader, context.starting.name);
    const std::vector<const LessonRun*> done = finishedRuns(runs);
    if (done.empty()) return noRuns(context);
    // The newest export a run's log records (jobs/onnx_export_run.h writes the line), whose file is still there.
    std::optional<LessonResult> gone;
    for (auto it = done.rbegin(); it != done.rend(); ++it) {
        const std::vector<LogLine> lines = reader.logs((*it)->info.id);
        for (auto line = lines.rbegin(); line != lines.rend(); ++line) {
            const Message& m = line->message;
            if (m.id != "export.onnx_written" || m.args.size() < 3) continue;
            const std::string run = std::to_string((*it)->info.id);
            std::error_code ec;
            if (std::filesystem::is_regular_file(m.args[1], ec))
                return {true, makeMessage(MessageId::LessonOnnxPassed, {run, m.args[0], m.args[1], m.args[2]}), {}};
            if (!gone) gone = LessonResult{false, makeMessage(MessageId::LessonOnnxFileGone, {run, m.args[1]}), {}};
        }
    }
    if (gone) return *gone;
    return {false, makeMessage(MessageId::LessonOnnxNotExported, {std::to_string(done.size())}), {}};
}

}  // namespace ts
