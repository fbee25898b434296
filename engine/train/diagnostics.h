// Diagnostics while training (issue 19): rules over a run's live events that recognise the
// troubles the seeds (shared/seeds) teach about and say, with this run's numbers, what to do.
// Each rule has a stable id ("diag.non_finite", also its Message's id, so the store keeps it
// with the run's log and the studio words it and shows it as a card), a condition, the advice,
// and where possible action ids a front end offers as buttons. Every rule fires at most once
// per run: a diagnostic is advice, not a stream.
//
// Diagnostics is a pure class fed the events in the trainer's order (and, at each epoch's end,
// the device allocator's counts), so synthetic streams test it; DiagnosticsListener runs it
// inside a training job and inserts its LogEvents into the stream it forwards.
//
// The rules and their thresholds (numbers from the seeds where they give one):
//   diag.non_finite             a NaN/inf loss or gradient norm (a step event, the trainer's
//                               "diverged" failure, or 3 skipped steps with skip_non_finite_loss)
//   diag.not_converging         the loss of the first steps (the lesser of 100 logged steps and
//                               an epoch, at least 20; after warm-up) never came 5% below the
//                               first 10 steps' mean. Not for resumed or forked runs.
//   diag.loss_rising            windows of 10 logged steps: 3 rising window means, the last 1.5x
//                               the best and above it by a tenth of the first window's, at a
//                               high learning rate (kHighAdaptiveLr, kHighSgdLr)
//   diag.loss_oscillating       a window's standard deviation above half its mean while the
//                               mean is still above half the first window's, at a high rate
//   diag.gradient_exploding     gradient norm above 10 in 16 of the last 20 logged steps
//   diag.gradient_vanishing     below 1e-4 in 16 of the last 20 while the loss stays above
//                               half the first window's
//   diag.overfitting            val_loss (test_loss without validation) rose 3 epochs in a row
//                               while train_loss fell over them
//   diag.loader_starving        data wait above 30% of the time: an epoch's, or 50 logged steps'
//                               after the first 10 (the loader fills its queue then)
//   diag.memory_growing         the allocator's allocated bytes at 3 epoch ends in a row above
//                               the previous, by 10% and 16 MiB in all
//   diag.memory_fragmented      reserved above 2x allocated and 256 MiB more, at an epoch's end
//   diag.batchnorm_small_batch  batch norm with training.batch_size below 8      (at the start)
//   diag.batchnorm_after_dropout batch norm fed by dropout (through Flatten)      (at the start)
//   diag.batchnorm_accumulation batch norm with accumulation_steps above 1       (at the start)
//   diag.loss_scale_falling     f16: 4 overflows after step 100 that each set a new lowest loss
//                               scale, or a scale below 1
//   diag.imbalanced_accuracy    the largest training class 3x the smallest (non-empty) one, the
//                               run judged by an accuracy, and no class weights or balancing
//                               sampler (at the start, from the training split's class counts)
//   diag.transformer_warmup     a model with MultiHeadAttention and schedule.warmup_steps 0 whose
//                               loss or gradient becomes non-finite, or whose loss jumps, within the
//                               first kWarmupHorizon steps: a logged loss kWarmupJump x the first
//                               one's (the untrained model's), or, after the best window came 10%
//                               below the first, above both the first window's mean and 1.5x the
//                               best window's. Not for resumed or forked runs.
#pragma once
#include <cmath>
#include <cstdint>
#include <deque>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tensor/allocator.h"
#include "types/events.h"
#include "types/experiment_spec.h"

namespace ts {

// What a front end may offer beside a diagnostic (stable ids; the studio maps each to a
// button). The not-converging checklist's lines are the check_* ones.
namespace diagnostic_action {
inline constexpr const char* kResumeLowerLr = "resume_lower_lr";  // fork from the last good checkpoint, lr x0.1
inline constexpr const char* kLrFinder = "open_lr_finder";
inline constexpr const char* kHyperparameters = "open_hyperparameters";
inline constexpr const char* kDatasets = "open_datasets";
inline constexpr const char* kModel = "open_model";
inline constexpr const char* kGradNormChart = "show_grad_norm";
inline constexpr const char* kEvaluateRun = "evaluate_run";
inline constexpr const char* kCheckLabels = "check_labels";                  // Datasets page: samples
inline constexpr const char* kCheckLossFunction = "check_loss_function";    // Model page
inline constexpr const char* kCheckInitialisation = "check_initialisation";  // Model page
inline constexpr const char* kCheckNormalisation = "check_normalisation";    // Datasets page: statistics
inline constexpr const char* kAddWarmup = "add_warmup";  // train the run's experiment again with the suggested warm-up
}  // namespace diagnostic_action

struct DiagnosticRule {
    const char* id;  // "diag.non_finite": its Message's id
    MessageId message;
    LogEvent::Level level;
    std::vector<const char*> actions;  // diagnostic_action ids, the main one first
};

// Every rule, in MessageId order.
const std::vector<DiagnosticRule>& diagnosticRules();
// The rule a message comes from; null for a message that is no diagnostic.
const DiagnosticRule* diagnosticRule(const std::string& messageId);
inline bool isDiagnostic(const Message& message) { return diagnosticRule(message.id) != nullptr; }

// Thresholds the rules share with their tests and the documentation above.
inline constexpr double kGradientNormHigh = 10.0;     // the seeds: "if the gradient norm often exceeds 10"
inline constexpr double kGradientNormVanishing = 1e-4;
inline constexpr double kDataWaitShare = 0.3;
inline constexpr double kHighAdaptiveLr = 1e-2;       // adam, adamw, rmsprop: 10x the seeds' 1e-3 start
inline constexpr double kHighSgdLr = 0.1;             // sgd: the papers' 0.1 that diverges without warm-up
inline constexpr std::int64_t kBatchNormMinBatch = 8;  // the seeds: "batch size below 8"
inline constexpr double kImbalanceRatio = 3.0;
inline constexpr std::int64_t kOverfitEpochs = 3;
inline constexpr std::int64_t kWarmupHorizon = 500;  // the seeds: Transformers warm up over "the first few hundred steps"
inline constexpr double kWarmupJump = 1.25;          // a loss a quarter above the untrained model's

// The warm-up diag.transformer_warmup suggests for a run of `totalSteps` that broke down at
// `step`: 5% of the run (the usual 1-5%), at least twice the step where it broke down and 100
// steps (the seeds' "few hundred" for a short run), but no more than a fifth of the run.
std::int64_t suggestedWarmupSteps(std::int64_t totalSteps, std::int64_t step);

class Diagnostics {
public:
    // `classCounts` / `classNames`: the training split's, for the imbalance rule (empty: unknown).
    explicit Diagnostics(ExperimentSpec spec, std::vector<std::int64_t> classCounts = {},
                         std::vector<std::string> classNames = {});

