// Internal to engine/store: the SQL side of RunWriter. It owns the write connection and its
// prepared statements and is used by one thread at a time (the writer thread, or the
// constructor before that thread starts). Every method but the constructor expects to run
// inside the writer's batch transaction.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "store/database.h"
#include "store/point_chunk.h"
#include "store/run_writer.h"

namespace ts::store {

// Whether the process that wrote a run can still be alive. Same host: its pid exists;
// another host: its heartbeat is younger than kHeartbeatTimeout.
constexpr double kHeartbeatSeconds = 5;
constexpr double kHeartbeatTimeout = 30;
std::string hostName();
// A run marked running whose process is gone (pid <= 0: unknown, so only the heartbeat counts).
bool runProcessGone(const std::string& host, std::int64_t pid, double heartbeat, double now);

// "<workspace>: the workspace is read-only (<reason>). Runs can be listed ...": what every
// write attempt on a read-only workspace says.
std::string readOnlyWorkspaceMessage(const std::string& databasePath, const std::string& reason);

class WriterDb {
public:
    // Checks the file read-only first (refusals leave it untouched), then opens it read-write,
    // sets WAL and foreign keys, migrates, and marks dead runs crashed.
    explicit WriterDb(const std::string& path);

    Database& db() { return db_; }
    int crashedAtOpen() const { return int(crashedAtOpen_.size()); }
    const std::vector<std::int64_t>& runsCrashedAtOpen() const { return crashedAtOpen_; }

    std::int64_t createRun(const NewRun& run);
    void addMetric(std::int64_t runId, const std::string& name, std::int64_t step, double value, double wallTime);
    void addLog(std::int64_t runId, const LogLine& line);
    void addSystemSample(std::int64_t runId, const SystemSample& s);
    void addCheckpoint(const CheckpointRecord& r);
    void removeCheckpoint(std::int64_t runId, const std::string& path);
    void finishRun(std::int64_t runId, RunStatus status, const Message& message);
    void heartbeat(const std::unordered_set<std::int64_t>& runs);
    void setText(std::int64_t runId, const char* column, const std::string& value);  // name, notes, tags
    // Throws StoreError for a missing run or one whose process is alive.
    void deleteRun(std::int64_t runId, const std::unordered_set<std::int64_t>& openHere);

    // Writes the chunks and summaries of the series that got points since the last call
    // (before each commit). A series whose run vanished (a constraint fails) is dropped
    // alone: returns how many points were lost that way, and sets `error` to the first reason.
    std::int64_t writeSeries(std::string& error);
    // After a rolled-back batch: cached ids, chunks and summaries may describe rows that are gone.
    void forgetCaches();

private:
    struct Summary {
        std::int64_t count = 0, lastStep = 0, bestStep = 0;
        double last = 0, min = 0, max = 0, best = 0;
        bool hasValue = false;  // a non-NaN value was seen (min/max/best are set)
        MetricGoal goal = MetricGoal::None;
    };
    // One metric of one run, as the writer holds it: its summary and the chunk being filled.
    struct Series {
        Summary summary;
        std::int64_t chunk = 0;            // number of the chunk being filled
        std::vector<PointRecord> open;     // its points (all of them: it is rewritten whole)
        std::vector<std::vector<PointRecord>> full;  // chunks filled since the last write
        std::int64_t pending = 0;          // points not yet written
    };
    struct Key {
        std::int64_t run, metric;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key& k) const { return std::hash<std::int64_t>()(k.run * 1000003 ^ k.metric); }
    };

    std::int64_t metricId(const std::string& name);
    Series& series(std::int64_t runId, std::int64_t metricId, const std::string& name);
    void writeChunk(const Key& key, std::int64_t chunk, const std::vector<PointRecord>& points);
    std::vector<std::int64_t> markCrashed();

    Database db_;
    std::string host_;
    std::int64_t pid_;
    std::vector<std::int64_t> crashedAtOpen_;
    std::unordered_map<std::string, std::int64_t> metricIds_;
    std::unordered_map<Key, Series, KeyHash> series_;
    std::unordered_set<Key, KeyHash> touched_;
    std::unordered_set<std::int64_t> finished_;  // runs whose series can leave memory after the batch
    Statement insertChunk_, insertLog_, insertSystem_, insertCheckpoint_, clearBest_, removeCheckpoint_, finish_,
        heartbeat_, findMetric_, insertMetric_, loadSummary_, upsertSummary_;
};

}  // namespace ts::store
