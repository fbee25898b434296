// The Trainer end to end on an in-memory dataset (three Gaussian blobs as [1, 4, 4] images):
// learning, event order, early stopping, the overfit mode, NaN handling, stop and pause from
// another thread, determinism and gradient accumulation. No dataset readers are involved.
#include <QtTest>

#include <atomic>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <random>
#include <thread>

#include "backend/backend.h"
#include "blob_dataset.h"
#include "train/memory_advice.h"
#include "train/trainer.h"

using namespace ts;
using namespace ts::test;

namespace {


FinishedEvent train(const ExperimentSpec& spec, DatasetSplits splits, Recorder& rec)
{
    Trainer trainer(spec, std::move(splits), cpuBackend());
    trainer.addListener(&rec);
    return trainer.run();
}

std::vector<double> stepLosses(Recorder& rec)
{
    std::vector<double> out;
    for (const auto& s : rec.all<StepEvent>()) out.push_back(s.loss);
    return out;
}

}  // namespace

class TestTrainer : public QObject {
    Q_OBJECT
private slots:
    void learnsBlobs()
    {
        Recorder rec;
        const FinishedEvent f = train(blobSpec(), blobSplits(), rec);
        QCOMPARE(int(f.outcome), int(FinishedEvent::Outcome::Finished));
        const auto epochs = rec.all<EpochEvent>();
        QCOMPARE(epochs.size(), std::size_t(5));
        QVERIFY(epochs.back().metrics.at("train_loss") < 0.5 * epochs.front().metrics.at("train_loss"));
        QVERIFY2(epochs.back().metrics.at("val_acc") > 0.9, std::to_string(epochs.back().metrics.at("val_acc")).c_str());
        QVERIFY(epochs.back().metrics.at("val_top2_acc") >= epochs.back().metrics.at("val_acc"));
        QVERIFY(epochs.back().metrics.at("train_acc") > 0.9);
        QVERIFY(f.metrics.at("test_acc") > 0.9);
        QVERIFY(std::isfinite(f.metrics.at("test_loss")) && f.metrics.at("test_loss") < 0.5);
    }

    void eventsArriveInOrder()
    {
        Recorder rec;
        ExperimentSpec spec = blobSpec();
        spec.training.epochs = 3;
        train(spec, blobSplits(), rec);
        std::int64_t expectedStep = 1, epoch = 1;
        double lastWall = 0;
        for (std::size_t i = 0; i < rec.events.size(); ++i) {
            const TrainEvent& e = rec.events[i];
            if (auto* s = std::get_if<StepEvent>(&e)) {
                QCOMPARE(s->step, expectedStep++);
                QCOMPARE(s->epoch, epoch);
                QVERIFY(std::isfinite(s->loss) && s->loss > 0);
                QCOMPARE(s->lr, 0.1);
                QVERIFY(std::isfinite(s->gradNorm) && s->gradNorm > 0);
                QCOMPARE(s->layerGradNorms.size(), std::size_t(4));  // fc1/fc2 weight and bias
                QCOMPARE(s->layerGradNorms.front().first, std::string("fc1.weight"));
                double sq = 0;
                for (const auto& [name, n] : s->layerGradNorms) sq += n * n;
                QVERIFY(std::abs(std::sqrt(sq) - s->gradNorm) < 1e-6 * s->gradNorm);
                QVERIFY(s->samplesPerSecond > 0 && s->dataWaitSeconds >= 0);
                QVERIFY(s->wallTime >= lastWall);
                lastWall = s->wallTime;
            } else if (auto* ep = std::get_if<EpochEvent>(&e)) {
                QCOMPARE(ep->epoch, epoch);
                QCOMPARE(ep->step, epoch * 15);  // the epoch's 15 steps came first
                for (const char* key : {"train_loss", "train_acc", "val_loss", "val_acc", "val_top2_acc"})
                    QVERIFY2(ep->metrics.count(key), key);
                QVERIFY(ep->dataWaitFraction >= 0 && ep->dataWaitFraction <= 1);
                ++epoch;
            } else if (std::holds_alternative<FinishedEvent>(e)) {
                QCOMPARE(i, rec.events.size() - 1);
            }
        }
        QCOMPARE(expectedStep, std::int64_t(46));
        QCOMPARE(epoch, std::int64_t(4));
        QVERIFY(std::holds_alternative<FinishedEvent>(rec.events.back()));
    }

