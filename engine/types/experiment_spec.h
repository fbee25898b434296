// An experiment: everything needed to reproduce one training run, as loaded from and saved
// to an experiment YAML file (engine/io/experiment_yaml.h). Plain data, no behaviour;
// == compares every field (a round trip through a file must give the same spec).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "types/model_graph.h"
#include "types/model_layout.h"

namespace ts {

// csv only: a time series cut into sliding windows (data/time_series_dataset.h). Each sample
// is `length` consecutive rows of the feature columns, its targets the next `horizon` rows of
// the target columns; windows start every `stride` rows. The split is by time: validation and
// test are the series' last fractions (validation_fraction, test_fraction), after training.
struct SequenceSpec {
    std::string time;  // the time column: increasing numbers or dates (YYYY-MM-DD), evenly spaced
    std::int64_t length = 0;  // 0: no sequence (the csv is a table)
    std::int64_t horizon = 1;
    std::int64_t stride = 1;
    std::vector<std::string> target;
    std::vector<std::string> features;  // empty: the target columns
    double testFraction = 0.1;

    bool enabled() const { return length > 0; }
    bool operator==(const SequenceSpec&) const = default;
};

struct DatasetSpec {
    // "idx" (MNIST/Fashion-MNIST: a directory holding train-images-idx3-ubyte[.gz] etc.),
    // "cifar10" (a directory of data_batch_N.bin / test_batch.bin), "csv" (one file),
    // "image_folder" (a directory with one sub-directory per class; train/ and test/ inside
    // it when present), "text" (UTF-8 text for a language model: data/text_dataset.h),
    // "text_folder" (texts to classify: data/text_classification_dataset.h).
    std::string format = "idx";
    std::string path;  // relative paths resolve against the experiment file's directory
    // csv only
    std::string labelColumn;
    std::vector<std::string> featureColumns;  // empty: every numeric column but the label and group
    std::string groupColumn;                  // rows sharing a group never straddle the split
    // Regression: the numeric columns to predict (YAML target_columns), instead of label_column's
    // classes; the dataset's targets are then values of shape [columns] (data/dataset.h TargetKind).
    std::vector<std::string> targetColumns;
    // Given: the CSV holds texts to classify (data/text_classification_dataset.h), this
    // column's cells are the texts and label_column's their classes; tokenizer, context and
    // classes as for text_folder; feature_columns must be empty.
    std::string textColumn;
    SequenceSpec sequence;  // csv only: a forecast from windows of a time series
    // image_folder only: every image is resized to this [channels, height, width]; empty: the
    // most common size of the folder's images (data/image_folder_dataset.h)
    std::vector<std::int64_t> imageShape;
    // image_folder only: how an image of another size gets there: crop (keep the aspect ratio,
    // the short side fits, centre-crop), pad (keep it, fit inside, black around) or stretch
    std::string resize = "crop";
    // text only (language modelling): a file or folder of UTF-8 text, tokenized by `tokenizer`
    // (characters | bytes | bpe | unigram; data/tokenizer.h) and cut into blocks of `context`
    // tokens. bpe and unigram learn `vocab_size` tokens (required, 0: not given) from the
    // training split; characters and bytes ignore it (their vocabulary is the text's characters,
    // or the 256 bytes).
    std::string tokenizer = "characters";
    std::int64_t context = 128;
    std::int64_t vocabSize = 0;
    // text_folder and csv with text_column (classification): tokenizer as for text, and `context` each sample's
    // length in tokens (shorter ones padded, longer ones cut); the classes to read (the path's
    // sub-folders, or its files), empty: all; the line that separates a file's samples when
    // each file is a class (fortune's "%").
    std::vector<std::string> classes;
    std::string separator;

    double validationFraction = 0.1;  // carved from the training split, seeded
    std::uint64_t splitSeed = 0;

