// The jobs behind the diagnostics' actions (train/diagnostics.h) that need the store: what a
// front end queues when a user presses a diagnostic card's button.
#pragma once
#include <cstdint>

#include "jobs/job.h"

namespace ts {

class Workspace;

// diag.non_finite's "resume from the last good checkpoint with the learning rate x0.1": a fork
// of run `runId` from its newest checkpoint with optimizer.lr x `factor`. The trainer writes
// no checkpoint after a non-finite step (it fails, or skips the step without an update), so
// the newest is the last good one. A run with no checkpoint yet starts again, as a new run
// of its experiment with the lower rate. Throws std::invalid_argument when the workspace
// holds no such run.
TrainJob lowerLearningRateJob(const Workspace& workspace, std::int64_t runId, double factor = 0.1);

// diag.transformer_warmup's "train again with warm-up": run `runId`'s experiment anew (warm-up
// is about the first steps, so no checkpoint of the run helps) with schedule.warmup_steps the
// diagnostic suggested (its last argument, from the run's log). Throws std::invalid_argument
// when the workspace holds no such run or its log has no such diagnostic.
TrainJob warmupJob(const Workspace& workspace, std::int64_t runId);

}  // namespace ts
