#include "store/run_reader.h"

#include <algorithm>
#include <cstring>
#include <sqlite3.h>
#include <unordered_map>

#include "store/database.h"
#include "store/evaluations.h"
#include "store/message_columns.h"
#include "store/point_chunk.h"
#include "store/run_writer.h"
#include "store/schema.h"
#include "store/writer_db.h"

namespace ts {

using namespace store;

namespace {

// The pid column came with schema 2, the message's id and arguments with 5; an older file
// (read without upgrading) has none.
std::string runColumns(int schemaVersion)
{
    return std::string("SELECT r.id, r.experiment_id, e.name, r.name, r.status, r.start_time, r.end_time, r.heartbeat, "
                       "r.host, r.device, r.seed, r.parent_run_id, r.parent_relation, r.notes, r.tags, r.message, ") +
           (schemaVersion >= 2 ? "r.pid" : "0") + (schemaVersion >= 5 ? ", r.message_id, r.message_args" : ", '', ''");
}

Message readMessage(const Statement& s, int textColumn, int idColumn)
{
    return Message{s.text(textColumn), s.text(idColumn), decodeMessageArgs(s.text(idColumn + 1))};
}

RunInfo readRun(const Statement& s)
{
    RunInfo r;
    r.id = s.integer(0);
    r.experimentId = s.integer(1);
    r.experimentName = s.text(2);
    r.name = s.text(3);
    r.status = parseRunStatus(s.text(4)).value_or(RunStatus::Crashed);
    r.startTime = s.real(5);
    r.endTime = s.real(6);
    r.heartbeat = s.real(7);
    r.host = s.text(8);
    r.device = s.text(9);
    r.seed = std::uint64_t(s.integer(10));
    if (!s.isNull(11)) r.parentRunId = s.integer(11);
    r.parentRelation = s.text(12);
    r.notes = s.text(13);
    const std::string tags = s.text(14);
    for (std::size_t start = 0; start < tags.size();) {  // one tag per line
        std::size_t end = tags.find('\n', start);
        if (end == std::string::npos) end = tags.size();
        r.tags.push_back(tags.substr(start, end - start));
        start = end + 1;
    }
    r.message = readMessage(s, 15, 17);
    // Read-only, so it cannot mark the run crashed (the next writer does): say so already,
    // with the end the writer will store, the last sign of life.
    if (r.status == RunStatus::Running && runProcessGone(r.host, s.integer(16), r.heartbeat, unixNow())) {
        r.status = RunStatus::Crashed;
        r.endTime = r.heartbeat;
        r.message = makeMessage(MessageId::RunCrashed);
    }
    return r;
}

// Columns: name, count, last, last_nonfinite, last_step, min, min_nonfinite, max, max_nonfinite,
// best, best_nonfinite, best_step, starting at `c`.
MetricSummary readSummary(const Statement& s, int c, const std::string* name = nullptr)
{
    MetricSummary m;
    m.name = name ? *name : s.text(c);
    m.count = s.integer(c + 1);
    m.last = columnValue(s, c + 2);
    m.lastStep = s.integer(c + 4);
    m.min = columnValue(s, c + 5);
    m.max = columnValue(s, c + 7);
    m.best = columnValue(s, c + 9);
    m.bestStep = s.integer(c + 11);
    return m;
}

const char* const kSummaryColumns =
    "n.name, s.count, s.last, s.last_nonfinite, s.last_step, s.min, s.min_nonfinite, s.max, s.max_nonfinite, "
    "s.best, s.best_nonfinite, s.best_step FROM summaries s JOIN metric_names n ON n.id = s.metric_id";

}  // namespace

struct RunReader::Impl {
    Database db;
    Statement listRuns, listSummaries, run, summaries, parameters, metricNames, metricId, points,
        checkpoints, logs, system, dataVersion, allMetricNames;

    static const std::string& checked(const std::string& path)
    {
        const FileState state = inspectDatabase(path);
        if (!state.exists) throw StoreError(path + ": there is no run database here yet (it is created by the first run)");
        if (state.version == 0) throw StoreError(path + ": the run database is empty (never initialised)");
        return path;
    }

