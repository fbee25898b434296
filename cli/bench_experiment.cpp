// `trainstudio-cli bench EXPERIMENT.yaml`: steady-state training throughput of a real
// experiment (its data, loader, model and optimizer), with each step split into data wait,
// forward, backward and optimizer.
#include <chrono>
#include <cstdio>

#include "backend/backend.h"
#include "backend/select_backend.h"
#include "commands.h"
#include "experiment_loading.h"
#include "format.h"
#include "optim/optimizer.h"
#include "optim/schedule.h"
#include "train/evaluation.h"

namespace ts::cli {

namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }
}  // namespace

int benchExperiment(const std::string& path, const Options& o)
{
    ExperimentSpec spec = loadExperimentWithOverrides(path, o.all("--set"));
    if (o.has("--device")) spec.training.device = o.get("--device", "auto");
    const auto steps = o.integer("--steps", 50, 1);
    const bool json = o.flags.count("--json") != 0;
    std::string notice;
    Backend& backend = selectBackend(spec.training.device, &notice);
    if (!notice.empty() && !json) std::fprintf(stderr, "%s\n", notice.c_str());

    const DatasetSplits splits = openExperimentDataset(spec);
    const std::int64_t batch = spec.training.batchSize;
    Executor ex(checkGraph(spec.model, batch), backend);
    ex.initParameters(spec.training.seed);
    const GraphBinding binding = GraphBinding::of(ex.graph());
    auto optimizer = makeOptimizer(spec.optimizer, ex);
    LoaderOptions lo;
    lo.batchSize = batch;
    lo.seed = spec.training.seed;
    Loader loader(splits.train, spec.dataset, splits.trainStatistics, lo);

    const std::int64_t warmup = 5;
    double wait = 0, forward = 0, backward = 0, update = 0;
    std::int64_t epoch = 1;
    loader.startEpoch(epoch);
    Batch b;
    Clock::time_point start{};
    for (std::int64_t i = 0; i < warmup + steps; ++i) {
        if (i == warmup) wait = forward = backward = update = 0, start = Clock::now();
        auto t = Clock::now();
        while (!loader.next(b)) loader.startEpoch(++epoch);
        feedBatch(ex, binding, b);
        wait += since(t);
        t = Clock::now();
        ex.zeroGrad();
        ex.forward();
        backend.synchronize();
        forward += since(t);
        t = Clock::now();
        ex.backward();
        backend.synchronize();
        backward += since(t);
        t = Clock::now();
        optimizer->step(float(scheduledLr(spec.schedule, spec.optimizer.lr, i, loader.batchesPerEpoch(),
                                          spec.training.epochs * loader.batchesPerEpoch())));
        backend.synchronize();
        update += since(t);
    }
    const double total = since(start), rate = double(steps * batch) / total;
    auto ms = [&](double s) { return 1000.0 * s / double(steps); };
    if (json) {
        std::printf("{\"event\":\"bench\",\"experiment\":\"%s\",\"device\":\"%s\",\"batch\":%lld,\"steps\":%lld,"
                    "\"samples_per_s\":%.1f,\"ms_per_step\":%.3f,\"data_ms\":%.3f,\"forward_ms\":%.3f,\"backward_ms\":%.3f,"
                    "\"optimizer_ms\":%.3f}\n",
                    spec.name.c_str(), backend.name().c_str(), static_cast<long long>(batch), steps, rate, ms(total),
                    ms(wait), ms(forward), ms(backward), ms(update));
        return 0;
    }
    std::printf("bench %s on %s: batch %lld, %lld steps after %lld warm-up steps, %d loader workers\n\n",
                spec.name.c_str(), backend.name().c_str(), static_cast<long long>(batch), steps,
                static_cast<long long>(warmup), spec.dataset.numWorkers);
    std::printf("samples/s   %10.0f\nms/step     %10.2f\n", rate, ms(total));
    for (auto [name, s] : {std::pair{"data wait", wait}, {"forward", forward}, {"backward", backward}, {"optimizer", update}})
        std::printf("  %-10s%10.2f ms  %5.1f%%\n", name, ms(s), 100.0 * s / total);
    return 0;
}

}  // namespace ts::cli
