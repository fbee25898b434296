// The learning-rate finder: the range test (Smith 2015; fastai's lr_find) run by the Trainer
// itself with the range_test schedule, so every step is an ordinary training step (precision,
// accumulation, clipping included). Nothing is recorded in the store; the (lr, loss) points
// reach the listener as StepEvents and the suggestion comes in the FinishedEvent's metrics.
#include <algorithm>
#include <cmath>
#include <limits>

#include "backend/backend.h"
#include "data/dataset.h"
#include "jobs/job_overlay.h"
#include "jobs/job_parts.h"
#include "train/lr_range_test.h"
#include "train/run_control.h"
#include "train/trainer.h"

namespace ts {

namespace {

// Watches the sweep: keeps each step's rate and smoothed loss, and stops the run once the
// loss has diverged (train/lr_range_test.h). The trainer's maxSteps ends it otherwise.
class RangeWatcher final : public TrainListener {
public:
    RangeWatcher(TrainListener& next, RunControl& control) : next_(next), control_(control) {}
    void onEvent(const TrainEvent& event) override
    {
        if (std::holds_alternative<FinishedEvent>(event)) return;  // the job sends its own
        next_.onEvent(event);
        const auto* s = std::get_if<StepEvent>(&event);
        if (!s) return;
        lrs.push_back(s->lr);
        smoothedLosses.push_back(smoother_.push(s->loss));
        if (smoother_.diverged()) control_.stop();
    }
    bool diverged() const { return smoother_.diverged(); }

    std::vector<double> lrs, smoothedLosses;

private:
    TrainListener& next_;
    RunControl& control_;
    RangeTestSmoother smoother_;
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
        const LabelOverlay overlay = currentLabelOverlay(env, spec);
        logLabelOverlay(listener, overlay);
        DatasetSplits splits = openExperimentDataset(spec, jobCacheDirectory(env), overlay);
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
            const auto& lr = watcher.lrs;
            const LrSuggestions rules = suggestLearningRates(lr, watcher.smoothedLosses);
            done.metrics["steepest_lr"] = rules.steepest;
            done.metrics["min_loss_lr"] = rules.minimum * 10;
            done.metrics["valley_lr"] = rules.valley;
            done.metrics["suggested_lr"] = rules.suggested;
            done.metrics["rules_spread"] = rules.spread;
            done.metrics["steps"] = double(lr.size());
            if (rules.rulesDisagree())
                listener.onEvent(LogEvent{LogEvent::Level::Warning,
                                          makeMessage(MessageId::LrFindRulesDisagree,
                                                      {numberArg(rules.spread), numberArg(rules.steepest),
                                                       numberArg(rules.minimum), numberArg(rules.valley)})});
            done.message = makeMessage(watcher.diverged() ? MessageId::LrFindFinishedDiverged : MessageId::LrFindFinished,
                                       {std::to_string(lr.size()), numberArg(lr.front()), numberArg(lr.back()),
                                        numberArg(rules.suggested), numberArg(rules.steepest),
                                        numberArg(rules.minimum * 10), numberArg(rules.valley)});
        }
    });
}

}  // namespace ts
