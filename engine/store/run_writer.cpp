// RunWriter: the queue and the writer thread. The SQL is in writer_db.cpp.
#include "store/run_writer.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iterator>
#include <condition_variable>
#include <exception>
#include <filesystem>
#include <functional>
#include <future>
#include <mutex>
#include <sqlite3.h>
#include <thread>
#include <unordered_set>
#include <variant>

#include "store/evaluations.h"
#include "store/writer_db.h"

namespace ts {

using namespace store;
using Clock = std::chrono::steady_clock;

namespace {

constexpr auto kCommitInterval = std::chrono::milliseconds(200);
constexpr std::size_t kBatchRows = 8192;  // commit early when this many rows are waiting

struct MetricRow {
    std::int64_t run;
    std::string name;
    std::int64_t step;
    double value, wallTime;
};
struct LogRow {
    std::int64_t run;
    std::unique_ptr<LogLine> line;  // boxed, as below
};
struct SystemRow {
    std::int64_t run;
    SystemSample sample;
};
struct CheckpointRow {
    std::unique_ptr<CheckpointRecord> record;  // boxed: keeps every queued row small
};
struct RemoveCheckpointRow {
    std::int64_t run;
    std::string path;
};
struct FinishRow {
    std::int64_t run;
    RunStatus status;
    std::unique_ptr<Message> message;  // boxed
};
// A synchronous request: runs on the writer thread, in order with the rows queued before it;
// `done` is fulfilled after the batch commits (or with the reason it did not).
struct TaskRow {
    std::function<void(WriterDb&)> work;
    std::shared_ptr<std::promise<void>> done;
};
using Row = std::variant<MetricRow, LogRow, SystemRow, CheckpointRow, RemoveCheckpointRow, FinishRow, TaskRow>;

bool isConstraint(const WriterDb& w) { return (sqlite3_errcode(const_cast<WriterDb&>(w).db().handle()) & 0xff) == SQLITE_CONSTRAINT; }

// Failures that can pass while the rows wait: space freed, the disk back, the other writer
// done, the file writable again. Anything else (a damaged file, a bug) would fail forever.
bool canPass(int sqliteCode)
{
    switch (sqliteCode & 0xff) {
    case SQLITE_FULL:
    case SQLITE_IOERR:
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
    case SQLITE_READONLY:
    case SQLITE_CANTOPEN:
    case SQLITE_NOMEM:
    case SQLITE_PROTOCOL: return true;
    default: return false;
    }
}

}  // namespace

struct RunWriter::Impl {
    Workspace workspace;
    WriterDb sql;

    mutable std::mutex mutex;
    std::condition_variable wake, committed;
    std::vector<Row> queue, spare;
    std::uint64_t pushed = 0, done = 0;  // rows ever queued / ever handled (committed or dropped)
    bool urgent = false, stopping = false;
    std::string error;                   // the first failure not yet reported by flush()
    std::int64_t droppedRows = 0;
    Stats stats;
    // While a failed batch waits for its retry: why, and how many tries failed in all (a
    // flush gives up after one more).
    std::string failure;
    std::atomic<bool> failing{false};
    std::uint64_t failedTries = 0;
    std::size_t waitingRows = 0;
    std::mutex listenerMutex;  // held while the listener runs, so removing it waits for a call in progress
    std::function<void(const std::string&)> failureListener;  // under listenerMutex
    Clock::time_point retryAt{};  // writer thread only

    std::unordered_set<std::int64_t> openRuns;  // writer thread only: runs to keep alive
    Clock::time_point nextHeartbeat = Clock::now();
    std::thread thread;

    Impl(const Workspace& w) : workspace(w), sql(w.databasePath())
    {
        // Runs found dead: what their killed saves left is litter now (no one finishes it). The
        // run's log says what went (queued like any row: this connection writes it), so a
        // resume's "no checkpoint" is not a mystery.
        for (std::int64_t id : sql.runsCrashedAtOpen())
            if (const std::vector<std::string> removed = workspace.removeStaleCheckpointFiles(id); !removed.empty())
                push(LogRow{id, std::make_unique<LogLine>(LogLine{unixNow(), "warning", staleFilesRemoved(removed)})});
    }

    void push(Row row, bool now = false)
    {
        std::lock_guard lock(mutex);
        queue.push_back(std::move(row));
        ++pushed;
        stats.maxQueued = std::max<std::int64_t>(stats.maxQueued, std::int64_t(queue.size()));
        urgent = urgent || now;
        if (now || queue.size() == 1 || queue.size() == kBatchRows) wake.notify_one();
    }

