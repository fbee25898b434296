#include "memory_fit.h"

#include <cstdio>
#include <optional>
#include <string>

#include "backend/backend.h"
#include "backend/select_backend.h"
#include "exec/memory_plan.h"
#include "model_summary.h"
#include "tensor/checked_size.h"
#include "tensor/format_bytes.h"
#include "train/memory_advice.h"

namespace ts::cli {

int printModelAndMemoryFit(const ExperimentSpec& spec)
{
    const std::int64_t batch = spec.training.batchSize;
    // The device train would pick: its free memory is what the plan has to fit. Where that
    // device is not usable here (a CUDA experiment checked on a laptop) the RAM stands in.
    Backend* backend = &cpuBackend();
    std::string instead;
    try {
        backend = &selectBackend(spec.training.device);
    } catch (const std::exception& e) {
        instead = std::string(" (training.device ") + spec.training.device + " is not usable here: " + e.what() +
                  "; compared with this machine's RAM)";
    }
    const MemoryBudget budget = memoryBudget(*backend);  // never to the last byte: a margin stays free

    std::optional<CheckedGraph> graph;
    RunMemory need;
    try {
        graph = checkGraph(spec.model, batch);
        need = runMemory(planMemory(*graph, *backend, /*training=*/true), spec.optimizer);
    } catch (const GraphError& e) {
        if (e.kind() != GraphError::Kind::TooLarge) throw;
        std::fprintf(stderr, "validate: at batch %lld, %s\n", static_cast<long long>(batch), e.what());
        graph.reset();
    } catch (const SizeOverflow& e) {
        std::fprintf(stderr, "validate: at batch %lld, %s\n", static_cast<long long>(batch), e.what());
        graph.reset();
    }
    if (!graph) {  // too large to plan at all: say what does fit
        if (const std::string note = largestBatchNote(spec, *backend, budget, batch); !note.empty())
            std::fprintf(stderr, "  %s%s\n", note.c_str(), instead.c_str());
        return 1;
    }

    std::printf("model (%s, batch %lld):\n\n", spec.optimizer.type.c_str(), static_cast<long long>(batch));
    printModelSummary(*graph, true, need.optimizerState);
    if (budget.available == 0) {
        std::printf("memory: %s planned; the free memory of %s is not known\n", formatBytes(double(need.total())).c_str(),
                    backend->name().c_str());
        return 0;
    }
    if (auto refusal = memoryRefusal(spec, batch, need, *backend, budget, "here" + instead)) {
        std::fprintf(stderr, "validate: %s\n", refusal->c_str());
        return 1;
    }
    std::printf("memory: %s planned fits: %s\n", formatBytes(double(need.total())).c_str(),
                describeBudget(budget, *backend, instead.empty() ? std::string() : instead.substr(1)).c_str());
    return 0;
}

}  // namespace ts::cli
