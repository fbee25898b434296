// Reads too big for the UI thread (a run's chart points: millions for long runs) run here, on
// a worker thread with a RunReader of its own: SQLite connections must not be shared across
// threads, so this one is opened, used and closed on the worker only, and tasks run one at a
// time in the order given. Each owner (the run's charts, the comparison) has its own reader.
//
// run() hands back a QFuture: put it into a QFutureWatcher and apply the result on the UI
// thread when it finishes. A new run() raises the previous task's cancel flag, so a read that
// a newer selection made pointless stops at its next check (the caller ignores its result).
#pragma once

#include <QFuture>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <exception>
#include <memory>
#include <string>

#include "store/run_reader.h"

namespace ts::ui {

class BackgroundReader {
public:
    BackgroundReader();
    ~BackgroundReader();  // cancels the running task and waits for it
    BackgroundReader(const BackgroundReader&) = delete;
    BackgroundReader& operator=(const BackgroundReader&) = delete;

    // Runs `work(RunReader&, const std::atomic<bool>& cancelled)` on the worker against
    // `workspace`. Its result type must be default-constructible and have a QString `error`,
    // set here (and the reader reopened next time) when opening or reading throws.
    template <class Work>
    auto run(const ts::Workspace& workspace, Work work)
    {
        using Result = std::invoke_result_t<Work, ts::RunReader&, const std::atomic<bool>&>;
        if (m_cancel) m_cancel->store(true);
        auto cancel = m_cancel = std::make_shared<std::atomic<bool>>(false);
        return QtConcurrent::run(&m_pool, [this, path = workspace.databasePath(), workspace, work, cancel]() {
            Result result;
            try {
                result = work(readerFor(workspace), *cancel);
            } catch (const std::exception& e) {
                m_reader.reset();  // a fresh connection next time: the surest recovery
                result = Result{};
                result.error = QString::fromLocal8Bit(e.what());
            }
            return result;
        });
    }

    // Blocks until the queued tasks are done (tests, and the destructor).
    void waitForDone();

private:
    ts::RunReader& readerFor(const ts::Workspace& workspace);  // worker thread only

    QThreadPool m_pool;
    std::shared_ptr<std::atomic<bool>> m_cancel;  // of the newest task
    // Touched only by tasks, which the one-thread pool runs one after another.
    std::unique_ptr<ts::RunReader> m_reader;
    std::string m_path;
};

}  // namespace ts::ui
