// The dataset catalog (store/dataset_catalog.h) and the data check job end to end on a
// temporary workspace: datasets remembered by key, a check's round trip, a stored check reused
// while the files are unchanged and stale once they change, damaged files named in the failure.
#include <QTemporaryDir>
#include <QtTest>

#include <zlib.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <thread>

#include "blob_dataset.h"
#include "data/dataset_health.h"
#include "jobs/job.h"
#include "store/dataset_catalog.h"
#include "store/run_writer.h"
#include "train/run_control.h"

using namespace ts;
namespace fs = std::filesystem;

namespace {

using Bytes = std::vector<std::uint8_t>;

void put32(Bytes& b, std::uint32_t v)
{
    for (int s = 24; s >= 0; s -= 8) b.push_back(std::uint8_t(v >> s));
}

void writeBytes(const std::string& path, const Bytes& bytes, bool gzip)
{
    if (gzip) {
        gzFile f = gzopen(path.c_str(), "wb");
        gzwrite(f, bytes.data(), unsigned(bytes.size()));
        gzclose(f);
        return;
    }
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

// IDX files of 8 x 8 images: image i is a pseudo-random pattern of seed `seeds[i]`, so equal
// seeds are exact duplicates.
void writeIdx(const std::string& dir, const std::string& prefix, const std::vector<int>& seeds, bool gzip = true)
{
    fs::create_directories(dir);
    Bytes images, labels;
    put32(images, 0x803), put32(images, std::uint32_t(seeds.size())), put32(images, 8), put32(images, 8);
    put32(labels, 0x801), put32(labels, std::uint32_t(seeds.size()));
    for (std::size_t i = 0; i < seeds.size(); ++i) {
        std::uint32_t x = std::uint32_t(seeds[i]) * 2654435761u + 12345u;
        for (int p = 0; p < 64; ++p) {
            x = x * 1664525u + 1013904223u;
            images.push_back(std::uint8_t(x >> 24));
        }
        labels.push_back(std::uint8_t(i % 10));
    }
    const std::string ext = gzip ? ".gz" : "";
    writeBytes(dir + "/" + prefix + "-images-idx3-ubyte" + ext, images, gzip);
    writeBytes(dir + "/" + prefix + "-labels-idx1-ubyte" + ext, labels, gzip);
}

std::vector<int> range(int from, int to)
{
    std::vector<int> v;
    for (int i = from; i < to; ++i) v.push_back(i);
    return v;
}

ExperimentSpec idxExperiment(const std::string& dir)
{
    ExperimentSpec spec = test::blobSpec();
    spec.name = "check";
    spec.dataset = DatasetSpec{};
    spec.dataset.format = "idx";
    spec.dataset.path = dir;
    return spec;
}

HealthReport sampleReport()
{
    HealthReport r;
    r.classNames = {"cat", "dog\twith a tab"};
    SplitHealth s;
    s.split = "train";
    s.description = "pets train";
    s.samples = 30;
    s.classCounts = {30, 0};
    s.imbalanceRatio = INFINITY;
    s.suggestedClassWeights = {1, 0};
    r.splits = {s};
    r.counts = {{FindingKind::Unreadable, "train", "", "damaged_png", 1, 1}, {FindingKind::ExactLeak, "test", "train", "", 2, 2}};
    HealthFinding a;
    a.kind = FindingKind::Unreadable;
    a.split = "train";
    a.sample = 4;
    a.value = -1;
    a.cause = "damaged_png";
    a.file = "/data/x.png";
    a.position = 123;
    a.detail = "/data/x.png: damaged PNG image (line\nbreak)";
    HealthFinding b;
    b.kind = FindingKind::ExactLeak;
    b.split = "test";
    b.sample = 1;
    b.otherSplit = "train";
    b.otherSample = 9;
    HealthFinding c = b;
    c.sample = 2;
    HealthFinding d;
    d.kind = FindingKind::ClassImbalance;
    d.split = "train";
    d.value = INFINITY;
    r.findings = {a, b, c, d};
    r.nearThreshold = 5;
    r.nearThumbnailDifference = 3.5;
    r.perceptualHash = "dct64";
    r.images = true;
    r.openError = "a\tb";
    r.seconds = 1.5;
    return r;
}

}  // namespace

class TestDatasetCatalog : public QObject {
    Q_OBJECT
private slots:
    void remembersDatasetsByKey()
    {
        QTemporaryDir tmp;
        DatasetCatalog catalog(Workspace::open(tmp.path().toStdString()));
        DatasetRecord a{-1, "idx\n/a", "idx", "/a", "A (10 train)", 10, {{"train", 10}}, 0};
        DatasetRecord b{-1, "csv\n/b.csv", "csv", "/b.csv", "b.csv", 5, {{"train", 5}}, 0};
        const std::int64_t ida = catalog.remember(a);
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        const std::int64_t idb = catalog.remember(b);
        QVERIFY(ida != idb);
        QCOMPARE(catalog.datasets().front().id, idb);  // newest first
        a.description = "A (12 train, 3 test)";
        a.samples = 15;
        a.splits = {{"train", 12}, {"test", 3}};
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        QCOMPARE(catalog.remember(a), ida);  // the same key: updated, not added
        const std::vector<DatasetRecord> all = catalog.datasets();
        QCOMPARE(all.size(), std::size_t(2));
        QCOMPARE(all[0].id, ida);
        QCOMPARE(all[0].description, a.description);
        QCOMPARE(all[0].splits, a.splits);
        QCOMPARE(all[0].samples, std::int64_t(15));
        QCOMPARE(catalog.dataset(b.key)->id, idb);
        QVERIFY(!catalog.dataset("nope"));
        catalog.forget(idb);
        QCOMPARE(catalog.datasets().size(), std::size_t(1));
    }

