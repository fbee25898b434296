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
    {BackendAutoCpuEvaluate, "backend.auto_cpu_evaluate", "device auto: %1; evaluating on the CPU"},
    {BackendAutoCpuPredict, "backend.auto_cpu_predict", "device auto: %1; predicting on the CPU"},
    {JobResumingRun, "job.resuming_run", "resuming run %1 from %2"},
    {JobForkingRun, "job.forking_run", "forking run %1 from %2"},
    {JobResumingFile, "job.resuming_file", "resuming from %1"},
    {JobForkingFile, "job.forking_file", "forking from %1"},
    {JobLoadingData, "job.loading_data", "loading %1"},
    {JobStoppedBeforeStart, "job.stopped_before_start", "stopped before training started"},
    {JobSaveFailed, "job.save_failed", "could not save the run: %1"},
    {JobResumeFallback, "job.resume_fallback",
     "the newest checkpoint of run %1, %2 (%3), is incomplete: %4 is missing. Resuming from the newest complete one "
     "instead: %5"},
    {EvalNoBestCheckpoint, "eval.no_best_checkpoint",
     "run %1 marks no checkpoint as best (no tracked metric): evaluating the last one"},
    {EvalStarted, "eval.started", "evaluating run %1 at epoch %2 (step %3, %4) on the %5 split: %6"},
    {EvalStopped, "eval.stopped", "evaluation stopped by request after %1 of %2 {2:sample|samples}; nothing was stored"},
    {EvalFinished, "eval.finished",
     "evaluation %1 of run %2 (epoch %3) on %4 %5 {4:sample|samples}: %5_acc %6, %5_loss %7"},
    {EvalFinishedRegression, "eval.finished_regression",
     "evaluation %1 of run %2 (epoch %3) on %4 %5 {4:sample|samples}: MAE %6, RMSE %7; predicting the training mean "
     "instead: MAE %8, RMSE %9"},
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
    {ProbeFindingBatch, "probe.finding_batch", "finding the largest batch that fits in %1 (%2 free, %3 of it kept free for the system)"},
    {ProbeRunningStep, "probe.running_step", "one training step at batch %1"},
    {ProbeRan, "probe.ran", "one step at batch %1: peak %2 (planned %3), %4 ms"},
    {ProbeStopped, "probe.stopped", "the one-step check at batch %1 was stopped before its step was done"},
    {MemoryBreakdown, "memory.breakdown",
     "parameters %1, gradients %2, optimizer state (%3) %4, activations %5, workspace %6; total %7"},
    {TrainMemoryPlanned, "train.memory_planned",
     "memory on %1 (planned): parameters %2, gradients %3, optimizer state (%4) %5, activations %6, workspace %7; "
     "total %8"},
    {TrainCpuForward, "train.cpu_forward", "%1 forward runs on the CPU, as %3 does not support %2 (%4 {4:node|nodes})"},
    {TrainCpuBackward, "train.cpu_backward", "%1 backward runs on the CPU, as %3 does not support %2 (%4 {4:node|nodes})"},
    {TrainCpuThreadsAuto, "train.cpu_threads_auto",
     "computing with %1 CPU {1:thread|threads}: the cores other programs leave idle, followed during the run "
     "(training.threads: 0, automatic)"},
    {TrainCpuThreadsFixed, "train.cpu_threads_fixed", "computing with %1 CPU {1:thread|threads} (training.threads)"},
    {TrainCpuThreadsChanged, "train.cpu_threads_changed",
     "CPU threads now %1: other programs' use of the cores changed (the results do not depend on it)"},
    {TrainOverfitMode, "train.overfit_mode",
     "Overfit sanity mode: training on the same %1 {1:batch|batches} of %2 every epoch; the loss should go to almost 0."},
    {TrainOverfitModeFewer, "train.overfit_mode_fewer",
     "Overfit sanity mode: training on the same %1 {1:batch|batches} of %2 every epoch; the loss should go to almost 0. "
     "(%3 requested; the split holds fewer.)"},
    {TrainTextSample, "train.text_sample", "Sample after epoch %1: %2"},
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
    {TrainDivergedNanLoss, "train.diverged_nan_loss",
     "Training diverged: the loss became NaN at step %1 (epoch %2, batch %3). Things to try:\n"
     "  - lower the learning rate (it is %4; try %5, 10x lower, or add warm-up);\n"
     "  - check the input normalisation (inputs near zero mean and unit variance; no NaN/inf in the data);\n"
     "  - check the labels (integers in [0, %6));\n"
     "  - enable gradient clipping (training.clip_grad_norm, e.g. 1.0);\n"
     "  - check the initialisation (Kaiming for ReLU layers).\n"
     "Or set training.skip_non_finite_loss to skip such steps."},
    {TrainDivergedInfiniteLoss, "train.diverged_infinite_loss",
     "Training diverged: the loss became infinite at step %1 (epoch %2, batch %3). Things to try:\n"
     "  - lower the learning rate (it is %4; try %5, 10x lower, or add warm-up);\n"
     "  - check the input normalisation (inputs near zero mean and unit variance; no NaN/inf in the data);\n"
     "  - check the labels (integers in [0, %6));\n"
     "  - enable gradient clipping (training.clip_grad_norm, e.g. 1.0);\n"
     "  - check the initialisation (Kaiming for ReLU layers).\n"
     "Or set training.skip_non_finite_loss to skip such steps."},
    {TrainDivergedNonFiniteGradient, "train.diverged_non_finite_gradient",
     "Training diverged: the gradient norm became non-finite at step %1 (epoch %2, batch %3). Things to try:\n"
     "  - lower the learning rate (it is %4; try %5, 10x lower, or add warm-up);\n"
     "  - check the input normalisation (inputs near zero mean and unit variance; no NaN/inf in the data);\n"
     "  - check the labels (integers in [0, %6));\n"
     "  - enable gradient clipping (training.clip_grad_norm, e.g. 1.0);\n"
     "  - check the initialisation (Kaiming for ReLU layers).\n"
     "Or set training.skip_non_finite_loss to skip such steps."},
    {OptimWeightDecayGroups, "optim.weight_decay_groups",
     "weight decay %1 on %2 weight {2:matrix or kernel|matrices and kernels} (%3 values); not on %4 "
     "{4:bias, norm or embedding tensor|bias, norm and embedding tensors} (%5 values; optimizer.decay_all: true decays "
     "them too)"},
    {OptimWeightDecayAll, "optim.weight_decay_all",
     "weight decay %1 on all %2 parameter {2:tensor|tensors} (%3 values), biases, norms and embeddings included "
     "(optimizer.decay_all)"},
    {DiagNonFinite, "diag.non_finite",
     "The loss or the gradients became NaN or infinite at step %1 (epoch %2) with learning rate %3; training cannot "
     "recover from that. Resume from the last good checkpoint with the learning rate x0.1 (optimizer.lr %4), or add warm-up or "
     "gradient clipping (training.clip_grad_norm: 1.0). If it happens in the first steps, look for NaN or infinite "
     "values in the data and check the input normalisation."},
    {DiagNotConverging, "diag.not_converging",
     "The loss has not improved over the first %1 {1:step|steps} (%2 at the start, %3 lately). Go through the "
     "not-converging checklist: look at samples and their labels; check that the loss suits the task and the model's "
     "output; find a learning rate (the finder; 1e-3 or 1e-4 are safe starts); check the initialisation (Kaiming for "
     "ReLU layers, never all zeros); watch the gradient norm (vanishing or exploding); check the input normalisation "
     "(mean near 0, standard deviation near 1)."},
    {DiagLossRising, "diag.loss_rising",
     "The loss is rising: from %1 to %2 over the last %3 {3:step|steps}, at a high learning rate (%4). Lower the "
     "learning rate (3 to 10 times; the finder suggests one) or warm it up over the first few hundred steps "
     "(schedule.warmup_steps)."},
    {DiagLossOscillating, "diag.loss_oscillating",
     "The loss jumps between %2 and %3 within %1 {1:step|steps} at a high learning rate (%4): the steps overshoot. "
     "Lower the learning rate (3 to 10 times; the finder suggests one) or warm it up (schedule.warmup_steps)."},
    {DiagGradientExploding, "diag.gradient_exploding",
     "The gradient norm was above 10 in %1 of the last %2 steps (median %3): the seeds' sign of a learning rate that "
     "is too high or of a poor initialisation. Enable gradient clipping (training.clip_grad_norm: 1.0 is the usual "
     "start), lower the learning rate, and check the initialisation (Kaiming for ReLU layers)."},
    {DiagGradientVanishing, "diag.gradient_vanishing",
     "The gradient norm was below 1e-4 in %1 of the last %2 steps (median %3) while the loss is still %4: the "
     "gradients vanish before they reach the first layers. Check the initialisation (Kaiming for ReLU layers), prefer "
     "ReLU to sigmoid or tanh in deep stacks, add normalisation layers, or raise the learning rate."},
    {DiagOverfitting, "diag.overfitting",
     "%1 rose for %2 {2:epoch|epochs} in a row (%3 -> %4) while the training loss fell (%5 -> %6): the model is "
     "overfitting; its best epoch so far is %7. Use early stopping (patience 5 to 10 epochs; the best checkpoint is "
     "kept), weight decay (AdamW with 0.01 to 0.1), data augmentation (random crop, flip), dropout or label smoothing "
     "(0.1)."},
    {DiagLoaderStarving, "diag.loader_starving",
     "The training waited for data %1% of the time (above 30%): the loader starves the device. Raise "
     "dataset.loader.num_workers (now %2; the seeds suggest half to two thirds of the physical cores, and this "
     "machine has %3 logical cores), decode once with the sample cache (dataset.loader.cache: true), and keep only "
     "the random augmentations per sample."},
    {DiagMemoryGrowing, "diag.memory_growing",
     "Allocated memory grew at the end of each of the last %3 epochs (%1 -> %2): something keeps memory alive, a "
     "leak rather than fragmentation (when allocated grows, tensors are not freed; when only reserved grows, it is "
     "the cache). The training plan is fixed, so your experiment is not the cause: please report it with this run's "
     "log."},
    {DiagMemoryFragmented, "diag.memory_fragmented",
     "After epoch %3 the allocator holds %1 while %2 is allocated: the rest is cached or fragmented blocks, not a "
     "leak (allocated memory is steady). Later allocations reuse it, and it is released and retried when memory runs "
     "short; other programs see less free memory meanwhile."},
    {DiagBatchNormSmallBatch, "diag.batchnorm_small_batch",
     "Batch norm (%1) normalises over batches of %2 {2:sample|samples}, fewer than 8: its statistics are too noisy "
     "(the seeds' limit). Use a batch of 8 or more, replace it with GroupNorm or LayerNorm, or lower its momentum to "
     "0.01."},
    {DiagBatchNormAfterDropout, "diag.batchnorm_after_dropout",
     "Batch norm %1 comes right after dropout %2: dropout changes the variance batch norm sees between training and "
     "evaluation, so its running statistics do not fit at test time. Use one of the two, move the dropout after the "
     "last batch norm, or use GroupNorm instead."},
    {DiagBatchNormAccumulation, "diag.batchnorm_accumulation",
     "Gradient accumulation (%3 micro-batches of %2) trains like a batch of %4, but batch norm (%1) still normalises "
     "each micro-batch of %2: accumulation does not replace a real large batch for it. Use GroupNorm or LayerNorm, "
     "or a larger micro-batch (mixed precision or activation checkpointing frees memory for one)."},
    {DiagLossScaleFalling, "diag.loss_scale_falling",
     "The fp16 loss scale keeps falling (%1 -> %2, %3 overflows by step %4): gradients overflow even as the scale "
     "shrinks, a sign of numerical instability rather than of the scale's search. Look for divisions by zero or the "
     "log of zero, lower the learning rate, or train in bf16 (training.precision: bf16), whose range is that of f32."},
    {DiagImbalancedAccuracy, "diag.imbalanced_accuracy",
     "The training classes are imbalanced (%1:1; '%2' has %3 samples, '%4' %5) and the run is judged by %6, an "
     "accuracy: on imbalanced data accuracy misleads, since predicting the large classes already scores well. Look "
     "at macro F1 and AUC (evaluate the run), and weight the loss by inverse class frequency (CrossEntropy "
     "class_weights) or use the class-balanced sampler (dataset.loader.sampler: class_balanced)."},
    {DiagTransformerWarmup, "diag.transformer_warmup",
     "The training broke down early, at step %1 of %2 (loss %3; lowest so far %4), with no learning-rate warm-up "
     "(schedule.warmup_steps: 0) at learning rate %5: a model with attention (%6) needs warm-up, since its first "
     "updates, large and noisy, throw the attention weights off. Warm up over the first 1 to 5% of the run's steps, "
     "and past where this run broke down: schedule.warmup_steps: %7. Clipping the gradient norm at 1.0 "
     "(training.clip_grad_norm) helps too."},
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
    {StoreWriteFailing, "store.write_failing",
     "cannot write the run to its workspace: %1. Training is paused and the store tries again every %2 s; it "
     "continues by itself once the database can be written (free disk space), or stop the run (nothing queued is lost "
     "while it waits)"},
    {StoreWriteRecovered, "store.write_recovered", "the workspace's database can be written again: training continues"},
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
    {LabelCheckProgressFold, "label_check.progress_fold", "label check: fold %1 of %2"},
    {LabelCheckProgressRanking, "label_check.progress_ranking", "label check: ranking"},
    {EvalProgress, "eval.progress", "evaluating %1"},
    {DataCheckReading, "data_check.reading", "reading %1"},
    {DataCheckNear, "data_check.near", "near duplicates"},
    {DataCheckTable, "data_check.table", "reading the table"},
    {DataCheckSummary, "data_check.summary", "data check: %1 unreadable, %2 exact duplicates, %3 exact leaks across splits"},
    {DataCheckSummaryImages, "data_check.summary_images",
     "data check: %1 unreadable, %2 exact duplicates, %3 exact leaks across splits, %4 near duplicates and %5 near leaks "
     "(within %6 bits)"},
    {DataCheckReused, "data_check.reused",
     "stored check %1 is current (the files are unchanged; --force checks again): %2 unreadable, %3 exact duplicates, "
     "%4 exact leaks, %5 near duplicates, %6 near leaks"},
    {DataCheckStopped, "data_check.stopped", "the data check was stopped; nothing was stored"},
    {ExportNoBestCheckpoint, "export.no_best_checkpoint",
     "run %1 marks no checkpoint as best (no tracked metric): exporting the last one"},
    {ExportNoClassNames, "export.no_class_names",
     "the model's metadata has no class names: the dataset could not be read (%1)"},
    {ExportNoClassNamesNorNormalisation, "export.no_class_names_nor_normalisation",
     "the model's metadata has no class names and no normalisation: the dataset could not be read (%1)"},
    {PredictNoBestCheckpoint, "predict.no_best_checkpoint",
     "run %1 marks no checkpoint as best (no tracked metric): predicting with the last one"},
    {PredictImageConverted, "predict.image_converted",
     "%1: the %2x%3 image was converted to %4x%5 with %6 {6:channel|channels}, as the experiment's image_shape "
     "converts its training images"},
    {PredictFolderOthers, "predict.folder_others",
     "%1: %2 {2:file that is not an image (PNG, JPEG, WebP, TIFF, BMP or GIF) was|files that are not images (PNG, JPEG, "
     "WebP, TIFF, BMP or GIF) were} left out"},
    {PredictLabelsFrom, "predict.labels_from", "%1: labels read from %2"},
    {LessonNoRuns, "lesson.no_runs", "No finished run of %1 yet: open the starting experiment and train it."},
    {LessonDataNoCheck, "lesson.data.no_check", "No health check of %1 yet: run Check on the Datasets page (or trainstudio-cli data check)."},
    {LessonDataNoMark, "lesson.data.no_mark", "The health check found %1 exact and %2 near duplicates; now mark at least one sample on the Datasets page: exclude a duplicate or relabel a wrong label."},
    {LessonDataPassed, "lesson.data.passed", "The health check found %1 exact and %2 near duplicates, and you marked %3 {3:sample|samples} (%4 excluded, %5 relabelled)."},
    {LessonOverfitNoRun, "lesson.overfit.no_run", "None of your %1 finished {1:run|runs} trains in overfit mode: set training.overfit_batches to 1 and train."},
    {LessonOverfitPassed, "lesson.overfit.passed", "Run %1 trained on %2 fixed {2:batch|batches}: training loss %3 -> %4, below %5."},
    {LessonOverfitNotYet, "lesson.overfit.not_yet", "Run %1 trained on %2 fixed {2:batch|batches}: training loss %3 -> %4, not below %5 yet; train more epochs or raise the learning rate."},
    {LessonLrNoBaseline, "lesson.lr.no_baseline", "Train the starting experiment once as shipped (optimizer.lr %1): it is the baseline to beat."},
    {LessonLrNoChange, "lesson.lr.no_change", "The shipped learning rate %1 reached %2 %3 (run %4). Now find a better rate (the finder on the Hyperparameters page) and train with it."},
    {LessonLrPassed, "lesson.lr.passed", "Run %1 with lr %2 reached %3 %4, against %5 at the shipped lr %6 (run %7); %8 or lower was the goal."},
    {LessonLrNotYet, "lesson.lr.not_yet", "Your best run with another rate, run %1 (lr %2), reached %3 %4, against %5 at the shipped lr %6 (run %7); %8 or lower is the goal."},
    {LessonCnnNoMlp, "lesson.cnn.no_mlp", "Train the starting MLP once first: its accuracy is the score to beat."},
    {LessonCnnNoCnn, "lesson.cnn.no_cnn", "The MLP (run %1) reached %2 %3. Build a CNN on the Model page (Conv2d layers) and train it."},
    {LessonCnnPassed, "lesson.cnn.passed", "Your CNN, run %1, reached %2 %3, above the MLP's %4 (run %5)."},
    {LessonCnnNotYet, "lesson.cnn.not_yet", "Your best CNN, run %1, reached %2 %3, not above the MLP's %4 (run %5) yet."},
    {LessonImbalanceNoBaseline, "lesson.imbalance.no_baseline", "Train the starting experiment once as shipped (random sampler): its macro F1 is the baseline."},
    {LessonImbalanceNoFix, "lesson.imbalance.no_fix", "The baseline (run %1) has macro F1 %2. Now train with dataset.loader.sampler class_balanced, or weighted with class_weights."},
    {LessonImbalancePassed, "lesson.imbalance.passed", "Run %1 (sampler %2) reached macro F1 %3, against the baseline's %4 (run %5): %6, at least +%7 was the goal."},
    {LessonImbalanceNotYet, "lesson.imbalance.not_yet", "Your best rebalanced run, run %1 (sampler %2), reached macro F1 %3, against the baseline's %4 (run %5): %6; at least +%7 is the goal."},
    {LessonBatchPassed, "lesson.batch.passed", "Run %1 trains an effective batch of %2 (batch %3 x accumulation %4) with %5 planned, within the budget of %6."},
    {LessonBatchNotYet, "lesson.batch.not_yet", "No run yet trains an effective batch of %1 within %2 of planned memory; closest: run %3, effective batch %4 with %5 planned."},
    {LessonResumeNoStop, "lesson.resume.no_stop", "No run was stopped or killed before its end yet: start training, then stop it (Stop, Ctrl+C, or kill the CLI) after an epoch or two."},
    {LessonResumeNoResume, "lesson.resume.no_resume", "Run %1 ended %2 at step %3. Resume it (Resume on the Runs page, or trainstudio-cli train --resume %1) and let it finish."},
    {LessonResumePassed, "lesson.resume.passed", "Run %1 resumed run %2 (%3 at step %4) and finished at step %5."},
    {LessonResumeSame, "lesson.resume.same", "Its final training loss %1 equals that of run %2, trained without a stop: the resume was exact."},
    {LessonResumeDiffers, "lesson.resume.differs", "Its final training loss %1 differs from run %2's %3, trained without a stop with the same settings."},
    {LessonSeedsNotYet, "lesson.seeds.not_yet", "%1 finished {1:run|runs} with the same settings and different seeds (%2); three are needed: change training.seed only."},
    {LessonSeedsPassed, "lesson.seeds.passed", "%1 seeds (%2): %3 %4 ± %5 (mean ± standard deviation), from %6 to %7."},
    {LessonCalibrateNoEval, "lesson.calibrate.no_evaluation", "None of your %1 finished {1:run|runs} has been evaluated: select one on the Runs page and press Evaluate; it fits the temperature."},
    {LessonCalibratePassed, "lesson.calibrate.passed", "Evaluation %1 of run %2: temperature %3 lowers ECE from %4 to %5 (NLL %6 -> %7)."},
    {LessonCalibrateNotYet, "lesson.calibrate.not_yet", "Evaluation %1 of run %2: temperature %3 does not lower ECE (%4 -> %5); train to convergence, then evaluate again."},
    {ExportOnnxWritten, "export.onnx_written", "exported the checkpoint of epoch %1 as ONNX to %2 (%3)"},
    {ExportNotLogged, "export.not_logged", "the export is not recorded in the run's log: %1"},
    {LessonOnnxNotExported, "lesson.onnx.not_exported", "None of your %1 finished {1:run|runs} has been exported yet: select one on the Runs page and choose Export as ONNX (or trainstudio-cli export RUN)."},
    {LessonOnnxFileGone, "lesson.onnx.file_gone", "Run %1 was exported to %2, but the file is no longer there: export it again."},
    {LessonOnnxPassed, "lesson.onnx.passed", "Run %1 (epoch %2) is exported as ONNX to %3 (%4), with a dynamic batch dimension."},
    {LessonAttentionNoBlock, "lesson.attention.no_block", "Run %1 has no attention layer; it reached %2 %3. On the Model page, draw a Transformer block between pos and ln_f (LayerNorm, MultiHeadAttention, Add, LayerNorm, Linear, GELU, Linear, Add) and train it."},
    {LessonAttentionPassed, "lesson.attention.passed", "Your ViT, run %1, with %2 attention {2:layer|layers}, reached %3 %4; %5 was the goal."},
    {LessonAttentionNotYet, "lesson.attention.not_yet", "Your best ViT, run %1, with %2 attention {2:layer|layers}, reached %3 %4; %5 is the goal: train more epochs or add a block."},
    {LessonWarmupNoPlain, "lesson.warmup.no_plain", "No run without warm-up yet: train the starting experiment as shipped (schedule.warmup_steps 0, lr %1)."},
    {LessonWarmupNoWarm, "lesson.warmup.no_warm", "Run %1 trained without warm-up at lr %2. Now set schedule.warmup_steps (for example %3) and train again at the same learning rate."},
    {LessonWarmupPassed, "lesson.warmup.passed", "With warm-up (%1 steps), run %2 ended at %3 %4; without, run %5 ended at %6, at the same lr %7."},
    {LessonWarmupPassedDiverged, "lesson.warmup.passed_diverged", "With warm-up (%1 steps), run %2 ended at %3 %4; without, run %5 diverged at step %6, at the same lr %7."},
    {LessonWarmupNotYet, "lesson.warmup.not_yet", "With warm-up (%1 steps), run %2 ended at %3 %4, not below the %5 of run %6 without warm-up at the same lr %7: warm up for longer and train again."},
    {LessonWriteNoSamples, "lesson.write.no_samples", "Run %1 reached %2 %3 but wrote %4 {4:sample|samples}: train at least %5 epochs (each ends with a sample) to see its writing improve."},
    {LessonWritePassed, "lesson.write.passed", "Run %1 reached %2 %3 (%4 or lower was the goal) and wrote after each of its %5 epochs:"},
    {LessonWriteNotYet, "lesson.write.not_yet", "Your best run, run %1, reached %2 %3; %4 or lower is the goal: train more epochs."},
    {OutputNoName, "output.no_name", "no output file was named: name one (--output FILE)"},
    {OutputWorkspaceDatabase, "output.workspace_database", "%1 is the run store of the workspace %2: writing there would destroy every run; choose another output file"},
    {OutputWorkspaceCheckpoints, "output.workspace_checkpoints", "%1 is inside the checkpoints folder of the workspace %2, which holds the runs' weights: choose an output file outside it"},
    {OutputIsFolder, "output.is_folder", "%1 is a folder: name a file inside it (for example %2)"},
    {OutputIsDevice, "output.is_device", "%1 is a device, not a regular file: nothing was written; name a regular file"},
    {OutputIsFifo, "output.is_fifo", "%1 is a named pipe (FIFO), not a regular file: nothing was written; name a regular file"},
    {OutputIsSocket, "output.is_socket", "%1 is a socket, not a regular file: nothing was written; name a regular file"},
    {OutputNoFolder, "output.no_folder", "cannot write %1: the folder %2 does not exist; create it first or choose another folder"},
    {OutputWriteFailed, "output.write_failed", "cannot write %1: %2; nothing was changed: choose another output file"},
    {OutputDiskFull, "output.disk_full", "cannot write %1: the disk is full (%2 to write, %3 free there); nothing was changed: free some space or choose another folder"},
    {OutputFollowedLink, "output.followed_link", "%1 is a symbolic link: wrote its target %2 and kept the link"},
    {TrainDataChanged, "train.data_changed", "the dataset changed since the checkpoint (%1): training continues on the data as it is now, from the start of the next epoch"},
    {RunStaleFilesRemoved, "run.stale_files_removed", "removed %1 incomplete checkpoint {1:file|files} that a save interrupted by the run's end left behind: %2"},
    {DataImageShapeDefault, "data.image_shape_default",
     "dataset.image_shape is not given: %1, from the most common image size %2 (%3 of %4 {4:image|images}; at most 256 pixels a side)"},
    {DataImagesResizedCrop, "data.images_resized_crop",
     "%1 of %2 {2:image|images} differ from %3: resized keeping the aspect ratio and centre-cropped (dataset.resize: crop)"},
    {DataImagesResizedPad, "data.images_resized_pad",
     "%1 of %2 {2:image|images} differ from %3: resized keeping the aspect ratio and padded with black (dataset.resize: pad)"},
    {DataImagesResizedStretch, "data.images_resized_stretch",
     "%1 of %2 {2:image|images} differ from %3: stretched to it, which changes their aspect ratio (dataset.resize: stretch)"},
    {DataTextsCut, "data.texts_cut",
     "%1 of %2 {2:text is|texts are} longer than %3 tokens (the longest: %4): each is cut to its first %3 (dataset.context, "
     "the longest text the model reads)"},
    {DataTextsEmpty, "data.texts_empty",
     "%1 of %2 {2:row has|rows have} an empty text (the first: %3): left out; fill in the text or remove the row"},
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
