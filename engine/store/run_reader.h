// Read-only access to a workspace's studio.db for the CLI and the studio: its own
// connection (read-only, WAL), so reading never blocks the writer, and the writer never
// blocks a chart. Run lists read the maintained summaries, never the metric points.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "types/evaluation_records.h"
#include "types/run_records.h"
#include "store/workspace.h"

namespace ts {

struct RunListing {
    RunInfo run;
    std::vector<MetricSummary> summaries;  // every metric of the run
};

class RunReader {
public:
    // Throws StoreError (store/run_writer.h) when the file is missing, not a TrainStudio
    // database or of a newer schema. Never modifies the file. An older schema is read as it
    // is (the writer upgrades it). One thread at a time per reader.
    explicit RunReader(const Workspace& workspace);
    const Workspace& workspace() const { return workspace_; }
    ~RunReader();
    RunReader(const RunReader&) = delete;
    RunReader& operator=(const RunReader&) = delete;

    // Newest first. Target: 10,000 runs with summaries in < 200 ms. RunInfo::experimentYaml
    // is left empty here (kilobytes per run); run(id) has it.
    std::vector<RunListing> listRuns();
    std::optional<RunInfo> run(std::int64_t runId);
    std::vector<MetricSummary> summaries(std::int64_t runId);
    std::vector<std::pair<std::string, std::string>> parameters(std::int64_t runId);
    std::vector<std::string> metricNames(std::int64_t runId);
    // Points with step > afterStep, in step order (afterStep lets a live chart read only
    // what is new). Target: 1,000,000 points in < 150 ms.
    MetricSeries metric(std::int64_t runId, const std::string& name, std::int64_t afterStep = -1);
    std::vector<CheckpointRecord> checkpoints(std::int64_t runId);  // by step
    std::vector<LogLine> logs(std::int64_t runId);
    std::vector<SystemSample> systemSamples(std::int64_t runId);
    // The run's evaluations (the evaluate job), oldest first, with their metrics.
    std::vector<EvaluationRecord> evaluations(std::int64_t runId);
    std::vector<Prediction> predictions(std::int64_t evaluationId);  // in sample order
    // Changes whenever any connection commits (PRAGMA data_version): poll it cheaply to
    // refresh a view while runs train elsewhere.
    std::int64_t dataVersion();
    // PRAGMA integrity_check: "ok", or SQLite's list of what is damaged.
    std::string integrityCheck();

    struct Impl;

private:
    Workspace workspace_;
    std::unique_ptr<Impl> impl_;
};

}  // namespace ts