    // The next event of the run; returns the diagnostics it raises (warnings or errors whose
    // message is the rule's).
    std::vector<LogEvent> observe(const TrainEvent& event);
    // The training device's allocator after epoch `epoch` (DiagnosticsListener samples it).
    std::vector<LogEvent> observeMemory(std::int64_t epoch, const AllocatorStats& stats);

    // The rule ids fired so far, in order.
    const std::vector<std::string>& fired() const { return fired_; }

private:
    void fire(std::vector<LogEvent>& out, MessageId id, std::vector<std::string> args);
    bool hasFired(MessageId id) const;

    // diagnostics_model.cpp: what the experiment and the data say before the first step.
    void checkModel(std::vector<LogEvent>& out);
    void checkImbalance(std::vector<LogEvent>& out);
    // diagnostics_rules.cpp: the stream rules.
    void onStep(const StepEvent& s, std::vector<LogEvent>& out);
    void checkConvergence(std::vector<LogEvent>& out);
    void checkLossWindow(std::vector<LogEvent>& out);
    void checkGradients(std::vector<LogEvent>& out);
    void checkDataWait(const StepEvent& s, std::vector<LogEvent>& out);
    void starving(std::vector<LogEvent>& out, double share);
    void onEpoch(const EpochEvent& e, std::vector<LogEvent>& out);
    void onLog(const LogEvent& l, std::vector<LogEvent>& out);
    void onFinished(const FinishedEvent& f, std::vector<LogEvent>& out);
    void nonFinite(std::vector<LogEvent>& out, const std::string& step, const std::string& epoch, double lr,
                   const std::string& value = "nan");
    void checkWarmup(const StepEvent& s, std::vector<LogEvent>& out);
    void transformerWarmup(std::vector<LogEvent>& out, std::int64_t step, const std::string& value);
    bool highLearningRate(double lr) const;

    ExperimentSpec spec_;
    std::vector<std::int64_t> classCounts_;
    std::vector<std::string> classNames_;
    std::set<MessageId> firedIds_;
    std::vector<std::string> fired_;

    bool continued_ = false;  // a resumed or forked run (StartedEvent.firstStep > 0)
    std::int64_t stepsPerEpoch_ = 0, totalSteps_ = 0;
    std::vector<std::string> attention_;  // the model's MultiHeadAttention nodes
    double lowestLoss_ = INFINITY;        // of the logged steps
    double firstLoss_ = NAN;              // the first logged step's
    double lastLr_ = -1;
    std::int64_t lastStep_ = 0, loggedSteps_ = 0;
    // Losses of the logged steps after warm-up, and the windows of 10 they form.
    std::vector<double> losses_;
    std::optional<double> firstWindow_;
    double bestWindow_ = 0;
    std::vector<double> windowMeans_;
    bool convergenceChecked_ = false;
    std::deque<double> gradNorms_, recentLosses_;  // the last 20 logged steps
    // Data wait over logged steps (after the first 10).
    std::int64_t waitSteps_ = 0;
    double waitSum_ = 0, waitStart_ = -1;
    // Epoch metrics, oldest first.
    std::vector<double> heldLoss_, trainLoss_;
    std::vector<std::int64_t> heldEpochs_;
    std::vector<double> allocated_;
    // f16 loss scale.
    int overflows_ = 0, scaleDrops_ = 0, skippedSteps_ = 0;
    double firstScale_ = -1, lowestScale_ = -1;
};

// Runs Diagnostics inside a job: passes every event on to `next` (in order) and inserts each
// diagnostic as a LogEvent right after the event that raised it, or before a FinishedEvent,
// so the store keeps it in the run's log and the console prints it. At each EpochEvent it
// reads `allocator`'s counts (null: no memory rules). Not thread-safe: the trainer's thread.
class DiagnosticsListener final : public TrainListener {
public:
    DiagnosticsListener(Diagnostics& diagnostics, std::vector<TrainListener*> next, const Allocator* allocator = nullptr)
        : diagnostics_(diagnostics), next_(std::move(next)), allocator_(allocator)
    {
    }
    void onEvent(const TrainEvent& event) override;

private:
    void forward(const TrainEvent& event);

    Diagnostics& diagnostics_;
    std::vector<TrainListener*> next_;
    const Allocator* allocator_;
};

}  // namespace ts
