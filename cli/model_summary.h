// Prints a checked graph's per-layer shapes, parameters, FLOPs and its planned memory.
#pragma once
#include <cstddef>

#include "graph/graph.h"

namespace ts::cli {

// optimizerStateBytes: what the chosen optimizer keeps per run (0: not known / shown as a note).
void printModelSummary(const CheckedGraph& graph, bool training, std::size_t optimizerStateBytes = 0);

}  // namespace ts::cli
