// Shows a run on the terminal: a progress bar with ETA per epoch and one line per epoch,
// or, with --json, one JSON object per line for scripts.
#pragma once
#include <chrono>
#include <cstdint>

#include "train/events.h"

namespace ts::cli {

class ConsoleListener final : public TrainListener {
public:
    ConsoleListener(bool json, std::int64_t epochs, std::int64_t stepsPerEpoch, std::int64_t samplesPerEpoch);
    void onEvent(const TrainEvent& event) override;

private:
    void onStep(const StepEvent& e);
    void onEpoch(const EpochEvent& e);
    void onFinished(const FinishedEvent& e);

    bool json_, terminal_;
    std::int64_t epochs_, stepsPerEpoch_, samplesPerEpoch_;
    std::int64_t stepsDone_ = 0;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), lastDraw_{};
    double lastLoss_ = 0;
};

}  // namespace ts::cli