    void checkRoundTrip()
    {
        QTemporaryDir tmp;
        DatasetCatalog catalog(Workspace::open(tmp.path().toStdString()));
        const std::int64_t id = catalog.remember({-1, "k", "image_folder", "/p", "p", 30, {{"train", 30}}, 0});
        const HealthReport r = sampleReport();
        const std::int64_t first = catalog.saveCheck(id, "fp1", r);
        const std::int64_t checkId = catalog.saveCheck(id, "fp2", r);
        QVERIFY(!catalog.check(first));  // the older check is gone with its findings
        QVERIFY(catalog.findings(first).empty());
        const std::optional<StoredCheck> c = catalog.latestCheck(id);
        QVERIFY(c);
        QCOMPARE(c->id, checkId);
        QCOMPARE(c->fingerprint, std::string("fp2"));
        HealthReport summary = r;
        summary.findings.clear();
        QVERIFY(c->report == summary);  // everything but the findings, inf and tabs included
        QVERIFY(catalog.currentCheck(id, "fp2"));
        QVERIFY(!catalog.currentCheck(id, "fp1"));
        const std::vector<HealthFinding> all = catalog.findings(checkId);
        QCOMPARE(all.size(), r.findings.size());
        for (std::size_t i = 0; i < all.size(); ++i) QVERIFY(all[i] == r.findings[i]);
        const std::vector<HealthFinding> leaks = catalog.findings(checkId, FindingKind::ExactLeak);
        QCOMPARE(leaks.size(), std::size_t(2));
        QCOMPARE(leaks[1].sample, std::int64_t(2));
        QCOMPARE(catalog.findings(checkId, FindingKind::ExactLeak, 1, 1).at(0).sample, std::int64_t(2));
        QVERIFY(std::isinf(catalog.findings(checkId, FindingKind::ClassImbalance).at(0).value));
        catalog.forget(id);
        QVERIFY(!catalog.check(checkId));
    }

