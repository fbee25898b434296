// The one way to launch work (ARCHITECTURE.md, jobs/): a front end describes a job, and
// runJob builds what it needs (backend, dataset and loaders, store writer and recorder,
// trainer, cache folder) from an ExperimentSpec and runs it on the calling thread. The CLI and
// the studio only choose the job, listen to its events and steer it through a RunControl;
// neither assembles a pipeline itself.
//
// Events reach `listener` synchronously on the calling thread (types/events.h): a training
// job announces its plan (StartedEvent), then steps, epochs, checkpoints, logs and the final
// FinishedEvent, which comes after the store has committed the run.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "types/events.h"
#include "types/experiment_spec.h"

namespace ts {

class Backend;
class Communicator;
class RunControl;

// Train: a new run, or a run continued from a checkpoint of the workspace.
struct TrainJob {
    // A new run's experiment, or a fork's instead of the checkpoint's copy, with any --set
    // already applied where it was read (loadExperimentWithOverrides: its errors name the
    // file's lines). Resume takes the checkpoint's experiment as it was.
    std::optional<ExperimentSpec> experiment;
    std::string resume;  // a run id ("12") or a checkpoint file: continue it exactly
    std::string fork;    // a run id or a checkpoint file: a new run from it, settings changed
    // key=value edits of a forked checkpoint's own experiment ("optimizer.lr=3e-4"), applied
    // once as its text is read and validated like its own values (io/yaml/experiment_yaml.h).
    // Not with `experiment`, which carries its edits already.
    std::vector<std::string> overrides;
    std::optional<std::int64_t> epochs;  // train to this epoch instead of training.epochs
    std::string device;                  // empty: training.device
    std::optional<std::int64_t> threads; // instead of training.threads (also on resume: results do not depend on it)
    std::string name;                    // the run's name; empty: "<experiment> #<n>"
    std::vector<std::string> tags;
    // Resume although the data differs from the checkpoint's (files, sizes, sample counts);
    // refused otherwise, with what changed. A fork may always change the data.
    bool allowChangedData = false;
};

// Evaluate a run's checkpoint over a split: per-sample predictions and the metrics go into
// the store (an evaluation of the run), with the report's scalars (train/evaluation_report.h)
// and a temperature fitted on the validation split, or on a fixed 10% of the training split
// when the run has none (metrics "temperature", "temperature_fit_samples", "temperature_fit_on_validation").
struct EvaluateJob {
    std::int64_t runId = 0;
    std::string checkpoint = "best";  // best | last | an epoch number | a weights file
    std::string split;                // test | val | train; empty: test, or val when the data has no test split
    std::string device;               // empty: the run's training.device
};

// The learning-rate range test: from minLr to maxLr exponentially over `steps` optimizer
// steps on the experiment's model, data and optimizer; stops when the loss diverges.
struct LrFindJob {
    ExperimentSpec experiment;
    double minLr = 1e-7, maxLr = 10;
    std::int64_t steps = 100;
    std::string device;  // empty: training.device
};

// An experiment's sweep (its `sweep:` section; jobs/sweep_runner.h): every trial a training
// run of the workspace. As one job its trials' events reach the listener as a training job's
// do, except that each trial's end is a log line: the one FinishedEvent is the sweep's, with
// the best trial's run as the result's runId.
struct SweepJob {
    ExperimentSpec experiment;  // with its sweep
    std::string device;         // empty: training.device
};

// The dataset health check (data/ health checks): unreadable samples, exact and near duplicates
// within and across splits (leakage), class imbalance, table checks. The report goes into the
// store, where it stays current until the dataset's files change.
// Needs a workspace (the report is read back from it: DatasetCatalog, store/dataset_catalog.h);
// the result's dataCheckId is the stored check, a new one or the current one reused. Progress
// comes as ProgressEvents (samples read of all); a stop ends it Stopped with nothing stored.
struct DataCheckJob {
    ExperimentSpec experiment;  // its dataset is checked (relative paths: against its sourceFile's folder)
    bool force = false;         // check again even when the store holds a current report (same files, same threshold)
    int nearThreshold = 4;      // near duplicates: perceptual hashes within this many bits (of 64)
};

// Suspect labels: the training samples ranked by how strongly a model contradicts their label,
// in-sample under a run's checkpoint, or out-of-sample from a K-fold cross-validation trained
// with the experiment's recipe (confident learning).
struct LabelCheckJob {
    ExperimentSpec experiment;
    std::int64_t runId = 0;            // in-sample: this run's checkpoint scores the samples
    std::string checkpoint = "best";   // best | last | an epoch number
    std::int64_t folds = 0;            // > 1: K-fold instead of in-sample
    std::int64_t epochsPerFold = 0;    // 0: the experiment's training.epochs
    std::string device;                // empty: training.device
};

// One real training step of the experiment's model on synthetic data (train/step_probe.h),
// to confirm that a batch fits: the Model page's "Confirm with one step". Its memory is
// planned and checked against the budget first (train/memory_advice.h: the free memory less
// the margin the machine keeps), so a batch that would not fit is refused, with the numbers,
// before anything is allocated. Nothing is recorded. The result is in the FinishedEvent's
// metrics: batch, peak_bytes, planned_bytes, setup_seconds, step_seconds, loss,
// available_bytes, margin_bytes; a stop ends it Stopped (between the step's phases).
struct StepProbeJob {
    ExperimentSpec experiment;  // its model, optimizer, precision, seed and clipping
    std::int64_t batch = 0;     // 0: the largest batch whose plan fits the budget
    std::string device;         // empty: training.device
};

using Job = std::variant<TrainJob, EvaluateJob, LrFindJob, SweepJob, DataCheckJob, LabelCheckJob, StepProbeJob>;

// "train", "resume", "fork", "evaluate", "lr_find", "sweep", "data_check", "label_check", "step_probe"
std::string jobKind(const Job& job);

struct JobEnvironment {
    std::string workspaceDir;  // empty: nothing is recorded (a training job only)
    std::string cacheDir;      // decoded data and statistics; empty: defaultCacheDirectory() (data/dataset.h)
    // Runs on this backend instead of selecting one by the device (the selftest compares two).
    Backend* backend = nullptr;
    double systemSampleSeconds = 1.0;  // 0: no machine-load samples
    // A training job's ranks (dist/communicator.h); null: the process's, from the launcher's
    // environment (size one for a plain process, MPI or NCCL under mpirun or srun). Rank 0
    // records the run and its checkpoints; the other ranks train with it and write nothing
    // (they read the workspace only to resume). Other jobs run on one process. Not owned.
    Communicator* communicator = nullptr;
};

struct JobResult {
    FinishedEvent finished;   // also the last event the listener received
    std::int64_t runId = -1;  // the run trained or evaluated; -1 when none was recorded
    std::int64_t evaluationId = -1;  // an evaluation job's row
    std::int64_t dataCheckId = -1;   // a data check job's stored check (DatasetCatalog::check)
};

// Never throws: every failure (a bad experiment, unreadable data, a store error) ends in a
// Failed FinishedEvent whose message says what and where.
JobResult runJob(const Job& job, const JobEnvironment& environment, RunControl& control, TrainListener& listener);

}  // namespace ts
