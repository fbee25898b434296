// The sweep runner (jobs/sweep_runner.h): plan, memory check, then rung by rung: train or
// resume each surviving trial to the rung's epoch, rank, keep the best 1/eta.
#include "jobs/sweep_runner.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "backend/backend.h"
#include "backend/devices.h"
#include "io/yaml/experiment_yaml.h"
#include "jobs/job_parts.h"
#include "jobs/sweep_store.h"
#include "store/workspace.h"
#include "tensor/format_bytes.h"
#include "train/memory_advice.h"
#include "train/run_control.h"

namespace ts {

namespace {

using State = SweepTrialResult::State;

// The device's memory and how to name it: a GPU's own, or the machine's RAM for the CPU.
std::pair<std::size_t, std::string> deviceMemory(Backend& backend)
{
    const Device d = backend.device();
    if (d.kind == DeviceKind::CUDA) {
        for (const CudaDeviceInfo& info : queryCuda().devices)
            if (info.index == d.index) return {info.totalMemory, backend.name() + " (" + info.name + ")"};
    }
    const long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGE_SIZE);
    return {pages > 0 && pageSize > 0 ? std::size_t(pages) * std::size_t(pageSize) : 0, "this machine's RAM"};
}

// Forwards a trial's events, pauses it at its rung (a stop after that epoch's evaluation: the
// run writes its checkpoint and ends) and passes on a stop of the whole sweep.
class RungListener final : public TrainListener {
public:
    RungListener(std::int64_t stopAfterEpoch, RunControl& sweep, RunControl& trial, TrainListener& next)
        : stopAfterEpoch_(stopAfterEpoch), sweep_(sweep), trial_(trial), next_(next)
    {
    }
    void onEvent(const TrainEvent& event) override
    {
        next_.onEvent(event);  // first: a front end may ask for the stop while seeing it
        if (sweep_.stopRequested() && !trial_.stopRequested()) trial_.stop();
        if (const auto* e = std::get_if<EpochEvent>(&event); e && stopAfterEpoch_ > 0 && e->epoch >= stopAfterEpoch_)
            trial_.stop();
    }

private:
    std::int64_t stopAfterEpoch_;  // 0: train to the end
    RunControl& sweep_;
    RunControl& trial_;
    TrainListener& next_;
};

class Sweep {
public:
    Sweep(const SweepJob& job, const JobEnvironment& env, RunControl& control, TrainListener& trialListener,
          SweepListener& listener)
        : job_(job), env_(env), control_(control), trialListener_(trialListener), listener_(listener)
    {
    }

    void run(SweepResult& result);

private:
    void publish(SweepEvent::Kind kind, int trial, int rung, Message message)
    {
        listener_.onSweepEvent(SweepEvent{kind, trial, rung, std::move(message)});
    }
    void plan(SweepResult& result);
    void checkMemory(SweepResult& result);
    void refresh(SweepResult& result);
    // Trains trial `t` to `epochs`; false when the sweep must end (a stop, a missing metric).
    bool train(SweepResult& result, SweepTrialResult& t, int rung, std::int64_t epochs);
    std::optional<double> metricAt(const SweepTrialResult& t, std::int64_t epoch) const;
    std::string metricText(std::optional<double> v) const { return v ? numberArg(*v) : "-"; }
    // Trial t's experiment: the base with the trial's values applied, once per trial.
    const ExperimentSpec& trialExperiment(const SweepTrial& t);

