// The one writer of a workspace's studio.db. Training threads push rows into a queue and
// return at once (a push is a mutex and a vector append); the writer thread owns the only
// write connection and commits in batches, every ~200 ms or every few thousand rows, so
// logging never slows a training step (ARCHITECTURE.md, Threads).
//
// Opening creates or upgrades the schema (store/schema.h) and marks runs whose process is
// gone as crashed (same host and a dead pid, or no heartbeat for 30 s), ending them at their
// last heartbeat. The writer thread refreshes the heartbeat of the runs it has open at every
// commit, and every 5 s when nothing is written.
//
// Another process may write the same database (the CLI while the studio is open): SQLite's
// locks serialise the batches, with a busy timeout, and readers are never blocked (WAL).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "types/evaluation_records.h"
#include "types/run_records.h"
#include "store/workspace.h"

namespace ts {

// Any failure of the store: the message names the database file and says what failed
// ("not a TrainStudio database", "written by a newer TrainStudio (schema 7, this reads up
// to 3)", "disk full"), and what to do.
class StoreError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct NewRun {
    std::string experimentName;
    std::string experimentYaml;  // experimentToYaml(spec): stored with the run
    // flattenExperiment(spec): "optimizer.lr" -> "0.001", ...; numeric values are also
    // stored as numbers so runs sort by them.
    std::vector<std::pair<std::string, std::string>> parameters;
    std::string name;     // empty: "<experiment> #<n>"
    std::string device;
    std::uint64_t seed = 0;
    std::optional<std::int64_t> parentRunId;
    std::string parentRelation;  // "resume" | "fork"
    std::vector<std::string> tags;
};

class RunWriter {
public:
    // Throws StoreError (not a TrainStudio database, a newer schema, unwritable file).
    explicit RunWriter(const Workspace& workspace);
    // Commits everything queued, then joins the writer thread.
    ~RunWriter();
    RunWriter(const RunWriter&) = delete;
    RunWriter& operator=(const RunWriter&) = delete;

    // Synchronous (the id is needed at once): inserts the run as running, with start time,
    // host, pid and heartbeat now. Throws StoreError. Like the edits below, it runs on the
    // writer thread in order with the rows queued before it.
    std::int64_t createRun(const NewRun& run);

    // Queued: never block on the disk. Rows of one run are committed in push order. A metric
    // logged twice at one step keeps the later value (a resumed run re-logging steps).
    void addMetric(std::int64_t runId, const std::string& name, std::int64_t step, double value, double wallTime);
    void addLog(std::int64_t runId, const LogLine& line);
    void addSystemSample(std::int64_t runId, const SystemSample& sample);
    void addCheckpoint(const CheckpointRecord& record);
    void removeCheckpoint(std::int64_t runId, const std::string& path);
    void finishRun(std::int64_t runId, RunStatus status, const Message& message);
    // Synchronous: an evaluation of one of the run's checkpoints, its metrics and every
    // sample's prediction, committed when this returns. Returns its id. Throws StoreError.
    std::int64_t addEvaluation(const EvaluationRecord& record, const std::vector<Prediction>& predictions);

    // Edits from the CLI and the studio. Synchronous: they flush the queue first.
    void renameRun(std::int64_t runId, const std::string& name);
    void setNotes(std::int64_t runId, const std::string& notes);
    void setTags(std::int64_t runId, const std::vector<std::string>& tags);
    // Deletes the run's rows and its checkpoint folder. Refuses (StoreError) a running run
    // of a live process (this one included) and a run that does not exist.
    void deleteRun(std::int64_t runId);

    // Blocks until every row queued before the call is committed. A batch that fails for a
    // reason that can pass (disk full, an I/O error, the database locked or read-only) is
    // kept, in order, and tried again every kRetrySeconds: while it waits writeFailure() says
    // why, and flush() throws (StoreError) after one more failed try instead of waiting for
    // the disk. Any other failure drops the batch and is rethrown here once (counted in the
    // message). A row that no longer fits (its run was deleted) is dropped alone and reported
    // the same way. Only the destructor's last try gives up on rows still waiting.
    void flush();

    static constexpr double kRetrySeconds = 1.0;
    // Why queued rows are waiting for a retry ("<file>: database or disk is full ..."); empty
    // while writing works. Cheap: the trainer's recorder asks at every event.
    std::string writeFailure() const;
    bool writeFailing() const;
    // Called on the writer thread when writing starts failing (the reason) and when a retry
    // commits again (empty). One listener; an empty function removes it.
    void setFailureListener(std::function<void(const std::string& reason)> listener);

    struct Stats {
        std::int64_t rowsWritten = 0, commits = 0;
        std::int64_t maxQueued = 0;  // the queue's high-water mark
    };
    Stats stats() const;

    const Workspace& workspace() const;

    // Throws StoreError ("<folder>: the workspace is read-only ...") when the workspace's
    // database could not be written here (a read-only mount, no write permission), so a job
    // says so before it spends time loading data. Reading such a workspace works (RunReader).
    static void checkWritable(const Workspace& workspace);

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace ts
