#include "jobs/run_recorder.h"

#include <cmath>
#include <iomanip>
#include <sstream>
#include <type_traits>

#include "io/yaml/experiment_yaml.h"
#include "store/database.h"
#include "train/run_control.h"

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

// The lines the live log shows, kept with the run as messages (English text beside the id
// and arguments, so the studio words stored lines in the user's language).
Message startedLine(const StartedEvent& e)
{
    std::vector<std::string> args{e.experiment,
                                  e.device,
                                  e.dataset,
                                  std::to_string(e.firstEpoch),
                                  std::to_string(e.epochs),
                                  std::to_string(e.stepsThisRun()),
                                  std::to_string(e.batchSize)};
    if (e.accumulationSteps <= 1) return makeMessage(MessageId::RunStarted, std::move(args));
    args.push_back(std::to_string(e.accumulationSteps));
    return makeMessage(MessageId::RunStartedAccumulated, std::move(args));
}

std::string seconds(double s)
{
    std::ostringstream out;
    out << std::fixed << std::setprecision(1) << s;
    return out.str();
}

Message epochLine(const EpochEvent& e)
{
    std::ostringstream metrics;  // "train_loss 0.4671 val_acc 0.8512": names are not translated
    metrics << std::setprecision(4);
    for (const auto& [name, value] : e.metrics) metrics << (metrics.tellp() > 0 ? " " : "") << name << " " << value;
    if (e.pausedSeconds > 0)
        return makeMessage(MessageId::RunEpochDonePaused,
                           {std::to_string(e.epoch), seconds(e.seconds), seconds(e.pausedSeconds), metrics.str()});
    return makeMessage(MessageId::RunEpochDone, {std::to_string(e.epoch), seconds(e.seconds), metrics.str()});
}

Message endLine(const FinishedEvent& e)
{
    if (!e.message.text.empty()) return e.message;
    switch (e.outcome) {
    case FinishedEvent::Outcome::Finished: return makeMessage(MessageId::RunFinished);
    case FinishedEvent::Outcome::Stopped: return makeMessage(MessageId::RunStopped);
    case FinishedEvent::Outcome::EarlyStopped: return makeMessage(MessageId::RunStoppedEarly);
    case FinishedEvent::Outcome::Failed: break;
    }
    return makeMessage(MessageId::RunFailed);
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

RunRecorder::RunRecorder(RunWriter& writer, std::int64_t runId, RunControl* control, TrainListener* notices)
    : writer_(writer), runId_(runId), control_(control), notices_(notices)
{
    if (!control_) return;
    // Writer thread: a retry committed. Resume only a pause of ours, never the user's.
    writer_.setFailureListener([this](const std::string& reason) {
        if (reason.empty() && pausedForStore_.exchange(false)) {
            resumedByStore_ = true;
            control_->resume();
        }
    });
}

RunRecorder::~RunRecorder()
{
    if (control_) writer_.setFailureListener({});
}

void RunRecorder::pauseWhileUnwritable()
{
    if (resumedByStore_.exchange(false)) {
        const Message back = makeMessage(MessageId::StoreWriteRecovered);
        if (notices_) notices_->onEvent(LogEvent{LogEvent::Level::Info, back});
        writer_.addLog(runId_, {store::unixNow(), "info", back});
    }
    if (!control_ || !writer_.writeFailing() || pausedForStore_ || control_->stopRequested()) return;
    const std::string reason = writer_.writeFailure();
    if (reason.empty()) return;  // a retry committed meanwhile
    pausedForStore_ = true;
    // Queued like any row: the run's log keeps why it paused once the retry commits.
    const Message why = makeMessage(MessageId::StoreWriteFailing, {reason, seconds(RunWriter::kRetrySeconds)});
    if (notices_) notices_->onEvent(LogEvent{LogEvent::Level::Warning, why});
    writer_.addLog(runId_, {store::unixNow(), "warning", why});
    control_->pause();
    // The retry may have committed between the check and the pause: then nobody resumes us.
    if (!writer_.writeFailing() && pausedForStore_.exchange(false)) {
        resumedByStore_ = true;
        control_->resume();
    }
}

void RunRecorder::onEvent(const TrainEvent& event)
{
    if (!std::holds_alternative<FinishedEvent>(event)) pauseWhileUnwritable();
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
                // Distributed runs: seconds in the gradient all-reduce (including waiting for the slowest rank).
                if (e.allReduceSeconds > 0) {
                    writer_.addMetric(runId_, "all_reduce_s", e.step, e.allReduceSeconds, e.wallTime);
                    writer_.addMetric(runId_, "all_reduce_wait_s", e.step, e.allReduceWaitSeconds, e.wallTime);
                }
                for (std::size_t r = 0; r < e.rankSamplesPerSecond.size(); ++r)
                    writer_.addMetric(runId_, "samples_per_s/rank" + std::to_string(r), e.step,
                                      e.rankSamplesPerSecond[r], e.wallTime);
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
                const Message message = endLine(e);
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
                writer_.addLog(runId_, {store::unixNow(), "info",
                                        makeMessage(r.best ? MessageId::RunCheckpointSavedBest : MessageId::RunCheckpointSaved,
                                                    {r.path})});
                // Committed before the trainer deletes the checkpoints this one replaces (one
                // commit per checkpoint): after a kill the store lists what is on disk.
                try {
                    writer_.flush();
                } catch (const StoreError& e) {  // the disk full: the pause above says so, the rows wait
                    if (notices_ && !writer_.writeFailing())
                        notices_->onEvent(LogEvent{LogEvent::Level::Error, makeMessage(MessageId::JobSaveFailed, {e.what()})});
                }
            } else if constexpr (std::is_same_v<T, SystemEvent>) {
                writer_.addSystemSample(runId_, e.sample);
            }
        },
        event);
}

}  // namespace ts
