// Shows a run on the terminal: a progress bar with ETA per epoch and one line per epoch,
// or, with --json, one JSON object per line for scripts.
#pragma once
#include <chrono>
#include <cstdint>
#include <string>

#include "jobs/job_progress.h"
#include "types/events.h"

namespace ts::cli {

class ConsoleListener final : public TrainListener {
public:
    // `workspace`: named in the run line of --json.
    ConsoleListener(bool json, std::string workspace);
    void onEvent(const TrainEvent& event) override;

private:
    void onStarted(const StartedEvent& e);
    void onStep(const StepEvent& e);
    void onEpoch(const EpochEvent& e);
    void onFinished(const FinishedEvent& e);

    bool json_, terminal_;
    std::string workspace_;
    JobProgress progress_;  // the plan, steps done and the ETA
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), lastDraw_{};
};

}  // namespace ts::cli