    // Queues `work` and waits for its batch to commit; rethrows its failure.
    void runTask(std::function<void(WriterDb&)> work)
    {
        auto promise = std::make_shared<std::promise<void>>();
        auto future = promise->get_future();
        push(TaskRow{std::move(work), promise}, true);
        future.get();
    }

    void noteError(const std::string& message, std::int64_t rows)
    {
        std::lock_guard lock(mutex);
        if (error.empty()) error = message;
        droppedRows += rows;
    }

    void loop()
    {
        Clock::time_point lastCommit = Clock::now() - kCommitInterval;
        std::unique_lock lock(mutex);
        for (;;) {
            const auto now = Clock::now();
            // Rows waiting after a failure are tried again at retryAt, not sooner (the end
            // included: stopping makes one last try there).
            const bool waiting = failing && now < retryAt;
            const bool heartbeatDue = !openRuns.empty() && now >= nextHeartbeat && !waiting;
            const bool commitDue = !queue.empty() && !waiting &&
                                   (failing || urgent || stopping || queue.size() >= kBatchRows ||
                                    now >= lastCommit + kCommitInterval);
            if (!commitDue && !heartbeatDue) {
                if ((urgent || stopping) && queue.empty()) {  // a flush with nothing queued, or the end
                    done = pushed;
                    urgent = false;
                    committed.notify_all();
                    if (stopping) break;
                    continue;
                }
                // Sleep until the batch is due (a first push wakes us), the retry or the next heartbeat.
                auto deadline = openRuns.empty() ? now + std::chrono::hours(1) : nextHeartbeat;
                if (!queue.empty()) deadline = std::min(deadline, waiting ? retryAt : lastCommit + kCommitInterval);
                wake.wait_until(lock, deadline);
                continue;
            }
            std::vector<Row> batch;
            batch.swap(queue);
            queue.swap(spare);  // the last batch's storage: pushes do not regrow the queue
            const std::uint64_t batchEnd = pushed;
            const bool lastTry = stopping;
            urgent = false;
            lock.unlock();
            const bool kept = process(batch, lastTry);
            lastCommit = Clock::now();
            lock.lock();
            if (kept) {
                // Back to the front of the queue, before anything pushed meanwhile: order holds.
                std::move(queue.begin(), queue.end(), std::back_inserter(batch));
                queue.swap(batch);
                batch.clear();
                waitingRows = queue.size();
                committed.notify_all();  // a flush waiting for these rows gives up now
                continue;
            }
            lock.unlock();
            batch.clear();  // destroy the rows outside the lock
            lock.lock();
            spare.swap(batch);
            done = batchEnd;
            committed.notify_all();
        }
    }

    // Writer thread: the failure state changes (a reason, or empty when a retry committed).
    void setFailure(const std::string& reason)
    {
        {
            std::lock_guard lock(mutex);
            const bool changed = failing != !reason.empty();
            failure = reason;  // the latest reason, though only a change is announced
            failing = !reason.empty();
            if (reason.empty()) waitingRows = 0;
            if (!changed) return;
        }
        std::lock_guard lock(listenerMutex);
        if (failureListener) failureListener(reason);
    }

