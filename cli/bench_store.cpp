// `trainstudio-cli bench-store`: the run store against its targets (engine/store): metric
// points written per second through RunWriter, one metric of N points read back, N runs
// listed with their summaries, and how much logging slows a training step down.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <unistd.h>

#include "commands.h"
#include "format.h"
#include "store/run_reader.h"
#include "jobs/run_recorder.h"
#include "store/run_writer.h"

namespace ts::cli {

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }
// CPU time of the calling thread: unlike wall time, not inflated by other processes' load.
double threadCpuSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

NewRun benchRun(const std::string& experiment)
{
    NewRun r;
    r.experimentName = experiment;
    r.parameters = {{"optimizer.lr", "0.001"}, {"training.batch_size", "128"}};
    r.device = "cpu";
    return r;
}

// A fixed amount of CPU work standing in for a training step (about a millisecond).
volatile double sink = 0;
void trainingStep()
{
    double x = 0;
    for (int i = 1; i <= 400000; ++i) x += 1.0 / (double(i) * i);
    sink = sink + x;
}

struct StepTimes {
    double wall = 0, cpu = 0;  // seconds for the whole round
};

// `steps` simulated steps; with a recorder, each step logs what the trainer's StepEvent
// carries for a small model (5 metrics + 6 per-parameter gradient norms).
StepTimes timeSteps(int steps, RunRecorder* recorder)
{
    StepEvent e;
    e.layerGradNorms = {{"fc1.weight", 0}, {"fc1.bias", 0}, {"fc2.weight", 0},
                        {"fc2.bias", 0},   {"fc3.weight", 0}, {"fc3.bias", 0}};
    static std::int64_t step = 0;
    const auto start = Clock::now();
    const double cpu = threadCpuSeconds();
    for (int i = 0; i < steps; ++i) {
        trainingStep();
        if (recorder) {
            e.step = ++step;
            e.loss = 1.0 / double(step);
            e.wallTime = double(step) * 1e-3;
            recorder->onEvent(e);
        }
    }
    return {std::chrono::duration<double>(Clock::now() - start).count(), threadCpuSeconds() - cpu};
}

}  // namespace

