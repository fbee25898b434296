// The label overlay: applied by the loader (openDataset) to the file splits, kept in the store,
// and what training, resume and evaluation see. Data: small IDX files (idx_files.h) in a
// temporary folder; the reference for what a split holds is the file's own labels and
// splitIndices of the same seed, computed here independently of the overlay code.
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <filesystem>

#include "data/dataset_statistics.h"
#include "data/label_overlay.h"
#include "data/subset_dataset.h"
#include "blob_dataset.h"
#include "idx_files.h"
#include "jobs/job.h"
#include "store/label_overlay.h"
#include "store/run_reader.h"
#include "store/run_writer.h"
#include "train/run_control.h"

using namespace ts;
using namespace ts::test;

namespace {

constexpr std::int64_t kTrain = 60, kTest = 21;

DatasetSpec idxSpec(const std::string& dir, double validation = 0.2)
{
    DatasetSpec spec;
    spec.format = "idx";
    spec.path = dir;
    spec.validationFraction = validation;
    spec.splitSeed = 7;
    return spec;
}

LabelMark relabel(const std::string& split, std::int64_t sample, std::int64_t label)
{
    return {split, sample, LabelMark::Action::Relabel, label};
}
LabelMark exclude(const std::string& split, std::int64_t sample) { return {split, sample, LabelMark::Action::Exclude, -1}; }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A tiny MLP on the 4x4 IDX images (10 classes, as IDX declares), trained on the CPU.
ExperimentSpec tinyExperiment(const std::string& dir, std::int64_t epochs)
{
    ExperimentSpec spec;
    spec.name = "overlay_tiny";
    spec.dataset = idxSpec(dir, 0.2);
    spec.dataset.numWorkers = 1;
    Graph& g = spec.model;
    g.inputs = {{"image", Shape{1, 4, 4}}, {"label", Shape{}, DType::I64}};
    g.add("flatten", "Flatten", {"image"});
    g.add("fc", "Linear", {"flatten"}, {{"out_features", std::int64_t(10)}});
    g.add("loss", "CrossEntropy", {"fc", "label"});
    spec.optimizer.type = "sgd";
    spec.optimizer.lr = 0.1;
    spec.training.epochs = epochs;
    spec.training.batchSize = 8;
    spec.training.seed = 3;
    spec.training.device = "cpu";
    spec.training.checkpoint.everyEpochs = 1;
    return spec;
}

}  // namespace

class TestLabelOverlay : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    std::string dir_;

