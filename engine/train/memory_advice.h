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

// What a plan may take of the free memory: never all of it. The machine keeps a margin for
// itself: on the CPU max(1 GiB, 20%) of the available RAM (the desktop, other programs, the
// loader's batches and the page cache; past the RAM the kernel swaps and then kills the
// biggest process, taking unsaved work with it); on a GPU max(512 MiB, 10%) of its free memory
// (the CUDA context, library workspaces and the caching allocator's fragmentation; past it a
// step fails with an out-of-memory error, which is recoverable). The largest batch the studio
// offers, its one-step check and every training run plan within `usable`.
struct MemoryBudget {
    std::size_t available = 0;  // availableTrainingBytes; 0: unknown (nothing is refused then)
    std::size_t margin = 0;     // kept free for the machine
    std::size_t usable = 0;     // available - margin (a caller sharing the machine may divide it)
};
std::size_t memoryMargin(std::size_t availableBytes, bool gpu);
MemoryBudget memoryBudget(Backend& backend);
// "17.6 GiB of the 22.0 GiB of RAM available (MemAvailable) <whose>, 4.4 GiB kept free for
// the system", or "8.0 GiB of RAM available (MemAvailable) <whose>" when no margin is kept.
std::string describeBudget(const MemoryBudget& budget, Backend& backend, const std::string& whose = {});
// The largest batch size in [1, limit] whose planned training memory (planRunMemory) fits
// `availableBytes`: exact, by doubling then bisection (the plan grows with the batch), so
// about 2 log2(answer) plans; 0 when not even batch 1 fits. Throws what checkGraph throws
// for a model that does not check. On CUDA every plan asks cuDNN for its convolution
// workspaces at that batch, which is slower than on the CPU the first time.
std::int64_t largestFittingBatch(const ExperimentSpec& spec, Backend& backend, std::size_t availableBytes,
                                 std::int64_t limit = 1 << 20);

// "of RAM available (MemAvailable)" or "free on cuda:0": what availableTrainingBytes counts.
std::string availableMemoryName(Backend& backend);
// The refusal of a job whose plan `need` at `batch` exceeds the budget's usable memory (which
// `whose` qualifies: "here", "per rank"; `batch` is per rank, of `ranks`): the breakdown, what
// may be used and the largest batch that fits, with the accumulation that keeps the effective
// batch, or what the fixed part needs when not even batch 1 fits. nullopt when it fits or the
// free memory is not known. The one check of every job (train, validate, the one-step check).
std::optional<std::string> memoryRefusal(const ExperimentSpec& spec, std::int64_t batch, const RunMemory& need,
                                         Backend& backend, const MemoryBudget& budget, const std::string& whose,
                                         int ranks = 1);

// For a model whose sizes overflow at `batch` (checkGraph's GraphError::Kind::TooLarge): "X of
// RAM available (MemAvailable): the largest batch that fits is training.batch_size: N", or
// that not even batch 1 fits; empty when the model is too large at batch 1 too (a layer
// size is the problem, not the batch) or the free memory is not known.
std::string largestBatchNote(const ExperimentSpec& spec, Backend& backend, const MemoryBudget& budget, std::int64_t batch,
                             int ranks = 1);

// "parameters 1.3 MiB, gradients ..., activations ... (batch 1024)" and, for `availableBytes`,
// the largest batch (halving) that fits with the accumulation that keeps the effective batch,
// or, when even batch 1 does not fit, what the fixed part needs.
std::string outOfMemoryAdvice(const ExperimentSpec& spec, Backend& backend, std::size_t availableBytes);

}  // namespace ts
