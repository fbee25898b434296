#include "store/schema.h"

#include <sqlite3.h>

#include <cstdio>
#include <filesystem>
#include <cstring>
#include <sys/stat.h>

#include "store/database.h"
#include "store/run_writer.h"

namespace ts::store {

namespace {

// Version 1: the base schema. Points and summaries are WITHOUT ROWID tables keyed by what
// they are looked up by, so one metric of one run is a single contiguous range of the B-tree.
const char* const kMigration1 = R"sql(
CREATE TABLE experiments (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    created REAL NOT NULL,
    runs_started INTEGER NOT NULL DEFAULT 0   -- numbers default run names, never reused
);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    experiment_id INTEGER NOT NULL REFERENCES experiments(id),
    name TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued','running','finished','failed','stopped','crashed')),
    start_time REAL NOT NULL DEFAULT 0,
    end_time REAL NOT NULL DEFAULT 0,
    heartbeat REAL NOT NULL DEFAULT 0,
    host TEXT NOT NULL DEFAULT '',
    device TEXT NOT NULL DEFAULT '',
    seed INTEGER NOT NULL DEFAULT 0,
    parent_run_id INTEGER REFERENCES runs(id) ON DELETE SET NULL,
    parent_relation TEXT NOT NULL DEFAULT '',
    notes TEXT NOT NULL DEFAULT '',
    tags TEXT NOT NULL DEFAULT '',              -- one tag per line
    message TEXT NOT NULL DEFAULT '',
    experiment_yaml TEXT NOT NULL DEFAULT ''
);
CREATE TABLE parameters (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    number REAL,                                -- NULL when the value is not a number
    PRIMARY KEY (run_id, key)
) WITHOUT ROWID;
CREATE TABLE metric_names (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);
-- Points in chunks (store/point_chunk.h): `data` holds `count` records (step, value,
-- wall time) in arrival order; chunk numbers count up per (run, metric). min_step/max_step
-- let an incremental read skip chunks it has seen.
CREATE TABLE points (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    metric_id INTEGER NOT NULL REFERENCES metric_names(id),
    chunk INTEGER NOT NULL,
    min_step INTEGER NOT NULL,
    max_step INTEGER NOT NULL,
    count INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (run_id, metric_id, chunk)
) WITHOUT ROWID;
-- value columns that may hold NaN/inf keep a flag beside them (SQLite stores a bound NaN as
-- NULL): the REAL is NULL and *_nonfinite says 1 NaN, 2 +inf, 3 -inf.
-- Maintained by the writer as points arrive; min/max/best are NULL until a non-NaN value.
CREATE TABLE summaries (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    metric_id INTEGER NOT NULL REFERENCES metric_names(id),
    count INTEGER NOT NULL,
    last REAL, last_nonfinite INTEGER, last_step INTEGER NOT NULL,
    min REAL, min_nonfinite INTEGER,
    max REAL, max_nonfinite INTEGER,
    best REAL, best_nonfinite INTEGER, best_step INTEGER NOT NULL,
    PRIMARY KEY (run_id, metric_id)
) WITHOUT ROWID;
CREATE TABLE checkpoints (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    state_path TEXT NOT NULL DEFAULT '',
    step INTEGER NOT NULL,
    epoch INTEGER NOT NULL,
    metric_name TEXT NOT NULL DEFAULT '',
    metric_value REAL,
    best INTEGER NOT NULL DEFAULT 0,
    size_bytes INTEGER NOT NULL DEFAULT 0,
    sha256 TEXT NOT NULL DEFAULT '',
    state_sha256 TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL
);
CREATE TABLE system_samples (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    wall_time REAL NOT NULL,
    cpu_percent REAL, ram_bytes REAL,
    gpu_percent REAL, gpu_memory_used REAL, gpu_memory_total REAL,
    gpu_temperature REAL, gpu_power_watts REAL
);
CREATE INDEX system_samples_by_run ON system_samples(run_id, id);
CREATE TABLE logs (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    time REAL NOT NULL,
    level TEXT NOT NULL,
    message TEXT NOT NULL
);
CREATE INDEX logs_by_run ON logs(run_id, id);
)sql";