private slots:
    void initTestCase()
    {
        QVERIFY(tmp_.isValid());
        dir_ = tmp_.path().toStdString() + "/data";
        std::filesystem::create_directories(dir_);
        writeIdxPair(dir_, "train", kTrain, 1, 20);
        writeIdxPair(dir_, "t10k", kTest, 2, 20);
    }

    void loaderAppliesTheOverlay()
    {
        const std::string before = fileBytes(dir_ + "/train-labels-idx1-ubyte") + fileBytes(dir_ + "/t10k-labels-idx1-ubyte");
        const DatasetSpec spec = idxSpec(dir_);
        const SplitIndices reference = splitIndices(kTrain, spec.validationFraction, spec.splitSeed);
        // Samples on both sides of the split, so exclusion from validation is tested too.
        const std::int64_t relabelled = reference.train[3], excludedTrain = reference.train[5],
                           excludedVal = reference.validation[1];
        LabelOverlay overlay;
        overlay.marks = {relabel("train", relabelled, 7), exclude("train", excludedTrain), exclude("train", excludedVal),
                         exclude("test", 4), relabel("test", 9, 8)};
        const DatasetSplits s = openDataset(spec, "", "", overlay);

        // Counts: one fewer on each side, one fewer test sample.
        QCOMPARE(s.train->size(), std::int64_t(reference.train.size()) - 1);
        QCOMPARE(s.validation->size(), std::int64_t(reference.validation.size()) - 1);
        QCOMPARE(s.test->size(), kTest - 1);
        // The split is carved before exclusion: every other sample stays on its side.
        std::vector<std::int64_t> expectTrain = reference.train, expectVal = reference.validation;
        std::erase(expectTrain, excludedTrain);
        std::erase(expectVal, excludedVal);
        QCOMPARE(s.trainFileIndex, expectTrain);
        QCOMPARE(s.validationFileIndex, expectVal);
        QCOMPARE(std::count(s.testFileIndex.begin(), s.testFileIndex.end(), 4), 0);

        // Labels: the relabelled one carries 7 (labels() and get() agree), the rest the file's (i % 3).
        std::vector<float> pixels(16);
        for (std::int64_t i = 0; i < s.train->size(); ++i) {
            const std::int64_t file = s.trainFileIndex[std::size_t(i)];
            const std::int64_t expected = file == relabelled ? 7 : file % 3;
            QCOMPARE(s.train->labels()[std::size_t(i)], expected);
            QCOMPARE(s.train->get(i, pixels.data()), expected);
        }
        const auto at9 = std::find(s.testFileIndex.begin(), s.testFileIndex.end(), 9) - s.testFileIndex.begin();
        QCOMPARE(s.test->labels()[std::size_t(at9)], std::int64_t(8));
        QCOMPARE(s.test->get(at9, pixels.data()), std::int64_t(8));
        // Class counts of the statistics follow: class 7 has the one relabelled sample.
        QCOMPARE(s.trainStatistics.classCounts[7], std::int64_t(1));

        // The files are untouched.
        QCOMPARE(fileBytes(dir_ + "/train-labels-idx1-ubyte") + fileBytes(dir_ + "/t10k-labels-idx1-ubyte"), before);
        // Without an overlay: the reader's data, as before.
        const DatasetSplits plain = openDataset(spec, "", "");
        QCOMPARE(plain.trainFileIndex, reference.train);
        QCOMPARE(plain.test->size(), kTest);
    }

    void statisticsCacheFollowsTheOverlay()
    {
        QTemporaryDir cache;
        const std::string cacheDir = cache.path().toStdString();
        DatasetSpec spec = idxSpec(dir_, 0.0);
        spec.cache = true;  // the decoded cache must follow the overlay too
        const DatasetSplits plain = openDataset(spec, "", cacheDir);
        LabelOverlay overlay;
        for (std::int64_t i = 0; i < kTrain; i += 3) overlay.marks.push_back(exclude("train", i));  // every class-0 sample
        overlay.marks.push_back(relabel("train", 1, 5));
        const DatasetSplits marked = openDataset(spec, "", cacheDir, overlay);
        // Reference: statistics computed afresh over the same samples, no cache involved.
        std::vector<std::int64_t> kept;
        for (std::int64_t i = 0; i < kTrain; ++i)
            if (i % 3 != 0) kept.push_back(i);
        QCOMPARE(marked.trainFileIndex, kept);
        const auto files = openDatasetFiles(spec, "").train;
        const DatasetStatistics expected = computeStatistics(SubsetDataset(files, kept, "kept"));
        QCOMPARE(marked.trainStatistics.mean, expected.mean);
        QVERIFY(marked.trainStatistics.mean != plain.trainStatistics.mean);
        QCOMPARE(marked.trainStatistics.classCounts[0], std::int64_t(0));
        QCOMPARE(marked.trainStatistics.classCounts[5], std::int64_t(1));
        QCOMPARE(marked.train->size(), std::int64_t(kept.size()));
        QCOMPARE(marked.train->labels()[0], std::int64_t(5));  // sample 1 through the decoded cache
        // Opened again: the cached statistics of each overlay, not the other's.
        QCOMPARE(openDataset(spec, "", cacheDir, overlay).trainStatistics.mean, marked.trainStatistics.mean);
        QCOMPARE(openDataset(spec, "", cacheDir).trainStatistics.mean, plain.trainStatistics.mean);
        QCOMPARE(openDataset(spec, "", cacheDir).train->labels()[1], std::int64_t(1));
    }

    void badMarksSayWhatAndHow()
    {
        const DatasetSpec spec = idxSpec(dir_);
        const auto failure = [&](const LabelMark& m) {
            LabelOverlay o;
            o.marks = {m};
            try {
                openDataset(spec, "", "", o);
            } catch (const DataError& e) {
                return std::string(e.what());
            }
            return std::string("no error");
        };
        std::string e = failure(exclude("train", kTrain));
        QVERIFY2(contains(e, "train sample 60") && contains(e, "holds 60 samples") && contains(e, "--clear"), e.c_str());
        e = failure(relabel("train", 2, 10));
        QVERIFY2(contains(e, "relabelled to class 10") && contains(e, "10 classes"), e.c_str());
        e = failure(exclude("val", 2));
        QVERIFY2(contains(e, "train or test"), e.c_str());
        LabelOverlay all;
        for (std::int64_t i = 0; i < kTrain; ++i) all.marks.push_back(exclude("train", i));
        try {
            openDataset(spec, "", "", all);
            QFAIL("excluding everything opened");
        } catch (const DataError& err) {
            QVERIFY2(contains(err.what(), "no training samples are left"), err.what());
        }
    }

    void canonicalTextAndHash()
    {
        LabelOverlay a, b;
        a.marks = {exclude("train", 3), relabel("test", 1, 2), relabel("train", 1, 4)};
        b.marks = {relabel("train", 1, 4), exclude("train", 3), relabel("test", 1, 2)};
        QCOMPARE(labelOverlayText(a), std::string("test 1 relabel 2\ntrain 1 relabel 4\ntrain 3 exclude\n"));
        QCOMPARE(labelOverlayHash(a), labelOverlayHash(b));
        b.marks[0].label = 5;
        QVERIFY(labelOverlayHash(a) != labelOverlayHash(b));
        QCOMPARE(labelOverlayHash(LabelOverlay{}), std::string());
    }

    void storeRoundTrip()
    {
        QTemporaryDir ws;
        const Workspace w = Workspace::open(ws.path().toStdString());
        // Reading creates nothing.
        QVERIFY(readLabelOverlay(w, "k").empty());
        QVERIFY(!std::filesystem::exists(w.databasePath()));
        setLabelMark(w, "k", exclude("train", 5));
        setLabelMark(w, "k", relabel("train", 2, 3));
        setLabelMark(w, "k", relabel("test", 9, 1));
        setLabelMark(w, "other", exclude("train", 5));
        setLabelMark(w, "k", relabel("train", 5, 4));  // replaces the exclusion
        LabelOverlay read = readLabelOverlay(w, "k");
        std::vector<LabelMark> expected = {relabel("test", 9, 1), relabel("train", 2, 3), relabel("train", 5, 4)};
        QCOMPARE(read.marks, expected);
        QVERIFY(clearLabelMark(w, "k", "train", 2));
        QVERIFY(!clearLabelMark(w, "k", "train", 2));
        expected.erase(expected.begin() + 1);
        QCOMPARE(readLabelOverlay(w, "k").marks, expected);
        QCOMPARE(readLabelOverlay(w, "other").marks, std::vector<LabelMark>{exclude("train", 5)});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, setLabelMark(w, "k", exclude("validation", 1)));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, setLabelMark(w, "k", relabel("train", 1, -1)));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, setLabelMark(w, "k", exclude("train", -1)));

        // A run's copy, and a label check's rows.
        std::int64_t runId = 0;
        {
            RunWriter writer(w);
            NewRun run;
            run.experimentName = "e";
            runId = writer.createRun(run);
            writer.finishRun(runId, RunStatus::Finished, Message{"done"});
            writer.flush();
        }
        QVERIFY(runLabelOverlay(w, runId).empty());
        recordRunLabelOverlay(w, runId, read);
        QCOMPARE(runLabelOverlay(w, runId).marks, read.marks);
        LabelCheckRecord check;
        check.datasetKey = "k";
        check.method = "in_sample";
        check.runId = runId;
        check.classes = 3;
        check.samples = 2;
        check.suspects = 1;
        check.overlayHash = "abc";
        const std::vector<LabelScore> scores = {{7, 1, 2, 0.9f, 0.05f, -0.85f, true}, {3, 0, 0, 0.8f, 0.8f, 0.7f, false}};
        const std::int64_t id = addLabelCheck(w, check, scores);
        const auto checks = labelChecks(w, "k");
        QCOMPARE(checks.size(), std::size_t(1));
        QCOMPARE(checks[0].id, id);
        QCOMPARE(checks[0].runId, runId);
        QCOMPARE(checks[0].suspects, std::int64_t(1));
        QCOMPARE(checks[0].overlayHash, std::string("abc"));
        QVERIFY(labelChecks(w, "other").empty());
        const auto back = labelScores(w, id);
        QCOMPARE(back.size(), std::size_t(2));
        QCOMPARE(back[0].sample, std::int64_t(7));
        QCOMPARE(back[0].margin, -0.85f);
        QVERIFY(back[0].suspect && !back[1].suspect);
        QCOMPARE(labelScores(w, id, 1).size(), std::size_t(1));
    }

    // Training sees the overlay; the run records it; its resume keeps it after the marks change;
    // its evaluation uses it; a new run takes the current marks.
    void jobsApplyTheOverlay()
    {
        QTemporaryDir ws;
        JobEnvironment env;
        env.workspaceDir = ws.path().toStdString();
        env.cacheDir = ws.path().toStdString() + "/cache";
        env.systemSampleSeconds = 0;
        const Workspace w = Workspace::open(env.workspaceDir);
        ExperimentSpec spec = tinyExperiment(dir_, 1);
        const std::string key = datasetKey(spec.dataset, experimentDataDirectory(spec));
        const SplitIndices reference = splitIndices(kTrain, 0.2, 7);
        setLabelMark(w, key, exclude("train", reference.train[0]));
        setLabelMark(w, key, exclude("test", 0));
        const auto train = [&](TrainJob job) {
            Recorder events;
            RunControl control;
            const JobResult r = runJob(job, env, control, events);
            const auto started = events.all<StartedEvent>();
            return std::make_tuple(r, started.empty() ? StartedEvent{} : started.back(), events.hasLog(LogEvent::Level::Info, "label overlay: 0 relabelled, 2 excluded"));
        };
        TrainJob first;
        first.experiment = spec;
        const auto [run1, started1, logged] = train(first);
        QCOMPARE(run1.finished.outcome, FinishedEvent::Outcome::Finished);
        QVERIFY(logged);
        QCOMPARE(started1.trainSamples, std::int64_t(reference.train.size()) - 1);
        QCOMPARE(started1.testSamples, kTest - 1);
        QCOMPARE(runLabelOverlay(w, run1.runId).marks.size(), std::size_t(2));

        // The marks change; the resume trains on the run's data, a new run on the new marks.
        setLabelMark(w, key, exclude("train", reference.train[1]));
        TrainJob resume;
        resume.resume = std::to_string(run1.runId);
        resume.epochs = 2;
        const auto [run2, started2, unused2] = train(resume);
        QCOMPARE(run2.finished.outcome, FinishedEvent::Outcome::Finished);
        QCOMPARE(started2.trainSamples, started1.trainSamples);
        QCOMPARE(runLabelOverlay(w, run2.runId).marks, runLabelOverlay(w, run1.runId).marks);
        TrainJob fresh;
        fresh.experiment = spec;
        const auto [run3, started3, unused3] = train(fresh);
        QCOMPARE(started3.trainSamples, std::int64_t(reference.train.size()) - 2);

        // The evaluation of run 1's test split holds the samples run 1 had.
        EvaluateJob eval;
        eval.runId = run1.runId;
        eval.split = "test";
        Recorder events;
        RunControl control;
        const JobResult evaluated = runJob(eval, env, control, events);
        QCOMPARE(evaluated.finished.outcome, FinishedEvent::Outcome::Finished);
        RunReader reader(w);
        QCOMPARE(std::int64_t(reader.predictions(evaluated.evaluationId).size()), kTest - 1);
    }
};

QTEST_GUILESS_MAIN(TestLabelOverlay)
#include "tst_label_overlay.moc"