    void earlyStoppingDirection()
    {
        QVERIFY(lowerIsBetter("val_loss") && lowerIsBetter("train_loss") && !lowerIsBetter("val_acc"));
        EarlyStoppingSpec s;
        s.enabled = true;
        s.metric = "val_acc";
        s.patience = 2;
        s.minDelta = 0.01;
        EarlyStopping es(s);
        QVERIFY(!es.update(0.5));
        QVERIFY(!es.update(0.505));  // not by more than minDelta: one bad epoch
        QVERIFY(!es.update(0.6));    // improves: the count restarts
        QVERIFY(!es.update(0.6));
        QVERIFY(es.update(NAN));      // second bad epoch in a row
        QCOMPARE(es.best(), 0.6);
        QCOMPARE(es.bestEpoch(), std::int64_t(2));
    }

    void earlyStoppingFires()
    {
        Recorder rec;
        ExperimentSpec spec = blobSpec();
        spec.optimizer.lr = 1e-9;  // val_loss cannot improve by minDelta
        spec.training.epochs = 10;
        spec.training.earlyStopping = {true, "val_loss", 1, 1e-3};
        const FinishedEvent f = train(spec, blobSplits(), rec);
        QCOMPARE(int(f.outcome), int(FinishedEvent::Outcome::EarlyStopped));
        QCOMPARE(rec.all<EpochEvent>().size(), std::size_t(2));  // the first sets the best
        QVERIFY(f.metrics.count("test_acc"));
        QVERIFY(f.message.text.find("val_loss") != std::string::npos);
    }

    void overfitModeDrivesLossToZero()
    {
        Recorder rec;
        ExperimentSpec spec = blobSpec(128);
        spec.optimizer = OptimizerSpec{};  // adam
        spec.optimizer.lr = 0.01;
        spec.training.epochs = 150;
        spec.training.overfitBatches = 2;
        const FinishedEvent f = train(spec, blobSplits(/*randomLabels=*/true), rec);
        QCOMPARE(int(f.outcome), int(FinishedEvent::Outcome::Finished));
        const auto epochs = rec.all<EpochEvent>();
        QCOMPARE(epochs.size(), std::size_t(150));
        QCOMPARE(epochs.back().step, std::int64_t(300));  // two fixed batches per epoch
        QVERIFY(epochs.front().metrics.count("val_loss") == 0);
        QVERIFY2(epochs.back().metrics.at("train_loss") < 0.05, std::to_string(epochs.back().metrics.at("train_loss")).c_str());
        QVERIFY(rec.hasLog(LogEvent::Level::Info, "goes toward 0"));
    }

    void hugeLearningRateFails()
    {
        Recorder rec;
        ExperimentSpec spec = blobSpec();
        spec.optimizer.lr = 1e6;
        spec.training.epochs = 20;
        const FinishedEvent f = train(spec, blobSplits(), rec);
        QCOMPARE(int(f.outcome), int(FinishedEvent::Outcome::Failed));
        const std::string where = "at step " + std::to_string(rec.all<StepEvent>().size() + 1) + " (epoch ";
        QVERIFY2(f.message.text.find(where) != std::string::npos, f.message.text.c_str());
        QVERIFY(f.message.text.find("learning rate (it is 1e+06; try 100000") != std::string::npos);
        QVERIFY(f.message.text.find("gradient clipping") != std::string::npos);
        QVERIFY(f.metrics.count("test_acc") == 0);
    }

    void infiniteInputFailsOrIsSkipped()
    {
        {
            Recorder rec;
            const FinishedEvent f = train(blobSpec(), blobSplits(false, /*poisonEvery=*/100), rec);
            QCOMPARE(int(f.outcome), int(FinishedEvent::Outcome::Failed));
            QVERIFY2(f.message.text.find("the loss became") != std::string::npos, f.message.text.c_str());
            QVERIFY(f.message.text.find("learning rate") != std::string::npos);
        }
        Recorder rec;
        ExperimentSpec spec = blobSpec();
        spec.training.skipNonFiniteLoss = true;
        const FinishedEvent f = train(spec, blobSplits(false, 100), rec);
        QCOMPARE(int(f.outcome), int(FinishedEvent::Outcome::Finished));
        // Samples 99 and 199 are poisoned: each epoch skips the one or two batches holding them.
        const auto skipped = static_cast<std::int64_t>(std::count_if(rec.events.begin(), rec.events.end(), [](const TrainEvent& e) {
            auto* l = std::get_if<LogEvent>(&e);
            return l && l->level == LogEvent::Level::Warning && l->message.text.find("step skipped") != std::string::npos;
        }));
        QVERIFY(skipped >= 5 && skipped <= 10);
        QCOMPARE(std::int64_t(rec.all<StepEvent>().size()), 5 * 15 - skipped);
        for (double loss : stepLosses(rec)) QVERIFY(std::isfinite(loss));
        QVERIFY(rec.all<EpochEvent>().back().metrics.at("val_acc") > 0.9);
    }