    // The job: a new check, the stored one reused while the files are unchanged, a new one
    // when they change or when forced; the findings planted in the files are in the store.
    void jobStoresAndReusesChecks()
    {
        QTemporaryDir tmp;
        const std::string data = tmp.path().toStdString() + "/data", ws = tmp.path().toStdString() + "/ws";
        std::vector<int> train = range(0, 200), test = range(1000, 1040);
        train.push_back(5);  // train 200 = train 5
        test.push_back(7);   // test 40 = train 7 (a leak)
        writeIdx(data, "train", train);
        writeIdx(data, "t10k", test);
        JobEnvironment env;
        env.workspaceDir = ws;
        DataCheckJob job;
        job.experiment = idxExperiment(data);
        test::Recorder events;
        RunControl control;
        const JobResult first = runJob(job, env, control, events);
        QCOMPARE(int(first.finished.outcome), int(FinishedEvent::Outcome::Finished));
        QVERIFY(first.dataCheckId >= 0);
        QCOMPARE(first.finished.metrics.at("reused"), 0.0);
        QCOMPARE(first.finished.metrics.at("exact_duplicates"), 1.0);
        QCOMPARE(first.finished.metrics.at("exact_leaks"), 1.0);
        const std::vector<ProgressEvent> progress = events.all<ProgressEvent>();
        QVERIFY(!progress.empty());
        QCOMPARE(progress.back().total, std::int64_t(242));

        {
            DatasetCatalog catalog(Workspace::open(ws));
            const std::vector<DatasetRecord> datasets = catalog.datasets();
            QCOMPARE(datasets.size(), std::size_t(1));
            QCOMPARE(datasets[0].key, datasetKey(job.experiment.dataset, ""));
            QCOMPARE(datasets[0].samples, std::int64_t(242));
            QCOMPARE(datasets[0].splits, (std::vector<std::pair<std::string, std::int64_t>>{{"train", 201}, {"test", 41}}));
            const std::vector<HealthFinding> leaks = catalog.findings(first.dataCheckId, FindingKind::ExactLeak);
            QCOMPARE(leaks.size(), std::size_t(1));
            QCOMPARE(leaks[0].split, std::string("test"));
            QCOMPARE(leaks[0].sample, std::int64_t(40));
            QCOMPARE(leaks[0].otherSample, std::int64_t(7));
            const std::vector<HealthFinding> dups = catalog.findings(first.dataCheckId, FindingKind::ExactDuplicate);
            QCOMPARE(dups.size(), std::size_t(1));
            QCOMPARE(dups[0].sample, std::int64_t(200));
            QCOMPARE(dups[0].otherSample, std::int64_t(5));
        }

        test::Recorder quiet;
        QVERIFY(isCurrent(*DatasetCatalog(Workspace::open(ws)).check(first.dataCheckId),
                          openDatasetFiles(job.experiment.dataset, "")));
        const JobResult again = runJob(job, env, control, quiet);
        QCOMPARE(again.dataCheckId, first.dataCheckId);
        QCOMPARE(again.finished.metrics.at("reused"), 1.0);
        QVERIFY(quiet.all<ProgressEvent>().empty());  // unchanged files: not even opened
        QVERIFY(quiet.all<LogEvent>().empty());

        job.nearThreshold = 6;  // another threshold: the stored check does not answer it
        const JobResult other = runJob(job, env, control, events);
        QCOMPARE(other.finished.metrics.at("reused"), 0.0);
        job.nearThreshold = 4;

        job.force = true;
        const JobResult forced = runJob(job, env, control, events);
        QVERIFY(forced.dataCheckId > other.dataCheckId);
        QCOMPARE(forced.finished.metrics.at("reused"), 0.0);
        job.force = false;

        // A changed file makes the stored check stale (a test file: the readers' sources list
        // only the training files, the fingerprint covers the folder).
        test.push_back(9);
        writeIdx(data, "t10k", test);
        {
            DatasetCatalog catalog(Workspace::open(ws));
            const DatasetFiles files = openDatasetFiles(job.experiment.dataset, "");
            const std::int64_t id = catalog.datasets().at(0).id;
            QVERIFY(!catalog.currentCheck(id, datasetFingerprint(files)));
            QVERIFY(catalog.latestCheck(id));
            QVERIFY(!isCurrent(*catalog.latestCheck(id), files));
        }
        const JobResult changed = runJob(job, env, control, events);
        QVERIFY(changed.dataCheckId > forced.dataCheckId);
        QCOMPARE(changed.finished.metrics.at("reused"), 0.0);
        QCOMPARE(changed.finished.metrics.at("exact_leaks"), 2.0);
    }

