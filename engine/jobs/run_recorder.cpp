#include "jobs/run_recorder.h"

#include <cmath>
#include <iomanip>
#include <sstream>
#include <type_traits>

#include "io/experiment_yaml.h"
#include "store/database.h"

namespace ts {

namespace {

// A path inside the workspace's checkpoints/ folder is stored relative to it, so a
// workspace can be moved or copied whole; anything else stays as given.
std::string relativeToCheckpoints(const Workspace& w, const std::string& path)
{
    const std::string root = w.checkpointsPath() + "/";
    return path.compare(0, root.size(), root) == 0 ? path.substr(root.size()) : path;
}

const char* levelName(LogEvent::Level level)
{
    return level == LogEvent::Level::Error ? "error" : level == LogEvent::Level::Warning ? "warning" : "info";
}

// The lines the live log shows, kept with the run (the studio's Train page words them in the
// user's language; the store keeps them in English, as the CLI prints them).
std::string startedLine(const StartedEvent& e)
{
    std::ostringstream out;
    out << "training " << e.experiment << " on " << e.device << ": " << e.dataset << ", epochs " << e.firstEpoch << " to "
        << e.epochs << ", " << e.stepsThisRun() << " steps of batch " << e.batchSize;
    if (e.accumulationSteps > 1) out << " x " << e.accumulationSteps << " accumulated";
    return out.str();
}

std::string epochLine(const EpochEvent& e)
{
    std::ostringstream out;
    out << "epoch " << e.epoch << " done in " << std::fixed << std::setprecision(1) << e.seconds << " s";
    if (e.pausedSeconds > 0) out << " (paused " << e.pausedSeconds << " s)";
    out << ":";
    out << std::defaultfloat << std::setprecision(4);
    for (const auto& [name, value] : e.metrics) out << " " << name << " " << value;
    return out.str();
}

}  // namespace

NewRun newRunFor(const ExperimentSpec& spec, const std::string& device)
{
    NewRun run;
    run.experimentName = spec.name;
    run.experimentYaml = experimentToYaml(spec);
    run.parameters = flattenExperiment(spec);
    run.device = device;
    run.seed = spec.training.seed;
    return run;
}

void RunRecorder::onEvent(const TrainEvent& event)
{
    std::visit(
        [&](const auto& e) {
            using T = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<T, StepEvent>) {
                lastStep_ = e.step;
                lastWallTime_ = e.wallTime;
                writer_.addMetric(runId_, "loss", e.step, e.loss, e.wallTime);
                writer_.addMetric(runId_, "lr", e.step, e.lr, e.wallTime);
                writer_.addMetric(runId_, "grad_norm", e.step, e.gradNorm, e.wallTime);
                writer_.addMetric(runId_, "samples_per_s", e.step, e.samplesPerSecond, e.wallTime);
                writer_.addMetric(runId_, "data_wait_s", e.step, e.dataWaitSeconds, e.wallTime);
                for (const auto& [parameter, norm] : e.layerGradNorms)
                    writer_.addMetric(runId_, "grad_norm/" + parameter, e.step, norm, e.wallTime);
            } else if constexpr (std::is_same_v<T, StartedEvent>) {
                writer_.addLog(runId_, {store::unixNow(), "info", startedLine(e)});
            } else if constexpr (std::is_same_v<T, EpochEvent>) {
                lastStep_ = e.step;
                lastEpochMetrics_ = e.metrics;
                for (const auto& [name, value] : e.metrics) writer_.addMetric(runId_, name, e.step, value, lastWallTime_);
                writer_.addMetric(runId_, "epoch", e.step, double(e.epoch), lastWallTime_);
                writer_.addMetric(runId_, "data_wait_fraction", e.step, e.dataWaitFraction, lastWallTime_);
                pausedSeconds_ += e.pausedSeconds;
                if (pausedSeconds_ > 0) writer_.addMetric(runId_, "paused_s", e.step, pausedSeconds_, lastWallTime_);
                writer_.addLog(runId_, {store::unixNow(), "info", epochLine(e)});
            } else if constexpr (std::is_same_v<T, LogEvent>) {
                writer_.addLog(runId_, {store::unixNow(), levelName(e.level), e.message});
            } else if constexpr (std::is_same_v<T, FinishedEvent>) {
                // The last epoch's metrics were logged with it; only the test split's are new, and
                // not even those when the test split stood in for validation (the same values
                // at the same step would count twice).
                for (const auto& [name, value] : e.metrics) {
                    if (!name.starts_with("test_")) continue;
                    const auto logged = lastEpochMetrics_.find(name);
                    const bool same = logged != lastEpochMetrics_.end() &&
                                      (logged->second == value || (std::isnan(value) && std::isnan(logged->second)));
                    if (!same) writer_.addMetric(runId_, name, lastStep_, value, lastWallTime_);
                }
                using O = FinishedEvent::Outcome;
                const RunStatus status = e.outcome == O::Failed    ? RunStatus::Failed
                                         : e.outcome == O::Stopped ? RunStatus::Stopped
                                                                   : RunStatus::Finished;  // early stop included
                const std::string message = !e.message.empty()               ? e.message
                                            : e.outcome == O::EarlyStopped ? "stopped early"
                                                                           : runStatusName(status);
                writer_.addLog(runId_, {store::unixNow(), status == RunStatus::Failed ? "error" : "info", message});
                writer_.finishRun(runId_, status, message);
            } else if constexpr (std::is_same_v<T, CheckpointEvent>) {
                CheckpointRecord r = e.record;
                r.runId = runId_;
                r.path = relativeToCheckpoints(writer_.workspace(), r.path);
                r.statePath = relativeToCheckpoints(writer_.workspace(), r.statePath);
                writer_.addCheckpoint(r);
                for (const std::string& path : e.removed)
                    writer_.removeCheckpoint(runId_, relativeToCheckpoints(writer_.workspace(), path));
                writer_.addLog(runId_, {store::unixNow(), "info", "checkpoint saved: " + r.path + (r.best ? " (best)" : "")});
            } else if constexpr (std::is_same_v<T, SystemEvent>) {
                writer_.addSystemSample(runId_, e.sample);
            }
        },
        event);
}

}  // namespace ts
