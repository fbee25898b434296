#include "training_session.h"

#include <QStandardPaths>

#include <condition_variable>
#include <algorithm>
#include <deque>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <variant>
#include <vector>

#include "ui/engine_messages.h"
#include "train/diagnostics.h"
#include "train/run_control.h"

#ifdef __linux__
#include <pthread.h>
#endif

namespace ts::ui {

namespace {

// A job's turn has come (its events follow, up to its FinishedEvent).
struct JobBegan {
    qint64 id = 0;
};

// What the trainer thread hands the UI thread, in the order it happened.
using Item = std::variant<StepPoint, EpochEvent, LogEvent, FinishedEvent, CheckpointEvent, SystemEvent, StartedEvent,
                          ProgressEvent, JobBegan>;

// A UI that stops draining (a modal dialog, a debugger) must not grow the buffer forever:
// past this many items, steps are dropped (counted and reported); other events are kept.
constexpr std::size_t kMaxBuffered = 1'000'000;

template <class... F>
struct Overloaded : F... {
    using F::operator()...;
};

QString qs(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

struct TrainingSession::Shared {
    // Event buffer (trainer thread -> UI thread).
    std::mutex bufferMutex;
    std::vector<Item> buffer;
    bool pinged = false;  // a queued ping is on its way; no need for another
    std::size_t droppedSteps = 0;
    std::function<void()> ping;

    // The trainer thread's job queue; each job has its own control, so a queued job can be
    // cancelled and the current one stopped without touching the others.
    struct Queued {
        qint64 id = 0;
        Job job;
        JobEnvironment environment;
        std::shared_ptr<RunControl> control;
    };
    std::mutex jobMutex;
    std::condition_variable jobWake;
    std::deque<Queued> jobs;
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

    // Removes a queued job; false when it is not queued (running, or gone).
    bool dropQueued(qint64 id)
    {
        std::lock_guard lock(jobMutex);
        const auto it = std::find_if(jobs.begin(), jobs.end(), [&](const Queued& q) { return q.id == id; });
        if (it == jobs.end()) return false;
        jobs.erase(it);
        return true;
    }
    void loop();
};

// The job's listener: copies, pushes, returns. (runJob sends the FinishedEvent only after the
// store has committed the run.)
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
                       [&](const auto& e) { m_shared.push(e); },
                   },
                   event);
    }

private:
    Shared& m_shared;
};

void TrainingSession::Shared::loop()
{
#ifdef __linux__
    pthread_setname_np(pthread_self(), "ts-trainer");
#endif
    for (;;) {
        Queued next;
        {
            std::unique_lock lock(jobMutex);
            jobWake.wait(lock, [&] { return quit || !jobs.empty(); });
            if (jobs.empty()) return;  // quit, and nothing left to run
            next = std::move(jobs.front());
            jobs.pop_front();
        }
        push(JobBegan{next.id});
        Listener bridge(*this);
        runJob(next.job, next.environment, *next.control, bridge);  // never throws; ends with a FinishedEvent
    }
}

TrainingSession::TrainingSession(QObject* parent) : QObject(parent), m_shared(std::make_shared<Shared>())
{
    qRegisterMetaType<StepPoint>();
    qRegisterMetaType<QVector<StepPoint>>();
    qRegisterMetaType<EpochSummary>();
    qRegisterMetaType<RunStartInfo>();
    qRegisterMetaType<JobRow>();
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
        // Not stopAll(): no signals from a half-destroyed session.
        std::lock_guard lock(m_shared->jobMutex);
        m_shared->jobs.clear();  // jobs queued but not begun never start
        m_shared->quit = true;
    }
    for (const auto& control : std::as_const(m_controls)) control->stop();  // the running one's among them
    m_shared->jobWake.notify_all();
    m_shared->thread.join();  // before ~QObject: no ping can reach a dead object
}

qint64 TrainingSession::start(const ExperimentSpec& spec, const QString& device, const QString& workspaceDir)
{
    TrainJob job;
    job.experiment = spec;
    job.device = device.toStdString();
    return enqueue(job, QString::fromStdString(spec.name), workspaceDir);
}