    // Transforms, applied in this order: random resized crop, random crop with padding,
    // horizontal flip, normalise.
    std::vector<double> normalizeMean;  // per channel; empty: no normalisation
    std::vector<double> normalizeStd;
    bool normalizeFromStatistics = false;  // use the cached dataset statistics instead
    // Training only: a random part of the sample, at least this fraction of its area with an
    // aspect ratio in [3/4, 4/3], resized back to the whole (torchvision's RandomResizedCrop
    // scale=(this, 1)); 0: off.
    double randomResizedCrop = 0.0;
    std::int64_t randomCropPadding = 0;    // 0: off
    bool horizontalFlip = false;

    // Loader
    std::string sampler = "random";  // sequential | random | weighted | class_balanced
    std::vector<double> classWeights;  // weighted: relative weight per class
    bool replacement = true;            // weighted: draw with replacement
    int numWorkers = 2;
    int prefetchBatches = 4;
    bool cache = false;  // decode once into a memory-mapped file under the workspace cache

    bool operator==(const DatasetSpec&) const = default;
};

struct OptimizerSpec {
    std::string type = "adam";  // sgd | adam | adamw | rmsprop
    double lr = 1e-3;
    double momentum = 0.0;  // sgd, rmsprop
    bool nesterov = false;  // sgd
    double weightDecay = 0.0;  // L2 added to the gradient (sgd, adam, rmsprop); decoupled for adamw
    double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;  // adam, adamw (rmsprop uses eps)
    double alpha = 0.99;  // rmsprop smoothing
    // false: weight decay only on weight matrices and kernels, not on biases, norms and
    // embeddings (ops/op.h decays()); true: on every parameter, as torch.optim does alone.
    bool decayAll = false;

    bool operator==(const OptimizerSpec&) const = default;
};

struct ScheduleSpec {
    // constant | step | multistep | exponential | cosine | cosine_restarts | onecycle | plateau
    std::string type = "constant";
    std::int64_t warmupSteps = 0;   // linear warm-up from warmupStartFactor*lr before any schedule
    double warmupStartFactor = 0.0;
    std::int64_t stepSize = 1;      // step: decay every stepSize epochs
    std::vector<std::int64_t> milestones;  // multistep: epochs
    double gamma = 0.1;             // step, multistep, exponential (per epoch)
    double minLr = 0.0;             // cosine, cosine_restarts, plateau floor
    std::int64_t restartEpochs = 10;  // cosine_restarts: first period, in epochs
    double restartMultiplier = 1.0;   // cosine_restarts: period growth
    double maxLr = 0.0;             // onecycle peak (0: 10 x lr)
    double pctStart = 0.3;          // onecycle rise fraction
    // plateau (driven by the validation metric after each epoch)
    std::string metric = "val_loss";
    double factor = 0.1;
    std::int64_t patience = 2;
    double threshold = 1e-4;

    bool operator==(const ScheduleSpec&) const = default;
};

struct EarlyStoppingSpec {
    bool enabled = false;
    std::string metric = "val_loss";  // val_loss | val_acc | train_loss ...; min or max by name
    std::int64_t patience = 5;
    double minDelta = 0.0;

