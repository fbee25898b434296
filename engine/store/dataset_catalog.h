// The datasets a workspace has seen and their health checks, in studio.db (schema 6: tables
// datasets, data_checks, data_findings). For the CLI and the studio:
//
//     DatasetCatalog catalog(workspace);                 // creates or upgrades studio.db
//     std::int64_t id = catalog.remember(recordFor(spec, files));   // upsert by datasetKey
//     for (const DatasetRecord& d : catalog.datasets()) ...          // newest first
//     std::optional<StoredCheck> c = catalog.latestCheck(id);
//     bool current = c && isCurrent(*c, files);   // not datasetFingerprint(files.sources)
//     std::vector<HealthFinding> leaks = catalog.findings(c->id, FindingKind::ExactLeak);
//
// Checks are run by the DataCheckJob (jobs/job.h), which saves one here when it ends; a check
// of unchanged files returns the stored one at once unless forced.
//
// Writing: a check is written once, at the end of its job, in one short write transaction of
// this connection's own (BEGIN IMMEDIATE): SQLite serialises it with a RunWriter's batches
// (busy timeout), and readers are never blocked (WAL). One thread at a time per catalog.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "data/dataset_health.h"
#include "store/workspace.h"

namespace ts {

struct DatasetRecord {
    std::int64_t id = -1;      // set by the store
    std::string key;           // datasetKey(spec, baseDir) (data/dataset.h)
    std::string format;        // idx | cifar10 | csv | image_folder
    std::string location;      // the resolved path
    std::string description;   // "Fashion-MNIST (60,000 train, 10,000 test)"
    std::int64_t samples = 0;  // over every split
    std::vector<std::pair<std::string, std::int64_t>> splits;  // ("train", 60000), ("test", 10000)
    double lastSeen = 0;       // Unix seconds; set by remember()

    bool operator==(const DatasetRecord&) const = default;
};

// The record of an opened dataset (key, format, location, sizes of its file splits).
DatasetRecord datasetRecordFor(const DatasetSpec& spec, const std::string& baseDir, const DatasetFiles& files);

struct StoredCheck {
    std::int64_t id = -1;
    std::int64_t datasetId = -1;
    std::string fingerprint;  // datasetFingerprint(files) when the check ran
    double created = 0;       // Unix seconds
    HealthReport report;      // everything but the findings (read them by kind: findings())
};

// Whether the check still describes the files (their fingerprint is unchanged): the one test,
// so every front end agrees with the job.
inline bool isCurrent(const StoredCheck& check, const DatasetFiles& files)
{
    return check.fingerprint == datasetFingerprint(files);
}

class DatasetCatalog {
public:
    // Opens studio.db read-write (creating or upgrading it, like RunWriter). Throws StoreError
    // (not a TrainStudio database, a newer schema, an unwritable folder).
    explicit DatasetCatalog(const Workspace& workspace);
    ~DatasetCatalog();
    DatasetCatalog(const DatasetCatalog&) = delete;
    DatasetCatalog& operator=(const DatasetCatalog&) = delete;

    // Inserts or updates the dataset with record.key (its last_seen becomes now); returns its id.
    std::int64_t remember(const DatasetRecord& record);
    std::vector<DatasetRecord> datasets();  // newest first (last seen)
    std::optional<DatasetRecord> dataset(const std::string& key);
    std::optional<DatasetRecord> dataset(std::int64_t id);

    // Saves a finished check and all of report.findings in one transaction; returns its id.
    // The dataset's older checks are deleted with it (only the newest is ever read).
    std::int64_t saveCheck(std::int64_t datasetId, const std::string& fingerprint, const HealthReport& report);
    // The newest check of the dataset (without its findings), if any.
    std::optional<StoredCheck> latestCheck(std::int64_t datasetId);
    std::optional<StoredCheck> check(std::int64_t checkId);
    // The newest check, when its fingerprint equals `fingerprint` (the files are unchanged).
    std::optional<StoredCheck> currentCheck(std::int64_t datasetId, const std::string& fingerprint);
    // A check's findings of one kind (or every kind), in stored order; `limit` < 0: all.
    std::vector<HealthFinding> findings(std::int64_t checkId, std::optional<FindingKind> kind = std::nullopt,
                                        std::int64_t limit = -1, std::int64_t offset = 0);
    // Deletes the dataset, its checks and findings (not the files).
    void forget(std::int64_t datasetId);

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace ts