    explicit Impl(const std::string& path) : db(checked(path), Database::Mode::ReadOnly)
    {
        // A big page cache and memory-mapped reads: a chart reads a million points in one scan.
        db.exec("PRAGMA cache_size = -65536; PRAGMA mmap_size = 1073741824");
        const int version = inspectDatabase(path).version;
        const std::string columns = runColumns(version);
        listRuns = Statement(db, columns + " FROM runs r JOIN experiments e ON e.id = r.experiment_id "
                                                           "ORDER BY r.id DESC");
        // Without the join: names come from a map read first (a few hundred names at most).
        listSummaries = Statement(db, "SELECT run_id, metric_id, count, last, last_nonfinite, last_step, min, min_nonfinite, "
                                      "max, max_nonfinite, best, best_nonfinite, best_step FROM summaries");
        allMetricNames = Statement(db, "SELECT id, name FROM metric_names");
        run = Statement(db, columns + ", r.experiment_yaml FROM runs r "
                                                       "JOIN experiments e ON e.id = r.experiment_id WHERE r.id = ?1");
        summaries = Statement(db, std::string("SELECT ") + kSummaryColumns + " WHERE s.run_id = ?1 ORDER BY n.name");
        parameters = Statement(db, "SELECT key, value FROM parameters WHERE run_id = ?1 ORDER BY key");
        metricNames = Statement(db, "SELECT n.name FROM summaries s JOIN metric_names n ON n.id = s.metric_id "
                                    "WHERE s.run_id = ?1 ORDER BY n.name");
        metricId = Statement(db, "SELECT id FROM metric_names WHERE name = ?1");
        // The series' total count rides along, to size the read once.
        points = Statement(db, "SELECT data, (SELECT count FROM summaries WHERE run_id = ?1 AND metric_id = ?2) "
                               "FROM points WHERE run_id = ?1 AND metric_id = ?2 AND max_step > ?3 ORDER BY chunk");
        checkpoints = Statement(db, "SELECT id, run_id, path, state_path, step, epoch, metric_name, metric_value, best, "
                                    "size_bytes, sha256, state_sha256, created FROM checkpoints WHERE run_id = ?1 "
                                    "ORDER BY step, id");
        logs = Statement(db, std::string("SELECT time, level, message, ") +
                                 (version >= 5 ? "message_id, message_args" : "'', ''") +
                                 " FROM logs WHERE run_id = ?1 ORDER BY id");
        // The clock came with schema 3; older files read it as unknown.
        system = Statement(db, std::string("SELECT wall_time, cpu_percent, ram_bytes, gpu_percent, gpu_memory_used, "
                                           "gpu_memory_total, gpu_temperature, gpu_power_watts, ") +
                                   (version >= 3 ? "gpu_clock_mhz" : "NULL") +
                                   " FROM system_samples WHERE run_id = ?1 ORDER BY id");
        dataVersion = Statement(db, "PRAGMA data_version");
    }
};

// Resets a statement however its reading ends (an exception included).
struct Resetting {
    Statement& s;
    ~Resetting() { s.reset(); }
};

RunReader::RunReader(const Workspace& workspace) : workspace_(workspace), impl_(std::make_unique<Impl>(workspace.databasePath())) {}
RunReader::~RunReader() = default;

std::vector<RunListing> RunReader::listRuns()
{
    // One read transaction: runs and summaries from the same snapshot.
    impl_->db.exec("BEGIN");
    struct End {
        Database& db;
        ~End() { sqlite3_exec(db.handle(), "COMMIT", nullptr, nullptr, nullptr); }
    } end{impl_->db};
    std::vector<RunListing> out;
    std::unordered_map<std::int64_t, std::size_t> index;
    {
        Resetting r{impl_->listRuns};
        while (impl_->listRuns.step()) {
            index.emplace(impl_->listRuns.integer(0), out.size());
            out.push_back({readRun(impl_->listRuns), {}});
        }
    }
    std::unordered_map<std::int64_t, std::string> names;
    {
        Resetting r{impl_->allMetricNames};
        while (impl_->allMetricNames.step()) names.emplace(impl_->allMetricNames.integer(0), impl_->allMetricNames.text(1));
    }
    Resetting r{impl_->listSummaries};
    Statement& s = impl_->listSummaries;
    while (s.step()) {
        auto it = index.find(s.integer(0));
        if (it != index.end()) out[it->second].summaries.push_back(readSummary(s, 1, &names[s.integer(1)]));
    }
    return out;
}

std::optional<RunInfo> RunReader::run(std::int64_t runId)
{
    Resetting r{impl_->run};
    impl_->run.bind(1, runId);
    if (!impl_->run.step()) return std::nullopt;
    RunInfo info = readRun(impl_->run);
    info.experimentYaml = impl_->run.text(19);  // after the run columns
    return info;
}

std::vector<MetricSummary> RunReader::summaries(std::int64_t runId)
{
    Resetting r{impl_->summaries};
    impl_->summaries.bind(1, runId);
    std::vector<MetricSummary> out;
    while (impl_->summaries.step()) out.push_back(readSummary(impl_->summaries, 0));
    return out;
}

std::vector<std::pair<std::string, std::string>> RunReader::parameters(std::int64_t runId)
{
    Resetting r{impl_->parameters};
    impl_->parameters.bind(1, runId);
    std::vector<std::pair<std::string, std::string>> out;
    while (impl_->parameters.step()) out.emplace_back(impl_->parameters.text(0), impl_->parameters.text(1));
    return out;
}

std::vector<std::string> RunReader::metricNames(std::int64_t runId)
{
    Resetting r{impl_->metricNames};
    impl_->metricNames.bind(1, runId);
    std::vector<std::string> out;
    while (impl_->metricNames.step()) out.push_back(impl_->metricNames.text(0));
    return out;
}

MetricSeries RunReader::metric(std::int64_t runId, const std::string& name, std::int64_t afterStep)
{
    MetricSeries series;
    series.name = name;
    std::int64_t metric;
    {
        Resetting r{impl_->metricId};
        impl_->metricId.bind(1, name);
        if (!impl_->metricId.step()) return series;
        metric = impl_->metricId.integer(0);
    }
    // Decoded straight into the series; a point at or before afterStep is skipped.
    bool ascending = true;
    {
        Resetting r{impl_->points};
        impl_->points.bind(1, runId).bind(2, metric).bind(3, afterStep);
        sqlite3_stmt* s = impl_->points.handle();
        int rc;
        std::int64_t previous = afterStep;
        while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
            if (series.steps.empty() && afterStep < 0) {
                const auto n = std::size_t(sqlite3_column_int64(s, 1));
                series.steps.reserve(n), series.values.reserve(n), series.wallTimes.reserve(n);
            }
            const auto* p = static_cast<const unsigned char*>(sqlite3_column_blob(s, 0));
            const std::size_t n = std::size_t(sqlite3_column_bytes(s, 0)) / sizeof(PointRecord);
            for (std::size_t i = 0; i < n; ++i) {
                PointRecord rec;
                std::memcpy(&rec, p + i * sizeof(PointRecord), sizeof rec);
                if (rec.step <= afterStep) continue;
                ascending = ascending && rec.step > previous;
                previous = rec.step;
                series.steps.push_back(rec.step);
                series.values.push_back(rec.value);
                series.wallTimes.push_back(rec.wallTime);
            }
        }
        if (rc != SQLITE_DONE) impl_->db.fail("cannot read metric '" + name + "'");
    }
    if (ascending) return series;
    // Chunks hold points in arrival order: normally ascending steps. A resumed run that went
    // back to an earlier checkpoint logs some steps again; the later value wins.
    std::vector<PointRecord> records(series.steps.size());
    for (std::size_t i = 0; i < records.size(); ++i)
        records[i] = {series.steps[i], series.values[i], series.wallTimes[i]};
    std::stable_sort(records.begin(), records.end(),
                     [](const PointRecord& a, const PointRecord& b) { return a.step < b.step; });
    auto kept = std::unique(records.rbegin(), records.rend(),
                            [](const PointRecord& a, const PointRecord& b) { return a.step == b.step; });
    records.erase(records.begin(), kept.base());
    series.steps.resize(records.size()), series.values.resize(records.size()), series.wallTimes.resize(records.size());
    for (std::size_t i = 0; i < records.size(); ++i)
        series.steps[i] = records[i].step, series.values[i] = records[i].value, series.wallTimes[i] = records[i].wallTime;
    return series;
}