// Version 2: the writer's pid, so a run whose process died on this host is marked crashed at
// the next open without waiting for its heartbeat to age; an index for the runs that such a
// check (and the studio's "running" filter) looks at; checkpoints found by run in step order
// (deleting a run's rows and listing its checkpoints no longer scan the table).
const char* const kMigration2 = R"sql(
ALTER TABLE runs ADD COLUMN pid INTEGER NOT NULL DEFAULT 0;
CREATE INDEX runs_by_status ON runs(status);
CREATE INDEX checkpoints_by_run ON checkpoints(run_id, step);
)sql";

// Version 3: the GPU's SM clock beside its load, so a slow stretch can be told apart from
// throttling (power or temperature caps lower the clock). NULL: unknown, as the other gpu_*.
const char* const kMigration3 = R"sql(
ALTER TABLE system_samples ADD COLUMN gpu_clock_mhz REAL;
)sql";

// Version 4: evaluations of a run's checkpoints (the evaluate job): the metrics over a split
// and every sample's prediction with the softmax probabilities (float32 little-endian, one
// per class), which calibration, confusion matrices and "worst samples" are computed from.
const char* const kMigration4 = R"sql(
CREATE TABLE evaluations (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    checkpoint_path TEXT NOT NULL,
    step INTEGER NOT NULL,
    epoch INTEGER NOT NULL,
    split TEXT NOT NULL,
    samples INTEGER NOT NULL,
    classes INTEGER NOT NULL,
    created REAL NOT NULL
);
CREATE INDEX evaluations_by_run ON evaluations(run_id, id);
CREATE TABLE evaluation_metrics (
    evaluation_id INTEGER NOT NULL REFERENCES evaluations(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    value REAL, value_nonfinite INTEGER,
    PRIMARY KEY (evaluation_id, name)
) WITHOUT ROWID;
CREATE TABLE predictions (
    evaluation_id INTEGER NOT NULL REFERENCES evaluations(id) ON DELETE CASCADE,
    sample INTEGER NOT NULL,
    label INTEGER NOT NULL,
    predicted INTEGER NOT NULL,
    confidence REAL NOT NULL,
    probabilities BLOB NOT NULL,
    PRIMARY KEY (evaluation_id, sample)
) WITHOUT ROWID;
)sql";

// Version 5: log lines and run messages keep the message's id and arguments beside their
// English text (store/message_columns.h), so the studio words them in its user's language.
// Older rows have an empty id: they show their text as it is.
const char* const kMigration5 = R"sql(
ALTER TABLE logs ADD COLUMN message_id TEXT NOT NULL DEFAULT '';
ALTER TABLE logs ADD COLUMN message_args TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN message_id TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN message_args TEXT NOT NULL DEFAULT '';
)sql";

