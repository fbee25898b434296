#include "types/message.h"

#include <cctype>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace ts {

namespace {

using enum MessageId;

// The English of every message: the text the CLI prints and the store keeps. The keys are
// stored with log lines: never change one, add a new id instead.
const std::vector<MessageTemplate> kTemplates = {
    {BackendAutoCpu, "backend.auto_cpu", "device auto: %1; training on the CPU"},
    {JobResumingRun, "job.resuming_run", "resuming run %1 from %2"},
    {JobForkingRun, "job.forking_run", "forking run %1 from %2"},
    {JobResumingFile, "job.resuming_file", "resuming from %1"},
    {JobForkingFile, "job.forking_file", "forking from %1"},
    {JobLoadingData, "job.loading_data", "loading %1"},
    {JobStoppedBeforeStart, "job.stopped_before_start", "stopped before training started"},
    {JobSaveFailed, "job.save_failed", "could not save the run: %1"},
    {EvalNoBestCheckpoint, "eval.no_best_checkpoint",
     "run %1 marks no checkpoint as best (no tracked metric): evaluating the last one"},
    {EvalStarted, "eval.started", "evaluating run %1 at epoch %2 (step %3, %4) on the %5 split: %6"},
    {EvalStopped, "eval.stopped", "evaluation stopped by request after %1 of %2 {2:sample|samples}; nothing was stored"},
    {EvalFinished, "eval.finished",
     "evaluation %1 of run %2 (epoch %3) on %4 %5 {4:sample|samples}: %5_acc %6, %5_loss %7"},
    {LrFindTooFewSteps, "lr_find.too_few_steps",
     "the learning-rate finder stopped after %1 {1:step|steps}, too few to suggest a rate; lower min_lr or train on "
     "more data"},
    {LrFindFinished, "lr_find.finished",
     "learning-rate range test over %1 {1:step|steps} (%2 to %3): suggested lr %4, the median of three rules "
     "(steepest descent at %5, lowest loss at %6 / 10, valley at %7)"},
    {LrFindFinishedDiverged, "lr_find.finished_diverged",
     "learning-rate range test over %1 {1:step|steps} (%2 to %3, stopped when the loss diverged): suggested lr %4, "
     "the median of three rules (steepest descent at %5, lowest loss at %6 / 10, valley at %7)"},
    {LrFindRulesDisagree, "lr_find.rules_disagree",
     "the rules disagree by %1x (steepest descent %2, lowest loss / 10 %3, valley %4): the curve has no clear answer; "
     "repeat the test over several seeds or with more steps"},
    {MemoryBreakdown, "memory.breakdown",
     "parameters %1, gradients %2, optimizer state (%3) %4, activations %5, workspace %6; total %7"},
    {TrainMemoryPlanned, "train.memory_planned",
     "memory on %1 (planned): parameters %2, gradients %3, optimizer state (%4) %5, activations %6, workspace %7; "
     "total %8"},
    {TrainOverfitMode, "train.overfit_mode",
     "Overfit sanity mode: training on the same %1 {1:batch|batches} of %2 every epoch; the loss should go to almost 0."},
    {TrainOverfitModeFewer, "train.overfit_mode_fewer",
     "Overfit sanity mode: training on the same %1 {1:batch|batches} of %2 every epoch; the loss should go to almost 0. "
     "(%3 requested; the split holds fewer.)"},
    {TrainMetricMissingOverfit, "train.metric_missing_overfit",
     "metric '%1' is not computed in this run (overfit mode has no validation): early stopping / plateau schedule "
     "ignore it"},
    {TrainMetricMissingNoValidation, "train.metric_missing_no_validation",
     "metric '%1' is not computed in this run (no validation split): early stopping / plateau schedule ignore it"},
    {TrainOverfitLearns, "train.overfit_learns",
     "Overfit check: training loss %1 -> %2 on %3 fixed {3:batch|batches}. It goes toward 0: the model, loss and "
     "optimiser can learn; train on the full data."},
    {TrainOverfitStuck, "train.overfit_stuck",
     "Overfit check: training loss %1 -> %2 on %3 fixed {3:batch|batches}. It does not go toward 0: check the labels, "
     "the learning rate, the input normalisation and that the loss matches the model output; or train for more "
     "epochs."},
    {TrainStopped, "train.stopped", "stopped by request at step %1 (epoch %2)"},
    {TrainStoppedInEvaluation, "train.stopped_in_evaluation", "stopped by request during evaluation (epoch %1)"},
    {TrainEarlyStopped, "train.early_stopped",
     "early stop after epoch %1: %2 did not improve by more than %3 for %4 {4:epoch|epochs}; best %5 at epoch %6"},
    {TrainFinished, "train.finished", "finished %1 {1:epoch|epochs} at step %2"},
    {TrainOptimizerStateReset, "train.optimizer_state_reset",
     "the checkpoint's optimizer state does not fit this optimizer (%1): it starts fresh"},
    {TrainForkBatchChanged, "train.fork_batch_changed", "the batch size changed: the fork starts at the next epoch"},
    {TrainResumedFrom, "train.resumed_from", "resumed from %1 at epoch %2, batch %3, step %4"},
    {TrainForkedFrom, "train.forked_from", "forked from %1 at epoch %2, batch %3, step %4"},
    {TrainNothingLeft, "train.nothing_left",
     "the checkpoint is at the end of training (%1 of %2 {2:epoch|epochs} done): nothing is left to train; raise the "
     "epochs (--epochs N) to train more"},
    {TrainPaused, "train.paused", "paused at step %1"},
    {TrainResumed, "train.resumed", "resumed at step %1"},
    {TrainSkippedNanLoss, "train.skipped_nan_loss",
     "the loss became NaN at step %1 (epoch %2, batch %3): step skipped, parameters unchanged "
     "(training.skip_non_finite_loss)"},
    {TrainSkippedInfiniteLoss, "train.skipped_infinite_loss",
     "the loss became infinite at step %1 (epoch %2, batch %3): step skipped, parameters unchanged "
     "(training.skip_non_finite_loss)"},
    {TrainSkippedNonFiniteGradient, "train.skipped_non_finite_gradient",
     "the gradient norm became non-finite at step %1 (epoch %2, batch %3): step skipped, parameters unchanged "
     "(training.skip_non_finite_loss)"},
    {TrainF16Overflow, "train.f16_overflow",
     "f16: gradients overflowed at step %1 with loss scale %2; step skipped, loss scale now %3"},
    {RunStarted, "run.started", "training %1 on %2: %3, epochs %4 to %5, %6 {6:step|steps} of batch %7"},
    {RunStartedAccumulated, "run.started_accumulated",
     "training %1 on %2: %3, epochs %4 to %5, %6 {6:step|steps} of batch %7 x %8 accumulated"},
    {RunEpochDone, "run.epoch_done", "epoch %1 done in %2 s: %3"},
    {RunEpochDonePaused, "run.epoch_done_paused", "epoch %1 done in %2 s (paused %3 s): %4"},
    {RunCheckpointSaved, "run.checkpoint_saved", "checkpoint saved: %1"},
    {RunCheckpointSavedBest, "run.checkpoint_saved_best", "checkpoint saved: %1 (best)"},
    {RunFinished, "run.finished", "finished"},
    {RunStopped, "run.stopped", "stopped"},
    {RunStoppedEarly, "run.stopped_early", "stopped early"},
    {RunFailed, "run.failed", "failed"},
    {RunCrashed, "run.crashed",
     "the process ended without finishing the run (crashed or killed); last sign of life at the end time"},
    {SweepPlanned, "sweep.planned", "sweep %1: %2 {2:trial|trials} (%3 search), ranked by %4"},
    {SweepHalving, "sweep.halving", "successive halving: rungs at epochs %1, each keeping the best 1/%2"},
    {SweepTrialParameters, "sweep.trial_parameters", "trial %1: %2"},
    {SweepTrialSkippedMemory, "sweep.trial_skipped_memory",
     "trial %1 skipped: it plans %2 of memory, more than the %3 of %4 (%5)"},
    {SweepTrialSkippedInvalid, "sweep.trial_skipped_invalid", "trial %1 skipped: %2"},
    {SweepTrialTraining, "sweep.trial_training", "trial %1, rung %2: training to epoch %3"},
    {SweepTrialResuming, "sweep.trial_resuming", "trial %1, rung %2: resuming from its last checkpoint to epoch %3"},
    {SweepTrialReached, "sweep.trial_reached", "trial %1 at epoch %2: %3 %4"},
    {SweepTrialAlready, "sweep.trial_already", "trial %1 reached epoch %2 before (its newest run: %3): %4 %5"},
    {SweepTrialFailed, "sweep.trial_failed", "trial %1 failed: %2"},
    {SweepRungKept, "sweep.rung_kept", "rung %1 (epoch %2): %3 of %4 {4:trial|trials} go on: %5"},
    {SweepBest, "sweep.best", "best: trial %1 (%2): %3 %4 at epoch %5, run %6"},
    {SweepMetricMissing, "sweep.metric_missing",
     "trial %1 reports no %2, which the sweep ranks by (its metrics: %3): set sweep.metric to one of them"},
    {SweepStopped, "sweep.stopped", "sweep stopped: run it again to continue where it stopped"},
    {SweepFinished, "sweep.finished",
     "sweep %1 finished in %2 s: %3 {3:trial|trials} (%4 skipped, %5 failed); training jobs run now: %6"},
    {SweepNoResult, "sweep.no_result", "sweep %1 has no result: every trial was skipped or failed"},
    {JobLabelOverlay, "job.label_overlay", "label overlay: %1 relabelled, %2 excluded (the dataset files are unchanged)"},
    {LabelCheckFold, "label_check.fold", "fold %1 of %2: training on %3 samples, predicting %4"},
    {LabelCheckStopped, "label_check.stopped", "label check stopped by request in fold %1 of %2; nothing was stored"},
    {LabelCheckFinished, "label_check.finished",
     "label check %1 (%2) in %3 s: %4 of %5 training samples suspect; trainstudio-cli data labels shows the list"},
};

const std::string& argument(const std::vector<std::string>& args, std::size_t number)
{
    static const std::string none;
    return number >= 1 && number <= args.size() ? args[number - 1] : none;
}

}  // namespace

