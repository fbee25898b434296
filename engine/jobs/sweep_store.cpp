#include "jobs/sweep_store.h"

#include <algorithm>
#include <filesystem>

#include "store/resume_source.h"
#include "store/run_reader.h"

namespace ts {

namespace {

std::optional<int> trialOf(const RunInfo& run, const std::string& sweepTag)
{
    if (std::find(run.tags.begin(), run.tags.end(), sweepTag) == run.tags.end()) return std::nullopt;
    for (const std::string& tag : run.tags)
        if (tag.starts_with("trial:")) try {
                return std::stoi(tag.substr(6));
            } catch (const std::exception&) {
                return std::nullopt;
            }
    return std::nullopt;
}

}  // namespace

std::map<int, SweepTrialRecord> readSweepRecords(const Workspace& workspace, const std::string& sweepId,
                                                 const std::string& metric)
{
    std::map<int, SweepTrialRecord> records;
    if (!std::filesystem::exists(workspace.databasePath())) return records;
    RunReader reader(workspace);
    std::vector<RunListing> listing = reader.listRuns();
    std::sort(listing.begin(), listing.end(), [](const RunListing& a, const RunListing& b) { return a.run.id < b.run.id; });
    std::map<int, std::int64_t> newestCheckpointStep;
    for (const RunListing& l : listing) {
        const auto trial = trialOf(l.run, "sweep:" + sweepId);
        if (!trial) continue;
        SweepTrialRecord& r = records[*trial];
        r.runs.push_back(l.run.id);
        r.status = l.run.status;
        r.message = l.run.message;
        r.lastMetrics.clear();
        for (const MetricSummary& s : l.summaries) r.lastMetrics[s.name] = s.last;
        // The metric after each epoch: the epoch marker and the metric share the epoch's step.
        const MetricSeries epochs = reader.metric(l.run.id, "epoch");
        const MetricSeries values = reader.metric(l.run.id, metric);
        std::map<std::int64_t, double> byStep;
        for (std::size_t i = 0; i < values.steps.size(); ++i) byStep[values.steps[i]] = values.values[i];
        for (std::size_t i = 0; i < epochs.steps.size(); ++i) {
            const auto epoch = static_cast<std::int64_t>(epochs.values[i]);
            r.epochs = std::max(r.epochs, epoch);
            if (auto v = byStep.find(epochs.steps[i]); v != byStep.end()) r.metricAtEpoch[epoch] = v->second;  // later runs win
        }
        for (const CheckpointRecord& c : reader.checkpoints(l.run.id)) {
            const std::string path = absoluteCheckpointPath(workspace, c.path);
            auto best = newestCheckpointStep.find(*trial);
            if (std::filesystem::exists(path) && (best == newestCheckpointStep.end() || c.step >= best->second)) {
                newestCheckpointStep[*trial] = c.step;
                r.resumeFrom = path;
            }
        }
    }
    return records;
}

}  // namespace ts
