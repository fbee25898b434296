// Suspect labels: the confident-learning ranking against a hand-worked reference, and the label
// check job (in-sample under a run's checkpoint, and K-fold) on planted data: IDX files of three
// well-separated classes (idx_files.h) with a known set of training labels flipped, which must
// rank first. Everything trains on the CPU in a few seconds.
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <random>

#include "blob_dataset.h"
#include "idx_files.h"
#include "jobs/job.h"
#include "data/subset_dataset.h"
#include "jobs/label_ranking.h"
#include "store/label_overlay.h"
#include "train/run_control.h"

using namespace ts;
using namespace ts::test;

namespace {

constexpr std::int64_t kTrain = 240;

ExperimentSpec plantedExperiment(const std::string& dir, double validation)
{
    ExperimentSpec spec;
    spec.name = "planted";
    spec.dataset.format = "idx";
    spec.dataset.path = dir;
    spec.dataset.validationFraction = validation;
    spec.dataset.splitSeed = 11;
    spec.dataset.numWorkers = 1;
    Graph& g = spec.model;
    g.inputs = {{"image", Shape{1, 4, 4}}, {"label", Shape{}, DType::I64}};
    g.add("flatten", "Flatten", {"image"});
    g.add("fc", "Linear", {"flatten"}, {{"out_features", std::int64_t(10)}});
    g.add("loss", "CrossEntropy", {"fc", "label"});
    spec.optimizer.type = "sgd";
    spec.optimizer.lr = 0.2;
    spec.optimizer.momentum = 0.9;
    spec.training.epochs = 4;
    spec.training.batchSize = 16;
    spec.training.seed = 5;
    spec.training.device = "cpu";
    spec.training.checkpoint.everyEpochs = 1;
    return spec;
}

}  // namespace