    // Mixed precision on the CPU backend (operands rounded as tensor cores round them): each
    // precision learns the blobs, and differs from f32 (so the setting reaches the GEMMs).
    void reducedPrecisionTrains_data()
    {
        QTest::addColumn<QString>("precision");
        for (const char* p : {"tf32", "bf16", "f16"}) QTest::newRow(p) << QString(p);
    }
    void reducedPrecisionTrains()
    {
        QFETCH(QString, precision);
        Recorder f32, reduced;
        ExperimentSpec spec = blobSpec();
        train(spec, blobSplits(), f32);
        spec.training.precision = precision.toStdString();
        const FinishedEvent f = train(spec, blobSplits(), reduced);
        QCOMPARE(int(f.outcome), int(FinishedEvent::Outcome::Finished));
        QVERIFY(reduced.all<EpochEvent>().back().metrics.at("val_acc") > 0.9);
        const auto a = stepLosses(f32), b = stepLosses(reduced);
        QCOMPARE(a.size(), b.size());  // no step skipped: the default f16 scale does not overflow here
        QVERIFY(a != b);
        QVERIFY2(std::abs(a[0] - b[0]) < 1e-2 * a[0], (std::to_string(a[0]) + " vs " + std::to_string(b[0])).c_str());
        QCOMPARE(cpuBackend().mathPrecision(), MathPrecision(precision == "tf32" ? MathPrecision::TF32
                                                             : precision == "bf16" ? MathPrecision::BF16
                                                                                   : MathPrecision::F16));
        train(blobSpec(), blobSplits(), f32);  // the next run sets its own precision back
        QCOMPARE(cpuBackend().mathPrecision(), MathPrecision::F32);
    }

    // f16 with a loss scale so large that every scaled gradient overflows fp16: the scaler
    // skips those steps and halves the scale until the gradients fit, then training goes on.
    void f16LossScalerBacksOffAndTrains()
    {
        Recorder rec;
        ExperimentSpec spec = blobSpec();
        spec.training.precision = "f16";
        spec.training.initialLossScale = std::ldexp(1.0, 40);
        spec.training.epochs = 8;
        const FinishedEvent f = train(spec, blobSplits(), rec);
        QCOMPARE(int(f.outcome), int(FinishedEvent::Outcome::Finished));
        std::vector<std::string> skips;
        for (const auto& l : rec.all<LogEvent>())
            if (l.message.text.find("gradients overflowed") != std::string::npos) skips.push_back(l.message.text);
        QVERIFY(!skips.empty());
        QVERIFY2(skips.front().find("at step 1 with loss scale 1.09951e+12") != std::string::npos, skips.front().c_str());
        // Halving from 2^40 down to where |dloss| * scale < 65504 takes a couple of dozen steps.
        QVERIFY2(skips.size() >= 15 && skips.size() <= 40, std::to_string(skips.size()).c_str());
        QCOMPARE(std::int64_t(rec.all<StepEvent>().size() + skips.size()), std::int64_t(8 * 15));
        for (double loss : stepLosses(rec)) QVERIFY(std::isfinite(loss));
        QVERIFY(rec.all<EpochEvent>().back().metrics.at("val_acc") > 0.9);
    }