std::vector<CheckpointRecord> RunReader::checkpoints(std::int64_t runId)
{
    Statement& s = impl_->checkpoints;
    Resetting r{s};
    s.bind(1, runId);
    std::vector<CheckpointRecord> out;
    while (s.step()) {
        CheckpointRecord c;
        c.id = s.integer(0);
        c.runId = s.integer(1);
        c.path = s.text(2);
        c.statePath = s.text(3);
        c.step = s.integer(4);
        c.epoch = s.integer(5);
        c.metricName = s.text(6);
        c.metricValue = s.isNull(7) ? 0 : s.real(7);
        c.best = s.integer(8) != 0;
        c.sizeBytes = s.integer(9);
        c.sha256 = s.text(10);
        c.stateSha256 = s.text(11);
        c.createdTime = s.real(12);
        out.push_back(std::move(c));
    }
    return out;
}

std::vector<LogLine> RunReader::logs(std::int64_t runId)
{
    Statement& s = impl_->logs;
    Resetting r{s};
    s.bind(1, runId);
    std::vector<LogLine> out;
    while (s.step()) out.push_back({s.real(0), s.text(1), readMessage(s, 2, 3)});
    return out;
}

std::vector<EvaluationRecord> RunReader::evaluations(std::int64_t runId) { return store::readEvaluations(impl_->db, runId); }

std::vector<Prediction> RunReader::predictions(std::int64_t evaluationId)
{
    return store::readPredictions(impl_->db, evaluationId);
}

std::vector<SystemSample> RunReader::systemSamples(std::int64_t runId)
{
    Statement& s = impl_->system;
    Resetting r{s};
    s.bind(1, runId);
    std::vector<SystemSample> out;
    auto value = [&](int c) { return s.isNull(c) ? -1.0 : s.real(c); };  // NULL: unknown
    while (s.step())
        out.push_back({s.real(0), value(1), value(2), value(3), value(4), value(5), value(6), value(7), value(8)});
    return out;
}

std::int64_t RunReader::dataVersion()
{
    Resetting r{impl_->dataVersion};
    return impl_->dataVersion.step() ? impl_->dataVersion.integer(0) : 0;
}

std::string RunReader::integrityCheck()
{
    Statement check(impl_->db, "PRAGMA integrity_check");
    std::string report;
    while (check.step()) {
        if (!report.empty()) report += '\n';
        report += check.text(0);
    }
    return report;
}

}  // namespace ts
