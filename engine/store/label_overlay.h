// The label overlay and suspect-label checks in a workspace's studio.db (schema 6: tables
// label_overlay, run_label_overlay, label_checks, label_suspects). Each call opens its own
// connection: marks are edited one click at a time and checks written once, so none of this
// goes through the RunWriter's queue. Reading never creates or upgrades the database (a
// missing file or one older than schema 6 reads as empty); writing upgrades it like the
// RunWriter. Failures throw StoreError (store/run_writer.h) naming the file.
//
// Which overlay a job uses (jobs/): a new run, a fork, a sweep trial, the learning-rate finder
// and a K-fold check read the dataset's current marks; the run records the ones it trained
// with (recordRunLabelOverlay), and its resume and its evaluations use that copy, so they see
// the data the run trained on even after the marks change. (A resume from a checkpoint file that
// no run of the workspace names has no copy to read: it takes the current marks.) The copy
// holds the rows, not just a hash: a run whose marks changed can still be resumed exactly.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/workspace.h"
#include "types/label_check.h"
#include "types/label_overlay.h"

namespace ts {

// The marks of a dataset (data/dataset.h's datasetKey), by split and sample.
LabelOverlay readLabelOverlay(const Workspace& workspace, const std::string& datasetKey);
// Adds the mark or replaces the one of the same (split, sample). std::invalid_argument for a
// split other than train / test, a negative sample or a relabel without a label >= 0.
void setLabelMark(const Workspace& workspace, const std::string& datasetKey, const LabelMark& mark);
// Removes a mark; false when there was none.
bool clearLabelMark(const Workspace& workspace, const std::string& datasetKey, const std::string& split,
                    std::int64_t sample);

// The overlay a run trained with (copied at its start); empty for a run that had none.
void recordRunLabelOverlay(const Workspace& workspace, std::int64_t runId, const LabelOverlay& overlay);
LabelOverlay runLabelOverlay(const Workspace& workspace, std::int64_t runId);

// A finished check with every sample's score in rank order (scores[0] is rank 1); returns its id.
std::int64_t addLabelCheck(const Workspace& workspace, const LabelCheckRecord& record, const std::vector<LabelScore>& scores);
// A dataset's checks, newest first.
std::vector<LabelCheckRecord> labelChecks(const Workspace& workspace, const std::string& datasetKey);
std::optional<LabelCheckRecord> labelCheck(const Workspace& workspace, std::int64_t checkId);
// The first `limit` scores in rank order (limit < 0: all).
std::vector<LabelScore> labelScores(const Workspace& workspace, std::int64_t checkId, std::int64_t limit = -1);

}  // namespace ts
