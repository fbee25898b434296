// validate's model section: the model's sizes at the run's batch (a batch or a layer too large
// for 64-bit arithmetic is refused naming the node), its summary, and its training plan against
// the free memory of the device it would train on.
#pragma once

#include "types/experiment_spec.h"

namespace ts::cli {

// Prints the summary and the verdict; returns the exit code: 0 fits (or the free memory is
// not known), 1 refused (the reason and the largest batch that fits on stderr).
int printModelAndMemoryFit(const ExperimentSpec& spec);

}  // namespace ts::cli