    // A stop request: Stopped, nothing stored.
    void jobStops()
    {
        QTemporaryDir tmp;
        const std::string data = tmp.path().toStdString() + "/data";
        writeIdx(data, "train", range(0, 50));
        JobEnvironment env;
        env.workspaceDir = tmp.path().toStdString() + "/ws";
        DataCheckJob job;
        job.experiment = idxExperiment(data);
        test::Recorder events;
        RunControl control;
        control.stop();
        const JobResult r = runJob(job, env, control, events);
        QCOMPARE(int(r.finished.outcome), int(FinishedEvent::Outcome::Stopped));
        QCOMPARE(r.dataCheckId, std::int64_t(-1));
        DatasetCatalog catalog(Workspace::open(env.workspaceDir));
        QVERIFY(!catalog.latestCheck(catalog.datasets().at(0).id));
    }

    // Data that cannot be opened fails the job with the reader's message naming the file;
    // a CSV the reader refuses is still described.
    void jobOnDamagedFiles()
    {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        JobEnvironment env;
        env.workspaceDir = dir + "/ws";
        RunControl control;
        test::Recorder events;

        // A truncated IDX image file (plain): cut inside the pixels.
        writeIdx(dir + "/cut", "train", range(0, 20), false);
        const std::string images = dir + "/cut/train-images-idx3-ubyte";
        fs::resize_file(images, 16 + 64 * 10 + 5);
        DataCheckJob job;
        job.experiment = idxExperiment(dir + "/cut");
        JobResult r = runJob(job, env, control, events);
        QCOMPARE(int(r.finished.outcome), int(FinishedEvent::Outcome::Failed));
        QVERIFY2(r.finished.message.text.find(images) != std::string::npos, r.finished.message.text.c_str());

        // A corrupt gzip stream.
        writeIdx(dir + "/gz", "train", range(0, 20), true);
        const std::string gz = dir + "/gz/train-images-idx3-ubyte.gz";
        {
            std::fstream f(gz, std::ios::in | std::ios::out | std::ios::binary);
            f.seekp(30);
            f.write("garbage!garbage!", 16);
        }
        job.experiment = idxExperiment(dir + "/gz");
        r = runJob(job, env, control, events);
        QCOMPARE(int(r.finished.outcome), int(FinishedEvent::Outcome::Failed));
        QVERIFY2(r.finished.message.text.find(gz) != std::string::npos, r.finished.message.text.c_str());

        // A ragged CSV: the reader refuses it, the table checks still run and are stored.
        const std::string csv = dir + "/ragged.csv";
        std::ofstream(csv) << "a,b,label\n1,2,0\n3,4,1,9\n5,6,0\n";
        job.experiment.dataset = DatasetSpec{};
        job.experiment.dataset.format = "csv";
        job.experiment.dataset.path = csv;
        job.experiment.dataset.labelColumn = "label";
        r = runJob(job, env, control, events);
        QCOMPARE(int(r.finished.outcome), int(FinishedEvent::Outcome::Finished));
        DatasetCatalog catalog(Workspace::open(env.workspaceDir));
        const std::optional<StoredCheck> check = catalog.check(r.dataCheckId);
        QVERIFY(check);
        QVERIFY2(check->report.openError.find(csv + ":3") != std::string::npos, check->report.openError.c_str());
        const std::vector<HealthFinding> ragged = catalog.findings(r.dataCheckId, FindingKind::RaggedRow);
        QCOMPARE(ragged.size(), std::size_t(1));
        QCOMPARE(ragged[0].position, std::int64_t(3));
        QCOMPARE(ragged[0].file, csv);

        // No workspace: a clear refusal.
        r = runJob(job, JobEnvironment{}, control, events);
        QCOMPARE(int(r.finished.outcome), int(FinishedEvent::Outcome::Failed));
        QVERIFY(r.finished.message.text.find("workspace") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestDatasetCatalog)
#include "tst_dataset_catalog.moc"
