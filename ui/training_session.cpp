#include "training_session.h"

#include <QStandardPaths>

#include <condition_variable>
#include <deque>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <variant>
#include <vector>

#include "backend/backend.h"
#include "backend/select_backend.h"
#include "data/dataset.h"
#include "io/experiment_yaml.h"
#include "store/resume_source.h"
#include "store/run_recorder.h"
#include "store/run_writer.h"
#include "store/workspace.h"
#include "train/trainer.h"

#ifdef __linux__
#include <pthread.h>
#endif

namespace ts::ui {

namespace {

// What the trainer thread hands the UI thread, in the order it happened.
using Item = std::variant<StepPoint, EpochEvent, LogEvent, FinishedEvent, CheckpointEvent, SystemEvent, RunStartInfo>;

// A UI that stops draining (a modal dialog, a debugger) must not grow the buffer forever:
// past this many items, steps are dropped (counted and reported); other events are kept.
constexpr std::size_t kMaxBuffered = 1'000'000;

template <class... F>
struct Overloaded : F... {
    using F::operator()...;
};

QString qs(const std::string& s) { return QString::fromStdString(s); }

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

}  // namespace

struct TrainingSession::Shared {
    // Event buffer (trainer thread -> UI thread).
    std::mutex bufferMutex;
    std::vector<Item> buffer;
    bool pinged = false;  // a queued ping is on its way; no need for another
    std::size_t droppedSteps = 0;
    std::function<void()> ping;

    // Control hand-off (UI thread -> the current Trainer's RunControl). Commands that come
    // before the Trainer exists are remembered and applied when it does.
    std::mutex controlMutex;
    RunControl* control = nullptr;
    bool pauseWanted = false, stopWanted = false;

    // The trainer thread's job queue.
    std::mutex jobMutex;
    std::condition_variable jobWake;
    std::deque<std::function<void()>> jobs;
    bool quit = false;
    std::thread thread;

    void push(Item item)
    {
        bool needPing = false;
        {
            std::lock_guard lock(bufferMutex);
            if (buffer.size() >= kMaxBuffered && std::holds_alternative<StepPoint>(item)) {
                ++droppedSteps;
                return;
            }
            buffer.push_back(std::move(item));
            needPing = !pinged;
            pinged = true;
        }
        if (needPing) ping();
    }

    void attach(RunControl* c)
    {
        std::lock_guard lock(controlMutex);
        control = c;
        if (c && pauseWanted) c->pause();
        if (c && stopWanted) c->stop();
    }
    bool stopRequested()
    {
        std::lock_guard lock(controlMutex);
        return stopWanted;
    }

    void loop()
    {
#ifdef __linux__
        pthread_setname_np(pthread_self(), "ts-trainer");
#endif
        for (;;) {
            std::function<void()> job;
            {
                std::unique_lock lock(jobMutex);
                jobWake.wait(lock, [&] { return quit || !jobs.empty(); });
                if (jobs.empty()) return;  // quit, and nothing left to run
                job = std::move(jobs.front());
                jobs.pop_front();
            }
            job();
        }
    }