const std::vector<MessageTemplate>& messageTemplates()
{
    return kTemplates;
}

Message makeMessage(MessageId id, std::vector<std::string> args)
{
    const MessageTemplate& t = kTemplates.at(static_cast<std::size_t>(id));
    if (t.id != id) throw std::logic_error(std::string("message table out of order at ") + t.key);
    std::string text = fillTemplate(t.english, args);
    return Message{std::move(text), t.key, std::move(args)};
}

std::string fillTemplate(const std::string& english, const std::vector<std::string>& args)
{
    std::string out;
    for (std::size_t i = 0; i < english.size(); ++i) {
        const char c = english[i];
        if (c == '%' && i + 1 < english.size() && std::isdigit(static_cast<unsigned char>(english[i + 1]))) {
            out += argument(args, std::size_t(english[++i] - '0'));
            continue;
        }
        // {N:singular|plural}
        const std::size_t colon = i + 2, bar = english.find('|', i), close = english.find('}', i);
        if (c == '{' && colon < english.size() && english[colon] == ':' &&
            std::isdigit(static_cast<unsigned char>(english[i + 1])) && bar != std::string::npos &&
            close != std::string::npos && colon < bar && bar < close) {
            const std::string& count = argument(args, std::size_t(english[i + 1] - '0'));
            char* end = nullptr;
            const long long n = std::strtoll(count.c_str(), &end, 10);
            const bool one = !count.empty() && *end == '\0' && n == 1;
            out += one ? english.substr(colon + 1, bar - colon - 1) : english.substr(bar + 1, close - bar - 1);
            i = close;
            continue;
        }
        out += c;
    }
    return out;
}

std::string numberArg(double value)
{
    std::ostringstream out;
    out << value;
    return out.str();
}

}  // namespace ts
