// What a training run needs in device memory, planned before anything is allocated, and what
// to tell a user whose run did not fit: the breakdown and the settings that would fit.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
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

// Bytes a training run may use on `backend`: the GPU's free memory (cudaMemGetInfo) or, on
// the CPU, the available RAM (MemAvailable in /proc/meminfo), plus in both cases the blocks
// the backend's caching allocator holds free (a new run reuses them). 0 when unknown. On the
// CPU the loader's batches (max(prefetch, workers) + 1 of them) share that RAM, beyond the plan.
std::size_t availableTrainingBytes(Backend& backend);
// The largest batch size in [1, limit] whose planned training memory (planRunMemory) fits
// `availableBytes`: exact, by doubling then bisection (the plan grows with the batch), so
// about 2 log2(answer) plans; 0 when not even batch 1 fits. Throws what checkGraph throws
// for a model that does not check. On CUDA every plan asks cuDNN for its convolution
// workspaces at that batch, which is slower than on the CPU the first time.
std::int64_t largestFittingBatch(const ExperimentSpec& spec, Backend& backend, std::size_t availableBytes,
                                 std::int64_t limit = 1 << 20);

// "of RAM available (MemAvailable)" or "free on cuda:0": what availableTrainingBytes counts.
std::string availableMemoryName(Backend& backend);
// The refusal of a run whose plan `need` at `batch` exceeds `availableBytes` (which `whose`
// qualifies: "here", "per rank"; `batch` is per rank, of `ranks`): the breakdown, what is available and the largest
// batch that fits, with the accumulation that keeps the effective batch, or what the fixed part
// needs when not even batch 1 fits. nullopt when it fits or availableBytes is 0 (unknown).
std::optional<std::string> memoryRefusal(const ExperimentSpec& spec, std::int64_t batch, const RunMemory& need,
                                         Backend& backend, std::size_t availableBytes, const std::string& whose,
                                         int ranks = 1);

// For a model whose sizes overflow at `batch` (checkGraph's GraphError::Kind::TooLarge): "X of
// RAM available (MemAvailable): the largest batch that fits is training.batch_size: N", or
// that not even batch 1 fits; empty when the model is too large at batch 1 too (a layer
// size is the problem, not the batch) or the free memory is not known.
std::string largestBatchNote(const ExperimentSpec& spec, Backend& backend, std::size_t availableBytes, std::int64_t batch,
                             int ranks = 1);

// "parameters 1.3 MiB, gradients ..., activations ... (batch 1024)" and, for `availableBytes`,
// the largest batch (halving) that fits with the accumulation that keeps the effective batch,
// or, when even batch 1 does not fit, what the fixed part needs.
std::string outOfMemoryAdvice(const ExperimentSpec& spec, Backend& backend, std::size_t availableBytes);

}  // namespace ts
