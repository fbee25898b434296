// Internal to jobs/: a sweep's trials as the store has them (the runner's only state): each
// trial's runs found by their tags, its metric at every epoch it trained, and where to resume.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "store/workspace.h"
#include "types/run_records.h"

namespace ts {

struct SweepTrialRecord {
    std::vector<std::int64_t> runs;                  // oldest first
    std::map<std::int64_t, double> metricAtEpoch;    // the sweep's metric after each epoch trained
    std::int64_t epochs = 0;                         // the last epoch evaluated
    std::optional<RunStatus> status;                 // the newest run's
    Message message;                                 // the newest run's ending
    std::string resumeFrom;                          // the newest checkpoint over its runs (absolute); empty: none
    std::map<std::string, double> lastMetrics;       // the newest run's metrics, last values
};

// Trial number -> record, for the runs tagged "sweep:<sweepId>"; empty when the workspace has
// no database yet. Throws StoreError when the database cannot be read.
std::map<int, SweepTrialRecord> readSweepRecords(const Workspace& workspace, const std::string& sweepId,
                                                 const std::string& metric);

}  // namespace ts