// Version 6: the Datasets page. The datasets the workspace has seen (one row per dataset, keyed
// by data/dataset_identity.h's datasetKey: format, resolved path, the options that change samples), their health checks with one row per
// finding, kept until the files change (a check whose fingerprint differs from the files' is
// stale), and the label overlay that the loader applies (relabel or exclude a sample of a file
// split), so the dataset files themselves are never modified.
const char* const kMigration6 = R"sql(
CREATE TABLE datasets (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    format TEXT NOT NULL,
    location TEXT NOT NULL,
    description TEXT NOT NULL,
    samples INTEGER NOT NULL,
    splits TEXT NOT NULL,
    last_seen REAL NOT NULL
);
CREATE TABLE data_checks (
    id INTEGER PRIMARY KEY,
    dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
    fingerprint TEXT NOT NULL,
    created REAL NOT NULL,
    seconds REAL NOT NULL,
    summary TEXT NOT NULL
);
CREATE INDEX data_checks_by_dataset ON data_checks(dataset_id, id);
CREATE TABLE data_findings (
    check_id INTEGER NOT NULL REFERENCES data_checks(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,                      -- data/dataset_health.h findingKindName
    split TEXT NOT NULL,
    sample INTEGER NOT NULL,
    other_split TEXT NOT NULL DEFAULT '',
    other_sample INTEGER NOT NULL DEFAULT -1,
    value REAL,
    value_nonfinite INTEGER,                 -- store/database.h nonfiniteCode (an empty class: inf)
    cause TEXT NOT NULL DEFAULT '',          -- unreadable: damaged_png, non_finite, ...
    column_name TEXT NOT NULL DEFAULT '',    -- tables
    file TEXT NOT NULL DEFAULT '',
    position INTEGER NOT NULL DEFAULT -1,    -- byte offset or line
    detail TEXT NOT NULL DEFAULT ''
);
CREATE INDEX data_findings_by_check ON data_findings(check_id, kind);
CREATE TABLE label_overlay (
    dataset_key TEXT NOT NULL,
    split TEXT NOT NULL CHECK (split IN ('train','test')),
    sample INTEGER NOT NULL,
    action TEXT NOT NULL CHECK (action IN ('relabel','exclude')),
    label INTEGER NOT NULL DEFAULT -1,
    created REAL NOT NULL,
    PRIMARY KEY (dataset_key, split, sample)
) WITHOUT ROWID;
-- The overlay a run trained with, copied when it starts (store/label_overlay.h): its resume
-- and its evaluations see the same data even when the marks change afterwards.
CREATE TABLE run_label_overlay (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    split TEXT NOT NULL,
    sample INTEGER NOT NULL,
    action TEXT NOT NULL,
    label INTEGER NOT NULL DEFAULT -1,
    PRIMARY KEY (run_id, split, sample)
) WITHOUT ROWID;
-- Suspect-label checks (the label check job): in-sample under a run's checkpoint, or K-fold.
-- One row per training sample checked, with its rank (1 = most suspect); sample is the index
-- in the training file split, as label_overlay addresses it.
CREATE TABLE label_checks (
    id INTEGER PRIMARY KEY,
    dataset_key TEXT NOT NULL,
    method TEXT NOT NULL CHECK (method IN ('in_sample','k_fold')),
    run_id INTEGER REFERENCES runs(id) ON DELETE SET NULL,
    evaluation_id INTEGER REFERENCES evaluations(id) ON DELETE SET NULL,
    folds INTEGER NOT NULL DEFAULT 0,
    epochs INTEGER NOT NULL DEFAULT 0,
    samples INTEGER NOT NULL,
    classes INTEGER NOT NULL,
    suspects INTEGER NOT NULL,
    overlay_hash TEXT NOT NULL DEFAULT '',
    experiment_yaml TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL,
    seconds REAL NOT NULL
);
CREATE INDEX label_checks_by_dataset ON label_checks(dataset_key, id);
CREATE TABLE label_suspects (
    check_id INTEGER NOT NULL REFERENCES label_checks(id) ON DELETE CASCADE,
    rank INTEGER NOT NULL,
    sample INTEGER NOT NULL,
    label INTEGER NOT NULL,
    predicted INTEGER NOT NULL,
    confidence REAL NOT NULL,
    self_confidence REAL NOT NULL,
    margin REAL NOT NULL,
    suspect INTEGER NOT NULL,
    PRIMARY KEY (check_id, rank)
) WITHOUT ROWID;
)sql";

// Version 7: the Learn page's progress (store/lesson_progress.h): when each lesson was started
// and first passed, and the last check's headline (its message id and arguments beside the
// English, as log lines keep theirs), so the list shows progress without checking again.
const char* const kMigration7 = R"sql(
CREATE TABLE lesson_progress (
    lesson_id TEXT PRIMARY KEY,
    started REAL NOT NULL DEFAULT 0,         -- Unix seconds; 0: never started
    passed REAL NOT NULL DEFAULT 0,          -- the first check that passed; 0: not yet
    checked REAL NOT NULL DEFAULT 0,         -- the last check
    last_passed INTEGER NOT NULL DEFAULT 0,  -- what the last check said
    message TEXT NOT NULL DEFAULT '',
    message_id TEXT NOT NULL DEFAULT '',
    message_args TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;
)sql";

// Version 8: a duplicate or leaked pair names both samples' files (data/dataset_health.h:
// `file` and `other_file`). The stored checks are dropped: they lack the files, and a check is
// derived data that the next `data check` or Check now recomputes from the dataset.
const char* const kMigration8 = R"sql(
ALTER TABLE data_findings ADD COLUMN other_file TEXT NOT NULL DEFAULT '';
DELETE FROM data_findings;
DELETE FROM data_checks;
)sql";

const char* const kMigrations[] = {kMigration1, kMigration2, kMigration3, kMigration4,
                                   kMigration5, kMigration6, kMigration7, kMigration8};
static_assert(sizeof kMigrations / sizeof kMigrations[0] == kSchemaVersion);

}  // namespace

