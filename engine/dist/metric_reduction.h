// Metrics across ranks: each rank counts its own shard of an epoch (types/metric_sums.h), and
// the sums are added so that rank 0 reports the epoch as one process would have; values one
// rank computed (an evaluation on rank 0) are handed to the others so that every rank takes
// the same decisions (early stopping, the plateau schedule).
#pragma once
#include <map>
#include <string>

#include "types/metric_sums.h"

namespace ts {

class Communicator;

// Adds the counts and sums of every rank into each (seconds stay each rank's own). Counts travel
// as doubles, exact to 2^53; per-sample scores (two classes) are concatenated in rank order.
// Every rank must pass sums of the same shape (classes, k values), or std::logic_error.
void allReduceMetricSums(Communicator& comm, MetricSums& sums);

// Rank `root`'s map (and flag) on every rank.
void broadcastMetrics(Communicator& comm, std::map<std::string, double>& metrics, bool& flag, int root = 0);

}  // namespace ts
