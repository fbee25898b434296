// Internal to engine/learn: what the lesson checks read about a lesson's runs, and how they
// write numbers into their messages.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "learn/lessons.h"
#include "store/run_reader.h"

namespace ts::learn {

struct LessonRun {
    RunInfo info;
    ExperimentSpec spec;  // the experiment as it ran (its stored YAML)
    std::vector<MetricSummary> summaries;

    const MetricSummary* summary(const std::string& name) const;
    bool finished() const { return info.status == RunStatus::Finished; }
};

// A run's result for a quantity ("acc", "loss", "macro_f1"): the best val_<what>, else the best
// test_<what> (runs without a validation split evaluate the test split every epoch).
struct RunScore {
    std::string metric;  // "val_acc"
    double value = 0;
};
std::optional<RunScore> runScore(const LessonRun& run, const std::string& what);

// Every run of the experiment named `experimentName`, oldest first, with its parsed experiment.
// A run whose stored experiment no longer parses is left out. Empty without a database.
std::vector<LessonRun> lessonRuns(RunReader& reader, const std::string& experimentName);
// The runs that finished (early stops included).
std::vector<const LessonRun*> finishedRuns(const std::vector<LessonRun>& runs);
// Whether a reader can be opened (a workspace with a studio.db).
bool hasStore(const Workspace& workspace);

// "0.871": three decimals for scores and losses ("0.0012" below 0.01); "+0.034" with a sign.
std::string score(double value);
std::string signedScore(double value);
// The learning rate as written in an experiment ("0.0001", "3e-05").
std::string rate(double value);

// "No finished run of <name> yet": the headline of a lesson with nothing to look at.
LessonResult noRuns(const LessonContext& context);

}  // namespace ts::learn