    // A GPU out-of-memory message: the plan's breakdown, and the largest halved batch that fits
    // with the accumulation that keeps the effective batch.
    void outOfMemoryAdviceFindsWhatFits()
    {
        ExperimentSpec spec = blobSpec(256);
        spec.training.batchSize = 64;
        const RunMemory full = planRunMemory(spec, 64, cpuBackend()), half = planRunMemory(spec, 32, cpuBackend()),
                        quarter = planRunMemory(spec, 16, cpuBackend());
        QVERIFY(quarter.total() < half.total() && half.total() < full.total());
        QCOMPARE(full.parameters, half.parameters);
        QCOMPARE(full.optimizerState, full.gradients);  // SGD with momentum: one buffer
        const std::string advice = outOfMemoryAdvice(spec, cpuBackend(), (quarter.total() + half.total()) / 2);
        QVERIFY2(advice.find("plan at batch 64: parameters") != std::string::npos, advice.c_str());
        QVERIFY2(advice.find("training.batch_size: 16") != std::string::npos, advice.c_str());
        QVERIFY2(advice.find("accumulation_steps: 4 to keep the effective batch of 64") != std::string::npos, advice.c_str());
        const std::string none = outOfMemoryAdvice(spec, cpuBackend(), 1024);
        QVERIFY2(none.find("Even batch 1 does not fit") != std::string::npos, none.c_str());
        // The trainer states the plan before the first step.
        Recorder rec;
        train(blobSpec(), blobSplits(), rec);
        QVERIFY(rec.hasLog(LogEvent::Level::Info, "memory on cpu (planned): parameters"));
    }

    void stopAndPauseFromAnotherThread()
    {
        Recorder rec;
        ExperimentSpec spec = blobSpec();
        spec.training.epochs = 100000;  // would take hours: only stop() ends it
        Trainer trainer(spec, blobSplits(), cpuBackend());
        trainer.addListener(&rec);
        auto steps = [](std::size_t n) {
            return [n](const std::vector<TrainEvent>& ev) {
                return std::count_if(ev.begin(), ev.end(), [](auto& e) { return std::holds_alternative<StepEvent>(e); }) >= long(n);
            };
        };
        std::atomic<bool> heldStill{false};  // checked on this thread: QTest is not thread-safe
        std::thread ui([&] {
            rec.waitFor(steps(3));
            trainer.control().pause();
            rec.waitFor([](const std::vector<TrainEvent>& ev) {
                for (auto& e : ev)
                    if (auto* l = std::get_if<LogEvent>(&e); l && l->message.text.rfind("paused", 0) == 0) return true;
                return false;
            });
            const std::size_t whilePaused = rec.all<StepEvent>().size();
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            heldStill = rec.all<StepEvent>().size() == whilePaused;  // blocked, not stepping
            trainer.control().resume();
            rec.waitFor(steps(whilePaused + 5));
            trainer.control().stop();
        });
        const FinishedEvent f = trainer.run();
        ui.join();
        QCOMPARE(int(f.outcome), int(FinishedEvent::Outcome::Stopped));
        QVERIFY(heldStill);
        QVERIFY(rec.hasLog(LogEvent::Level::Info, "resumed at step"));
        QVERIFY(std::holds_alternative<FinishedEvent>(rec.events.back()));
    }

