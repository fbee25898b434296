#include "engine_messages.h"

#include <QCoreApplication>

#include <algorithm>
#include <iterator>

namespace ts::ui {

namespace {

// An engine message as translators see it: the engine's English with %n for the count.
struct Template {
    const char* id;
    const char* text;
    int count = 0;  // the argument (1-based) that %n shows and that picks the plural form; 0: none
};

// The engine's ids (engine/types/message.cpp), in its order. One context for all of them, so
// translators find the engine's messages together.
const Template kTemplates[] = {
    {"backend.auto_cpu", QT_TRANSLATE_NOOP("EngineMessage", "device auto: %1; training on the CPU")},
    {"backend.auto_cpu_evaluate", QT_TRANSLATE_NOOP("EngineMessage", "device auto: %1; evaluating on the CPU")},
    {"backend.auto_cpu_predict", QT_TRANSLATE_NOOP("EngineMessage", "device auto: %1; predicting on the CPU")},
    {"job.resuming_run", QT_TRANSLATE_NOOP("EngineMessage", "resuming run %1 from %2")},
    {"job.forking_run", QT_TRANSLATE_NOOP("EngineMessage", "forking run %1 from %2")},
    {"job.resuming_file", QT_TRANSLATE_NOOP("EngineMessage", "resuming from %1")},
    {"job.forking_file", QT_TRANSLATE_NOOP("EngineMessage", "forking from %1")},
    {"job.loading_data", QT_TRANSLATE_NOOP("EngineMessage", "loading %1")},
    {"job.stopped_before_start", QT_TRANSLATE_NOOP("EngineMessage", "stopped before training started")},
    {"job.save_failed", QT_TRANSLATE_NOOP("EngineMessage", "could not save the run: %1")},
    {"job.resume_fallback", QT_TRANSLATE_NOOP("EngineMessage", "the newest checkpoint of run %1, %2 (%3), is incomplete: %4 is missing. Resuming from the newest complete one instead: %5")},
    {"eval.no_best_checkpoint", QT_TRANSLATE_NOOP("EngineMessage", "run %1 marks no checkpoint as best (no tracked metric): evaluating the last one")},
    {"eval.started", QT_TRANSLATE_NOOP("EngineMessage", "evaluating run %1 at epoch %2 (step %3, %4) on the %5 split: %6")},
    {"eval.stopped", QT_TRANSLATE_N_NOOP("EngineMessage", "evaluation stopped by request after %1 of %n sample(s); nothing was stored"), 2},
    {"eval.finished", QT_TRANSLATE_N_NOOP("EngineMessage", "evaluation %1 of run %2 (epoch %3) on %n %5 sample(s): %5_acc %6, %5_loss %7"), 4},
    {"eval.finished_regression", QT_TRANSLATE_N_NOOP("EngineMessage", "evaluation %1 of run %2 (epoch %3) on %n %5 sample(s): MAE %6, RMSE %7; predicting the training mean instead: MAE %8, RMSE %9"), 4},
    {"lr_find.too_few_steps", QT_TRANSLATE_N_NOOP("EngineMessage", "the learning-rate finder stopped after %n step(s), too few to suggest a rate; lower min_lr or train on more data"), 1},
    {"lr_find.finished", QT_TRANSLATE_N_NOOP("EngineMessage", "learning-rate range test over %n step(s) (%2 to %3): suggested lr %4, the median of three rules (steepest descent at %5, lowest loss at %6 / 10, valley at %7)"), 1},
    {"lr_find.finished_diverged", QT_TRANSLATE_N_NOOP("EngineMessage", "learning-rate range test over %n step(s) (%2 to %3, stopped when the loss diverged): suggested lr %4, the median of three rules (steepest descent at %5, lowest loss at %6 / 10, valley at %7)"), 1},
    {"lr_find.rules_disagree", QT_TRANSLATE_NOOP("EngineMessage", "the rules disagree by %1x (steepest descent %2, lowest loss / 10 %3, valley %4): the curve has no clear answer; repeat the test over several seeds or with more steps")},
    {"probe.finding_batch", QT_TRANSLATE_NOOP("EngineMessage", "finding the largest batch that fits in %1 (%2 free, %3 of it kept free for the system)")},
    {"probe.running_step", QT_TRANSLATE_NOOP("EngineMessage", "one training step at batch %1")},
    {"probe.ran", QT_TRANSLATE_NOOP("EngineMessage", "one step at batch %1: peak %2 (planned %3), %4 ms")},
    {"probe.stopped", QT_TRANSLATE_NOOP("EngineMessage", "the one-step check at batch %1 was stopped before its step was done")},
    {"memory.breakdown", QT_TRANSLATE_NOOP("EngineMessage", "parameters %1, gradients %2, optimizer state (%3) %4, activations %5, workspace %6; total %7")},
    {"train.memory_planned", QT_TRANSLATE_NOOP("EngineMessage", "memory on %1 (planned): parameters %2, gradients %3, optimizer state (%4) %5, activations %6, workspace %7; total %8")},
    {"train.cpu_forward", QT_TRANSLATE_N_NOOP("EngineMessage", "%1 forward runs on the CPU, as %3 does not support %2 (%n node(s))"), 4},
    {"train.cpu_backward", QT_TRANSLATE_N_NOOP("EngineMessage", "%1 backward runs on the CPU, as %3 does not support %2 (%n node(s))"), 4},
    {"train.cpu_threads_auto", QT_TRANSLATE_N_NOOP("EngineMessage", "computing with %n CPU thread(s): the cores other programs leave idle, followed during the run (training.threads: 0, automatic)"), 1},
    {"train.cpu_threads_fixed", QT_TRANSLATE_N_NOOP("EngineMessage", "computing with %n CPU thread(s) (training.threads)"), 1},
    {"train.cpu_threads_changed", QT_TRANSLATE_NOOP("EngineMessage", "CPU threads now %1: other programs' use of the cores changed (the results do not depend on it)")},
    {"train.overfit_mode", QT_TRANSLATE_N_NOOP("EngineMessage", "Overfit sanity mode: training on the same %n batch(es) of %2 every epoch; the loss should go to almost 0."), 1},
    {"train.text_sample", QT_TRANSLATE_NOOP("EngineMessage", "Sample after epoch %1: %2")},
    {"train.overfit_mode_fewer", QT_TRANSLATE_N_NOOP("EngineMessage", "Overfit sanity mode: training on the same %n batch(es) of %2 every epoch; the loss should go to almost 0. (%3 requested; the split holds fewer.)"), 1},
    {"train.metric_missing_overfit", QT_TRANSLATE_NOOP("EngineMessage", "metric '%1' is not computed in this run (overfit mode has no validation): early stopping / plateau schedule ignore it")},
    {"train.metric_missing_no_validation", QT_TRANSLATE_NOOP("EngineMessage", "metric '%1' is not computed in this run (no validation split): early stopping / plateau schedule ignore it")},
    {"train.overfit_learns", QT_TRANSLATE_N_NOOP("EngineMessage", "Overfit check: training loss %1 -> %2 on %n fixed batch(es). It goes toward 0: the model, loss and optimiser can learn; train on the full data."), 3},
    {"train.overfit_stuck", QT_TRANSLATE_N_NOOP("EngineMessage", "Overfit check: training loss %1 -> %2 on %n fixed batch(es). It does not go toward 0: check the labels, the learning rate, the input normalisation and that the loss matches the model output; or train for more epochs."), 3},
    {"train.stopped", QT_TRANSLATE_NOOP("EngineMessage", "stopped by request at step %1 (epoch %2)")},
    {"train.stopped_in_evaluation", QT_TRANSLATE_NOOP("EngineMessage", "stopped by request during evaluation (epoch %1)")},
    {"train.early_stopped", QT_TRANSLATE_N_NOOP("EngineMessage", "early stop after epoch %1: %2 did not improve by more than %3 for %n epoch(s); best %5 at epoch %6"), 4},
    {"train.finished", QT_TRANSLATE_N_NOOP("EngineMessage", "finished %n epoch(s) at step %2"), 1},
    {"train.optimizer_state_reset", QT_TRANSLATE_NOOP("EngineMessage", "the checkpoint's optimizer state does not fit this optimizer (%1): it starts fresh")},
    {"train.fork_batch_changed", QT_TRANSLATE_NOOP("EngineMessage", "the batch size changed: the fork starts at the next epoch")},
    {"train.resumed_from", QT_TRANSLATE_NOOP("EngineMessage", "resumed from %1 at epoch %2, batch %3, step %4")},
    {"train.forked_from", QT_TRANSLATE_NOOP("EngineMessage", "forked from %1 at epoch %2, batch %3, step %4")},
    {"train.nothing_left", QT_TRANSLATE_N_NOOP("EngineMessage", "the checkpoint is at the end of training (%1 of %n epoch(s) done): nothing is left to train; raise the epochs (--epochs N) to train more"), 2},
    {"train.paused", QT_TRANSLATE_NOOP("EngineMessage", "paused at step %1")},
    {"train.resumed", QT_TRANSLATE_NOOP("EngineMessage", "resumed at step %1")},
    {"train.skipped_nan_loss", QT_TRANSLATE_NOOP("EngineMessage", "the loss became NaN at step %1 (epoch %2, batch %3): step skipped, parameters unchanged (training.skip_non_finite_loss)")},
    {"train.skipped_infinite_loss", QT_TRANSLATE_NOOP("EngineMessage", "the loss became infinite at step %1 (epoch %2, batch %3): step skipped, parameters unchanged (training.skip_non_finite_loss)")},
    {"train.skipped_non_finite_gradient", QT_TRANSLATE_NOOP("EngineMessage", "the gradient norm became non-finite at step %1 (epoch %2, batch %3): step skipped, parameters unchanged (training.skip_non_finite_loss)")},
    {"train.f16_overflow", QT_TRANSLATE_NOOP("EngineMessage", "f16: gradients overflowed at step %1 with loss scale %2; step skipped, loss scale now %3")},
    {"train.diverged_nan_loss", QT_TRANSLATE_NOOP("EngineMessage", "Training diverged: the loss became NaN at step %1 (epoch %2, batch %3). Things to try:\n  - lower the learning rate (it is %4; try %5, 10x lower, or add warm-up);\n  - check the input normalisation (inputs near zero mean and unit variance; no NaN/inf in the data);\n  - check the labels (integers in [0, %6));\n  - enable gradient clipping (training.clip_grad_norm, e.g. 1.0);\n  - check the initialisation (Kaiming for ReLU layers).\nOr set training.skip_non_finite_loss to skip such steps.")},
    {"train.diverged_infinite_loss", QT_TRANSLATE_NOOP("EngineMessage", "Training diverged: the loss became infinite at step %1 (epoch %2, batch %3). Things to try:\n  - lower the learning rate (it is %4; try %5, 10x lower, or add warm-up);\n  - check the input normalisation (inputs near zero mean and unit variance; no NaN/inf in the data);\n  - check the labels (integers in [0, %6));\n  - enable gradient clipping (training.clip_grad_norm, e.g. 1.0);\n  - check the initialisation (Kaiming for ReLU layers).\nOr set training.skip_non_finite_loss to skip such steps.")},
    {"train.diverged_non_finite_gradient", QT_TRANSLATE_NOOP("EngineMessage", "Training diverged: the gradient norm became non-finite at step %1 (epoch %2, batch %3). Things to try:\n  - lower the learning rate (it is %4; try %5, 10x lower, or add warm-up);\n  - check the input normalisation (inputs near zero mean and unit variance; no NaN/inf in the data);\n  - check the labels (integers in [0, %6));\n  - enable gradient clipping (training.clip_grad_norm, e.g. 1.0);\n  - check the initialisation (Kaiming for ReLU layers).\nOr set training.skip_non_finite_loss to skip such steps.")},
    {"optim.weight_decay_groups", QT_TRANSLATE_N_NOOP("EngineMessage", "weight decay %1 on %n weight matrices and kernels (%3 values); not on %4 bias, norm and embedding tensors (%5 values; optimizer.decay_all: true decays them too)"), 2},
    {"optim.weight_decay_all", QT_TRANSLATE_N_NOOP("EngineMessage", "weight decay %1 on all %n parameter tensor(s) (%3 values), biases, norms and embeddings included (optimizer.decay_all)"), 2},
    {"diag.non_finite", QT_TRANSLATE_NOOP("EngineMessage", "The loss or the gradients became NaN or infinite at step %1 (epoch %2) with learning rate %3; training cannot recover from that. Resume from the last good checkpoint with the learning rate x0.1 (optimizer.lr %4), or add warm-up or gradient clipping (training.clip_grad_norm: 1.0). If it happens in the first steps, look for NaN or infinite values in the data and check the input normalisation.")},
    {"diag.not_converging", QT_TRANSLATE_N_NOOP("EngineMessage", "The loss has not improved over the first %n step(s) (%2 at the start, %3 lately). Go through the not-converging checklist: look at samples and their labels; check that the loss suits the task and the model's output; find a learning rate (the finder; 1e-3 or 1e-4 are safe starts); check the initialisation (Kaiming for ReLU layers, never all zeros); watch the gradient norm (vanishing or exploding); check the input normalisation (mean near 0, standard deviation near 1)."), 1},
    {"diag.loss_rising", QT_TRANSLATE_N_NOOP("EngineMessage", "The loss is rising: from %1 to %2 over the last %n step(s), at a high learning rate (%4). Lower the learning rate (3 to 10 times; the finder suggests one) or warm it up over the first few hundred steps (schedule.warmup_steps)."), 3},
    {"diag.loss_oscillating", QT_TRANSLATE_N_NOOP("EngineMessage", "The loss jumps between %2 and %3 within %n step(s) at a high learning rate (%4): the steps overshoot. Lower the learning rate (3 to 10 times; the finder suggests one) or warm it up (schedule.warmup_steps)."), 1},
    {"diag.gradient_exploding", QT_TRANSLATE_NOOP("EngineMessage", "The gradient norm was above 10 in %1 of the last %2 steps (median %3): the seeds' sign of a learning rate that is too high or of a poor initialisation. Enable gradient clipping (training.clip_grad_norm: 1.0 is the usual start), lower the learning rate, and check the initialisation (Kaiming for ReLU layers).")},
    {"diag.gradient_vanishing", QT_TRANSLATE_NOOP("EngineMessage", "The gradient norm was below 1e-4 in %1 of the last %2 steps (median %3) while the loss is still %4: the gradients vanish before they reach the first layers. Check the initialisation (Kaiming for ReLU layers), prefer ReLU to sigmoid or tanh in deep stacks, add normalisation layers, or raise the learning rate.")},
    {"diag.overfitting", QT_TRANSLATE_N_NOOP("EngineMessage", "%1 rose for %n epoch(s) in a row (%3 -> %4) while the training loss fell (%5 -> %6): the model is overfitting; its best epoch so far is %7. Use early stopping (patience 5 to 10 epochs; the best checkpoint is kept), weight decay (AdamW with 0.01 to 0.1), data augmentation (random crop, flip), dropout or label smoothing (0.1)."), 2},
    {"diag.loader_starving", QT_TRANSLATE_NOOP("EngineMessage", "The training waited for data %1% of the time (above 30%): the loader starves the device. Raise dataset.loader.num_workers (now %2; the seeds suggest half to two thirds of the physical cores, and this machine has %3 logical cores), decode once with the sample cache (dataset.loader.cache: true), and keep only the random augmentations per sample.")},
    {"diag.memory_growing", QT_TRANSLATE_NOOP("EngineMessage", "Allocated memory grew at the end of each of the last %3 epochs (%1 -> %2): something keeps memory alive, a leak rather than fragmentation (when allocated grows, tensors are not freed; when only reserved grows, it is the cache). The training plan is fixed, so your experiment is not the cause: please report it with this run's log.")},
    {"diag.memory_fragmented", QT_TRANSLATE_NOOP("EngineMessage", "After epoch %3 the allocator holds %1 while %2 is allocated: the rest is cached or fragmented blocks, not a leak (allocated memory is steady). Later allocations reuse it, and it is released and retried when memory runs short; other programs see less free memory meanwhile.")},
    {"diag.batchnorm_small_batch", QT_TRANSLATE_N_NOOP("EngineMessage", "Batch norm (%1) normalises over batches of %n sample(s), fewer than 8: its statistics are too noisy (the seeds' limit). Use a batch of 8 or more, replace it with GroupNorm or LayerNorm, or lower its momentum to 0.01."), 2},
    {"diag.batchnorm_after_dropout", QT_TRANSLATE_NOOP("EngineMessage", "Batch norm %1 comes right after dropout %2: dropout changes the variance batch norm sees between training and evaluation, so its running statistics do not fit at test time. Use one of the two, move the dropout after the last batch norm, or use GroupNorm instead.")},
    {"diag.batchnorm_accumulation", QT_TRANSLATE_NOOP("EngineMessage", "Gradient accumulation (%3 micro-batches of %2) trains like a batch of %4, but batch norm (%1) still normalises each micro-batch of %2: accumulation does not replace a real large batch for it. Use GroupNorm or LayerNorm, or a larger micro-batch (mixed precision or activation checkpointing frees memory for one).")},
    {"diag.loss_scale_falling", QT_TRANSLATE_NOOP("EngineMessage", "The fp16 loss scale keeps falling (%1 -> %2, %3 overflows by step %4): gradients overflow even as the scale shrinks, a sign of numerical instability rather than of the scale's search. Look for divisions by zero or the log of zero, lower the learning rate, or train in bf16 (training.precision: bf16), whose range is that of f32.")},
    {"diag.imbalanced_accuracy", QT_TRANSLATE_NOOP("EngineMessage", "The training classes are imbalanced (%1:1; '%2' has %3 samples, '%4' %5) and the run is judged by %6, an accuracy: on imbalanced data accuracy misleads, since predicting the large classes already scores well. Look at macro F1 and AUC (evaluate the run), and weight the loss by inverse class frequency (CrossEntropy class_weights) or use the class-balanced sampler (dataset.loader.sampler: class_balanced).")},
    {"diag.transformer_warmup", QT_TRANSLATE_NOOP("EngineMessage", "The training broke down early, at step %1 of %2 (loss %3; lowest so far %4), with no learning-rate warm-up (schedule.warmup_steps: 0) at learning rate %5: a model with attention (%6) needs warm-up, since its first updates, large and noisy, throw the attention weights off. Warm up over the first 1 to 5% of the run's steps, and past where this run broke down: schedule.warmup_steps: %7. Clipping the gradient norm at 1.0 (training.clip_grad_norm) helps too.")},
    {"run.started", QT_TRANSLATE_N_NOOP("EngineMessage", "training %1 on %2: %3, epochs %4 to %5, %n step(s) of batch %7"), 6},
    {"run.started_accumulated", QT_TRANSLATE_N_NOOP("EngineMessage", "training %1 on %2: %3, epochs %4 to %5, %n step(s) of batch %7 x %8 accumulated"), 6},
    {"run.epoch_done", QT_TRANSLATE_NOOP("EngineMessage", "epoch %1 done in %2 s: %3")},
    {"run.epoch_done_paused", QT_TRANSLATE_NOOP("EngineMessage", "epoch %1 done in %2 s (paused %3 s): %4")},
    {"run.checkpoint_saved", QT_TRANSLATE_NOOP("EngineMessage", "checkpoint saved: %1")},
    {"run.checkpoint_saved_best", QT_TRANSLATE_NOOP("EngineMessage", "checkpoint saved: %1 (best)")},
    {"run.finished", QT_TRANSLATE_NOOP("EngineMessage", "finished")},
    {"run.stopped", QT_TRANSLATE_NOOP("EngineMessage", "stopped")},
    {"run.stopped_early", QT_TRANSLATE_NOOP("EngineMessage", "stopped early")},
    {"run.failed", QT_TRANSLATE_NOOP("EngineMessage", "failed")},
    {"run.crashed", QT_TRANSLATE_NOOP("EngineMessage", "the process ended without finishing the run (crashed or killed); last sign of life at the end time")},
    {"store.write_failing", QT_TRANSLATE_NOOP("EngineMessage", "cannot write the run to its workspace: %1. Training is paused and the store tries again every %2 s; it continues by itself once the database can be written (free disk space), or stop the run (nothing queued is lost while it waits)")},
    {"store.write_recovered", QT_TRANSLATE_NOOP("EngineMessage", "the workspace's database can be written again: training continues")},
    {"sweep.planned", QT_TRANSLATE_N_NOOP("EngineMessage", "sweep %1: %n trial(s) (%3 search), ranked by %4"), 2},
    {"sweep.halving", QT_TRANSLATE_NOOP("EngineMessage", "successive halving: rungs at epochs %1, each keeping the best 1/%2")},
    {"sweep.trial_parameters", QT_TRANSLATE_NOOP("EngineMessage", "trial %1: %2")},
    {"sweep.trial_skipped_memory", QT_TRANSLATE_NOOP("EngineMessage", "trial %1 skipped: it plans %2 of memory, more than the %3 of %4 (%5)")},
    {"sweep.trial_skipped_invalid", QT_TRANSLATE_NOOP("EngineMessage", "trial %1 skipped: %2")},
    {"sweep.trial_training", QT_TRANSLATE_NOOP("EngineMessage", "trial %1, rung %2: training to epoch %3")},
    {"sweep.trial_resuming", QT_TRANSLATE_NOOP("EngineMessage", "trial %1, rung %2: resuming from its last checkpoint to epoch %3")},
    {"sweep.trial_reached", QT_TRANSLATE_NOOP("EngineMessage", "trial %1 at epoch %2: %3 %4")},
    {"sweep.trial_already", QT_TRANSLATE_NOOP("EngineMessage", "trial %1 reached epoch %2 before (its newest run: %3): %4 %5")},
    {"sweep.trial_failed", QT_TRANSLATE_NOOP("EngineMessage", "trial %1 failed: %2")},
    {"sweep.rung_kept", QT_TRANSLATE_N_NOOP("EngineMessage", "rung %1 (epoch %2): %3 of %n trial(s) go on: %5"), 4},
    {"sweep.best", QT_TRANSLATE_NOOP("EngineMessage", "best: trial %1 (%2): %3 %4 at epoch %5, run %6")},
    {"sweep.metric_missing", QT_TRANSLATE_NOOP("EngineMessage", "trial %1 reports no %2, which the sweep ranks by (its metrics: %3): set sweep.metric to one of them")},
    {"sweep.stopped", QT_TRANSLATE_NOOP("EngineMessage", "sweep stopped: run it again to continue where it stopped")},
    {"sweep.finished", QT_TRANSLATE_N_NOOP("EngineMessage", "sweep %1 finished in %2 s: %n trial(s) (%4 skipped, %5 failed); training jobs run now: %6"), 3},
    {"sweep.no_result", QT_TRANSLATE_NOOP("EngineMessage", "sweep %1 has no result: every trial was skipped or failed")},
    {"job.label_overlay", QT_TRANSLATE_NOOP("EngineMessage", "label overlay: %1 relabelled, %2 excluded (the dataset files are unchanged)")},
    {"label_check.fold", QT_TRANSLATE_NOOP("EngineMessage", "fold %1 of %2: training on %3 samples, predicting %4")},
    {"label_check.stopped", QT_TRANSLATE_NOOP("EngineMessage", "label check stopped by request in fold %1 of %2; nothing was stored")},
    {"label_check.finished", QT_TRANSLATE_NOOP("EngineMessage", "label check %1 (%2) in %3 s: %4 of %5 training samples suspect; trainstudio-cli data labels shows the list")},
    {"label_check.progress_fold", QT_TRANSLATE_NOOP("EngineMessage", "label check: fold %1 of %2")},
    {"label_check.progress_ranking", QT_TRANSLATE_NOOP("EngineMessage", "label check: ranking")},
    {"eval.progress", QT_TRANSLATE_NOOP("EngineMessage", "evaluating %1")},
    {"data_check.reading", QT_TRANSLATE_NOOP("EngineMessage", "reading %1")},
    {"data_check.near", QT_TRANSLATE_NOOP("EngineMessage", "near duplicates")},
    {"data_check.table", QT_TRANSLATE_NOOP("EngineMessage", "reading the table")},
    {"data_check.summary", QT_TRANSLATE_NOOP("EngineMessage", "data check: %1 unreadable, %2 exact duplicates, %3 exact leaks across splits")},
    {"data_check.summary_images", QT_TRANSLATE_NOOP("EngineMessage", "data check: %1 unreadable, %2 exact duplicates, %3 exact leaks across splits, %4 near duplicates and %5 near leaks (within %6 bits)")},
    {"data_check.reused", QT_TRANSLATE_NOOP("EngineMessage", "stored check %1 is current (the files are unchanged; --force checks again): %2 unreadable, %3 exact duplicates, %4 exact leaks, %5 near duplicates, %6 near leaks")},
    {"data_check.stopped", QT_TRANSLATE_NOOP("EngineMessage", "the data check was stopped; nothing was stored")},
    {"export.no_best_checkpoint", QT_TRANSLATE_NOOP("EngineMessage", "run %1 marks no checkpoint as best (no tracked metric): exporting the last one")},
    {"export.no_class_names", QT_TRANSLATE_NOOP("EngineMessage", "the model's metadata has no class names: the dataset could not be read (%1)")},
    {"export.no_class_names_nor_normalisation", QT_TRANSLATE_NOOP("EngineMessage", "the model's metadata has no class names and no normalisation: the dataset could not be read (%1)")},
    {"predict.no_best_checkpoint", QT_TRANSLATE_NOOP("EngineMessage", "run %1 marks no checkpoint as best (no tracked metric): predicting with the last one")},
    {"predict.image_converted", QT_TRANSLATE_N_NOOP("EngineMessage", "%1: the %2x%3 image was converted to %4x%5 with %n channel(s), as the experiment's image_shape converts its training images"), 6},
    {"predict.folder_others", QT_TRANSLATE_N_NOOP("EngineMessage", "%1: %n file(s) that are not images (PNG, JPEG, WebP, TIFF, BMP or GIF) were left out"), 2},
    {"predict.labels_from", QT_TRANSLATE_NOOP("EngineMessage", "%1: labels read from %2")},
    {"lesson.no_runs", QT_TRANSLATE_NOOP("EngineMessage", "No finished run of %1 yet: open the starting experiment and train it.")},
    {"lesson.data.no_check", QT_TRANSLATE_NOOP("EngineMessage", "No health check of %1 yet: run Check on the Datasets page (or trainstudio-cli data check).")},
    {"lesson.data.no_mark", QT_TRANSLATE_NOOP("EngineMessage", "The health check found %1 exact and %2 near duplicates; now mark at least one sample on the Datasets page: exclude a duplicate or relabel a wrong label.")},
    {"lesson.data.passed", QT_TRANSLATE_N_NOOP("EngineMessage", "The health check found %1 exact and %2 near duplicates, and you marked %n sample(s) (%4 excluded, %5 relabelled)."), 3},
    {"lesson.overfit.no_run", QT_TRANSLATE_N_NOOP("EngineMessage", "None of your %n finished run(s) trains in overfit mode: set training.overfit_batches to 1 and train."), 1},
    {"lesson.overfit.passed", QT_TRANSLATE_N_NOOP("EngineMessage", "Run %1 trained on %n fixed batch(es): training loss %3 -> %4, below %5."), 2},
    {"lesson.overfit.not_yet", QT_TRANSLATE_N_NOOP("EngineMessage", "Run %1 trained on %n fixed batch(es): training loss %3 -> %4, not below %5 yet; train more epochs or raise the learning rate."), 2},
    {"lesson.lr.no_baseline", QT_TRANSLATE_NOOP("EngineMessage", "Train the starting experiment once as shipped (optimizer.lr %1): it is the baseline to beat.")},
    {"lesson.lr.no_change", QT_TRANSLATE_NOOP("EngineMessage", "The shipped learning rate %1 reached %2 %3 (run %4). Now find a better rate (the finder on the Hyperparameters page) and train with it.")},
    {"lesson.lr.passed", QT_TRANSLATE_NOOP("EngineMessage", "Run %1 with lr %2 reached %3 %4, against %5 at the shipped lr %6 (run %7); %8 or lower was the goal.")},
    {"lesson.lr.not_yet", QT_TRANSLATE_NOOP("EngineMessage", "Your best run with another rate, run %1 (lr %2), reached %3 %4, against %5 at the shipped lr %6 (run %7); %8 or lower is the goal.")},
    {"lesson.cnn.no_mlp", QT_TRANSLATE_NOOP("EngineMessage", "Train the starting MLP once first: its accuracy is the score to beat.")},
    {"lesson.cnn.no_cnn", QT_TRANSLATE_NOOP("EngineMessage", "The MLP (run %1) reached %2 %3. Build a CNN on the Model page (Conv2d layers) and train it.")},
    {"lesson.cnn.passed", QT_TRANSLATE_NOOP("EngineMessage", "Your CNN, run %1, reached %2 %3, above the MLP's %4 (run %5).")},
    {"lesson.cnn.not_yet", QT_TRANSLATE_NOOP("EngineMessage", "Your best CNN, run %1, reached %2 %3, not above the MLP's %4 (run %5) yet.")},
    {"lesson.imbalance.no_baseline", QT_TRANSLATE_NOOP("EngineMessage", "Train the starting experiment once as shipped (random sampler): its macro F1 is the baseline.")},
    {"lesson.imbalance.no_fix", QT_TRANSLATE_NOOP("EngineMessage", "The baseline (run %1) has macro F1 %2. Now train with dataset.loader.sampler class_balanced, or weighted with class_weights.")},
    {"lesson.imbalance.passed", QT_TRANSLATE_NOOP("EngineMessage", "Run %1 (sampler %2) reached macro F1 %3, against the baseline's %4 (run %5): %6, at least +%7 was the goal.")},
    {"lesson.imbalance.not_yet", QT_TRANSLATE_NOOP("EngineMessage", "Your best rebalanced run, run %1 (sampler %2), reached macro F1 %3, against the baseline's %4 (run %5): %6; at least +%7 is the goal.")},
    {"lesson.batch.passed", QT_TRANSLATE_NOOP("EngineMessage", "Run %1 trains an effective batch of %2 (batch %3 x accumulation %4) with %5 planned, within the budget of %6.")},
    {"lesson.batch.not_yet", QT_TRANSLATE_NOOP("EngineMessage", "No run yet trains an effective batch of %1 within %2 of planned memory; closest: run %3, effective batch %4 with %5 planned.")},
    {"lesson.resume.no_stop", QT_TRANSLATE_NOOP("EngineMessage", "No run was stopped or killed before its end yet: start training, then stop it (Stop, Ctrl+C, or kill the CLI) after an epoch or two.")},
    {"lesson.resume.no_resume", QT_TRANSLATE_NOOP("EngineMessage", "Run %1 ended %2 at step %3. Resume it (Resume on the Runs page, or trainstudio-cli train --resume %1) and let it finish.")},
    {"lesson.resume.passed", QT_TRANSLATE_NOOP("EngineMessage", "Run %1 resumed run %2 (%3 at step %4) and finished at step %5.")},
    {"lesson.resume.same", QT_TRANSLATE_NOOP("EngineMessage", "Its final training loss %1 equals that of run %2, trained without a stop: the resume was exact.")},
    {"lesson.resume.differs", QT_TRANSLATE_NOOP("EngineMessage", "Its final training loss %1 differs from run %2's %3, trained without a stop with the same settings.")},
    {"lesson.seeds.not_yet", QT_TRANSLATE_N_NOOP("EngineMessage", "%n finished run(s) with the same settings and different seeds (%2); three are needed: change training.seed only."), 1},
    {"lesson.seeds.passed", QT_TRANSLATE_NOOP("EngineMessage", "%1 seeds (%2): %3 %4 ± %5 (mean ± standard deviation), from %6 to %7.")},
    {"lesson.calibrate.no_evaluation", QT_TRANSLATE_N_NOOP("EngineMessage", "None of your %n finished run(s) has been evaluated: select one on the Runs page and press Evaluate; it fits the temperature."), 1},
    {"lesson.calibrate.passed", QT_TRANSLATE_NOOP("EngineMessage", "Evaluation %1 of run %2: temperature %3 lowers ECE from %4 to %5 (NLL %6 -> %7).")},
    {"lesson.calibrate.not_yet", QT_TRANSLATE_NOOP("EngineMessage", "Evaluation %1 of run %2: temperature %3 does not lower ECE (%4 -> %5); train to convergence, then evaluate again.")},
    {"export.onnx_written", QT_TRANSLATE_NOOP("EngineMessage", "exported the checkpoint of epoch %1 as ONNX to %2 (%3)")},
    {"export.not_logged", QT_TRANSLATE_NOOP("EngineMessage", "the export is not recorded in the run's log: %1")},
    {"lesson.onnx.not_exported", QT_TRANSLATE_N_NOOP("EngineMessage", "None of your %n finished run(s) has been exported yet: select one on the Runs page and choose Export as ONNX (or trainstudio-cli export RUN)."), 1},
    {"lesson.onnx.file_gone", QT_TRANSLATE_NOOP("EngineMessage", "Run %1 was exported to %2, but the file is no longer there: export it again.")},
    {"lesson.onnx.passed", QT_TRANSLATE_NOOP("EngineMessage", "Run %1 (epoch %2) is exported as ONNX to %3 (%4), with a dynamic batch dimension.")},
    {"lesson.attention.no_block", QT_TRANSLATE_NOOP("EngineMessage", "Run %1 has no attention layer; it reached %2 %3. On the Model page, draw a Transformer block between pos and ln_f (LayerNorm, MultiHeadAttention, Add, LayerNorm, Linear, GELU, Linear, Add) and train it.")},
    {"lesson.attention.passed", QT_TRANSLATE_N_NOOP("EngineMessage", "Your ViT, run %1, with %n attention layer(s), reached %3 %4; %5 was the goal."), 2},
    {"lesson.attention.not_yet", QT_TRANSLATE_N_NOOP("EngineMessage", "Your best ViT, run %1, with %n attention layer(s), reached %3 %4; %5 is the goal: train more epochs or add a block."), 2},
    {"lesson.warmup.no_plain", QT_TRANSLATE_NOOP("EngineMessage", "No run without warm-up yet: train the starting experiment as shipped (schedule.warmup_steps 0, lr %1).")},
    {"lesson.warmup.no_warm", QT_TRANSLATE_NOOP("EngineMessage", "Run %1 trained without warm-up at lr %2. Now set schedule.warmup_steps (for example %3) and train again at the same learning rate.")},
    {"lesson.warmup.passed", QT_TRANSLATE_NOOP("EngineMessage", "With warm-up (%1 steps), run %2 ended at %3 %4; without, run %5 ended at %6, at the same lr %7.")},
    {"lesson.warmup.passed_diverged", QT_TRANSLATE_NOOP("EngineMessage", "With warm-up (%1 steps), run %2 ended at %3 %4; without, run %5 diverged at step %6, at the same lr %7.")},
    {"lesson.warmup.not_yet", QT_TRANSLATE_NOOP("EngineMessage", "With warm-up (%1 steps), run %2 ended at %3 %4, not below the %5 of run %6 without warm-up at the same lr %7: warm up for longer and train again.")},
    {"lesson.write.no_samples", QT_TRANSLATE_N_NOOP("EngineMessage", "Run %1 reached %2 %3 but wrote %n sample(s): train at least %5 epochs (each ends with a sample) to see its writing improve."), 4},
    {"lesson.write.passed", QT_TRANSLATE_NOOP("EngineMessage", "Run %1 reached %2 %3 (%4 or lower was the goal) and wrote after each of its %5 epochs:")},
    {"lesson.write.not_yet", QT_TRANSLATE_NOOP("EngineMessage", "Your best run, run %1, reached %2 %3; %4 or lower is the goal: train more epochs.")},
    {"output.no_name", QT_TRANSLATE_NOOP("EngineMessage", "no output file was named: name one (--output FILE)")},
    {"output.workspace_database", QT_TRANSLATE_NOOP("EngineMessage", "%1 is the run store of the workspace %2: writing there would destroy every run; choose another output file")},
    {"output.workspace_checkpoints", QT_TRANSLATE_NOOP("EngineMessage", "%1 is inside the checkpoints folder of the workspace %2, which holds the runs' weights: choose an output file outside it")},
    {"output.is_folder", QT_TRANSLATE_NOOP("EngineMessage", "%1 is a folder: name a file inside it (for example %2)")},
    {"output.is_device", QT_TRANSLATE_NOOP("EngineMessage", "%1 is a device, not a regular file: nothing was written; name a regular file")},
    {"output.is_fifo", QT_TRANSLATE_NOOP("EngineMessage", "%1 is a named pipe (FIFO), not a regular file: nothing was written; name a regular file")},
    {"output.is_socket", QT_TRANSLATE_NOOP("EngineMessage", "%1 is a socket, not a regular file: nothing was written; name a regular file")},
    {"output.no_folder", QT_TRANSLATE_NOOP("EngineMessage", "cannot write %1: the folder %2 does not exist; create it first or choose another folder")},
    {"output.write_failed", QT_TRANSLATE_NOOP("EngineMessage", "cannot write %1: %2; nothing was changed: choose another output file")},
    {"output.disk_full", QT_TRANSLATE_NOOP("EngineMessage", "cannot write %1: the disk is full (%2 to write, %3 free there); nothing was changed: free some space or choose another folder")},
    {"output.followed_link", QT_TRANSLATE_NOOP("EngineMessage", "%1 is a symbolic link: wrote its target %2 and kept the link")},
    {"run.stale_files_removed", QT_TRANSLATE_N_NOOP("EngineMessage", "removed %n incomplete checkpoint file(s) that a save interrupted by the run's end left behind: %2"), 1},
    {"data.image_shape_default", QT_TRANSLATE_N_NOOP("EngineMessage", "dataset.image_shape is not given: %1, from the most common image size %2 (%3 of %n image(s); at most 256 pixels a side)"), 4},
    {"data.images_resized_crop", QT_TRANSLATE_N_NOOP("EngineMessage", "%1 of %n image(s) differ from %3: resized keeping the aspect ratio and centre-cropped (dataset.resize: crop)"), 2},
    {"data.images_resized_pad", QT_TRANSLATE_N_NOOP("EngineMessage", "%1 of %n image(s) differ from %3: resized keeping the aspect ratio and padded with black (dataset.resize: pad)"), 2},
    {"data.images_resized_stretch", QT_TRANSLATE_N_NOOP("EngineMessage", "%1 of %n image(s) differ from %3: stretched to it, which changes their aspect ratio (dataset.resize: stretch)"), 2},
    {"data.texts_cut", QT_TRANSLATE_N_NOOP("EngineMessage", "%1 of %n text(s) longer than %3 tokens (the longest: %4): each is cut to its first %3 (dataset.context, the longest text the model reads)"), 2},
    {"data.texts_empty", QT_TRANSLATE_N_NOOP("EngineMessage", "%1 of %n row(s) with an empty text (the first: %3): left out; fill in the text or remove the row"), 2},
    {"train.data_changed", QT_TRANSLATE_NOOP("EngineMessage", "the dataset changed since the checkpoint (%1): training continues on the data as it is now, from the start of the next epoch")},
};

const char* const kLevels[][2] = {
    {"info", QT_TRANSLATE_NOOP("EngineMessage", "info")},
    {"warning", QT_TRANSLATE_NOOP("EngineMessage", "warning")},
    {"error", QT_TRANSLATE_NOOP("EngineMessage", "error")},
};

const Template* findTemplate(const std::string& id)
{
    if (id.empty()) return nullptr;
    const auto it = std::find_if(std::begin(kTemplates), std::end(kTemplates), [&](const Template& t) { return id == t.id; });
    return it == std::end(kTemplates) ? nullptr : &*it;
}

QString argument(const std::vector<std::string>& args, int number)
{
    return number >= 1 && number <= int(args.size()) ? QString::fromStdString(args[std::size_t(number) - 1]) : QString();
}

// %1..%9 replaced by the arguments in one pass (not QString::arg, which numbers whatever
// placeholders are left, so a template that uses %n for argument 1 would shift the others,
// and an argument holding "%2" would be filled in again).
QString fill(const QString& text, const std::vector<std::string>& args)
{
    QString out;
    out.reserve(text.size() + 16);
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] == u'%' && i + 1 < text.size() && text[i + 1].isDigit() && text[i + 1] != u'0') {
            out += argument(args, text[++i].digitValue());
            continue;
        }
        out += text[i];
    }
    return out;
}

}  // namespace

QString renderMessage(const ts::Message& message)
{
    const QString english = QString::fromStdString(message.text);
    const Template* t = findTemplate(message.id);
    if (!t) return english;
    const int n = t->count > 0 ? argument(message.args, t->count).toInt() : -1;
    const QString translated = QCoreApplication::translate("EngineMessage", t->text, nullptr, n);
    // translate() returns the source with %n filled in when no translator knows the text.
    QString source = QString::fromUtf8(t->text);
    if (n >= 0) source.replace(QStringLiteral("%n"), QString::number(n));
    return translated == source ? english : fill(translated, message.args);
}

QString logLevelText(const std::string& level)
{
    for (const auto& [key, text] : kLevels)
        if (level == key) return QCoreApplication::translate("EngineMessage", text);
    return QString::fromStdString(level);
}

bool hasMessageTemplate(const std::string& id) { return findTemplate(id) != nullptr; }

}  // namespace ts::ui
