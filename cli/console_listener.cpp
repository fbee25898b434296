#include "console_listener.h"
#include "json_output.h"
#include "terminal_text.h"
#include "tensor/format_bytes.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <string>

namespace ts::cli {

namespace {

std::string clock(double seconds)
{
    const long s = std::lround(std::max(0.0, seconds));
    char buf[32];
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
    return buf;
}

double metric(const std::map<std::string, double>& m, const std::string& key)
{
    auto it = m.find(key);
    return it == m.end() ? NAN : it->second;
}

}  // namespace

ConsoleListener::ConsoleListener(bool json, std::string workspace)
    : json_(json), terminal_(!json && isatty(STDOUT_FILENO)), workspace_(std::move(workspace))
{
}

void ConsoleListener::onEvent(const TrainEvent& event)
{
    progress_.onEvent(event);
    if (auto* started = std::get_if<StartedEvent>(&event)) onStarted(*started);
    else if (auto* s = std::get_if<StepEvent>(&event)) onStep(*s);
    else if (auto* e = std::get_if<EpochEvent>(&event)) onEpoch(*e);
    else if (auto* f = std::get_if<FinishedEvent>(&event)) onFinished(*f);
    else if (auto* l = std::get_if<LogEvent>(&event)) {
        const char* level = l->level == LogEvent::Level::Error ? "error" : l->level == LogEvent::Level::Warning ? "warning" : "info";
        if (json_) printJson({{"event", "log"}, {"level", level}, {"message", l->message.text}});
        else std::fprintf(stderr, "%s%s: %s\n", terminal_ ? "\r\033[K" : "", level, terminalMessage(l->message.text).c_str());
    }
    std::fflush(stdout);
}

void ConsoleListener::onStarted(const StartedEvent& e)
{
    if (json_) {
        if (e.runId >= 0) printJson({{"event", "run"}, {"run_id", e.runId}, {"workspace", workspace_}});
        printJson({{"event", "started"},
                   {"run_id", e.runId},
                   {"device", e.device},
                   {"epochs", e.epochs},
                   {"first_epoch", e.firstEpoch},
                   {"first_step", e.firstStep},
                   {"steps_per_epoch", e.stepsPerEpoch},
                   {"total_steps", e.totalSteps},
                   {"batches_per_epoch", e.batchesPerEpoch},
                   {"accumulation_steps", e.accumulationSteps},
                   {"train_samples", e.trainSamples},
                   {"validation_samples", e.validationSamples},
                   {"test_samples", e.testSamples},
                   {"memory_bytes", e.memory.total()},
                   {"cpu_nodes", e.cpuNodes},
                   {"ranks", e.ranks}});
        return;
    }
    if (e.runId >= 0) std::printf("run %lld: ", static_cast<long long>(e.runId));
    std::printf("training %s on %s: %s, %s, batch %lld", terminalCell(e.experiment, 200).c_str(),
                terminalCell(e.device, 200).c_str(), terminalCell(e.dataset, 200).c_str(),
                countText(e.epochs, "epoch").c_str(),
                static_cast<long long>(e.batchSize));
    if (e.accumulationSteps > 1)
        std::printf(" x %lld accumulated (%lld steps per epoch)", static_cast<long long>(e.accumulationSteps),
                    static_cast<long long>(e.stepsPerEpoch));
    if (e.ranks > 1)
        std::printf(", data parallel on %d ranks (%lld samples each)", e.ranks, static_cast<long long>(e.batchSize / e.ranks));
    if (e.cpuNodes > 0) std::printf(", %s partly on the CPU", countText(e.cpuNodes, "node").c_str());
    std::printf("\n");
}

void ConsoleListener::onStep(const StepEvent& e)
{
    if (!terminal_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - lastDraw_ < std::chrono::milliseconds(100)) return;  // redraw at most 10 times a second
    lastDraw_ = now;
    const std::int64_t perEpoch = std::max<std::int64_t>(1, progress_.plan().stepsPerEpoch);
    const std::int64_t inEpoch = progress_.stepsInEpoch();
    const int width = 24, filled = int(width * inEpoch / perEpoch);
    const auto eta = progress_.etaSeconds();
    std::printf("\r\033[Kepoch %lld/%lld [%s%s] %3d%%  loss %.4f  lr %.2e  %.0f samples/s  ETA %s",
                static_cast<long long>(e.epoch), static_cast<long long>(progress_.plan().epochs),
                std::string(filled, '#').c_str(), std::string(width - filled, '.').c_str(), int(100 * inEpoch / perEpoch),
                e.loss, e.lr, e.samplesPerSecond, eta ? clock(*eta).c_str() : "-:--:--");
}

void ConsoleListener::onEpoch(const EpochEvent& e)
{
    const double rate = e.seconds > 0 ? double(progress_.plan().trainSamples) / e.seconds : 0;
    if (json_) {
        Json json = {{"event", "epoch"}, {"epoch", e.epoch}, {"step", e.step}, {"eta_s", orNull(progress_.etaSeconds())}};
        for (const auto& [k, v] : e.metrics) json[k] = v;  // non-finite: null
        json["samples_per_s"] = rate;
        json["seconds"] = e.seconds;
        json["paused_s"] = e.pausedSeconds;
        json["data_wait_fraction"] = e.dataWaitFraction;
        printJson(json);
        return;
    }
    // The held-out split evaluated each epoch: validation, or the test split without one.
    const std::string held = e.metrics.count("val_loss") || !e.metrics.count("test_loss") ? "val" : "test";
    // A language model's bits per token (per character with the characters tokenizer).
    char bits[48] = "";
    if (e.metrics.count(held + "_bpc")) std::snprintf(bits, sizeof bits, "  %s_bpc %.4f", held.c_str(), metric(e.metrics, held + "_bpc"));
    // Regression has errors in the target's units instead of an accuracy.
    const bool regression = e.metrics.count("train_rmse") > 0;
    const char* score = regression ? "rmse" : "acc";
    std::printf("%sepoch %lld/%lld  train_loss %.4f  train_%s %.4f  %s_loss %.4f  %s_%s %.4f%s  %.1f s  %.0f samples/s  data wait %.0f%%\n",
                terminal_ ? "\r\033[K" : "", static_cast<long long>(e.epoch), static_cast<long long>(progress_.plan().epochs),
                metric(e.metrics, "train_loss"), score, metric(e.metrics, std::string("train_") + score), held.c_str(),
                metric(e.metrics, held + "_loss"), held.c_str(), score, metric(e.metrics, held + "_" + score), bits, e.seconds,
                rate, 100 * e.dataWaitFraction);
}

void ConsoleListener::onFinished(const FinishedEvent& e)
{
    static const char* names[] = {"finished", "stopped", "early_stopped", "failed"};
    const char* outcome = names[static_cast<int>(e.outcome)];
    if (json_) {
        Json json = {{"event", "done"}, {"outcome", outcome}};
        for (const auto& [k, v] : e.metrics) json[k] = v;  // non-finite: null
        if (!e.message.text.empty()) json["message"] = e.message.text;
        printJson(json);
        return;
    }
    if (terminal_) std::printf("\r\033[K");
    if (e.outcome == FinishedEvent::Outcome::Failed) {
        std::fprintf(stderr, "failed: %s\n", terminalMessage(e.message.text).c_str());
        return;
    }
    std::printf("%s after %s", outcome, clock(std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count()).c_str());
    if (e.metrics.count("test_acc"))
        std::printf(": test_loss %.4f  test_acc %.4f", metric(e.metrics, "test_loss"), metric(e.metrics, "test_acc"));
    else if (e.metrics.count("test_rmse"))
        std::printf(": test_loss %.4f  test_mae %.4f  test_rmse %.4f  test_r2 %.4f", metric(e.metrics, "test_loss"),
                    metric(e.metrics, "test_mae"), metric(e.metrics, "test_rmse"), metric(e.metrics, "test_r2"));
    std::printf("\n");
    if (!e.message.text.empty()) std::printf("%s\n", terminalMessage(e.message.text).c_str());
}

}  // namespace ts::cli
