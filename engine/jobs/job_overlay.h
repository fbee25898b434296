// Which label overlay a job applies (store/label_overlay.h says the rule): internal to jobs/.
#pragma once
#include "jobs/job.h"
#include "types/label_overlay.h"

namespace ts {

class RunWriter;
struct Workspace;

// The dataset's current marks in env's workspace; empty without a workspace or a database.
LabelOverlay currentLabelOverlay(const JobEnvironment& env, const ExperimentSpec& spec);
// Logs what the overlay changes ("label overlay: 3 relabelled, 1 excluded"); nothing when empty.
void logLabelOverlay(TrainListener& listener, const LabelOverlay& overlay);
// The same line for a run's stored log, which begins only once the data is open.
void recordLabelOverlayLog(RunWriter& writer, std::int64_t runId, const LabelOverlay& overlay);

}  // namespace ts
