// `trainstudio-cli bench`: training-step throughput on the CPU backend, at one thread and
// at all threads side by side, then where the time goes per node.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <thread>

#include "backend/cpu/cpu_backend.h"
#include "commands.h"
#include "exec/executor.h"
#include "format.h"
#include "runs_output.h"
#include "graph/templates.h"

namespace ts::cli {

namespace {

using Clock = std::chrono::steady_clock;

void randomBatch(Executor& ex, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<float> pixel(0.f, 1.f);
    std::uniform_int_distribution<std::int64_t> label(0, 9);
    Tensor image = Tensor::empty(ex.value("image").shape());
    for (std::int64_t i = 0; i < image.numel(); ++i) image.data<float>()[i] = pixel(rng);
    Tensor labels = Tensor::empty(ex.value("label").shape(), DType::I64);
    for (std::int64_t i = 0; i < labels.numel(); ++i) labels.data<std::int64_t>()[i] = label(rng);
    ex.setInput("image", image);
    ex.setInput("label", labels);
}

// One training step with plain SGD, so the update is part of what is measured.
void step(Executor& ex)
{
    ex.zeroGrad();
    ex.forward();
    ex.backward();
    ex.backend().axpy(ex.flatParameters().numel(), -0.01f, ex.flatGradients().data<float>(),
                      ex.flatParameters().data<float>());
}

double samplesPerSecond(Executor& ex, long long steps)
{
    for (int i = 0; i < 3; ++i) step(ex);  // warm-up: caches, thread pools
    const auto start = Clock::now();
    for (long long i = 0; i < steps; ++i) step(ex);
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return double(steps * ex.graph().batch) / seconds;
}

double gemmGflops(long long n)
{
    std::vector<float> a(std::size_t(n * n), 0.5f), b(std::size_t(n * n), 0.25f), c(std::size_t(n * n));
    cpuBackend().gemm(false, false, n, n, n, 1.f, a.data(), n, b.data(), n, 0.f, c.data(), n);
    const int reps = 5;
    const auto start = Clock::now();
    for (int r = 0; r < reps; ++r) cpuBackend().gemm(false, false, n, n, n, 1.f, a.data(), n, b.data(), n, 0.f, c.data(), n);
    return 2.0 * double(n) * n * n * reps / std::chrono::duration<double>(Clock::now() - start).count() / 1e9;
}

}  // namespace

int benchExperiment(const std::string& path, const Options& o);  // bench_experiment.cpp

void printNodeTimings(const Executor& ex, long long steps)
{
    double total = 0;
    for (const auto& t : ex.timings()) total += t.forwardSeconds + t.backwardSeconds;
    Table table({"node", "op", "fwd ms", "bwd ms", "share"}, "llrrr");
    auto number = [](const char* format, double v) {
        char text[32];
        std::snprintf(text, sizeof text, format, v);
        return std::string(text);
    };
    for (std::size_t i = 0; i < ex.timings().size(); ++i) {
        const NodeTiming& t = ex.timings()[i];
        if (const int with = ex.fusedWith(i); with >= 0) {  // its time is in that node's
            table.add({ex.graph().nodes[i].name, ex.graph().nodes[i].op->type(),
                       "in " + ex.graph().nodes[std::size_t(with)].name, "", ""});
            continue;
        }
        table.add({ex.graph().nodes[i].name, ex.graph().nodes[i].op->type(), number("%.3f", 1000 * t.forwardSeconds / steps),
                   number("%.3f", 1000 * t.backwardSeconds / steps),
                   number("%.1f%%", 100 * (t.forwardSeconds + t.backwardSeconds) / total)});
    }
    table.print();
}

int benchCommand(const std::vector<std::string>& args)
{
    const Options o = parseOptions(args, {"--model", "--batch", "--steps", "--gemm", "--device", "--set"}, {"--json", "--layers"});
    if (o.positional.size() == 1) return benchExperiment(o.positional[0], o);
    if (!o.positional.empty()) throw std::invalid_argument("bench takes at most one experiment file");
    const std::string model = o.get("--model", "mlp");
    const auto batch = o.integer("--batch", 128, 1);
    const auto steps = o.integer("--steps", 20, 1);
    const auto gemm = o.integer("--gemm", 1024, 0, 16384);  // three N x N float matrices: 3 GiB at most
    const int all = std::max(1u, std::thread::hardware_concurrency());

    Executor ex(checkGraph(templateGraph(model), batch), cpuBackend());
    ex.initParameters(1);
    randomBatch(ex, 2);
    std::printf("bench: model %s, batch %lld, %lld steps (forward, backward, SGD update), CPU backend\n\n",
                model.c_str(), batch, steps);
    std::printf("%-10s %14s %12s %14s\n", "threads", "samples/s", "ms/step", "GEMM GFLOP/s");
    double single = 0, parallel = 0;  // the rates printed: the speed-up is their ratio
    for (int threads : {1, all}) {
        setCpuThreads(threads);
        const double rate = samplesPerSecond(ex, steps);
        (threads == 1 ? single : parallel) = rate;
        std::printf("%-10d %14.0f %12.2f %14s\n", threads, rate, 1000.0 * batch / rate,
                    gemm ? std::to_string(int(gemmGflops(gemm))).c_str() : "-");
        if (all == 1) break;
    }
    if (all > 1) std::printf("speed-up with %d threads: %.2fx\n", all, parallel / single);
    if (gemm) std::printf("(GEMM %lldx%lldx%lld through %s)\n", gemm, gemm, gemm, "OpenBLAS");

    // Where the time goes, all threads.
    ex.setProfiling(true);
    for (long long i = 0; i < steps; ++i) step(ex);
    std::printf("\n");
    printNodeTimings(ex, steps);
    return 0;
}

}  // namespace ts::cli