qint64 TrainingSession::resumeRun(qint64 runId, const QString& device, const QString& workspaceDir)
{
    if (runId <= 0 || workspaceDir.isEmpty()) return 0;
    TrainJob job;
    job.resume = std::to_string(runId);
    job.device = device.toStdString();
    return enqueue(job, tr("run %1").arg(runId), workspaceDir);
}

qint64 TrainingSession::enqueue(const Job& job, const QString& title, const QString& workspaceDir)
{
    // Decoded data and statistics: the studio's cache, not the workspace (rule 5: the
    // workspace holds only the database and checkpoints).
    const QString cache = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    std::error_code ec;
    if (!cache.isEmpty()) std::filesystem::create_directories(cache.toStdString(), ec);
    Shared::Queued queued;
    queued.id = m_nextJobId++;
    queued.job = job;
    queued.environment.workspaceDir = workspaceDir.toStdString();
    queued.environment.cacheDir = ec || cache.isEmpty() ? std::string() : cache.toStdString();
    queued.control = std::make_shared<RunControl>();
    m_controls.insert(queued.id, queued.control);

    JobRow row;
    row.id = queued.id;
    row.kind = QString::fromStdString(jobKind(job));
    row.title = title;
    if (m_state == State::Idle) row.state = JobRow::State::Running;  // next in line: it begins at once
    m_jobs.push_back(row);
    {
        std::lock_guard lock(m_shared->jobMutex);
        m_shared->jobs.push_back(std::move(queued));
    }
    m_shared->jobWake.notify_one();
    if (m_state == State::Idle) {
        // Idle until now: this job is next. Starting at once lets the page show it as running.
        m_currentJob = row.id;
        m_run = RunStartInfo{};
        m_progress = JobProgress{};
        setState(State::Starting);
    }
    emit jobsChanged();
    return row.id;
}

int TrainingSession::queuedCount() const
{
    return int(std::count_if(m_jobs.begin(), m_jobs.end(), [](const JobRow& j) { return j.state == JobRow::State::Queued; }));
}

JobRow* TrainingSession::findJob(qint64 id)
{
    for (JobRow& j : m_jobs)
        if (j.id == id) return &j;
    return nullptr;
}

void TrainingSession::pause()
{
    if (m_state != State::Starting && m_state != State::Running) return;
    if (const auto control = m_controls.value(m_currentJob)) control->pause();  // a job not begun starts paused
    if (JobRow* j = findJob(m_currentJob)) j->state = JobRow::State::Paused;
    setState(State::Paused);
    emit jobsChanged();
}

void TrainingSession::resume()
{
    if (m_state != State::Paused) return;
    if (const auto control = m_controls.value(m_currentJob)) control->resume();
    if (JobRow* j = findJob(m_currentJob)) j->state = JobRow::State::Running;
    setState(m_run.totalSteps > 0 || !m_run.device.isEmpty() ? State::Running : State::Starting);
    emit jobsChanged();
}

void TrainingSession::stop()
{
    if (m_state == State::Idle) return;
    cancel(m_currentJob);
}

void TrainingSession::cancel(qint64 jobId)
{
    JobRow* j = findJob(jobId);
    if (!j || j->isDone()) return;
    // A waiting job leaves the queue; the current one (running, or shown as starting) is
    // stopped through its control and ends with its FinishedEvent like any run.
    if (jobId != m_currentJob && m_shared->dropQueued(jobId)) {
        j->state = JobRow::State::Cancelled;
        j->message = tr("cancelled before it began");
        m_controls.remove(jobId);
        emit jobsChanged();
        return;
    }
    if (const auto control = m_controls.value(jobId)) control->stop();  // after the current step
    j->state = JobRow::State::Stopping;
    if (jobId == m_currentJob) setState(State::Stopping);
    emit jobsChanged();
}