    const SweepJob& job_;
    const JobEnvironment& env_;
    RunControl& control_;
    TrainListener& trialListener_;
    SweepListener& listener_;
    ExperimentSpec base_;  // the experiment without its sweep, paths absolute: what each trial changes
    SweepSpec sweep_;
    std::optional<Workspace> workspace_;
    std::map<int, SweepTrialRecord> records_;
    std::string baseYaml_;
    std::map<int, ExperimentSpec> trialExperiments_;
};

const ExperimentSpec& Sweep::trialExperiment(const SweepTrial& t)
{
    if (const auto it = trialExperiments_.find(t.number); it != trialExperiments_.end()) return it->second;
    if (baseYaml_.empty()) baseYaml_ = experimentToYaml(base_);
    const std::string source = base_.sourceFile.empty() ? "experiment" : base_.sourceFile;
    ExperimentSpec spec = parseExperimentWithOverrides(baseYaml_, source, t.overrides());
    spec.sourceFile = source;
    return trialExperiments_.emplace(t.number, std::move(spec)).first->second;
}

void Sweep::plan(SweepResult& result)
{
    if (!job_.experiment.sweep) throw std::invalid_argument("the experiment has no sweep: section to run");
    if (env_.workspaceDir.empty()) throw std::invalid_argument("a sweep needs a workspace: its trials are runs in it");
    sweep_ = *job_.experiment.sweep;
    base_ = withAbsolutePaths(job_.experiment);
    base_.sweep.reset();
    result.id = sweepId(job_.experiment);
    result.rungs = sweepRungs(sweep_, base_.training.epochs);
    for (SweepTrial& trial : sweepTrials(sweep_)) result.trials.push_back(SweepTrialResult{std::move(trial)});
    publish(SweepEvent::Kind::Planned, 0, 0,
            makeMessage(MessageId::SweepPlanned,
                        {result.id, std::to_string(result.trials.size()), sweep_.method, sweep_.metric}));
    if (sweep_.halving) {
        std::string rungs;
        for (std::int64_t e : result.rungs) rungs.append(rungs.empty() ? "" : ", ").append(std::to_string(e));
        publish(SweepEvent::Kind::Planned, 0, 0,
                makeMessage(MessageId::SweepHalving, {rungs, std::to_string(sweep_.halving->eta)}));
    }
    for (const SweepTrialResult& t : result.trials)
        publish(SweepEvent::Kind::Planned, t.trial.number, 0,
                makeMessage(MessageId::SweepTrialParameters, {std::to_string(t.trial.number), t.trial.text()}));
}

void Sweep::checkMemory(SweepResult& result)
{
    const std::string device = job_.device.empty() ? base_.training.device : job_.device;
    Backend& backend = jobBackend(env_, device, trialListener_);
    const auto [available, where] = deviceMemory(backend);
    for (SweepTrialResult& t : result.trials) {
        const std::string k = std::to_string(t.trial.number);
        try {
            const ExperimentSpec& spec = trialExperiment(t.trial);
            const RunMemory need = planRunMemory(spec, spec.training.batchSize, backend);
            t.plannedBytes = need.total();
            if (available > 0 && need.total() > available) {
                t.state = State::Skipped;
                t.reason = makeMessage(MessageId::SweepTrialSkippedMemory,
                                       {k, formatBytes(double(need.total())), formatBytes(double(available)), where,
                                        describeRunMemory(need, spec.optimizer.type).text});
            }
        } catch (const std::exception& e) {
            t.state = State::Skipped;
            t.reason = makeMessage(MessageId::SweepTrialSkippedInvalid, {k, e.what()});
        }
        if (t.state == State::Skipped) publish(SweepEvent::Kind::Skipped, t.trial.number, 0, t.reason);
    }
}

// The trials' progress, read again from the store: the one place it is kept.
void Sweep::refresh(SweepResult& result)
{
    records_ = readSweepRecords(*workspace_, result.id, sweep_.metric);
    for (SweepTrialResult& t : result.trials) {
        if (t.state == State::Skipped) continue;
        const auto it = records_.find(t.trial.number);
        if (it == records_.end()) continue;
        const SweepTrialRecord& r = it->second;
        t.runs = r.runs;
        t.epochs = r.epochs;
        t.metric = r.metricAtEpoch.empty() ? std::nullopt : std::optional(r.metricAtEpoch.rbegin()->second);
        t.lastMetrics = r.lastMetrics;
        if (r.status == RunStatus::Failed) t.state = State::Failed, t.reason = r.message;
        else if (r.status == RunStatus::Finished) t.state = State::Finished;
        else t.state = r.runs.empty() ? State::Pending : State::Paused;
    }
}

std::optional<double> Sweep::metricAt(const SweepTrialResult& t, std::int64_t epoch) const
{
    const auto it = records_.find(t.trial.number);
    if (it == records_.end()) return std::nullopt;
    const auto& m = it->second.metricAtEpoch;
    if (auto v = m.find(epoch); v != m.end()) return v->second;
    // A trial that ended before this epoch (early stopping) is ranked by its last result.
    if (t.state == State::Finished && !m.empty() && m.rbegin()->first < epoch) return m.rbegin()->second;
    return std::nullopt;
}

bool Sweep::train(SweepResult& result, SweepTrialResult& t, int rung, std::int64_t epochs)
{
    const int k = t.trial.number;
    const std::string resumeFrom = records_.count(k) ? records_[k].resumeFrom : std::string();
    TrainJob trainJob;
    if (resumeFrom.empty()) {
        trainJob.experiment = trialExperiment(t.trial);
        publish(SweepEvent::Kind::Training, k, rung,
                makeMessage(MessageId::SweepTrialTraining, {std::to_string(k), std::to_string(rung), std::to_string(epochs)}));
    } else {
        trainJob.resume = resumeFrom;  // exactly as it was: its own copy of the trial's experiment
        publish(SweepEvent::Kind::Training, k, rung,
                makeMessage(MessageId::SweepTrialResuming, {std::to_string(k), std::to_string(rung), std::to_string(epochs)}));
    }
    trainJob.device = job_.device;
    trainJob.name = base_.name + " sweep " + result.id + " #" + std::to_string(k);
    trainJob.tags = sweepTrialTags(result.id, k);

    RunControl trialControl;
    RungListener listener(epochs < base_.training.epochs ? epochs : 0, control_, trialControl, trialListener_);
    const JobResult done = runJob(trainJob, env_, trialControl, listener);
    ++result.trainingJobs;
    refresh(result);
    if (control_.stopRequested()) return false;
    if (done.finished.outcome == FinishedEvent::Outcome::Failed || t.state == State::Failed) {
        t.state = State::Failed;
        if (t.reason.text.empty()) t.reason = done.finished.message;
        publish(SweepEvent::Kind::Failed, k, rung, makeMessage(MessageId::SweepTrialFailed, {std::to_string(k), t.reason.text}));
        return true;
    }
    const std::optional<double> value = metricAt(t, std::min(epochs, t.epochs));
    if (!value && t.epochs == 0) {  // it never finished an epoch: nothing to rank it by
        t.state = State::Failed;
        t.reason = done.finished.message;
        publish(SweepEvent::Kind::Failed, k, rung, makeMessage(MessageId::SweepTrialFailed, {std::to_string(k), t.reason.text}));
        return true;
    }
    if (!value) {
        std::string names;
        for (const auto& entry : t.lastMetrics) names.append(names.empty() ? "" : ", ").append(entry.first);
        result.outcome = FinishedEvent::Outcome::Failed;
        result.message = makeMessage(MessageId::SweepMetricMissing, {std::to_string(k), sweep_.metric, names});
        return false;
    }
    publish(SweepEvent::Kind::Result, k, rung,
            makeMessage(MessageId::SweepTrialReached, {std::to_string(k), std::to_string(t.epochs), sweep_.metric, numberArg(*value)}));
    return true;
}

void Sweep::run(SweepResult& result)
{
    plan(result);
    checkMemory(result);
    workspace_ = Workspace::open(env_.workspaceDir);
    refresh(result);

    std::vector<SweepTrialResult*> active;
    for (SweepTrialResult& t : result.trials)
        if (t.state != State::Skipped) active.push_back(&t);
    const bool lower = lowerIsBetter(sweep_.metric);
    for (std::size_t r = 0; r < result.rungs.size(); ++r) {
        const std::int64_t epochs = result.rungs[r];
        const int rung = static_cast<int>(r + 1);
        for (SweepTrialResult* t : active) {
            if (control_.stopRequested()) break;
            if (t->state == State::Failed) continue;
            if (t->epochs >= epochs || t->state == State::Finished) {
                const std::int64_t at = std::min(epochs, t->epochs);
                publish(SweepEvent::Kind::Result, t->trial.number, rung,
                        makeMessage(MessageId::SweepTrialAlready,
                                    {std::to_string(t->trial.number), std::to_string(at),
                                     t->runs.empty() ? "-" : std::to_string(t->runs.back()), sweep_.metric,
                                     metricText(metricAt(*t, at))}));
                continue;
            }
            if (!train(result, *t, rung, epochs)) break;
        }
        if (control_.stopRequested()) {
            result.outcome = FinishedEvent::Outcome::Stopped;
            result.message = makeMessage(MessageId::SweepStopped);
            return;
        }
        if (result.outcome == FinishedEvent::Outcome::Failed) return;

        // Rank by the metric at this rung's epoch, better first; ties keep the trial order.
        std::vector<SweepTrialResult*> ranked;
        for (SweepTrialResult* t : active)
            if (t->state != State::Failed && metricAt(*t, epochs)) ranked.push_back(t);
        std::stable_sort(ranked.begin(), ranked.end(), [&](const SweepTrialResult* a, const SweepTrialResult* b) {
            const double x = *metricAt(*a, epochs), y = *metricAt(*b, epochs);
            if (std::isnan(x) || std::isnan(y)) return !std::isnan(x) && std::isnan(y);
            return lower ? x < y : x > y;
        });
        if (r + 1 == result.rungs.size()) {
            if (!ranked.empty()) result.best = ranked.front()->trial.number;
            break;
        }
        const std::size_t candidates = ranked.size();
        const std::size_t keep = std::max<std::size_t>(1, candidates / static_cast<std::size_t>(sweep_.halving->eta));
        ranked.resize(std::min(keep, candidates));
        std::string kept;
        for (const SweepTrialResult* t : ranked) kept.append(kept.empty() ? "" : ", ").append(std::to_string(t->trial.number));
        publish(SweepEvent::Kind::Rung, 0, rung,
                makeMessage(MessageId::SweepRungKept, {std::to_string(rung), std::to_string(epochs), std::to_string(ranked.size()),
                                                       std::to_string(candidates), kept}));
        active = ranked;
    }

    if (result.best == 0) {
        result.outcome = FinishedEvent::Outcome::Failed;
        result.message = makeMessage(MessageId::SweepNoResult, {result.id});
        return;
    }
    const SweepTrialResult& best = result.trials[static_cast<std::size_t>(result.best - 1)];
    publish(SweepEvent::Kind::Best, best.trial.number, 0,
            makeMessage(MessageId::SweepBest, {std::to_string(best.trial.number), best.trial.text(), sweep_.metric,
                                               metricText(best.metric), std::to_string(best.epochs),
                                               best.runs.empty() ? "-" : std::to_string(best.runs.back())}));
}

}  // namespace

