#include "types/run_records.h"

#include <chrono>
#include <cmath>

namespace ts {

namespace {
const char* const kNames[] = {"queued", "running", "finished", "failed", "stopped", "crashed"};
}

const char* runStatusName(RunStatus status) { return kNames[static_cast<int>(status)]; }

std::optional<RunStatus> parseRunStatus(const std::string& name)
{
    for (int i = 0; i < 6; ++i)
        if (name == kNames[i]) return static_cast<RunStatus>(i);
    return std::nullopt;
}

MetricGoal metricGoal(const std::string& metric)
{
    // Bits per character and perplexity are a language model's loss in other units.
    // Regression's errors too (train/regression_metrics.h); its R² is a score, higher is better.
    for (const char* lower : {"loss", "_bpc", "_ppl", "_mae", "_rmse", "_mape"})
        if (metric.ends_with(lower)) return MetricGoal::Minimise;
    if (metric.starts_with("data_wait")) return MetricGoal::Minimise;
    for (const char* higher : {"acc", "f1", "precision", "recall", "auc", "_r2"})
        if (metric.ends_with(higher)) return MetricGoal::Maximise;
    if (metric == "samples_per_s") return MetricGoal::Maximise;
    return MetricGoal::None;
}

bool lowerIsBetter(const std::string& metric) { return metricGoal(metric) == MetricGoal::Minimise; }

const MetricSummary* bestValidation(const std::vector<MetricSummary>& summaries)
{
    for (const char* name : {"val_bpc", "val_acc", "val_rmse", "val_loss"})
        for (const MetricSummary& s : summaries)
            if (s.name == name && !std::isnan(s.best)) return &s;
    return nullptr;
}

double runDuration(const RunInfo& run)
{
    if (run.startTime <= 0) return NAN;
    if (run.status == RunStatus::Running) {
        const auto sinceEpoch = std::chrono::system_clock::now().time_since_epoch();
        return std::chrono::duration<double>(sinceEpoch).count() - run.startTime;
    }
    if (run.endTime > 0) return run.endTime - run.startTime;
    // A crash noticed only by a reader has no end time yet: its last sign of life is the end.
    if (run.heartbeat > run.startTime) return run.heartbeat - run.startTime;
    return NAN;
}

HeadlineResult headlineResult(const std::vector<MetricSummary>& summaries)
{
    if (const MetricSummary* best = bestValidation(summaries)) return {best, best->best, best->bestStep, false};
    for (const char* name : {"test_bpc", "test_acc", "test_rmse", "test_loss"})
        for (const MetricSummary& s : summaries)
            if (s.name == name && !std::isnan(s.last)) return {&s, s.last, s.lastStep, true};
    return {};
}

double pausedSeconds(const std::vector<MetricSummary>& summaries)
{
    for (const MetricSummary& s : summaries)
        if (s.name == "paused_s" && std::isfinite(s.last)) return s.last;
    return 0;
}

double activeSeconds(const RunInfo& run, const std::vector<MetricSummary>& summaries)
{
    return runDuration(run) - pausedSeconds(summaries);
}

}  // namespace ts
