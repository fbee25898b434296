// Shared by the `trainstudio-cli runs` sub-commands (runs_*.cpp): finding the workspace,
// opening it read-only and turning what a user typed into a run that exists.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "format.h"
#include "store/run_reader.h"

namespace ts::cli {

// The workspace of --workspace DIR (default: Workspace::defaultDirectory()). Unlike
// Workspace::open it creates nothing: a typo must not leave an empty workspace behind.
Workspace runsWorkspace(const Options& options);

// A read-only reader; std::runtime_error naming the path and how to make a workspace when
// there is no database yet. StoreError (a damaged or newer database) passes through.
std::unique_ptr<RunReader> openRunReader(const Workspace& workspace);

// The id of an existing run; std::runtime_error saying which ids exist otherwise.
std::int64_t resolveRun(RunReader& reader, const Workspace& workspace, const std::string& text);

// The summary of `name`, if the run has that metric.
const MetricSummary* findSummary(const std::vector<MetricSummary>& summaries, const std::string& name);
// bestValidation and runDuration, shared with the studio, are in types/run_records.h.

// The sub-commands, each given its arguments after the sub-command's name.
int runsList(const std::vector<std::string>& args);
int runsShow(const std::vector<std::string>& args);
int runsCompare(const std::vector<std::string>& args);
int runsMetrics(const std::vector<std::string>& args);
int runsExport(const std::vector<std::string>& args);
int runsDelete(const std::vector<std::string>& args);

}  // namespace ts::cli