FileState inspectDatabase(const std::string& path)
{
    FileState state;
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || st.st_size == 0) return state;
    state.exists = true;
    // Check the magic ourselves: SQLite would only say "file is not a database" later.
    char header[16] = {};
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) throw StoreError(path + ": cannot read the file: " + std::strerror(errno));
    const std::size_t got = std::fread(header, 1, sizeof header, f);
    std::fclose(f);
    if (got != sizeof header || std::memcmp(header, "SQLite format 3", 16) != 0)
        throw StoreError(path + ": not a TrainStudio database (not a SQLite file); choose another workspace folder "
                                "or move the file away");

    Database db(path, Database::Mode::ReadOnly);  // read-only: refusing must never modify
    std::int64_t appId = 0, version = 0, objects = 0;
    try {
        appId = db.scalar("PRAGMA application_id");
        version = db.scalar("PRAGMA user_version");
        objects = db.scalar("SELECT count(*) FROM sqlite_master");
    } catch (const StoreError& e) {
        const int code = db.failureCode() & 0xff;
        if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB) throw StoreError(damagedDatabaseMessage(path, e.what(), kSchemaVersion));
        throw;
    }
    if (appId != kApplicationId && !(appId == 0 && objects == 0 && version == 0))
        throw StoreError(path + ": not a TrainStudio database (a SQLite database of another application, id " +
                         std::to_string(appId) + "); choose another workspace folder");
    if (version > kSchemaVersion)
        throw StoreError(path + ": written by a newer TrainStudio (schema " + std::to_string(version) +
                         ", this version reads up to " + std::to_string(kSchemaVersion) +
                         "); update TrainStudio to open it");
    state.version = int(version);
    return state;
}

std::string damagedDatabaseMessage(const std::string& path, std::string detail, int version)
{
    const std::filesystem::path p(path);
    const std::string dir = p.parent_path().string(), n = p.filename().string();
    if (detail.rfind(path + ": ", 0) == 0) detail.erase(0, path.size() + 2);
    // The shell's .dump (Debian's sqlite3 has no .recover: its build lacks sqlite_dbpage) writes
    // what it can read and ends in ROLLBACK at the first damaged page: keep what came before.
    // It leaves out the header's ids, which the store checks, so they are set again.
    return path + " is damaged (" + detail + "); nothing was written to it. To recover what SQLite can, keeping the "
           "damaged files in " + n + ".damaged/: cd '" + dir + "' && mkdir " + n + ".damaged && { mv " + n + " " + n +
           "-wal " + n + "-shm " + n + ".damaged/ 2>/dev/null; { sqlite3 -readonly " + n + ".damaged/" + n +
           " .dump | sed 's/^ROLLBACK; -- due to errors$/COMMIT;/'; echo 'PRAGMA application_id = " +
           std::to_string(kApplicationId) + "; PRAGMA user_version = " + std::to_string(version) + ";'; } | sqlite3 " +
           n + "; } (sqlite3 is in the Debian package sqlite3)";
}

FileState inspectDatabaseForWriting(const std::string& path)
{
    const FileState state = inspectDatabase(path);
    std::error_code ec;
    if (!state.exists || std::int64_t(std::filesystem::file_size(path, ec)) > kQuickCheckBytes || ec) return state;
    Database db(path, Database::Mode::ReadOnly);
    std::string found;
    try {
        Statement check(db, "PRAGMA quick_check(3)");
        while (check.step())
            if (const std::string line = check.text(0); line != "ok") found += (found.empty() ? "" : "; ") + line;
    } catch (const StoreError& e) {
        found = e.what();
    }
    if (!found.empty()) throw StoreError(damagedDatabaseMessage(path, found, state.version));
    return state;
}

void migrate(Database& db, int targetVersion)
{
    // Checked again under the write lock: another process may have migrated meanwhile.
    Transaction tx(db);
    const int from = int(db.scalar("PRAGMA user_version"));
    if (from >= targetVersion) return;
    for (int v = from + 1; v <= targetVersion; ++v) db.exec(kMigrations[v - 1]);
    db.exec("PRAGMA application_id = " + std::to_string(kApplicationId));
    db.exec("PRAGMA user_version = " + std::to_string(targetVersion));
    tx.commit();
}

}  // namespace ts::store
