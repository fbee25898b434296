// `trainstudio-cli bench EXPERIMENT.yaml`: steady-state training throughput of a real
// experiment (its data, loader, model and optimizer), then the same steps again with a wait
// after each phase, to split a step into data wait, forward, backward and optimizer. The
// throughput pass never waits inside a step: on a GPU, waiting is what costs. --layers adds a
// third pass timing every node (a wait around each), to see which layer a step spends on.
#include <chrono>
#include <cmath>
#include <cstdio>

#include "backend/backend.h"
#include "backend/math_precision.h"
#include "backend/select_backend.h"
#include "commands.h"
#include "data/dataset.h"
#include "io/yaml/experiment_yaml.h"
#include "format.h"
#include "json_output.h"
#include "optim/optimizer.h"
#include "optim/schedule.h"
#include "train/evaluation.h"

namespace ts::cli {

void printNodeTimings(const Executor& ex, long long steps);  // bench_command.cpp

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
    Message notice;
    Backend& backend = selectBackend(spec.training.device, &notice);
    if (!notice.text.empty() && !json) std::fprintf(stderr, "%s\n", notice.text.c_str());
    const auto precision = parseMathPrecision(spec.training.precision);
    if (!precision) throw std::invalid_argument("training.precision '" + spec.training.precision + "': expected f32, tf32, bf16 or f16");
    backend.setMathPrecision(*precision);

    const DatasetSplits splits = openExperimentDataset(spec, defaultCacheDirectory());
    const std::int64_t batch = spec.training.batchSize;
    Executor ex(checkGraph(spec.model, batch), backend);
    ex.initParameters(spec.training.seed);
    const GraphBinding binding = GraphBinding::of(ex.graph());
    auto optimizer = makeOptimizer(spec.optimizer, ex);
    LoaderOptions lo;
    lo.batchSize = batch;
    lo.seed = spec.training.seed;
    lo.batchAllocator = &backend.hostAllocator();
    Loader loader(splits.train, spec.dataset, splits.trainStatistics, lo);

    const std::int64_t warmup = 5;
    std::int64_t epoch = 1, step = 0;
    loader.startEpoch(epoch);
    Batch b;
    // One training step; `phase` is called after each of its four parts.
    auto trainStep = [&](auto&& phase) {
        while (!loader.next(b)) loader.startEpoch(++epoch);
        feedBatch(ex, binding, b);
        phase(0);
        ex.zeroGrad();
        ex.forward();
        phase(1);
        ex.backward();
        phase(2);
        optimizer->step(float(scheduledLr(spec.schedule, spec.optimizer.lr, step++, loader.batchesPerEpoch(),
                                          spec.training.epochs * loader.batchesPerEpoch())));
        phase(3);
    };
    auto noWait = [](int) {};
    for (std::int64_t i = 0; i < warmup; ++i) trainStep(noWait);
    backend.synchronize();
    Clock::time_point start = Clock::now();
    for (std::int64_t i = 0; i < steps; ++i) trainStep(noWait);
    backend.synchronize();
    const double total = since(start), rate = double(steps * batch) / total;

    double parts[4] = {0, 0, 0, 0};  // data wait, forward, backward, optimizer
    for (std::int64_t i = 0; i < steps; ++i) {
        Clock::time_point t = Clock::now();
        trainStep([&](int part) {
            backend.synchronize();
            parts[part] += since(t);
            t = Clock::now();
        });
    }
    const double wait = parts[0], forward = parts[1], backward = parts[2], update = parts[3];
    const double profiled = wait + forward + backward + update;
    auto ms = [&](double s) { return 1000.0 * s / double(steps); };
    const AllocatorStats memory = backend.allocator().stats();
    if (json) {
        // To 0.1 samples/s and 1 us: timing noise is larger than the digits dropped.
        auto rounded = [](double v, double scale) { return std::round(v * scale) / scale; };
        printJson({{"event", "bench"},
                   {"experiment", spec.name},
                   {"device", backend.name()},
                   {"batch", batch},
                   {"steps", steps},
                   {"samples_per_s", rounded(rate, 10)},
                   {"ms_per_step", rounded(ms(total), 1000)},
                   {"data_ms", rounded(ms(wait), 1000)},
                   {"forward_ms", rounded(ms(forward), 1000)},
                   {"backward_ms", rounded(ms(backward), 1000)},
                   {"optimizer_ms", rounded(ms(update), 1000)},
                   {"precision", mathPrecisionName(*precision)},
                   {"peak_bytes", memory.peak}});
        return 0;
    }
    std::printf("bench %s on %s: batch %lld, %s, %lld steps after %lld warm-up steps, %d loader workers\n\n",
                spec.name.c_str(), backend.name().c_str(), static_cast<long long>(batch), mathPrecisionName(*precision),
                steps, static_cast<long long>(warmup), spec.dataset.numWorkers);
    std::printf("samples/s   %10.0f\nms/step     %10.2f\n", rate, ms(total));
    std::printf("where a step's time goes (a second pass that waits after each part: %.2f ms/step)\n", ms(profiled));
    for (auto [name, s] : {std::pair{"data wait", wait}, {"forward", forward}, {"backward", backward}, {"optimizer", update}})
        std::printf("  %-10s%10.2f ms  %5.1f%%\n", name, ms(s), 100.0 * s / profiled);
    std::printf("memory      %10s peak on %s\n", formatBytes(double(memory.peak)).c_str(), backend.name().c_str());
    if (o.flags.count("--layers")) {
        ex.setProfiling(true);
        for (std::int64_t i = 0; i < steps; ++i) trainStep(noWait);
        std::printf("\nevery node (a third pass that waits around each):\n");
        printNodeTimings(ex, steps);
    }
    return 0;
}

}  // namespace ts::cli
