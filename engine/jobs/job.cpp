// runJob: the dispatch, and the training job (new, resume, fork). Evaluation and the
// learning-rate finder are in evaluate_job.cpp and lr_find_job.cpp.
#include "jobs/job.h"

#include <filesystem>
#include <memory>
#include <new>
#include <stdexcept>

#include "backend/backend.h"
#include "backend/select_backend.h"
#include "data/dataset.h"
#include "dist/communicator.h"
#include "io/yaml/experiment_yaml.h"
#include "jobs/job_overlay.h"
#include "jobs/job_parts.h"
#include "jobs/run_recorder.h"
#include "store/database.h"
#include "store/label_overlay.h"
#include "store/resume_source.h"
#include "store/run_reader.h"
#include "store/run_writer.h"
#include "train/data_fit.h"
#include "train/diagnostics.h"
#include "train/trainer.h"

namespace ts {

namespace {

RunStatus statusOf(FinishedEvent::Outcome outcome)
{
    switch (outcome) {
    case FinishedEvent::Outcome::Finished:
    case FinishedEvent::Outcome::EarlyStopped: return RunStatus::Finished;
    case FinishedEvent::Outcome::Stopped: return RunStatus::Stopped;
    case FinishedEvent::Outcome::Failed: break;
    }
    return RunStatus::Failed;
}

// The experiment a training job trains: the given one or the checkpoint's (its overrides
// applied as it is read, so a problem is placed in that text), with the job's epochs and
// device, and paths made absolute (the copy stored with the run must find its data from anywhere).
ExperimentSpec experimentFor(const TrainJob& job, const Continuation* from)
{
    ExperimentSpec spec = job.experiment ? *job.experiment
                        : job.overrides.empty()
                            ? parseExperiment(from->checkpoint.state.experimentYaml, from->source)
                            : parseExperimentWithOverrides(from->checkpoint.state.experimentYaml, from->source, job.overrides);
    spec = withAbsolutePaths(spec);
    if (job.epochs) spec.training.epochs = *job.epochs;
    if (!job.device.empty()) spec.training.device = job.device;
    if (job.threads) spec.training.threads = *job.threads;
    return spec;
}

// A resumed run keeps the name its user knows it by: "<parent's name> (resumed)". Empty (the
// store's "<experiment> #<n>") for new runs and forks.
std::string continuedName(const Workspace& workspace, const TrainJob& job, const Continuation* from)
{
    if (job.resume.empty() || !from || !from->parentRun) return {};
    RunReader reader(workspace);
    const std::optional<RunInfo> parent = reader.run(*from->parentRun);
    if (!parent || parent->name.empty()) return {};
    const std::string suffix = " (resumed)";
    const bool already = parent->name.size() >= suffix.size() && parent->name.ends_with(suffix);
    return already ? parent->name : parent->name + suffix;
}

void checkTrainJob(const TrainJob& job, const JobEnvironment& env)
{
    const bool resume = !job.resume.empty(), fork = !job.fork.empty();
    if (resume && fork) throw std::invalid_argument("a training job resumes or forks a run, not both");
    if (job.experiment && !job.overrides.empty())
        throw std::logic_error("overrides edit a forked checkpoint's experiment; a given experiment comes with its own "
                               "applied (loadExperimentWithOverrides)");
    if (resume && (job.experiment || !job.overrides.empty()))
        throw std::invalid_argument("resume continues a run exactly as it was (only the epochs and the device may change); "
                                    "to change settings, fork it instead");
    if (!resume && !fork && !job.experiment) throw std::invalid_argument("a new training job needs an experiment");
    if ((resume || fork) && env.workspaceDir.empty())
        throw std::invalid_argument("resuming or forking a run needs the workspace that holds it");
}

JobResult runTrainJob(const TrainJob& job, const JobEnvironment& env, RunControl& control, TrainListener& listener)
{
    JobResult result;
    FinishedEvent& done = result.finished;
    std::unique_ptr<RunWriter> writer;
    bool recorded = false;  // the RunRecorder saw the FinishedEvent and closed the run
    try {
        checkTrainJob(job, env);
        // A new run creates its workspace only once its data is there: a run that fails before
        // it starts leaves no folder behind. Resuming needs the workspace that holds the run.
        std::optional<Workspace> workspace;
        std::optional<Continuation> from;
        const std::string& source = job.resume.empty() ? job.fork : job.resume;
        if (!source.empty()) {
            workspace = Workspace::open(env.workspaceDir);
            RunWriter::checkWritable(*workspace);
            if (!job.resume.empty()) {  // before reading its checkpoint, which a live run may be replacing
                RunReader reader(*workspace);
                refuseLiveRun(reader, *workspace, source);
                if (const std::vector<std::string> removed = clearKilledSaves(reader, *workspace, source); !removed.empty())
                    publishLog(listener, LogEvent::Level::Warning, staleFilesRemoved(removed));
            }
            from = loadContinuation(*workspace, source);
            if (from->fallback) publishLog(listener, LogEvent::Level::Warning, *from->fallback);
            const bool fork = job.resume.empty();
            publishLog(listener, LogEvent::Level::Info,
                       from->parentRun ? makeMessage(fork ? MessageId::JobForkingRun : MessageId::JobResumingRun,
                                                     {std::to_string(*from->parentRun), from->source})
                                       : makeMessage(fork ? MessageId::JobForkingFile : MessageId::JobResumingFile,
                                                     {from->source}));
        }
        if (!workspace && !env.workspaceDir.empty() && std::filesystem::exists(env.workspaceDir))
            RunWriter::checkWritable(Workspace{std::filesystem::absolute(env.workspaceDir).lexically_normal().string()});
        const ExperimentSpec spec = experimentFor(job, from ? &*from : nullptr);
        if (from && from->checkpoint.state.epoch > spec.training.epochs && from->checkpoint.state.batchInEpoch == 0) {
            const std::string what = from->parentRun ? "run " + std::to_string(*from->parentRun) : from->source;
            const std::string more = "--epochs " + std::to_string(spec.training.epochs + 5);
            throw std::invalid_argument(what + " has trained all " + std::to_string(spec.training.epochs) +
                                        " of its epochs: nothing is left to " +
                                        (job.resume.empty() ? "train; give the fork more epochs (" + more + ")"
                                                            : "resume; raise the epochs (" + more +
                                                                  ") to train further, or fork it with other settings"));
        }
        // Several ranks on one machine: each its own GPU (dist/communicator.h rankDevice).
        Backend& backend = jobBackend(env, env.communicator ? spec.training.device
                                                            : rankDevice(spec.training.device, launchEnvironment()),
                                      listener);
        // Which ranks train this run (dist/): only rank 0 writes to the workspace.
        Communicator& comm = env.communicator ? *env.communicator : processCommunicator(backend.device().kind);
        const bool records = comm.rank() == 0;
        publishLog(listener, LogEvent::Level::Info, makeMessage(MessageId::JobLoadingData, {spec.dataset.path}));
        // A resume sees the overlay its run trained with; a new run and a fork the current marks.
        const LabelOverlay overlay = !job.resume.empty() && from && from->parentRun
                                         ? runLabelOverlay(*workspace, *from->parentRun)
                                         : currentLabelOverlay(env, spec);
        logLabelOverlay(listener, overlay);
        DatasetSplits splits = openExperimentDataset(spec, jobCacheDirectory(env), overlay);
        for (const Message& note : splits.notes) publishLog(listener, LogEvent::Level::Info, note);
        // Before a run is recorded, so a refusal leaves none: a resume on changed data first (the
        // cause, when the changed data no longer fits the model either), then the data's fit.
        if (from && !job.resume.empty() && !job.allowChangedData && !from->checkpoint.state.dataFingerprint.empty())
            if (const std::string change = dataChange(from->checkpoint.state.dataFingerprint, splits.fingerprint); !change.empty())
                throw DataError(spec.dataset.path, -1,
                                "the dataset changed since " + from->source + " was written (" + change +
                                    "): a resume would continue on other data. Fork the run instead (train --fork " +
                                    source + "), or resume on the changed data with --allow-changed-data");
        checkDataFitsModel(splits, spec.model);

        // Recorded once the data is there: a run that never started is no run.
        if (!workspace && !env.workspaceDir.empty() && records) workspace = Workspace::open(env.workspaceDir);
        if (workspace && records) {
            writer = std::make_unique<RunWriter>(*workspace);
            NewRun run = newRunFor(spec, backend.name());
            run.name = job.name.empty() ? continuedName(*workspace, job, from ? &*from : nullptr) : job.name;
            run.tags = job.tags;
            if (from) {
                run.parentRunId = from->parentRun;
                run.parentRelation = job.resume.empty() ? "fork" : "resume";
            }
            result.runId = writer->createRun(run);
            recordRunLabelOverlay(*workspace, result.runId, overlay);
            recordLabelOverlayLog(*writer, result.runId, overlay);
            // What the reader did to the images, in the run's own log too (the lines above came before it).
            for (const Message& note : splits.notes) writer->addLog(result.runId, {store::unixNow(), "info", note});
        }
        if (control.stopRequested()) {
            done.outcome = FinishedEvent::Outcome::Stopped;
            done.message = makeMessage(MessageId::JobStoppedBeforeStart);
        } else {
            TrainerOptions options;
            options.cacheDir = jobCacheDirectory(env);
            if (writer) options.checkpointDir = workspace->runCheckpointsPath(result.runId);
            options.communicator = &comm;
            if (from) {
                options.resume = std::move(from->checkpoint);
                options.resumeSource = from->source;
                options.fork = job.resume.empty();
            }
            options.systemSampleSeconds = env.systemSampleSeconds;
            options.runId = result.runId;
            options.control = &control;
            // A language model's "classes" are its tokens, unevenly frequent by nature: no imbalance rule.
            const bool perClass = splits.train && splits.train->targetShape().rank() == 0;
            Diagnostics diagnostics(spec, perClass ? splits.trainStatistics.classCounts : std::vector<std::int64_t>{},
                                    perClass ? splits.train->classNames() : std::vector<std::string>{});
            Trainer trainer(spec, std::move(splits), backend, std::move(options));
            std::optional<RunRecorder> recorder;
            if (writer) {
                recorder.emplace(*writer, result.runId, &control, &listener);  // pauses while the disk is full
            }
            AllButFinished forward(listener);  // the FinishedEvent waits for the store's commit
            // The diagnostics see each event first and add their advice to the log and the listener.
            std::vector<TrainListener*> next{&forward};
            if (recorder) next.insert(next.begin(), &*recorder);
            DiagnosticsListener diagnosed(diagnostics, next, &backend.allocator());
            trainer.addListener(&diagnosed);
            done = trainer.run();  // never throws
            recorded = recorder.has_value();
        }
    } catch (const std::bad_alloc&) {  // "std::bad_alloc" says nothing to a user
        done.outcome = FinishedEvent::Outcome::Failed;
        done.message = Message{"out of memory: the system refused an allocation while preparing the run (the dataset, "
                               "its cache or the model); close other programs or use a smaller dataset or model"};
    } catch (const std::exception& e) {
        done.outcome = FinishedEvent::Outcome::Failed;
        done.message = Message{e.what()};
    }
    if (writer) {
        try {
            if (!recorded && result.runId >= 0) writer->finishRun(result.runId, statusOf(done.outcome), done.message);
            writer->flush();  // the FinishedEvent promises the run is in the store
        } catch (const std::exception& e) {  // trained, but not (all) in the store: that is a failure
            done.outcome = FinishedEvent::Outcome::Failed;
            done.message = makeMessage(MessageId::JobSaveFailed, {e.what()});
        }
    }
    listener.onEvent(done);
    return result;
}

}  // namespace

void publishLog(TrainListener& listener, LogEvent::Level level, Message message)
{
    listener.onEvent(LogEvent{level, std::move(message)});
}

Backend& jobBackend(const JobEnvironment& env, const std::string& device, TrainListener& listener, BackendPurpose purpose)
{
    if (env.backend) return *env.backend;
    Message notice;
    Backend& backend = selectBackend(device, &notice, purpose);
    if (!notice.text.empty()) publishLog(listener, LogEvent::Level::Info, std::move(notice));
    return backend;
}

std::string jobCacheDirectory(const JobEnvironment& env)
{
    return env.cacheDir.empty() ? defaultCacheDirectory() : env.cacheDir;
}

std::string jobKind(const Job& job)
{
    if (const auto* t = std::get_if<TrainJob>(&job)) return !t->resume.empty() ? "resume" : !t->fork.empty() ? "fork" : "train";
    if (std::holds_alternative<DataCheckJob>(job)) return "data_check";
    if (std::holds_alternative<LabelCheckJob>(job)) return "label_check";
    if (std::holds_alternative<StepProbeJob>(job)) return "step_probe";
    return std::holds_alternative<EvaluateJob>(job) ? "evaluate" : std::holds_alternative<LrFindJob>(job) ? "lr_find" : "sweep";
}

JobResult runJob(const Job& job, const JobEnvironment& environment, RunControl& control, TrainListener& listener)
{
    if (const auto* t = std::get_if<TrainJob>(&job)) return runTrainJob(*t, environment, control, listener);
    if (const auto* e = std::get_if<EvaluateJob>(&job)) return runEvaluateJob(*e, environment, control, listener);
    if (const auto* l = std::get_if<LrFindJob>(&job)) return runLrFindJob(*l, environment, control, listener);
    if (const auto* d = std::get_if<DataCheckJob>(&job)) return runDataCheckJob(*d, environment, control, listener);
    if (const auto* c = std::get_if<LabelCheckJob>(&job)) return runLabelCheckJob(*c, environment, control, listener);
    if (const auto* p = std::get_if<StepProbeJob>(&job)) return runStepProbeJob(*p, environment, control, listener);
    return runSweepJob(std::get<SweepJob>(job), environment, control, listener);
}

}  // namespace ts