int benchStoreCommand(const std::vector<std::string>& args)
{
    const Options o = parseOptions(args, {"--points", "--runs", "--workspace"}, {});
    const auto points = o.integer("--points", 1000000, 1);
    const auto runs = o.integer("--runs", 10000, 1);
    const bool temporary = !o.has("--workspace");
    const std::string dir = temporary ? (std::filesystem::temp_directory_path() /
                                         ("trainstudio-bench-store-" + std::to_string(::getpid()))).string()
                                      : o.get("--workspace", "");
    const Workspace ws = Workspace::open(dir);
    std::printf("workspace: %s%s\n", ws.directory.c_str(), temporary ? " (temporary)" : "");
    {
        RunWriter writer(ws);

        // 1. Write throughput: N points of one metric, pushed as fast as possible, until committed.
        const auto run = writer.createRun(benchRun("bench_points"));
        auto start = Clock::now();
        for (std::int64_t i = 0; i < points; ++i) writer.addMetric(run, "loss", i, 1.0 / double(i + 1), double(i) * 1e-3);
        const double pushMs = msSince(start);
        writer.flush();
        const double writeMs = msSince(start);
        writer.finishRun(run, RunStatus::Finished, {});
        std::printf("write: %s points in %.0f ms (pushing took %.0f ms): %s points/s, queue peak %s rows\n",
                    formatCount(points).c_str(), writeMs, pushMs, formatCount(std::int64_t(points / (writeMs / 1e3))).c_str(),
                    formatCount(writer.stats().maxQueued).c_str());

        // 2. Reading that metric back, as a chart does when it opens a run.
        {
            RunReader reader(ws);
            double first = 0, best = 1e30, bestCpu = 1e30;
            std::size_t n = 0;
            for (int r = 0; r < 4; ++r) {
                start = Clock::now();
                const double cpu = threadCpuSeconds();
                n = reader.metric(run, "loss").steps.size();
                const double ms = msSince(start);
                if (r == 0) first = ms;
                best = std::min(best, ms);
                bestCpu = std::min(bestCpu, (threadCpuSeconds() - cpu) * 1e3);
            }
            std::printf("read: %s points of one metric in %.1f ms (CPU %.1f ms; first read %.1f ms)\n",
                        formatCount(std::int64_t(n)).c_str(), best, bestCpu, first);
        }

        // 3. Listing runs with summaries: N runs, 6 metrics each.
        start = Clock::now();
        for (std::int64_t r = 0; r < runs; ++r) {
            const auto id = writer.createRun(benchRun("bench_list"));
            for (const char* name : {"loss", "val_loss", "acc", "val_acc", "lr", "epoch"})
                for (int s = 1; s <= 3; ++s) writer.addMetric(id, name, s, 0.5 / s, s);
            writer.finishRun(id, RunStatus::Finished, {});
        }
        writer.flush();
        std::printf("created %s runs in %.0f ms\n", formatCount(runs).c_str(), msSince(start));
        {
            RunReader reader(ws);
            double best = 1e30, bestCpu = 1e30;
            std::size_t n = 0, summaries = 0;
            for (int r = 0; r < 3; ++r) {
                start = Clock::now();
                const double cpu = threadCpuSeconds();
                const auto list = reader.listRuns();
                best = std::min(best, msSince(start));
                bestCpu = std::min(bestCpu, (threadCpuSeconds() - cpu) * 1e3);
                n = list.size();
                summaries = 0;
                for (const auto& l : list) summaries += l.summaries.size();
            }
            std::printf("list: %s runs with %s summaries in %.1f ms (CPU %.1f ms)\n", formatCount(std::int64_t(n)).c_str(),
                        formatCount(std::int64_t(summaries)).c_str(), best, bestCpu);
        }

        // 4. A training step with and without logging, in alternating short rounds so load
        // from elsewhere hits both alike. Wall: the best round of each (noise only adds time);
        // CPU: the training thread's own time (what a push costs it, whatever the machine does).
        const auto trainRun = writer.createRun(benchRun("bench_overhead"));
        RunRecorder recorder(writer, trainRun);
        const int steps = 200, rounds = 25;
        timeSteps(50, nullptr);
        StepTimes plain{1e30, 0}, logged{1e30, 0};
        for (int round = 0; round < rounds; ++round) {
            const StepTimes a = timeSteps(steps, nullptr), b = timeSteps(steps, &recorder);
            plain.wall = std::min(plain.wall, a.wall), plain.cpu += a.cpu;
            logged.wall = std::min(logged.wall, b.wall), logged.cpu += b.cpu;
        }
        // The logging alone, on the trainer thread: its CPU time per StepEvent (best of 5).
        double perEvent = 1e30;
        {
            StepEvent e;
            e.layerGradNorms = {{"fc1.weight", 0}, {"fc1.bias", 0}, {"fc2.weight", 0},
                                {"fc2.bias", 0},   {"fc3.weight", 0}, {"fc3.bias", 0}};
            e.step = 1000000;
            for (int round = 0; round < 5; ++round) {
                writer.flush();
                const double cpu = threadCpuSeconds();
                for (int i = 0; i < 2000; ++i) ++e.step, recorder.onEvent(e);
                perEvent = std::min(perEvent, (threadCpuSeconds() - cpu) / 2000);
            }
        }
        writer.flush();
        std::printf("logging one step (11 points) costs the trainer thread %.2f us of CPU: %.3f%% of the step\n",
                    perEvent * 1e6, perEvent / (plain.cpu / (rounds * steps)) * 100);
        std::printf("training step (%d x %d steps, 11 metrics logged per step):\n"
                    "  wall, best round: %.4f ms plain, %.4f ms logging: %+.2f%%\n"
                    "  trainer thread CPU: %.4f ms plain, %.4f ms logging: %+.2f%%\n",
                    rounds, steps, plain.wall / steps * 1e3, logged.wall / steps * 1e3, (logged.wall / plain.wall - 1) * 100,
                    plain.cpu / (rounds * steps) * 1e3, logged.cpu / (rounds * steps) * 1e3, (logged.cpu / plain.cpu - 1) * 100);
    }
    if (temporary) std::filesystem::remove_all(dir);
    return 0;
}

}  // namespace ts::cli