    bool operator==(const EarlyStoppingSpec&) const = default;
};

// Checkpoints (train/checkpoint_policy.h): YAML `training.checkpoint: {every_epochs: 1,
// keep_last: 3, metric: val_acc}`. A final checkpoint is also written when a run stops or
// ends between scheduled ones, so it can be resumed.
struct CheckpointSpec {
    std::int64_t everyEpochs = 1;  // 0: only the final checkpoint
    std::int64_t keepLast = 3;     // plus the best by `metric`
    std::string metric = "val_acc";  // min or max by name (lowerIsBetter)
    bool operator==(const CheckpointSpec&) const = default;
};

struct TrainingSpec {
    std::int64_t epochs = 10;
    std::int64_t batchSize = 128;
    std::uint64_t seed = 0;
    std::string device = "auto";  // auto | cpu | cuda | cuda:N
    // CPU threads (the CPU backend's OpenMP and OpenBLAS): 0, automatic: the cores other
    // programs leave idle, followed during the run (backend/cpu/cpu_threads.h). Results do
    // not depend on it.
    std::int64_t threads = 0;
    // Matrix-product precision (backend.h MathPrecision): f32 | tf32 | bf16 | f16. Weights,
    // activations and gradients stay f32; f16 adds the dynamic loss scaler (optim/loss_scaler.h).
    std::string precision = "f32";
    double initialLossScale = 65536.0;  // f16 only: the dynamic loss scaler's starting scale
    double clipGradNorm = 0.0;    // 0: off
    double clipGradValue = 0.0;   // 0: off
    std::int64_t accumulationSteps = 1;  // micro-batches per optimizer step (loss scaled by 1/N)
    // Data parallel: batch norm's statistics over the global batch (every rank's shard) instead
    // of each rank's own; no effect in a single process.
    bool syncBatchNorm = false;
    // Data parallel: how long a collective waits for the other ranks before the run fails,
    // naming the rank that stopped answering (dist/communicator.h setTimeout); 0: forever. It
    // must exceed the longest time rank 0 works alone (evaluation, checkpoints).
    double distTimeoutSeconds = 300;
    EarlyStoppingSpec earlyStopping;
    std::int64_t overfitBatches = 0;  // >0: the sanity mode, train on this many fixed batches
    std::int64_t maxSteps = 0;        // >0: the run ends after this many optimizer steps (its schedule spans them)
    bool deterministic = false;
    bool skipNonFiniteLoss = false;   // otherwise a NaN/inf loss stops the run
    std::int64_t logEverySteps = 1;
    std::vector<int> topK = {1};      // extra accuracy metrics (top-k)
    CheckpointSpec checkpoint;

    bool operator==(const TrainingSpec&) const = default;
};

// A sweep over the experiment's options (YAML `sweep:`, read by io/sweep_reader.cpp, run by
// jobs/sweep_runner.h). Each trial is the experiment with some options changed, exactly as
// `--set key=value` would change them.
struct SweepParameter {
    std::string key;  // an experiment option as --set names it: "optimizer.lr"
    // values: or choices: (the same thing; the file says choices for names), as written
    std::vector<std::string> values;
    // Or a range: "uniform" | "log_uniform" between low and high (low <= high; log: low > 0)
    std::string distribution;
    double low = 0, high = 0;
    std::int64_t count = 0;  // > 0: the range as this many evenly (log-)spaced points; a grid needs it
    bool integer = false;    // a range's points and draws rounded to integers
    // Conditions, all of which must hold for the parameter to apply: another parameter's key and
    // the values it must take (`when: {optimizer.type: sgd}`); a trial leaves it out otherwise.
    std::vector<std::pair<std::string, std::vector<std::string>>> when;

    bool operator==(const SweepParameter&) const = default;
};

// Successive halving: rung r trains the surviving trials to minEpochs * eta^r epochs (the last
// rung to training.epochs) and keeps the best 1/eta of them for the next.
struct HalvingSpec {
    std::int64_t minEpochs = 1;
    std::int64_t eta = 3;
    bool operator==(const HalvingSpec&) const = default;
};

struct SweepSpec {
    std::string method = "grid";  // grid | random
    std::int64_t budget = 0;      // trials; 0: not given (grid: the whole grid; random needs one)
    std::uint64_t seed = 0;       // random draws, and which points a budget keeps of a larger grid
    std::string metric = "val_acc";  // ranks trials; min or max by name (lowerIsBetter)
    std::vector<SweepParameter> parameters;  // file order
    std::optional<HalvingSpec> halving;      // none: every trial trains training.epochs

    bool operator==(const SweepSpec&) const = default;
};

struct ExperimentSpec {
    std::string name;
    std::string description;
    std::string sourceFile;  // where it was loaded from (not saved)
    DatasetSpec dataset;
    Graph model;  // inputs named "image" (or "features") and "label"
    OptimizerSpec optimizer;
    ScheduleSpec schedule;
    TrainingSpec training;
    std::optional<SweepSpec> sweep;  // the file's `sweep:` section, when it has one
    ModelLayout layout;  // the file's `layout:` section: how the Model page draws the model

    bool operator==(const ExperimentSpec&) const = default;
};

}  // namespace ts