    // One transaction for the whole batch. A row that breaks a constraint (a run deleted
    // meanwhile) is dropped alone. When the batch fails for a reason that can pass (disk
    // full, I/O error), its rows are kept for a retry (returns true; tasks are answered with
    // the failure, not retried: their callers wait); other failures, and the last try, drop it.
    bool process(std::vector<Row>& batch, bool lastTry)
    {
        std::vector<std::pair<std::shared_ptr<std::promise<void>>, std::exception_ptr>> replies;
        std::unordered_set<std::int64_t> finished;
        std::int64_t rows = 0, dropped = 0;
        std::string rowError;
        // Every commit refreshes the heartbeat of the open runs, not only the 5-s timer: a commit
        // proves the process alive, and a killed run's end is its last heartbeat, so while it
        // trains (rows every step) that end is one commit interval before the kill, not up to
        // 5 s. Set before trying: a failure retries in 5 s, not at once.
        nextHeartbeat = Clock::now() + std::chrono::seconds(int(kHeartbeatSeconds));
        sql.db().clearFailureCode();
        try {
            Transaction tx(sql.db());
            for (Row& row : batch) {
                if (auto* task = std::get_if<TaskRow>(&row)) {
                    replies.emplace_back(task->done, runQueuedTask(*task));
                    continue;
                }
                try {
                    apply(row, finished);
                    ++rows;
                } catch (const StoreError& e) {
                    if (!isConstraint(sql)) throw;
                    if (rowError.empty()) rowError = e.what();
                    ++dropped;
                }
            }
            sql.heartbeat(openRuns);
            std::string seriesError;
            if (const auto lostPoints = sql.writeSeries(seriesError)) {
                dropped += lostPoints;
                rows -= lostPoints;
                if (rowError.empty()) rowError = seriesError;
            }
            tx.commit();
            for (std::int64_t id : finished) openRuns.erase(id);
            {
                std::lock_guard lock(mutex);
                stats.rowsWritten += rows;
                ++stats.commits;
            }
            setFailure({});
        } catch (const std::exception& e) {
            const int failedCode = sql.db().failureCode();
            sql.forgetCaches();  // ids and summaries may name rows that were rolled back
            const auto failure = std::make_exception_ptr(StoreError(e.what()));
            for (auto& reply : replies) reply.second = failure;
            std::erase_if(batch, [](const Row& row) { return std::holds_alternative<TaskRow>(row); });
            const std::int64_t lost = std::int64_t(batch.size());
            dropped = 0;
            if (lost && canPass(failedCode) && !lastTry) {
                retryAt = Clock::now() + std::chrono::milliseconds(int(kRetrySeconds * 1000));
                setFailure(e.what());
                {
                    // Counted before a task's caller hears of the failure: a flush it starts
                    // then waits for the next try, not for this one.
                    std::lock_guard lock(mutex);
                    ++failedTries;
                    waitingRows = std::size_t(lost);
                }
                answer(replies);
                return true;
            }
            answer(replies);
            // A failed heartbeat alone loses nothing: only lost rows are worth a report.
            if (lost) noteError(std::string(e.what()) + " (" + std::to_string(lost) + " queued rows were not written)", lost);
            if (!canPass(failedCode)) setFailure({});
            return false;
        }
        if (dropped) noteError(rowError + " (" + std::to_string(dropped) + " rows dropped)", dropped);
        answer(replies);
        return false;
    }

    static void answer(std::vector<std::pair<std::shared_ptr<std::promise<void>>, std::exception_ptr>>& replies)
    {
        for (auto& [promise, failure] : replies) {
            if (failure) promise->set_exception(failure);
            else promise->set_value();
        }
        replies.clear();
    }

    // A task in a savepoint: its own failure undoes only its own changes.
    std::exception_ptr runQueuedTask(TaskRow& task)
    {
        sql.db().exec("SAVEPOINT task");
        try {
            task.work(sql);
            sql.db().exec("RELEASE task");
            return nullptr;
        } catch (...) {
            auto failure = std::current_exception();
            sql.db().exec("ROLLBACK TO task; RELEASE task");
            return failure;
        }
    }