    // A pause is not training time: the epoch reports its active seconds and, beside them,
    // how long it was paused (measured here independently, on the pausing thread).
    void pausedTimeIsReportedApart()
    {
        Recorder rec;
        ExperimentSpec spec = blobSpec();
        spec.training.epochs = 100000;
        Trainer trainer(spec, blobSplits(), cpuBackend());
        trainer.addListener(&rec);
        double heldSeconds = 0;
        std::thread ui([&] {
            rec.waitFor([](const std::vector<TrainEvent>& ev) {
                return std::count_if(ev.begin(), ev.end(), [](auto& e) { return std::holds_alternative<StepEvent>(e); }) >= 2;
            });
            trainer.control().pause();
            rec.waitFor([](const std::vector<TrainEvent>& ev) {
                for (auto& e : ev)
                    if (auto* l = std::get_if<LogEvent>(&e); l && l->message.text.rfind("paused", 0) == 0) return true;
                return false;
            });
            const auto pausedAt = std::chrono::steady_clock::now();
            std::this_thread::sleep_for(std::chrono::milliseconds(400));
            heldSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - pausedAt).count();
            trainer.control().resume();
            // The epoch the pause fell in (epochs are short: not necessarily the first).
            rec.waitFor([](const std::vector<TrainEvent>& ev) {
                return std::any_of(ev.begin(), ev.end(), [](auto& e) {
                    const auto* epoch = std::get_if<EpochEvent>(&e);
                    return epoch && epoch->pausedSeconds > 0;
                });
            });
            trainer.control().stop();
        });
        trainer.run();
        ui.join();
        std::vector<EpochEvent> paused;
        for (const EpochEvent& e : rec.all<EpochEvent>())
            if (e.pausedSeconds > 0) paused.push_back(e);
        QCOMPARE(paused.size(), std::size_t(1));  // one pause, in one epoch
        const EpochEvent first = paused.front();
        // The trainer's pause spans the test's sleep, give or take the two threads noticing each
        // other (50 ms before, 0.5 s after on a loaded 2-core machine).
        QVERIFY2(first.pausedSeconds >= heldSeconds - 0.05 && first.pausedSeconds < heldSeconds + 0.5,
                 qPrintable(QString("%1 vs %2").arg(first.pausedSeconds).arg(heldSeconds)));
        // 15 small batches train in well under the pause: the active time leaves it out.
        QVERIFY2(first.seconds < heldSeconds, qPrintable(QString::number(first.seconds)));
        QVERIFY(first.seconds > 0);
    }

    void sameSeedSameLosses()
    {
        Recorder a, b, c;
        ExperimentSpec spec = blobSpec();
        spec.training.epochs = 2;
        spec.training.deterministic = true;
        train(spec, blobSplits(), a);
        train(spec, blobSplits(), b);
        QCOMPARE(stepLosses(a).size(), std::size_t(30));
        QVERIFY(stepLosses(a) == stepLosses(b));  // bit for bit
        spec.training.seed = 43;
        train(spec, blobSplits(), c);
        QVERIFY(stepLosses(a) != stepLosses(c));
    }

    void accumulationMatchesOneBigBatch()
    {
        // Sequential order: two micro-batches of 8 see exactly the samples of one batch of 16.
        ExperimentSpec big = blobSpec();
        big.dataset.sampler = "sequential";
        big.optimizer.momentum = 0;
        big.training.epochs = 2;
        ExperimentSpec small = big;
        small.training.batchSize = 8;
        small.training.accumulationSteps = 2;
        Recorder a, b;
        train(big, blobSplits(), a);
        train(small, blobSplits(), b);
        const auto la = stepLosses(a), lb = stepLosses(b);
        QCOMPARE(la.size(), std::size_t(30));
        QCOMPARE(lb.size(), la.size());
        for (std::size_t i = 0; i < la.size(); ++i) QVERIFY2(std::abs(la[i] - lb[i]) < 1e-4, std::to_string(i).c_str());
    }

    void raggedLastBatchIsEvaluatedWithTrainedParameters()
    {
        // 60 validation samples in batches of 16 (3 + a ragged 12) and of 20 (no remainder)
        // must give the same metrics: the ragged batch's own executor carries the trained
        // parameters, and every sample counts once.
        ExperimentSpec spec = blobSpec();
        spec.training.epochs = 2;
        DatasetSplits splits = blobSplits();
        Recorder rec;
        Trainer trainer(spec, splits, cpuBackend());
        trainer.addListener(&rec);
        trainer.run();
        auto evaluate = [&](std::int64_t batch) {
            LoaderOptions o;
            o.batchSize = batch;
            o.dropLast = false;
            o.shuffle = false;
            o.augment = false;
            Loader loader(splits.validation, spec.dataset, splits.trainStatistics, o);
            Evaluator evaluator(spec.model, cpuBackend(), 3, {1});
            ClassificationMetrics m(3);
            evaluator.evaluate(*trainer.executor(), loader, m, nullptr);
            return m;
        };
        const ClassificationMetrics a = evaluate(16), b = evaluate(20);
        QCOMPARE(a.count(), std::int64_t(60));
        QCOMPARE(b.count(), std::int64_t(60));
        QCOMPARE(a.confusion(), b.confusion());
        QVERIFY(std::abs(a.loss() - b.loss()) < 1e-6);
        QCOMPARE(a.accuracy(), rec.all<EpochEvent>().back().metrics.at("val_acc"));
        QVERIFY(a.accuracy() > 0.9);
    }

    void badModelFailsWithMessage()
    {
        Recorder rec;
        ExperimentSpec spec = blobSpec();
        spec.model.nodes[1].inputs = {"nope"};
        const FinishedEvent f = train(spec, blobSplits(), rec);
        QCOMPARE(int(f.outcome), int(FinishedEvent::Outcome::Failed));
        QVERIFY(f.message.text.find("nope") != std::string::npos);
        QCOMPARE(rec.events.size(), std::size_t(1));
    }
};

QTEST_GUILESS_MAIN(TestTrainer)
#include "tst_trainer.moc"
