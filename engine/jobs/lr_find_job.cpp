// The learning-rate finder: the range test (Smith 2015; fastai's lr_find) run by the Trainer
// itself with the range_test schedule, so every step is an ordinary training step (precision,
// accumulation, clipping included). Nothing is recorded in the store; the (lr, loss) points
// reach the listener as StepEvents and the suggestion comes in the FinishedEvent's metrics.
#include <algorithm>
#include <cmath>
#include <limits>

#include "backend/backend.h"
#include "data/dataset.h"
#include "jobs/job_parts.h"
#include "train/run_control.h"
#include "train/trainer.h"

namespace ts {

namespace {

// Watches the sweep: smooths the loss (debiased exponential moving average, as TensorBoard's
// and fastai's) and stops the run once the smoothed loss passes 4x its minimum (diverged:
// larger rates only get worse). The trainer's maxSteps ends it otherwise.
class RangeWatcher final : public TrainListener {
public:
    RangeWatcher(TrainListener& next, RunControl& control) : next_(next), control_(control) {}
    void onEvent(const TrainEvent& event) override
    {
        if (std::holds_alternative<FinishedEvent>(event)) return;  // the job sends its own
        next_.onEvent(event);
        const auto* s = std::get_if<StepEvent>(&event);
        if (!s) return;
        average_ = kBeta * average_ + (1 - kBeta) * s->loss;
        const double smoothed = average_ / (1 - std::pow(kBeta, double(lrs.size() + 1)));
        lrs.push_back(s->lr);
        smoothedLosses.push_back(smoothed);
        if (std::isfinite(smoothed)) best_ = std::min(best_, smoothed);
        diverged = !std::isfinite(smoothed) || smoothed > 4 * best_;
        if (diverged) control_.stop();
    }

    std::vector<double> lrs, smoothedLosses;
    bool diverged = false;

private:
    static constexpr double kBeta = 0.98;
    TrainListener& next_;
    RunControl& control_;
    double average_ = 0, best_ = std::numeric_limits<double>::infinity();
};

}  // namespace

JobResult runLrFindJob(const LrFindJob& job, const JobEnvironment& env, RunControl& control, TrainListener& listener)
{
    return finishJob(JobResult{}, listener, [&](JobResult& result) {
        FinishedEvent& done = result.finished;
        if (!(job.minLr > 0 && job.maxLr > job.minLr)) throw std::invalid_argument("lr_find needs 0 < min_lr < max_lr");
        if (job.steps < 10) throw std::invalid_argument("lr_find needs at least 10 steps");
        ExperimentSpec spec = job.experiment;
        if (!job.device.empty()) spec.training.device = job.device;
        Backend& backend = jobBackend(env, spec.training.device, listener);
        DatasetSplits splits = openExperimentDataset(spec, jobCacheDirectory(env));
        // Exactly `steps` steps (the trainer's maxSteps, which the sweep spans), over as many
        // epochs as they take: every epoch has at least one step.
        TrainingSpec& t = spec.training;
        t.epochs = job.steps;
        t.earlyStopping.enabled = false;
        t.overfitBatches = 0;
        spec.optimizer.lr = job.minLr;
        spec.schedule = ScheduleSpec{};
        spec.schedule.type = "range_test";
        spec.schedule.maxLr = job.maxLr;
        splits.validation.reset();  // the sweep needs no evaluation
        splits.test.reset();

        TrainerOptions options;
        options.cacheDir = jobCacheDirectory(env);
        options.systemSampleSeconds = env.systemSampleSeconds;
        options.control = &control;
        options.maxSteps = job.steps;
        Trainer trainer(spec, std::move(splits), backend, std::move(options));
        RangeWatcher watcher(listener, control);
        trainer.addListener(&watcher);
        const FinishedEvent trained = trainer.run();
        if (trained.outcome == FinishedEvent::Outcome::Failed) {
            done = trained;
        } else if (watcher.lrs.size() < 5) {
            done.outcome = FinishedEvent::Outcome::Failed;
            done.message = makeMessage(MessageId::LrFindTooFewSteps, {std::to_string(watcher.lrs.size())});
        } else {
            // The steepest descent of the smoothed loss against log(lr), before its minimum:
            // the usual suggestion; the minimum's rate / 10 is the conservative one.
            const auto& lr = watcher.lrs;
            const auto& loss = watcher.smoothedLosses;
            const std::size_t minAt = std::min_element(loss.begin(), loss.end()) - loss.begin();
            std::size_t steepest = 0;
            double slope = std::numeric_limits<double>::infinity();
            for (std::size_t i = 1; i <= minAt && i < lr.size(); ++i) {
                const double d = (loss[i] - loss[i - 1]) / (std::log(lr[i]) - std::log(lr[i - 1]));
                if (d < slope) slope = d, steepest = i;
            }
            done.metrics["steepest_lr"] = lr[steepest];
            done.metrics["min_loss_lr"] = lr[minAt];
            // Never below the sweep's start: a lowest loss within a decade of min_lr would
            // otherwise suggest a rate the test never tried.
            done.metrics["suggested_lr"] = std::max(lr.front(), std::min(lr[steepest], lr[minAt] / 10));
            done.metrics["steps"] = double(lr.size());
            done.message = makeMessage(watcher.diverged ? MessageId::LrFindFinishedDiverged : MessageId::LrFindFinished,
                                       {std::to_string(lr.size()), numberArg(lr.front()), numberArg(lr.back()),
                                        numberArg(done.metrics["suggested_lr"]), numberArg(lr[steepest]),
                                        numberArg(lr[minAt])});
        }
    });
}

}  // namespace ts