    void apply(Row& row, std::unordered_set<std::int64_t>& finished)
    {
        std::visit(
            [&](auto& r) {
                using T = std::decay_t<decltype(r)>;
                if constexpr (std::is_same_v<T, MetricRow>) sql.addMetric(r.run, r.name, r.step, r.value, r.wallTime);
                else if constexpr (std::is_same_v<T, LogRow>) sql.addLog(r.run, *r.line);
                else if constexpr (std::is_same_v<T, SystemRow>) sql.addSystemSample(r.run, r.sample);
                else if constexpr (std::is_same_v<T, CheckpointRow>) sql.addCheckpoint(*r.record);
                else if constexpr (std::is_same_v<T, RemoveCheckpointRow>) sql.removeCheckpoint(r.run, r.path);
                else if constexpr (std::is_same_v<T, FinishRow>) {
                    sql.finishRun(r.run, r.status, *r.message);
                    finished.insert(r.run);
                }
            },
            row);
    }
};

RunWriter::RunWriter(const Workspace& workspace) : impl_(std::make_unique<Impl>(workspace))
{
    impl_->thread = std::thread([this] { impl_->loop(); });
}

RunWriter::~RunWriter()
{
    {
        std::lock_guard lock(impl_->mutex);
        impl_->stopping = true;
        impl_->wake.notify_one();
    }
    impl_->thread.join();
}

std::int64_t RunWriter::createRun(const NewRun& run)
{
    std::int64_t id = 0;
    impl_->runTask([&](WriterDb& sql) {
        id = sql.createRun(run);
        impl_->openRuns.insert(id);  // writer thread: the heartbeat keeps it alive from now on
    });
    return id;
}

void RunWriter::addMetric(std::int64_t runId, const std::string& name, std::int64_t step, double value, double wallTime)
{
    impl_->push(MetricRow{runId, name, step, value, wallTime});
}

void RunWriter::addLog(std::int64_t runId, const LogLine& line)
{
    impl_->push(LogRow{runId, std::make_unique<LogLine>(line)});
}

void RunWriter::addSystemSample(std::int64_t runId, const SystemSample& sample) { impl_->push(SystemRow{runId, sample}); }

void RunWriter::addCheckpoint(const CheckpointRecord& record)
{
    impl_->push(CheckpointRow{std::make_unique<CheckpointRecord>(record)});
}

void RunWriter::removeCheckpoint(std::int64_t runId, const std::string& path)
{
    impl_->push(RemoveCheckpointRow{runId, path});
}

void RunWriter::finishRun(std::int64_t runId, RunStatus status, const Message& message)
{
    impl_->push(FinishRow{runId, status, std::make_unique<Message>(message)});
}

std::int64_t RunWriter::addEvaluation(const EvaluationRecord& record, const std::vector<Prediction>& predictions)
{
    std::int64_t id = 0;
    impl_->runTask([&](WriterDb& sql) { id = store::insertEvaluation(sql.db(), record, predictions); });
    flush();  // committed before the caller reports it
    return id;
}

void RunWriter::renameRun(std::int64_t runId, const std::string& name)
{
    impl_->runTask([&](WriterDb& sql) { sql.setText(runId, "name", name); });
}

void RunWriter::setNotes(std::int64_t runId, const std::string& notes)
{
    impl_->runTask([&](WriterDb& sql) { sql.setText(runId, "notes", notes); });
}

void RunWriter::setTags(std::int64_t runId, const std::vector<std::string>& tags)
{
    std::string joined;
    for (const auto& t : tags) {
        std::string tag = t;
        std::replace(tag.begin(), tag.end(), '\n', ' ');  // tags are stored one per line
        joined += (joined.empty() ? "" : "\n") + tag;
    }
    impl_->runTask([&](WriterDb& sql) { sql.setText(runId, "tags", joined); });
}

void RunWriter::deleteRun(std::int64_t runId)
{
    impl_->runTask([&](WriterDb& sql) { sql.deleteRun(runId, impl_->openRuns); });
    std::error_code ec;  // rows first: a folder without rows is harmless, rows without files are not
    std::filesystem::remove_all(impl_->workspace.runCheckpointsPath(runId), ec);
    if (ec)
        throw StoreError(impl_->workspace.runCheckpointsPath(runId) + ": the run was deleted but its checkpoint folder "
                         "could not be removed: " + ec.message());
}

void RunWriter::flush()
{
    std::unique_lock lock(impl_->mutex);
    const std::uint64_t target = impl_->pushed, tries = impl_->failedTries;
    impl_->urgent = true;
    impl_->wake.notify_one();
    impl_->committed.wait(lock, [&] { return impl_->done >= target || impl_->failedTries > tries; });
    if (impl_->done < target)
        throw StoreError(impl_->failure + " (" + std::to_string(impl_->waitingRows) +
                         " rows wait in memory; they are written when the database can be written again)");
    if (!impl_->error.empty()) {
        const std::string message = impl_->error;
        impl_->error.clear();
        throw StoreError(message);
    }
}

RunWriter::Stats RunWriter::stats() const
{
    std::lock_guard lock(impl_->mutex);
    return impl_->stats;
}

void RunWriter::checkWritable(const Workspace& workspace)
{
    const std::string path = workspace.databasePath();
    if (readOnlyPlace(path))
        throw StoreError(readOnlyWorkspaceMessage(path, std::filesystem::exists(path) ? "the database cannot be written"
                                                                                     : "the folder cannot be written"));
}

std::string RunWriter::writeFailure() const
{
    std::lock_guard lock(impl_->mutex);
    return impl_->failure;
}

bool RunWriter::writeFailing() const { return impl_->failing.load(); }

void RunWriter::setFailureListener(std::function<void(const std::string&)> listener)
{
    std::lock_guard lock(impl_->listenerMutex);
    impl_->failureListener = std::move(listener);
}

const Workspace& RunWriter::workspace() const { return impl_->workspace; }

}  // namespace ts