class TestLabelCheck : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    std::string dir_;
    std::vector<std::int64_t> flipped_;
    JobEnvironment env_;

    JobResult run(const Job& job, Recorder& events)
    {
        RunControl control;
        return runJob(job, env_, control, events);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(tmp_.isValid());
        dir_ = tmp_.path().toStdString() + "/data";
        std::filesystem::create_directories(dir_);
        std::mt19937_64 rng(99);
        while (flipped_.size() < 8) {  // 8 of 240 (3.3%), distinct
            const auto i = std::int64_t(rng() % kTrain);
            if (std::find(flipped_.begin(), flipped_.end(), i) == flipped_.end()) flipped_.push_back(i);
        }
        writeIdxPair(dir_, "train", kTrain, 1, 25, flippedLabels(kTrain, flipped_));
        writeIdxPair(dir_, "t10k", 30, 2, 25);
        env_.workspaceDir = tmp_.path().toStdString() + "/ws";
        env_.cacheDir = tmp_.path().toStdString() + "/cache";
        env_.systemSampleSeconds = 0;
    }

    // Worked by hand: thresholds t0 = (0.8 + 0.6 + 0.4 + 0.5) / 4 = 0.575, t1 = (0.7 + 0.2) / 2 = 0.45,
    // t2 = 0.8. Samples 15 and 16 tell the orders apart: by margin 16 (0.0) would lead 15 (0.1).
    void rankingByHand()
    {
        const std::vector<float> p = {
            0.8f, 0.1f, 0.1f,    // 10: label 0, p(given) 0.8, margin 0.7
            0.6f, 0.3f, 0.1f,    // 11: label 0, 0.6; p1 0.3 < t1: not suspect
            0.2f, 0.7f, 0.1f,    // 12: label 1, 0.7
            0.75f, 0.2f, 0.05f,  // 13: label 1, 0.2; p0 0.75 >= t0 and > p1: suspect, margin -0.55
            0.1f, 0.1f, 0.8f,    // 14: label 2, 0.8, margin 0.7 (ties 10: the lower sample first)
            0.4f, 0.3f, 0.3f,    // 15: label 0, 0.4, margin 0.1
            0.5f, 0.5f, 0.0f,    // 16: label 0, 0.5, margin 0; p1 = p0 does not beat the label: not suspect
        };
        const std::vector<LabelScore> r = rankLabels(p, 3, {0, 0, 1, 1, 2, 0, 0}, {10, 11, 12, 13, 14, 15, 16});
        std::vector<std::int64_t> order;
        for (const auto& s : r) order.push_back(s.sample);
        QCOMPARE(order, (std::vector<std::int64_t>{13, 15, 16, 11, 12, 10, 14}));
        QVERIFY(r[0].suspect);
        QVERIFY(std::none_of(r.begin() + 1, r.end(), [](const LabelScore& s) { return s.suspect; }));
        QCOMPARE(r[0].predicted, std::int64_t(0));
        QCOMPARE(r[0].confidence, 0.75f);
        QCOMPARE(r[0].selfConfidence, 0.2f);
        QCOMPARE(r[0].margin, 0.2f - 0.75f);
        QCOMPARE(r[1].margin, 0.4f - 0.3f);
        QCOMPARE(r[2].margin, 0.0f);
        QCOMPARE(hitsInTop(r, {13, 14}, 2), std::int64_t(1));
        QCOMPARE(hitsInTop(r, {13, 14}, 7), std::int64_t(2));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, rankLabels(p, 3, {0, 0, 1, 1, 3, 0, 0}, {10, 11, 12, 13, 14, 15, 16}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, rankLabels(p, 3, {0, 0}, {10, 11}));
    }

    void kFoldFindsThePlantedFlips()
    {
        // One flipped sample excluded and one corrected through the overlay: the other six lead.
        const ExperimentSpec spec = plantedExperiment(dir_, 0.2);
        const Workspace w = Workspace::open(env_.workspaceDir);
        const std::string key = datasetKey(spec.dataset, experimentDataDirectory(spec));
        setLabelMark(w, key, {"train", flipped_[0], LabelMark::Action::Exclude, -1});
        setLabelMark(w, key, {"train", flipped_[1], LabelMark::Action::Relabel, flipped_[1] % 3});
        LabelCheckJob job;
        job.experiment = spec;
        job.folds = 4;
        job.epochsPerFold = 3;
        Recorder events;
        const JobResult r = run(job, events);
        QVERIFY2(r.finished.outcome == FinishedEvent::Outcome::Finished, r.finished.message.text.c_str());
        QCOMPARE(events.all<StartedEvent>().size(), std::size_t(4));  // one training per fold
        QVERIFY(events.hasLog(LogEvent::Level::Info, "fold 4 of 4"));
        const auto id = std::int64_t(r.finished.metrics.at("label_check_id"));
        const auto check = labelCheck(w, id);
        QVERIFY(check);
        QCOMPARE(check->method, std::string("k_fold"));
        QCOMPARE(check->folds, std::int64_t(4));
        QCOMPARE(check->epochs, std::int64_t(3));
        QCOMPARE(check->samples, kTrain - 1);  // validation included, the excluded one not
        QVERIFY(!check->overlayHash.empty());
        const std::vector<LabelScore> scores = labelScores(w, id);
        QCOMPARE(std::int64_t(scores.size()), kTrain - 1);
        const std::vector<std::int64_t> planted(flipped_.begin() + 2, flipped_.end());
        QCOMPARE(hitsInTop(scores, planted, 6), std::int64_t(6));
        for (std::size_t i = 0; i < 6; ++i) {
            QVERIFY(scores[i].suspect);
            QCOMPARE(scores[i].predicted, scores[i].sample % 3);  // the true class
            QCOMPARE(scores[i].label, (scores[i].sample % 3 + 1) % 3);
        }
        QVERIFY(std::none_of(scores.begin(), scores.end(), [&](const LabelScore& s) { return s.sample == flipped_[0]; }));
        const auto fixed = std::find_if(scores.begin(), scores.end(), [&](const LabelScore& s) { return s.sample == flipped_[1]; });
        QVERIFY(fixed != scores.end() && !fixed->suspect && fixed->label == flipped_[1] % 3);
        QVERIFY(clearLabelMark(w, key, "train", flipped_[0]));
        QVERIFY(clearLabelMark(w, key, "train", flipped_[1]));
    }

    void inSampleFindsThePlantedFlips()
    {
        const ExperimentSpec spec = plantedExperiment(dir_, 0.2);
        TrainJob train;
        train.experiment = spec;
        Recorder trained;
        const JobResult run1 = run(train, trained);
        QCOMPARE(run1.finished.outcome, FinishedEvent::Outcome::Finished);
        LabelCheckJob job;
        job.runId = run1.runId;
        Recorder events;
        const JobResult r = run(job, events);
        QVERIFY2(r.finished.outcome == FinishedEvent::Outcome::Finished, r.finished.message.text.c_str());
        QVERIFY(r.evaluationId > 0);
        const Workspace w{env_.workspaceDir};
        const auto check = labelCheck(w, std::int64_t(r.finished.metrics.at("label_check_id")));
        QVERIFY(check);
        QCOMPARE(check->method, std::string("in_sample"));
        QCOMPARE(check->runId, run1.runId);
        QCOMPARE(check->evaluationId, r.evaluationId);
        QVERIFY(check->epochs >= 1 && check->epochs <= spec.training.epochs);  // the best checkpoint's
        // The run's train split (validation carved out): the flips it holds rank first, by file index.
        const SplitIndices split = splitIndices(kTrain, 0.2, 11);
        QCOMPARE(check->samples, std::int64_t(split.train.size()));
        std::vector<std::int64_t> inTrain;
        for (std::int64_t f : flipped_)
            if (std::binary_search(split.train.begin(), split.train.end(), f)) inTrain.push_back(f);
        QVERIFY(!inTrain.empty());
        const std::vector<LabelScore> scores = labelScores(w, check->id);
        QCOMPARE(hitsInTop(scores, inTrain, std::int64_t(inTrain.size())), std::int64_t(inTrain.size()));
    }

    void refusalsAndStops()
    {
        LabelCheckJob job;
        job.experiment = plantedExperiment(dir_, 0.2);
        job.folds = 1;
        Recorder events;
        JobResult r = run(job, events);
        QCOMPARE(r.finished.outcome, FinishedEvent::Outcome::Failed);
        QVERIFY2(r.finished.message.text.find("at least 2 folds") != std::string::npos, r.finished.message.text.c_str());
        job.folds = 0;
        r = run(job, events);
        QVERIFY2(r.finished.message.text.find("run id") != std::string::npos, r.finished.message.text.c_str());
        job.folds = 500;
        r = run(job, events);
        QVERIFY2(r.finished.message.text.find("use fewer folds") != std::string::npos, r.finished.message.text.c_str());
        // A language model's text: its targets are the text itself, no labels to judge.
        LabelCheckJob text = job;
        text.experiment.dataset.format = "text";
        text.folds = 3;
        r = run(text, events);
        QCOMPARE(r.finished.outcome, FinishedEvent::Outcome::Failed);
        QVERIFY2(r.finished.message.text.find("no labels to check") != std::string::npos, r.finished.message.text.c_str());

        // A stop before the first fold trains nothing and stores nothing.
        const Workspace w{env_.workspaceDir};
        const std::string key = datasetKey(job.experiment.dataset, experimentDataDirectory(job.experiment));
        const std::size_t before = labelChecks(w, key).size();
        job.folds = 3;
        RunControl control;
        control.stop();
        r = runJob(job, env_, control, events);
        QCOMPARE(r.finished.outcome, FinishedEvent::Outcome::Stopped);
        QVERIFY2(r.finished.message.text.find("nothing was stored") != std::string::npos, r.finished.message.text.c_str());
        QCOMPARE(labelChecks(w, key).size(), before);
    }
};

QTEST_GUILESS_MAIN(TestLabelCheck)
#include "tst_label_check.moc"
