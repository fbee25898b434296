// Checkpoints from the Trainer and exact resume: a run stopped mid-epoch (or resumed from an
// end-of-epoch checkpoint) continues with per-step losses bit-identical to an uninterrupted
// run on the CPU backend; keep-last-K-plus-best; a checkpoint that cannot be written stops
// the run with a clear message.
#include <QTemporaryDir>
#include <QtTest>

#include <cstdio>
#include <filesystem>
#include <set>

#include "backend/backend.h"
#include "blob_dataset.h"
#include "train/trainer.h"

using namespace ts;
using namespace ts::test;

namespace {

// Every random stream is in play: dropout, a flip augmentation, shuffling, Adam's moments,
// a warm-up and a cosine schedule.
ExperimentSpec resumeSpec()
{
    ExperimentSpec spec = blobSpec();
    Graph g;
    g.inputs = spec.model.inputs;
    g.add("flatten", "Flatten", {"image"});
    g.add("fc1", "Linear", {"flatten"}, {{"out_features", std::int64_t(16)}});
    g.add("relu", "ReLU", {"fc1"});
    g.add("drop", "Dropout", {"relu"}, {{"p", 0.3}});
    g.add("fc2", "Linear", {"drop"}, {{"out_features", std::int64_t(3)}});
    g.add("loss", "CrossEntropy", {"fc2", "label"});
    spec.model = g;
    spec.optimizer.type = "adam";
    spec.optimizer.lr = 0.01;
    spec.schedule.type = "cosine";
    spec.schedule.warmupSteps = 5;
    spec.dataset.horizontalFlip = true;
    spec.training.epochs = 4;  // 15 steps per epoch
    return spec;
}

// Stops the run when the given step has been taken.
struct StopAt : TrainListener {
    RunControl* control = nullptr;
    std::int64_t step = 0;
    void onEvent(const TrainEvent& e) override
    {
        if (auto* s = std::get_if<StepEvent>(&e); s && s->step == step) control->stop();
    }
};

std::map<std::int64_t, double> lossesByStep(Recorder& rec)
{
    std::map<std::int64_t, double> out;
    for (const StepEvent& s : rec.all<StepEvent>()) out[s.step] = s.loss;
    return out;
}

FinishedEvent runTrainer(const ExperimentSpec& spec, TrainerOptions options, Recorder& rec, std::int64_t stopAt = 0)
{
    Trainer trainer(spec, blobSplits(), cpuBackend(), std::move(options));
    StopAt stop;
    stop.control = &trainer.control();
    stop.step = stopAt;
    trainer.addListener(&rec);
    if (stopAt > 0) trainer.addListener(&stop);
    return trainer.run();
}

// The uninterrupted run's losses from `fromStep` on must equal the resumed run's exactly.
void compareTail(const std::map<std::int64_t, double>& full, const std::map<std::int64_t, double>& resumed,
                 std::int64_t fromStep)
{
    QVERIFY(!resumed.empty());
    QCOMPARE(resumed.begin()->first, fromStep);
    QCOMPARE(resumed.rbegin()->first, full.rbegin()->first);
    for (const auto& [step, loss] : resumed) {
        QVERIFY2(full.count(step), qPrintable(QString("step %1 missing").arg(step)));
        QVERIFY2(full.at(step) == loss, qPrintable(QString("step %1: %2 vs %3").arg(step).arg(full.at(step), 0, 'g', 17)
                                                       .arg(loss, 0, 'g', 17)));
    }
}

}  // namespace

class TestResume : public QObject {
    Q_OBJECT

private slots:
    void stoppedMidEpochResumesBitIdentical()
    {
        QTemporaryDir full, part;
        Recorder a, b, c;
        TrainerOptions o;
        o.checkpointDir = full.path().toStdString();
        QCOMPARE(runTrainer(resumeSpec(), o, a).outcome, FinishedEvent::Outcome::Finished);

        o.checkpointDir = part.path().toStdString();
        const FinishedEvent stopped = runTrainer(resumeSpec(), o, b, 23);  // 8 steps into epoch 2
        QCOMPARE(stopped.outcome, FinishedEvent::Outcome::Stopped);
        const auto saved = b.all<CheckpointEvent>();
        QVERIFY(!saved.empty());
        const CheckpointRecord& last = saved.back().record;
        QCOMPARE(last.step, std::int64_t(23));
        QCOMPARE(last.epoch, std::int64_t(2));
        QVERIFY(std::filesystem::exists(last.path) && std::filesystem::exists(last.statePath));

        TrainerOptions r;
        r.checkpointDir = part.path().toStdString() + "/resumed";
        r.resume = loadCheckpoint(last.path, last.sha256);
        r.resumeSource = last.path;
        QCOMPARE(r.resume->state.step, std::int64_t(23));
        QCOMPARE(r.resume->state.batchInEpoch, std::int64_t(8));
        QCOMPARE(runTrainer(resumeSpec(), r, c).outcome, FinishedEvent::Outcome::Finished);
        compareTail(lossesByStep(a), lossesByStep(c), 24);
        // The uninterrupted and resumed runs end on the same test accuracy too.
        const auto endA = a.all<FinishedEvent>().back().metrics, endC = c.all<FinishedEvent>().back().metrics;
        QCOMPARE(endC.at("test_acc"), endA.at("test_acc"));
        QCOMPARE(endC.at("test_loss"), endA.at("test_loss"));
        // The resumed epoch 2 reports its training metrics over all 15 steps, exactly as the
        // uninterrupted run does (it used to average only the 7 after the resume).
        const EpochEvent fullEpoch2 = a.all<EpochEvent>()[1], resumedEpoch2 = c.all<EpochEvent>().front();
        QCOMPARE(resumedEpoch2.epoch, std::int64_t(2));
        for (const char* name : {"train_loss", "train_acc", "train_macro_f1"})
            QVERIFY2(resumedEpoch2.metrics.at(name) == fullEpoch2.metrics.at(name),
                     qPrintable(QString("%1: %2 vs %3").arg(name).arg(resumedEpoch2.metrics.at(name), 0, 'g', 17)
                                    .arg(fullEpoch2.metrics.at(name), 0, 'g', 17)));
        // And its time: the part before the stop is counted (so more than the resumed part alone).
        QVERIFY(resumedEpoch2.seconds > r.resume->state.epochSums->seconds);
        QVERIFY(r.resume->state.epochSums->count == 8 * 16);  // 8 batches of 16 seen before the stop
    }

