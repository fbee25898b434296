// Plain records of the run store (engine/store): what the writer takes and the reader
// returns, and what the trainer's events carry. No SQLite types, so the trainer, the CLI and
// the studio can pass them around.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "types/message.h"

namespace ts {

// Stored as lower-case text ("queued", "running", ...), so the database stays readable.
enum class RunStatus { Queued, Running, Finished, Failed, Stopped, Crashed };
const char* runStatusName(RunStatus status);
std::optional<RunStatus> parseRunStatus(const std::string& name);

struct RunInfo {
    std::int64_t id = 0;
    std::int64_t experimentId = 0;
    std::string experimentName;  // the experiment's `name:`
    std::string name;            // user-visible run name ("fashion_mnist_cnn #4"); editable
    RunStatus status = RunStatus::Queued;
    double startTime = 0;        // Unix seconds (UTC); 0 while queued
    double endTime = 0;          // 0 while running
    double heartbeat = 0;        // Unix seconds of the last sign of life
    std::string host;
    std::string device;          // "cpu", "cuda:0"
    std::uint64_t seed = 0;
    std::optional<std::int64_t> parentRunId;  // resumed or forked from
    std::string parentRelation;               // "resume" | "fork" | ""
    std::string notes;
    std::vector<std::string> tags;
    Message message;             // how it ended: finished, stopped, failed, crashed
    std::string experimentYaml;  // the full experiment as run (experimentToYaml)
};

// Which way a metric is better, by name: the one table that early stopping, the plateau
// schedule, the checkpoint policy, the store's summaries ("best") and every view use.
//   Minimise  *loss, data_wait*                 (losses; time spent waiting for data)
//   Maximise  *acc, *f1, *precision, *recall, *auc, samples_per_s
//   None      everything else: lr, grad_norm*, epoch, ... (no "best" is kept)
enum class MetricGoal { Minimise, Maximise, None };
MetricGoal metricGoal(const std::string& metric);
// metricGoal(metric) == Minimise (a metric with no goal counts as maximised where one is needed).
bool lowerIsBetter(const std::string& metric);

// Faithful for NaN and +/-infinity (the store keeps a flag beside the REAL column).
struct MetricPoint {
    std::int64_t step = 0;
    double value = 0;
    double wallTime = 0;  // seconds since the run started
};

struct MetricSeries {
    std::string name;
    std::vector<std::int64_t> steps;
    std::vector<double> values;
    std::vector<double> wallTimes;
};

// Maintained as points arrive: listing runs never scans points. min/max/best ignore NaN.
// "Best" follows metricGoal: the min or the max; NaN (no best) for a metric with no goal.
struct MetricSummary {
    std::string name;
    std::int64_t count = 0;
    double last = 0;
    std::int64_t lastStep = 0;
    double min = 0, max = 0;
    double best = 0;
    std::int64_t bestStep = 0;
};

// A run's headline validation result, the one both run lists show: a language model's
// val_bpc's best (its accuracy of next tokens says little), else val_acc's best, else a
// regression's val_rmse's best (in the target's units), else val_loss's best. Null when the run has none, or saw only NaN (best ignores NaN).
const MetricSummary* bestValidation(const std::vector<MetricSummary>& summaries);

// The one result a run list shows: the best validation metric (bestValidation), else the
// final test metric (test_bpc's, test_acc's, else test_loss's last) for runs trained without a validation
// split (the shipped recipes). `summary` is null when the run has neither.
struct HeadlineResult {
    const MetricSummary* summary = nullptr;
    double value = 0;
    std::int64_t step = 0;
    bool finalTest = false;  // false: a best validation value
};
HeadlineResult headlineResult(const std::vector<MetricSummary>& summaries);

// The run's paused seconds (its "paused_s" metric; 0 when it never paused) and its active
// time: runDuration less the pauses. NaN when the duration is unknown.
double pausedSeconds(const std::vector<MetricSummary>& summaries);
double activeSeconds(const RunInfo& run, const std::vector<MetricSummary>& summaries);

// Seconds from start to end; for a running run up to now (the system clock), for a crashed
// one whose end was never recorded up to its last heartbeat. NaN when unknown (never started).
double runDuration(const RunInfo& run);

struct CheckpointRecord {
    std::int64_t id = 0;
    std::int64_t runId = 0;
    std::string path;        // weights file, relative to the workspace's checkpoints/ when inside it
    std::string statePath;   // the training-state file beside it
    std::int64_t step = 0;
    std::int64_t epoch = 0;
    std::string metricName;  // "val_acc"; empty when the policy tracks none
    double metricValue = 0;
    bool best = false;
    std::int64_t sizeBytes = 0;  // both files together
    std::string sha256;          // of the weights file, hex
    std::string stateSha256;     // of the state file, hex
    double createdTime = 0;      // Unix seconds
};

struct SystemSample {
    double wallTime = 0;  // seconds since the run started
    double cpuPercent = -1, ramBytes = -1;             // -1: unknown
    double gpuPercent = -1, gpuMemoryUsed = -1, gpuMemoryTotal = -1;
    double gpuTemperature = -1, gpuPowerWatts = -1;
    double gpuClockMHz = -1;  // SM clock: shows throttling (power, heat) behind a slow step
};

struct LogLine {
    double time = 0;       // Unix seconds
    std::string level;     // "info" | "warning" | "error"
    Message message;       // a line of a file older than schema 5 has its text only
};

}  // namespace ts
