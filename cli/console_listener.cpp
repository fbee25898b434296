#include "console_listener.h"
#include "format.h"

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

ConsoleListener::ConsoleListener(bool json, std::int64_t epochs, std::int64_t stepsPerEpoch, std::int64_t samplesPerEpoch)
    : json_(json), terminal_(!json && isatty(STDOUT_FILENO)), epochs_(epochs), stepsPerEpoch_(std::max<std::int64_t>(1, stepsPerEpoch)),
      samplesPerEpoch_(samplesPerEpoch)
{
}

void ConsoleListener::onEvent(const TrainEvent& event)
{
    if (auto* s = std::get_if<StepEvent>(&event)) onStep(*s);
    else if (auto* e = std::get_if<EpochEvent>(&event)) onEpoch(*e);
    else if (auto* f = std::get_if<FinishedEvent>(&event)) onFinished(*f);
    else if (auto* l = std::get_if<LogEvent>(&event)) {
        const char* level = l->level == LogEvent::Level::Error ? "error" : l->level == LogEvent::Level::Warning ? "warning" : "info";
        if (json_) std::printf("{\"event\":\"log\",\"level\":\"%s\",\"message\":%s}\n", level, jsonString(l->message).c_str());
        else std::fprintf(stderr, "%s%s: %s\n", terminal_ ? "\r\033[K" : "", level, l->message.c_str());
    }
    std::fflush(stdout);
}

void ConsoleListener::onStep(const StepEvent& e)
{
    ++stepsDone_;
    lastLoss_ = e.loss;
    if (!terminal_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - lastDraw_ < std::chrono::milliseconds(100)) return;  // redraw at most 10 times a second
    lastDraw_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const std::int64_t total = epochs_ * stepsPerEpoch_;
    const double eta = stepsDone_ ? elapsed / double(stepsDone_) * double(total - stepsDone_) : 0;
    const std::int64_t inEpoch = (stepsDone_ - 1) % stepsPerEpoch_ + 1;
    const int width = 24, filled = int(width * inEpoch / stepsPerEpoch_);
    std::printf("\r\033[Kepoch %lld/%lld [%s%s] %3d%%  loss %.4f  lr %.2e  %.0f samples/s  ETA %s",
                static_cast<long long>(e.epoch), static_cast<long long>(epochs_), std::string(filled, '#').c_str(),
                std::string(width - filled, '.').c_str(), int(100 * inEpoch / stepsPerEpoch_), e.loss, e.lr,
                e.samplesPerSecond, clock(eta).c_str());
}

void ConsoleListener::onEpoch(const EpochEvent& e)
{
    const double rate = e.seconds > 0 ? double(samplesPerEpoch_) / e.seconds : 0;
    if (json_) {
        std::printf("{\"event\":\"epoch\",\"epoch\":%lld", static_cast<long long>(e.epoch));
        for (const auto& [k, v] : e.metrics) std::printf(",%s:%s", jsonString(k).c_str(), jsonNumber(v).c_str());
        std::printf(",\"samples_per_s\":%s,\"seconds\":%s,\"data_wait_fraction\":%s}\n", jsonNumber(rate).c_str(),
                    jsonNumber(e.seconds).c_str(), jsonNumber(e.dataWaitFraction).c_str());
        return;
    }
    // The held-out split evaluated each epoch: validation, or the test split without one.
    const std::string held = e.metrics.count("val_loss") || !e.metrics.count("test_loss") ? "val" : "test";
    std::printf("%sepoch %lld/%lld  train_loss %.4f  train_acc %.4f  %s_loss %.4f  %s_acc %.4f  %.1f s  %.0f samples/s  data wait %.0f%%\n",
                terminal_ ? "\r\033[K" : "", static_cast<long long>(e.epoch), static_cast<long long>(epochs_),
                metric(e.metrics, "train_loss"), metric(e.metrics, "train_acc"), held.c_str(),
                metric(e.metrics, held + "_loss"), held.c_str(), metric(e.metrics, held + "_acc"), e.seconds, rate,
                100 * e.dataWaitFraction);
}

void ConsoleListener::onFinished(const FinishedEvent& e)
{
    static const char* names[] = {"finished", "stopped", "early_stopped", "failed"};
    const char* outcome = names[static_cast<int>(e.outcome)];
    if (json_) {
        std::printf("{\"event\":\"done\",\"outcome\":\"%s\"", outcome);
        for (const auto& [k, v] : e.metrics) std::printf(",%s:%s", jsonString(k).c_str(), jsonNumber(v).c_str());
        if (!e.message.empty()) std::printf(",\"message\":%s", jsonString(e.message).c_str());
        std::printf("}\n");
        return;
    }
    if (terminal_) std::printf("\r\033[K");
    if (e.outcome == FinishedEvent::Outcome::Failed) {
        std::fprintf(stderr, "training failed: %s\n", e.message.c_str());
        return;
    }
    std::printf("%s after %s", outcome, clock(std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count()).c_str());
    if (e.metrics.count("test_acc"))
        std::printf(": test_loss %.4f  test_acc %.4f", metric(e.metrics, "test_loss"), metric(e.metrics, "test_acc"));
    std::printf("\n");
    if (!e.message.empty()) std::printf("%s\n", e.message.c_str());
}

}  // namespace ts::cli