void TrainingSession::stopAll()
{
    for (const JobRow& j : QVector<JobRow>(m_jobs))
        if (j.state == JobRow::State::Queued && j.id != m_currentJob) cancel(j.id);
    stop();
}

void TrainingSession::beginJob(qint64 id)
{
    m_currentJob = id;
    m_run = RunStartInfo{};
    m_progress = JobProgress{};
    const auto control = m_controls.value(id);
    const bool paused = control && control->pauseRequested(), stopping = control && control->stopRequested();
    if (JobRow* j = findJob(id))
        j->state = stopping ? JobRow::State::Stopping : paused ? JobRow::State::Paused : JobRow::State::Running;
    setState(stopping ? State::Stopping : paused ? State::Paused : State::Starting);
    emit jobsChanged();
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
    bool progressed = false;
    auto flushSteps = [&] {
        if (steps.isEmpty()) return;
        StepEvent last;
        last.step = steps.constLast().step;
        last.epoch = steps.constLast().epoch;
        m_progress.onEvent(last);
        progressed = true;
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
                       [&](JobBegan& b) { beginJob(b.id); },
                       [&](StartedEvent& e) {
                           m_progress.onEvent(e);
                           m_run = RunStartInfo{e.runId,       qs(e.device),   qs(e.dataset), e.totalSteps,
                                                e.stepsPerEpoch, e.epochs, e.firstStep, double(e.memory.total())};
                           if (JobRow* j = findJob(m_currentJob)) j->runId = e.runId;
                           if (m_state == State::Starting) setState(State::Running);
                           emit runStarted(m_run);
                           progressed = true;
                       },
                       [&](ProgressEvent& e) {
                           m_progress.onEvent(e);
                           if (m_state == State::Starting) setState(State::Running);
                           progressed = true;
                       },
                       [&](EpochEvent& e) {
                           m_progress.onEvent(e);  // its evaluation is not step time
                           EpochSummary summary{e.epoch, e.step, {}, e.seconds, e.dataWaitFraction};
                           for (const auto& [name, value] : e.metrics) summary.metrics.insert(qs(name), value);
                           emit epochFinished(summary);
                       },
                       [&](LogEvent& e) {
                           const auto level = e.level == LogEvent::Level::Error     ? LogLevel::Error
                                              : e.level == LogEvent::Level::Warning ? LogLevel::Warning
                                                                                    : LogLevel::Info;
                           emit logLine(level, renderMessage(e.message));
                           if (isDiagnostic(e.message)) emit diagnosticRaised(e.message, m_run.runId);
                           if (e.message.id == "train.text_sample") emit textSampled(e.message);
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
                           if (JobRow* j = findJob(m_currentJob)) {
                               j->state = outcome == Outcome::Failed    ? JobRow::State::Failed
                                          : outcome == Outcome::Stopped ? JobRow::State::Stopped
                                                                        : JobRow::State::Finished;
                               if (j->state == JobRow::State::Finished) j->progress = 1;
                               j->etaSeconds = -1;
                               j->message = renderMessage(e.message);
                               for (const auto& [name, value] : e.metrics) j->metrics.insert(qs(name), value);
                           }
                           m_controls.remove(m_currentJob);
                           m_currentJob = 0;
                           // The next queued job is current from now on (its JobBegan follows).
                           for (JobRow& next : m_jobs)
                               if (next.state == JobRow::State::Queued) {
                                   m_currentJob = next.id;
                                   next.state = JobRow::State::Running;
                                   break;
                               }
                           // Before the signal: a handler may start the next run.
                           setState(m_currentJob ? State::Starting : State::Idle);
                           emit jobsChanged();
                           emit finished(outcome, renderMessage(e.message));
                       },
                   },
                   item);
    }
    flushSteps();
    if (progressed)
        if (JobRow* j = findJob(m_currentJob); j && !j->isDone()) {
            j->progress = m_progress.fraction();
            j->etaSeconds = m_progress.etaSeconds().value_or(-1);
            j->what = renderMessage(m_progress.what());
            emit jobsChanged();
        }
}

}  // namespace ts::ui