const char* sweepTrialStateName(SweepTrialResult::State state)
{
    switch (state) {
    case State::Pending: return "pending";
    case State::Skipped: return "skipped";
    case State::Paused: return "paused";
    case State::Finished: return "finished";
    case State::Failed: break;
    }
    return "failed";
}

SweepResult runSweep(const SweepJob& job, const JobEnvironment& env, RunControl& control, TrainListener& trialListener,
                     SweepListener& listener)
{
    const auto start = std::chrono::steady_clock::now();
    SweepResult result;
    try {
        Sweep(job, env, control, trialListener, listener).run(result);
    } catch (const std::exception& e) {
        result.outcome = FinishedEvent::Outcome::Failed;
        result.message = Message{e.what()};
    }
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (result.outcome == FinishedEvent::Outcome::Finished && result.message.text.empty()) {
        int skipped = 0, failed = 0;
        for (const SweepTrialResult& t : result.trials) skipped += t.state == State::Skipped, failed += t.state == State::Failed;
        result.message = makeMessage(MessageId::SweepFinished,
                                     {result.id, numberArg(std::round(result.seconds * 10) / 10), std::to_string(result.trials.size()),
                                      std::to_string(skipped), std::to_string(failed), std::to_string(result.trainingJobs)});
    }
    listener.onSweepEvent(SweepEvent{SweepEvent::Kind::Finished, 0, 0, result.message});
    return result;
}

}  // namespace ts