    // resumeRun > 0: continue that run of the workspace from its last checkpoint (spec unused).
    void runJob(ExperimentSpec spec, const std::string& device, const std::string& workspaceDir,
                const std::string& cacheDir, std::int64_t resumeRun = 0);
};

// The trainer's listener: copies, pushes, returns. FinishedEvent is left to runJob, which
// reports it only after the store has committed the run.
class TrainingSession::Listener final : public TrainListener {
public:
    explicit Listener(Shared& shared) : m_shared(shared) {}
    void onEvent(const TrainEvent& event) override
    {
        std::visit(Overloaded{
                       [&](const StepEvent& e) {
                           m_shared.push(StepPoint{e.step, e.epoch, e.loss, e.lr, e.gradNorm, e.samplesPerSecond,
                                                   e.dataWaitSeconds, e.wallTime});
                       },
                       [](const FinishedEvent&) {},
                       [&](const auto& e) { m_shared.push(e); },
                   },
                   event);
    }

private:
    Shared& m_shared;
};

// Trainer thread. Never throws: every failure becomes the FinishedEvent pushed last.
void TrainingSession::Shared::runJob(ExperimentSpec spec, const std::string& device, const std::string& workspaceDir,
                                     const std::string& cacheDir, std::int64_t resumeRun)
{
    FinishedEvent done;
    std::unique_ptr<RunWriter> writer;
    std::int64_t runId = -1;
    std::optional<Workspace> workspace;
    bool recorded = false;  // the RunRecorder saw the FinishedEvent and closed the run
    std::optional<Continuation> from;
    try {
        if (resumeRun > 0) {
            from = loadContinuation(Workspace::open(workspaceDir), std::to_string(resumeRun));
            spec = parseExperiment(from->checkpoint.state.experimentYaml, from->source);
            push(LogEvent{LogEvent::Level::Info, "resuming run " + std::to_string(resumeRun) + " from " + from->source});
        }
        // The copy stored with the run must find its data from anywhere.
        spec = withAbsolutePaths(spec);
        std::string notice;
        Backend& backend = selectBackend(device, &notice);
        if (!notice.empty()) push(LogEvent{LogEvent::Level::Info, notice});

        push(LogEvent{LogEvent::Level::Info, "loading " + spec.dataset.path});
        namespace fs = std::filesystem;
        const std::string baseDir = spec.sourceFile.empty() ? "." : fs::path(spec.sourceFile).parent_path().string();
        DatasetSplits splits = openDataset(spec.dataset, baseDir.empty() ? "." : baseDir, cacheDir);
        // Recorded once the data is there, as the CLI does: a run that never started is no run.
        if (!workspaceDir.empty()) {
            workspace = Workspace::open(workspaceDir);
            writer = std::make_unique<RunWriter>(*workspace);
            NewRun run = newRunFor(spec, backend.name());
            if (from) {
                run.parentRunId = from->parentRun;
                run.parentRelation = "resume";
            }
            runId = writer->createRun(run);
        }

        if (stopRequested()) {
            done.outcome = FinishedEvent::Outcome::Stopped;
            done.message = "stopped before training started";
        } else {
            const TrainingSpec& t = spec.training;
            RunStartInfo info;
            info.runId = runId;
            info.device = qs(backend.name());
            info.dataset = qs(splits.train->description());
            const std::int64_t batches = t.overfitBatches > 0 ? t.overfitBatches : splits.train->size() / t.batchSize;
            info.stepsPerEpoch = (batches + t.accumulationSteps - 1) / std::max<std::int64_t>(1, t.accumulationSteps);
            info.epochs = t.epochs;
            info.totalSteps = info.stepsPerEpoch * t.epochs;
            push(info);

            TrainerOptions options;
            options.cacheDir = cacheDir;
            if (workspace && runId >= 0) options.checkpointDir = workspace->runCheckpointsPath(runId);
            if (from) {
                options.resume = std::move(from->checkpoint);
                options.resumeSource = from->source;
            }
            Trainer trainer(spec, std::move(splits), backend, options);
            std::optional<RunRecorder> recorder;
            if (writer) {
                recorder.emplace(*writer, runId);
                trainer.addListener(&*recorder);
            }
            Listener bridge(*this);
            trainer.addListener(&bridge);
            attach(&trainer.control());
            done = trainer.run();  // never throws
            attach(nullptr);
            recorded = recorder.has_value();
        }
    } catch (const std::exception& e) {
        attach(nullptr);
        done.outcome = FinishedEvent::Outcome::Failed;
        done.message = e.what();
    }

    if (writer) {
        try {
            if (!recorded && runId >= 0) writer->finishRun(runId, statusOf(done.outcome), done.message);
            writer->flush();  // finished() promises the run is in the store
        } catch (const std::exception& e) {
            push(LogEvent{LogEvent::Level::Error, std::string("could not save the run: ") + e.what()});
        }
        writer.reset();
    }
    push(done);
}

TrainingSession::TrainingSession(QObject* parent) : QObject(parent), m_shared(std::make_shared<Shared>())
{
    qRegisterMetaType<StepPoint>();
    qRegisterMetaType<QVector<StepPoint>>();
    qRegisterMetaType<EpochSummary>();
    qRegisterMetaType<RunStartInfo>();
    qRegisterMetaType<ts::SystemSample>();

    m_drainTimer.setSingleShot(true);
    m_drainTimer.setInterval(kDrainIntervalMs);
    connect(&m_drainTimer, &QTimer::timeout, this, &TrainingSession::drain);

    // Payload-free and queued: the data waits in the buffer, the ping only wakes the UI.
    m_shared->ping = [this] { QMetaObject::invokeMethod(this, &TrainingSession::onDataReady, Qt::QueuedConnection); };
    m_shared->thread = std::thread([shared = m_shared.get()] { shared->loop(); });
}

TrainingSession::~TrainingSession()
{
    {
        // Not stop(): no signals from a half-destroyed session.
        std::lock_guard lock(m_shared->controlMutex);
        m_shared->stopWanted = true;
        if (m_shared->control) m_shared->control->stop();
    }
    {
        std::lock_guard lock(m_shared->jobMutex);
        m_shared->jobs.clear();  // runs queued but not begun never start
        m_shared->quit = true;
    }
    m_shared->jobWake.notify_all();
    m_shared->thread.join();  // before ~QObject: no ping can reach a dead object
}

bool TrainingSession::start(const ExperimentSpec& spec, const QString& device, const QString& workspaceDir)
{
    return enqueue(spec, device, workspaceDir, 0);
}

bool TrainingSession::resumeRun(qint64 runId, const QString& device, const QString& workspaceDir)
{
    if (runId <= 0 || workspaceDir.isEmpty()) return false;
    static const ExperimentSpec fromTheCheckpoint;  // the job reads the spec from the checkpoint
    return enqueue(fromTheCheckpoint, device, workspaceDir, runId);
}

bool TrainingSession::enqueue(const ExperimentSpec& spec, const QString& device, const QString& workspaceDir,
                              qint64 resumeRun)
{
    if (m_state != State::Idle) return false;
    {
        std::lock_guard lock(m_shared->controlMutex);
        m_shared->pauseWanted = m_shared->stopWanted = false;
    }
    m_run = RunStartInfo{};
    // Decoded data and statistics: the studio's cache, not the workspace (rule 5: the
    // workspace holds only the database and checkpoints).
    const QString cache = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    std::error_code ec;
    if (!cache.isEmpty()) std::filesystem::create_directories(cache.toStdString(), ec);
    auto job = [shared = m_shared.get(), spec, dev = device.toStdString(), ws = workspaceDir.toStdString(),
                cacheDir = ec || cache.isEmpty() ? std::string() : cache.toStdString(), resumeRun] {
        shared->runJob(spec, dev, ws, cacheDir, resumeRun);
    };
    {
        std::lock_guard lock(m_shared->jobMutex);
        m_shared->jobs.push_back(std::move(job));
    }
    m_shared->jobWake.notify_one();
    setState(State::Starting);
    return true;
}

void TrainingSession::pause()
{
    if (m_state != State::Starting && m_state != State::Running) return;
    {
        std::lock_guard lock(m_shared->controlMutex);
        m_shared->pauseWanted = true;
        if (m_shared->control) m_shared->control->pause();
    }
    setState(State::Paused);
}

void TrainingSession::resume()
{
    if (m_state != State::Paused) return;
    {
        std::lock_guard lock(m_shared->controlMutex);
        m_shared->pauseWanted = false;
        if (m_shared->control) m_shared->control->resume();
    }
    setState(m_run.totalSteps > 0 || !m_run.device.isEmpty() ? State::Running : State::Starting);
}

void TrainingSession::stop()
{
    {
        std::lock_guard lock(m_shared->controlMutex);
        m_shared->stopWanted = true;
        if (m_shared->control) m_shared->control->stop();  // also releases a paused trainer
    }
    if (m_state != State::Idle) setState(State::Stopping);
}

void TrainingSession::setState(State state)
{
    if (state == m_state) return;
    m_state = state;
    emit stateChanged(state);
}

void TrainingSession::onDataReady()
{
    if (!m_drainTimer.isActive()) m_drainTimer.start();
}

void TrainingSession::drain()
{
    std::vector<Item> items;
    std::size_t dropped = 0;
    {
        std::lock_guard lock(m_shared->bufferMutex);
        items.swap(m_shared->buffer);
        dropped = std::exchange(m_shared->droppedSteps, 0);
        m_shared->pinged = false;
    }
    if (dropped > 0)
        emit logLine(LogLevel::Warning, tr("The display fell behind: %n step(s) were not charted.", nullptr, int(dropped)));

    // Runs of consecutive steps become one signal; everything else keeps its place.
    QVector<StepPoint> steps;
    auto flushSteps = [&] {
        if (steps.isEmpty()) return;
        emit stepsArrived(steps);
        steps.clear();
    };
    for (Item& item : items) {
        if (auto* s = std::get_if<StepPoint>(&item)) {
            steps.push_back(*s);
            continue;
        }
        flushSteps();
        std::visit(Overloaded{
                       [](StepPoint&) {},
                       [&](RunStartInfo& info) {
                           m_run = info;
                           if (m_state == State::Starting) setState(State::Running);
                           emit runStarted(m_run);
                       },
                       [&](EpochEvent& e) {
                           EpochSummary summary{e.epoch, e.step, {}, e.seconds, e.dataWaitFraction};
                           for (const auto& [name, value] : e.metrics) summary.metrics.insert(qs(name), value);
                           emit epochFinished(summary);
                       },
                       [&](LogEvent& e) {
                           const auto level = e.level == LogEvent::Level::Error     ? LogLevel::Error
                                              : e.level == LogEvent::Level::Warning ? LogLevel::Warning
                                                                                    : LogLevel::Info;
                           emit logLine(level, qs(e.message));
                       },
                       [&](CheckpointEvent& e) {
                           emit checkpointSaved(qs(e.record.path), e.record.step, e.record.epoch, e.record.best);
                       },
                       [&](SystemEvent& e) { emit systemSample(e.sample, e.step); },
                       [&](FinishedEvent& e) {
                           const Outcome outcome = e.outcome == FinishedEvent::Outcome::Finished  ? Outcome::Finished
                                                   : e.outcome == FinishedEvent::Outcome::Stopped ? Outcome::Stopped
                                                   : e.outcome == FinishedEvent::Outcome::EarlyStopped
                                                       ? Outcome::EarlyStopped
                                                       : Outcome::Failed;
                           setState(State::Idle);  // before the signal: a handler may start the next run
                           emit finished(outcome, qs(e.message));
                       },
                   },
                   item);
    }
    flushSteps();
}

}  // namespace ts::ui