    void resumesFromEndOfEpochCheckpoint()
    {
        QTemporaryDir dir;
        Recorder a, c;
        TrainerOptions o;
        o.checkpointDir = dir.path().toStdString();
        QCOMPARE(runTrainer(resumeSpec(), o, a).outcome, FinishedEvent::Outcome::Finished);
        std::optional<CheckpointRecord> second;
        for (const auto& e : a.all<CheckpointEvent>())
            if (e.record.epoch == 2) second = e.record;
        QVERIFY(second);
        QCOMPARE(second->step, std::int64_t(30));
        // Keep-last-3 may have deleted it only if 3 newer ones exist; with 4 epochs it stays.
        QVERIFY(std::filesystem::exists(second->path));

        TrainerOptions r;
        r.checkpointDir = dir.path().toStdString() + "/resumed";
        r.resume = loadCheckpoint(second->path);
        r.resumeSource = second->path;
        QCOMPARE(r.resume->state.epoch, std::int64_t(3));
        QCOMPARE(r.resume->state.batchInEpoch, std::int64_t(0));
        QCOMPARE(runTrainer(resumeSpec(), r, c).outcome, FinishedEvent::Outcome::Finished);
        compareTail(lossesByStep(a), lossesByStep(c), 31);
        // Epoch events of the resumed run are epochs 3 and 4 only.
        const auto epochs = c.all<EpochEvent>();
        QCOMPARE(epochs.size(), std::size_t(2));
        QCOMPARE(epochs.front().epoch, std::int64_t(3));
    }

    void keepsLastThreePlusBest()
    {
        QTemporaryDir dir;
        ExperimentSpec spec = resumeSpec();
        spec.training.epochs = 7;
        spec.training.checkpoint.metric = "train_loss";  // falls nearly every epoch
        spec.training.checkpoint.keepLast = 3;
        Recorder rec;
        TrainerOptions o;
        o.checkpointDir = dir.path().toStdString();
        QCOMPARE(runTrainer(spec, o, rec).outcome, FinishedEvent::Outcome::Finished);
        const auto events = rec.all<CheckpointEvent>();
        QCOMPARE(events.size(), std::size_t(7));
        std::set<std::string> alive;
        std::optional<std::pair<double, std::string>> best;
        for (const auto& e : events) {
            alive.insert(e.record.path);
            for (const auto& r : e.removed) alive.erase(r);
            QVERIFY(e.record.metricName == "train_loss");
            if (!best || e.record.metricValue < best->first) best = {e.record.metricValue, e.record.path};
            QVERIFY(QString::fromStdString(e.record.path).contains("train_loss"));
        }
        // The last three, plus the best when it is older.
        for (std::size_t i = events.size() - 3; i < events.size(); ++i) QVERIFY(alive.count(events[i].record.path));
        QVERIFY(alive.count(best->second));
        QVERIFY(alive.size() == 3 || alive.size() == 4);
        std::size_t files = 0;
        for (const auto& entry : std::filesystem::directory_iterator(dir.path().toStdString())) {
            const std::string name = entry.path().string();
            if (name.ends_with(".safetensors") && !name.ends_with(".state.safetensors")) {
                ++files;
                QVERIFY2(alive.count(name), name.c_str());
            }
        }
        QCOMPARE(files, alive.size());
    }

    void unwritableCheckpointFolderStopsTheRunCleanly()
    {
        QTemporaryDir dir;
        const std::string blocker = dir.path().toStdString() + "/a_file";
        std::FILE* f = std::fopen(blocker.c_str(), "w");
        QVERIFY(f);
        std::fclose(f);
        Recorder rec;
        TrainerOptions o;
        o.checkpointDir = blocker + "/checkpoints";  // a folder inside a regular file: cannot exist
        const FinishedEvent done = runTrainer(resumeSpec(), o, rec);
        QCOMPARE(done.outcome, FinishedEvent::Outcome::Failed);
        QVERIFY2(QString::fromStdString(done.message.text).contains("could not save the checkpoint"), done.message.text.c_str());
        QVERIFY(QString::fromStdString(done.message.text).contains("earlier checkpoints are intact"));
    }
};

QTEST_GUILESS_MAIN(TestResume)
#include "tst_resume.moc"
