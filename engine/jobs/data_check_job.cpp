// The data check job: opens the experiment's dataset files, reuses the stored check while the
// files are unchanged (unless forced), else runs the health check (data/dataset_health.h) and
// saves its report in the workspace (store/dataset_catalog.h).
#include <stdexcept>

#include "data/dataset.h"
#include "data/dataset_health.h"
#include "jobs/job_parts.h"
#include "store/dataset_catalog.h"
#include "store/workspace.h"
#include "train/run_control.h"

namespace ts {

namespace {

void addMetrics(FinishedEvent& done, const HealthReport& r, std::int64_t checkId, bool reused)
{
    done.metrics["check_id"] = double(checkId);
    done.metrics["reused"] = reused ? 1 : 0;
    done.metrics["seconds"] = r.seconds;
    done.metrics["unreadable"] = double(r.total(FindingKind::Unreadable));
    done.metrics["exact_duplicates"] = double(r.total(FindingKind::ExactDuplicate));
    done.metrics["exact_leaks"] = double(r.total(FindingKind::ExactLeak));
    done.metrics["near_duplicates"] = double(r.total(FindingKind::NearDuplicate));
    done.metrics["near_leaks"] = double(r.total(FindingKind::NearLeak));
    if (!r.splits.empty()) done.metrics["imbalance_ratio"] = r.splits.front().imbalanceRatio;
}

std::string total(const HealthReport& r, FindingKind kind) { return std::to_string(r.total(kind)); }

Message summaryMessage(const HealthReport& r)
{
    std::vector<std::string> args{total(r, FindingKind::Unreadable), total(r, FindingKind::ExactDuplicate),
                                  total(r, FindingKind::ExactLeak)};
    if (!r.images) return makeMessage(MessageId::DataCheckSummary, std::move(args));
    args.insert(args.end(), {total(r, FindingKind::NearDuplicate), total(r, FindingKind::NearLeak), std::to_string(r.nearThreshold)});
    return makeMessage(MessageId::DataCheckSummaryImages, std::move(args));
}

// The job's result is the stored check of unchanged files.
void reuse(JobResult& result, const StoredCheck& stored)
{
    result.dataCheckId = stored.id;
    addMetrics(result.finished, stored.report, stored.id, true);
    const HealthReport& r = stored.report;
    result.finished.message =
        makeMessage(MessageId::DataCheckReused, {std::to_string(stored.id), total(r, FindingKind::Unreadable),
                                                 total(r, FindingKind::ExactDuplicate), total(r, FindingKind::ExactLeak),
                                                 total(r, FindingKind::NearDuplicate), total(r, FindingKind::NearLeak)});
}

}  // namespace

JobResult runDataCheckJob(const DataCheckJob& job, const JobEnvironment& env, RunControl& control, TrainListener& listener)
{
    return finishJob(JobResult{}, listener, [&](JobResult& result) {
        if (env.workspaceDir.empty())
            throw std::invalid_argument("a data check keeps its report in a workspace: give the job one (--workspace DIR)");
        const DatasetSpec& spec = job.experiment.dataset;
        const std::string baseDir = experimentDataDirectory(job.experiment);
        const Workspace workspace = Workspace::open(env.workspaceDir);
        DatasetCatalog catalog(workspace);

        // A stored check answers this job when its files are unchanged and it used the same threshold.
        const auto fits = [&](const std::optional<StoredCheck>& c) {
            return c && (!c->report.images || c->report.nearThreshold == job.nearThreshold);
        };
        // The fast path: a current stored check is found without opening (inflating) the data.
        if (!job.force) {
            DatasetFiles unopened;
            unopened.path = resolvedDatasetPath(spec, baseDir);
            if (std::optional<DatasetRecord> known = catalog.dataset(datasetKey(spec, baseDir)))
                if (std::optional<StoredCheck> stored = catalog.currentCheck(known->id, datasetFingerprint(unopened));
                    fits(stored)) {
                    catalog.remember(*known);  // seen now
                    reuse(result, *stored);
                    return;
                }
        }

        publishLog(listener, LogEvent::Level::Info, makeMessage(MessageId::JobLoadingData, {spec.path}));
        DatasetFiles files;
        std::string openError;
        try {
            files = openDatasetFiles(spec, baseDir);
        } catch (const DataError& e) {
            // A table the reader refuses (a ragged row, an empty cell) is still described row
            // by row; any other data that cannot be opened ends the job with the reader's message.
            if (spec.format != "csv") throw;
            openError = e.what();
            files.path = resolvedDatasetPath(spec, baseDir);
            files.sources = {files.path};
            publishLog(listener, LogEvent::Level::Warning, Message{openError});
        }
        if (files.testError) {  // the training files are still checked; the report keeps why the test ones are not
            openError = files.testError->what();
            publishLog(listener, LogEvent::Level::Warning, Message{openError});
        }

        const std::int64_t datasetId = catalog.remember(datasetRecordFor(spec, baseDir, files));
        const std::string fingerprint = datasetFingerprint(files);
        if (!job.force)
            if (std::optional<StoredCheck> stored = catalog.currentCheck(datasetId, fingerprint); fits(stored)) {
                reuse(result, *stored);
                return;
            }

        HealthOptions options;
        options.nearThreshold = job.nearThreshold;
        TableSource table;
        if (spec.format == "csv") {
            table.path = files.path;
            table.labelColumn = spec.labelColumn;
            table.groupColumn = spec.groupColumn;
            table.featureColumns = spec.featureColumns;
        }
        const HealthProgress progress = [&](std::int64_t done, std::int64_t total, const Message& what) {
            listener.onEvent(ProgressEvent{done, total, what});
            return !control.stopRequested();
        };
        HealthReport report;
        try {
            report = checkDatasetHealth(files, options, progress, spec.format == "csv" ? &table : nullptr, openError);
        } catch (const HealthCheckStopped&) {
            result.finished.outcome = FinishedEvent::Outcome::Stopped;
            result.finished.message = makeMessage(MessageId::DataCheckStopped);
            return;
        }
        result.dataCheckId = catalog.saveCheck(datasetId, fingerprint, report);
        addMetrics(result.finished, report, result.dataCheckId, false);
        result.finished.message = summaryMessage(report);
    });
}

}  // namespace ts
