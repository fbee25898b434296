// What a training run needs in device memory, planned before anything is allocated, and what
// to tell a user whose run did not fit: the breakdown and the settings that would fit.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "types/experiment_spec.h"
#include "types/message.h"
#include "types/run_memory.h"

namespace ts {

class Backend;


struct MemoryPlan;
// A training plan plus the optimizer's state buffers (the evaluator's inference plan reuses
// far more and comes on top while it runs).
RunMemory runMemory(const MemoryPlan& trainingPlan, const OptimizerSpec& optimizer);
RunMemory planRunMemory(const ExperimentSpec& spec, std::int64_t batch, Backend& backend);
// "parameters 1.3 MiB, gradients 1.3 MiB, optimizer state (adam) 2.6 MiB, activations ...; total ..."
Message describeRunMemory(const RunMemory& m, const std::string& optimizerType);
// Its arguments (the sizes formatted, the optimizer's name), which the planned-memory log line shares.
std::vector<std::string> runMemoryArgs(const RunMemory& m, const std::string& optimizerType);

// "parameters 1.3 MiB, gradients ..., activations ... (batch 1024)" and, for `availableBytes`,
// the largest batch (halving) that fits with the accumulation that keeps the effective batch,
// or, when even batch 1 does not fit, what the fixed part needs.
std::string outOfMemoryAdvice(const ExperimentSpec& spec, Backend& backend, std::size_t availableBytes);

}  // namespace ts
