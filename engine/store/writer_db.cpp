#include "store/writer_db.h"

#include <cerrno>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <cstdlib>
#include <sqlite3.h>
#include <unistd.h>

#include "store/message_columns.h"
#include "store/schema.h"

namespace ts::store {

namespace {

bool processAlive(std::int64_t pid)
{
    if (pid <= 0) return false;
    return ::kill(pid_t(pid), 0) == 0 || errno == EPERM;  // EPERM: alive, another user's
}

// "0.001" -> 0.001; "adam", "1e400", "" -> none (only finite numbers sort as numbers).
std::optional<double> asNumber(const std::string& text)
{
    if (text.empty()) return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(v)) return std::nullopt;
    return v;
}

std::string joinTags(const std::vector<std::string>& tags)
{
    std::string out;
    for (const auto& t : tags) out += (out.empty() ? "" : "\n") + t;
    return out;
}

}  // namespace

bool runProcessGone(const std::string& host, std::int64_t pid, double heartbeat, double now)
{
    if (now - heartbeat > kHeartbeatTimeout) return true;
    return pid > 0 && host == hostName() && !processAlive(pid);
}

std::string hostName()
{
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) != 0) return "localhost";
    return name;
}

WriterDb::WriterDb(const std::string& path)
try : db_((inspectDatabaseForWriting(path), path), Database::Mode::ReadWriteCreate), host_(hostName()), pid_(::getpid())
{
    // synchronous=NORMAL: with WAL, a killed process loses nothing committed (only a power
    // cut can lose the last batches), and commits stay cheap.
    // SQLite opens a file it may not write read-only without a word: say so before any write.
    if (sqlite3_db_readonly(db_.handle(), "main") == 1) throw StoreError(path + ": the database file cannot be written");
    db_.useWriteAheadLog();
    db_.exec("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA cache_size = -32768");
    migrate(db_);

    insertChunk_ = Statement(db_, "INSERT OR REPLACE INTO points (run_id, metric_id, chunk, min_step, max_step, count, data) "
                                  "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    insertLog_ = Statement(db_, "INSERT INTO logs (run_id, time, level, message, message_id, message_args) "
                                "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    insertSystem_ = Statement(db_, "INSERT INTO system_samples (run_id, wall_time, cpu_percent, ram_bytes, gpu_percent, "
                                   "gpu_memory_used, gpu_memory_total, gpu_temperature, gpu_power_watts, gpu_clock_mhz) "
                                   "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
    insertCheckpoint_ = Statement(db_, "INSERT INTO checkpoints (run_id, path, state_path, step, epoch, metric_name, "
                                       "metric_value, best, size_bytes, sha256, state_sha256, created) "
                                       "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
    clearBest_ = Statement(db_, "UPDATE checkpoints SET best = 0 WHERE run_id = ?1 AND best");
    removeCheckpoint_ = Statement(db_, "DELETE FROM checkpoints WHERE run_id = ?1 AND path = ?2");
    finish_ = Statement(db_, "UPDATE runs SET status = ?2, message = ?3, message_id = ?5, message_args = ?6, end_time = ?4, "
                             "heartbeat = ?4 WHERE id = ?1");
    heartbeat_ = Statement(db_, "UPDATE runs SET heartbeat = ?2 WHERE id = ?1 AND status = 'running'");
    findMetric_ = Statement(db_, "SELECT id FROM metric_names WHERE name = ?1");
    insertMetric_ = Statement(db_, "INSERT INTO metric_names (name) VALUES (?1)");
    loadSummary_ = Statement(db_, "SELECT count, last, last_nonfinite, last_step, min, min_nonfinite, max, max_nonfinite, "
                                  "best, best_nonfinite, best_step, "
                                  "(SELECT max(chunk) FROM points WHERE run_id = ?1 AND metric_id = ?2) "
                                  "FROM summaries WHERE run_id = ?1 AND metric_id = ?2");
    upsertSummary_ = Statement(db_, "INSERT OR REPLACE INTO summaries (run_id, metric_id, count, last, last_nonfinite, "
                                    "last_step, min, min_nonfinite, max, max_nonfinite, best, best_nonfinite, best_step) "
                                    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)");
    crashedAtOpen_ = markCrashed();
} catch (const StoreError& e) {
    // Reading works there (RunReader); writing never will: say so rather than SQLite's reason.
    if (!readOnlyPlace(path)) throw;
    throw StoreError(readOnlyWorkspaceMessage(path, e.what()));
}

std::string readOnlyWorkspaceMessage(const std::string& path, const std::string& reason)
{
    return std::filesystem::path(path).parent_path().string() + ": the workspace is read-only (" + reason +
           "). Runs can be listed, shown and compared, but training, evaluating and editing runs need a writable "
           "workspace: make the folder writable, or choose another with --workspace DIR";
}

std::vector<std::int64_t> WriterDb::markCrashed()
{
    Transaction tx(db_);
    const double now = unixNow();
    std::vector<std::pair<std::int64_t, double>> dead;
    Statement running(db_, "SELECT id, host, pid, heartbeat FROM runs WHERE status = 'running'");
    while (running.step()) {
        const double heartbeat = running.real(3);
        if (runProcessGone(running.text(1), running.integer(2), heartbeat, now)) dead.emplace_back(running.integer(0), heartbeat);
    }
    Statement mark(db_, "UPDATE runs SET status = 'crashed', end_time = ?2, message = ?3, message_id = ?4, "
                        "message_args = '' WHERE id = ?1");
    const Message crashed = makeMessage(MessageId::RunCrashed);
    for (const auto& [id, heartbeat] : dead) {
        mark.bind(1, id).bind(2, heartbeat).bind(3, crashed.text).bind(4, crashed.id);
        mark.run();
    }
    tx.commit();
    std::vector<std::int64_t> ids;
    for (const auto& d : dead) ids.push_back(d.first);
    return ids;
}

std::int64_t WriterDb::createRun(const NewRun& run)
{
    const double now = unixNow();
    Statement exp(db_, "INSERT INTO experiments (name, created) VALUES (?1, ?2) ON CONFLICT (name) DO NOTHING");
    exp.bind(1, run.experimentName).bind(2, now).run();
    Statement count(db_, "UPDATE experiments SET runs_started = runs_started + 1 WHERE name = ?1 "
                         "RETURNING id, runs_started");
    count.bind(1, run.experimentName);
    if (!count.step()) db_.fail("cannot number the run");
    const std::int64_t experimentId = count.integer(0), number = count.integer(1);
    count.reset();

    Statement insert(db_, "INSERT INTO runs (experiment_id, name, status, start_time, heartbeat, host, pid, device, seed, "
                          "parent_run_id, parent_relation, tags, experiment_yaml) "
                          "VALUES (?1, ?2, 'running', ?3, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
    const std::string name = run.name.empty() ? run.experimentName + " #" + std::to_string(number) : run.name;
    insert.bind(1, experimentId).bind(2, name).bind(3, now).bind(4, host_).bind(5, pid_).bind(6, run.device);
    insert.bind(7, std::int64_t(run.seed)).bind(8, run.parentRunId).bind(9, run.parentRelation);
    insert.bind(10, joinTags(run.tags)).bind(11, run.experimentYaml).run();
    const std::int64_t id = db_.lastInsertId();

    Statement param(db_, "INSERT OR REPLACE INTO parameters (run_id, key, value, number) VALUES (?1, ?2, ?3, ?4)");
    for (const auto& [key, value] : run.parameters) {
        param.bind(1, id).bind(2, key).bind(3, value);
        if (auto n = asNumber(value)) param.bind(4, *n);
        param.run();
    }
    return id;
}

std::int64_t WriterDb::metricId(const std::string& name)
{
    if (auto it = metricIds_.find(name); it != metricIds_.end()) return it->second;
    std::int64_t id;
    findMetric_.bind(1, name);
    if (findMetric_.step()) {
        id = findMetric_.integer(0);
        findMetric_.reset();
    } else {
        findMetric_.reset();
        insertMetric_.bind(1, name).run();
        id = db_.lastInsertId();
    }
    metricIds_.emplace(name, id);
    return id;
}

WriterDb::Series& WriterDb::series(std::int64_t runId, std::int64_t metric, const std::string& name)
{
    const Key key{runId, metric};
    if (auto it = series_.find(key); it != series_.end()) return it->second;
    Series series;
    Summary& s = series.summary;
    s.goal = ts::metricGoal(name);  // the rule early stopping and the checkpoint policy use
    loadSummary_.bind(1, runId).bind(2, metric);
    if (loadSummary_.step()) {  // a resumed run or another writer's: continue its summary
        s.count = loadSummary_.integer(0);
        s.last = columnValue(loadSummary_, 1);
        s.lastStep = loadSummary_.integer(3);
        s.hasValue = !(loadSummary_.isNull(4) && loadSummary_.isNull(5));
        s.min = columnValue(loadSummary_, 4);
        s.max = columnValue(loadSummary_, 6);
        s.best = columnValue(loadSummary_, 8);
        s.bestStep = loadSummary_.integer(10);
        if (!loadSummary_.isNull(11)) series.chunk = loadSummary_.integer(11) + 1;  // never rewrite its chunks
    }
    loadSummary_.reset();
    series.open.reserve(64);
    return series_.emplace(key, std::move(series)).first->second;
}

void WriterDb::addMetric(std::int64_t runId, const std::string& name, std::int64_t step, double value, double wallTime)
{
    const std::int64_t metric = metricId(name);
    Series& series = this->series(runId, metric, name);
    series.open.push_back({step, value, std::isfinite(wallTime) ? wallTime : 0.0});
    ++series.pending;
    if (series.open.size() == kChunkPoints) {  // full: written once more at the batch's end, then left alone
        series.full.push_back(std::move(series.open));
        series.open = {};
        series.open.reserve(kChunkPoints);
    }

    Summary& s = series.summary;
    if (s.count++ == 0 || step >= s.lastStep) s.last = value, s.lastStep = step;
    if (!std::isnan(value)) {
        const bool better = s.goal == MetricGoal::Minimise ? value < s.best : value > s.best;
        if (!s.hasValue) {
            s.hasValue = true;
            s.min = s.max = value;
            s.best = s.goal == MetricGoal::None ? NAN : value;  // no goal, no best
            s.bestStep = s.goal == MetricGoal::None ? 0 : step;
        } else {
            s.min = std::min(s.min, value);
            s.max = std::max(s.max, value);
            if (s.goal != MetricGoal::None && better) s.best = value, s.bestStep = step;
        }
    }
    touched_.insert({runId, metric});
}

void WriterDb::writeChunk(const Key& key, std::int64_t chunk, const std::vector<PointRecord>& points)
{
    std::int64_t lo = points.front().step, hi = lo;
    for (const PointRecord& p : points) lo = std::min(lo, p.step), hi = std::max(hi, p.step);
    insertChunk_.bind(1, key.run).bind(2, key.metric).bind(3, chunk).bind(4, lo).bind(5, hi);
    insertChunk_.bind(6, std::int64_t(points.size()));
    insertChunk_.bindBlob(7, points.data(), points.size() * sizeof(PointRecord)).run();
}

std::int64_t WriterDb::writeSeries(std::string& error)
{
    std::int64_t lost = 0;
    for (const Key& k : touched_) {
        Series& series = series_.at(k);
        try {
            // A chunk is (re)written whole: the one being filled is replaced batch after batch.
            for (const auto& chunk : series.full) writeChunk(k, series.chunk++, chunk);
            series.full.clear();
            if (!series.open.empty()) writeChunk(k, series.chunk, series.open);
            const Summary& s = series.summary;
            const double none = std::nan("");
            upsertSummary_.bind(1, k.run).bind(2, k.metric).bind(3, s.count);
            bindValue(upsertSummary_, 4, s.last);
            upsertSummary_.bind(6, s.lastStep);
            bindValue(upsertSummary_, 7, s.hasValue ? s.min : none);
            bindValue(upsertSummary_, 9, s.hasValue ? s.max : none);
            bindValue(upsertSummary_, 11, s.hasValue ? s.best : none);
            upsertSummary_.bind(13, s.bestStep);
            upsertSummary_.run();
            series.pending = 0;
        } catch (const StoreError& e) {
            if ((sqlite3_errcode(db_.handle()) & 0xff) != SQLITE_CONSTRAINT) throw;
            if (error.empty()) error = e.what();  // e.g. points of a run deleted meanwhile
            lost += series.pending;
            finished_.insert(k.run);  // forget the series
        }
    }
    touched_.clear();
    // Finished runs' series leave memory (a later point reloads them from the file).
    if (!finished_.empty()) {
        std::erase_if(series_, [&](const auto& kv) { return finished_.count(kv.first.run) != 0; });
        finished_.clear();
    }
    return lost;
}

void WriterDb::forgetCaches()
{
    metricIds_.clear();
    series_.clear();
    touched_.clear();
    finished_.clear();
}

void WriterDb::addLog(std::int64_t runId, const LogLine& line)
{
    insertLog_.bind(1, runId).bind(2, line.time).bind(3, line.level).bind(4, line.message.text);
    insertLog_.bind(5, line.message.id).bind(6, encodeMessageArgs(line.message.args)).run();
}

void WriterDb::addSystemSample(std::int64_t runId, const SystemSample& s)
{
    insertSystem_.bind(1, runId).bind(2, s.wallTime).bind(3, s.cpuPercent).bind(4, s.ramBytes).bind(5, s.gpuPercent);
    insertSystem_.bind(6, s.gpuMemoryUsed).bind(7, s.gpuMemoryTotal).bind(8, s.gpuTemperature).bind(9, s.gpuPowerWatts);
    insertSystem_.bind(10, s.gpuClockMHz);
    insertSystem_.run();
}

void WriterDb::addCheckpoint(const CheckpointRecord& r)
{
    if (r.best) clearBest_.bind(1, r.runId).run();  // one best per run
    insertCheckpoint_.bind(1, r.runId).bind(2, r.path).bind(3, r.statePath).bind(4, r.step).bind(5, r.epoch);
    insertCheckpoint_.bind(6, r.metricName);
    if (!r.metricName.empty()) insertCheckpoint_.bind(7, r.metricValue);
    insertCheckpoint_.bind(8, std::int64_t(r.best)).bind(9, r.sizeBytes).bind(10, r.sha256).bind(11, r.stateSha256);
    insertCheckpoint_.bind(12, r.createdTime > 0 ? r.createdTime : unixNow()).run();
}

void WriterDb::removeCheckpoint(std::int64_t runId, const std::string& path)
{
    removeCheckpoint_.bind(1, runId).bind(2, path).run();
}

void WriterDb::finishRun(std::int64_t runId, RunStatus status, const Message& message)
{
    finish_.bind(1, runId).bind(2, std::string(runStatusName(status))).bind(3, message.text).bind(4, unixNow());
    finish_.bind(5, message.id).bind(6, encodeMessageArgs(message.args)).run();
    finished_.insert(runId);
}

void WriterDb::heartbeat(const std::unordered_set<std::int64_t>& runs)
{
    const double now = unixNow();
    for (std::int64_t id : runs) heartbeat_.bind(1, id).bind(2, now).run();
}

void WriterDb::setText(std::int64_t runId, const char* column, const std::string& value)
{
    Statement s(db_, std::string("UPDATE runs SET ") + column + " = ?2 WHERE id = ?1");
    s.bind(1, runId).bind(2, value).run();
    if (db_.changes() == 0) throw StoreError(db_.path() + ": there is no run " + std::to_string(runId));
}

void WriterDb::deleteRun(std::int64_t runId, const std::unordered_set<std::int64_t>& openHere)
{
    Statement find(db_, "SELECT status, host, pid, heartbeat FROM runs WHERE id = ?1");
    find.bind(1, runId);
    if (!find.step()) throw StoreError(db_.path() + ": there is no run " + std::to_string(runId));
    if (find.text(0) == "running") {
        const bool alive = openHere.count(runId) ||
                           (find.text(1) == host_ ? processAlive(find.integer(2)) : unixNow() - find.real(3) < kHeartbeatTimeout);
        if (alive)
            throw StoreError(db_.path() + ": run " + std::to_string(runId) +
                             " is still running; stop it before deleting it");
    }
    find.reset();
    Statement del(db_, "DELETE FROM runs WHERE id = ?1");
    del.bind(1, runId).run();
    // Its series (points queued before the delete included) are gone with it.
    std::erase_if(series_, [&](const auto& kv) { return kv.first.run == runId; });
    std::erase_if(touched_, [&](const Key& k) { return k.run == runId; });
}

}  // namespace ts::store
