// The one-step memory check as a job (jobs/job.h StepProbeJob) and the memory budget every
// job plans within (train/memory_advice.h): the margin the machine keeps is max(1 GiB, 20%)
// of the RAM (max(512 MiB, 10%) of a GPU's memory); a batch beyond the budget is refused
// with the numbers before anything is allocated; the largest batch leaves the margin; a stop
// ends the job before its step allocates.
#include <QtTest>

#include "backend/backend.h"
#include "blob_dataset.h"
#include "io/yaml/experiment_yaml.h"
#include "jobs/job.h"
#include "tensor/format_bytes.h"
#include "train/memory_advice.h"
#include "train/run_control.h"

using namespace ts;

namespace {

constexpr std::size_t kGiB = std::size_t(1) << 30, kMiB = std::size_t(1) << 20;

ExperimentSpec shippedCnn() { return loadExperiment(std::string(TS_SOURCE_DIR) + "/experiments/fashion_mnist_cnn.yaml"); }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

JobEnvironment onTheCpu()
{
    JobEnvironment env;
    env.backend = &cpuBackend();
    env.systemSampleSeconds = 0;
    return env;
}

// Stops the job once it says it is about to run its step (after the plan, before the data).
struct StopAtTheStep : test::Recorder {
    RunControl* control = nullptr;
    void onEvent(const TrainEvent& e) override
    {
        if (const auto* p = std::get_if<ProgressEvent>(&e); p && p->what.id == "probe.running_step") control->stop();
        test::Recorder::onEvent(e);
    }
};

}  // namespace

class TestStepProbeJob : public QObject {
    Q_OBJECT
private slots:
    void theMarginIsTheLargerOfAFloorAndAShare()
    {
        QCOMPARE(memoryMargin(2 * kGiB, false), kGiB);            // 20% would be 410 MiB: the 1 GiB floor
        QCOMPARE(memoryMargin(20 * kGiB, false), 4 * kGiB);       // 20%
        QCOMPARE(memoryMargin(2 * kGiB, true), 512 * kMiB);       // a GPU's floor
        QCOMPARE(memoryMargin(80 * kGiB, true), 8 * kGiB);        // 10%
        QCOMPARE(memoryMargin(512 * kMiB, false), kGiB);          // more than there is: nothing usable
        const MemoryBudget b = memoryBudget(cpuBackend());
        if (b.available == 0) QSKIP("the available memory is not known here");
        QCOMPARE(b.margin, memoryMargin(b.available, false));
        QCOMPARE(b.usable, b.available > b.margin ? b.available - b.margin : 0);
        QVERIFY(b.margin >= kGiB && double(b.margin) >= 0.2 * double(b.available) - 1);
        const std::string text = describeBudget(b, cpuBackend(), "here");
        QVERIFY2(contains(text, formatBytes(double(b.usable)) + " of the " + formatBytes(double(b.available)) +
                                    " of RAM available (MemAvailable) here, " + formatBytes(double(b.margin)) +
                                    " kept free for the system"),
                 text.c_str());
    }

    // Seen: a step at batch 109,804 sized to all the free RAM; the kernel killed the studio.
    // Now a batch beyond the budget is refused with the plan, the budget and the batch that
    // fits, and nothing is allocated.
    void aBatchThatDoesNotFitIsRefusedBeforeAllocating()
    {
        const MemoryBudget budget = memoryBudget(cpuBackend());
        if (budget.available == 0) QSKIP("the available memory is not known here");
        StepProbeJob job;
        job.experiment = shippedCnn();
        job.batch = std::int64_t(1) << 24;  // terabytes of activations
        RunControl control;
        test::Recorder rec;
        Allocator& allocator = cpuBackend().allocator();
        const std::size_t before = allocator.stats().allocated;
        allocator.resetPeak();
        const JobResult r = runJob(job, onTheCpu(), control, rec);
        QCOMPARE(allocator.stats().peak, before);  // refused before allocating anything
        QVERIFY(r.finished.outcome == FinishedEvent::Outcome::Failed);
        const std::string& m = r.finished.message.text;
        const RunMemory need = planRunMemory(job.experiment, job.batch, cpuBackend());
        QVERIFY2(contains(m, "does not fit in memory: at batch 16777216 it needs " + formatBytes(double(need.total()))), m.c_str());
        QVERIFY2(contains(m, "of RAM available (MemAvailable) here, ") && contains(m, " kept free for the system."), m.c_str());
        QVERIFY2(contains(m, "The largest batch that fits: training.batch_size: "), m.c_str());
        QCOMPARE(r.finished.metrics.at("planned_bytes"), double(need.total()));
        QCOMPARE(r.finished.metrics.at("batch"), double(job.batch));
        QVERIFY(r.finished.metrics.at("margin_bytes") >= double(kGiB));
    }

    // A batch that fits runs: its peak is the plan (within 5%, as tst_memory_fit measures).
    void aBatchThatFitsRunsAndMeasuresItsPeak()
    {
        StepProbeJob job;
        job.experiment = shippedCnn();
        job.batch = 16;
        RunControl control;
        test::Recorder rec;
        const JobResult r = runJob(job, onTheCpu(), control, rec);
        QVERIFY2(r.finished.outcome == FinishedEvent::Outcome::Finished, r.finished.message.text.c_str());
        QCOMPARE(r.finished.message.id, std::string("probe.ran"));
        const double planned = r.finished.metrics.at("planned_bytes"), peak = r.finished.metrics.at("peak_bytes");
        QCOMPARE(planned, double(planRunMemory(job.experiment, 16, cpuBackend()).total()));
        QVERIFY2(std::abs(peak / planned - 1) <= 0.05, qPrintable(QString("peak %1, planned %2").arg(peak).arg(planned)));
        QVERIFY(std::isfinite(r.finished.metrics.at("loss")));
        QVERIFY(r.finished.metrics.at("step_seconds") > 0);
        QCOMPARE(rec.all<ProgressEvent>().size(), std::size_t(1));  // the step; no search for a batch
    }

    // Batch 0: the largest batch whose plan fits the budget (the free memory less the margin);
    // stopped as its step begins, it allocates nothing and ends Stopped.
    void theLargestBatchLeavesTheMarginAndAStopEndsIt()
    {
        const MemoryBudget budget = memoryBudget(cpuBackend());
        if (budget.available == 0) QSKIP("the available memory is not known here");
        StepProbeJob job;
        job.experiment = shippedCnn();
        RunControl control;
        StopAtTheStep rec;
        rec.control = &control;
        Allocator& allocator = cpuBackend().allocator();
        const std::size_t before = allocator.stats().allocated;
        allocator.resetPeak();
        const JobResult r = runJob(job, onTheCpu(), control, rec);
        QVERIFY2(r.finished.outcome == FinishedEvent::Outcome::Stopped, r.finished.message.text.c_str());
        QCOMPARE(r.finished.message.id, std::string("probe.stopped"));
        QCOMPARE(allocator.stats().peak, before);
        const auto batch = std::int64_t(r.finished.metrics.at("batch"));
        const double usable = r.finished.metrics.at("available_bytes") - r.finished.metrics.at("margin_bytes");
        QVERIFY(batch > 1);
        QVERIFY(double(planRunMemory(job.experiment, batch, cpuBackend()).total()) <= usable);
        QVERIFY(double(planRunMemory(job.experiment, batch + 1, cpuBackend()).total()) > usable);
        // The margin is real: the batch is well below the one that fills all the free memory.
        QVERIFY(largestFittingBatch(job.experiment, cpuBackend(), std::size_t(r.finished.metrics.at("available_bytes"))) > batch);
        const auto progress = rec.all<ProgressEvent>();
        QCOMPARE(progress.size(), std::size_t(2));
        QCOMPARE(progress[0].what.id, std::string("probe.finding_batch"));
        QCOMPARE(progress[1].what.args.at(0), std::to_string(batch));
    }

    void aStopBeforeItBeginsEndsItStopped()
    {
        StepProbeJob job;
        job.experiment = shippedCnn();
        job.batch = 8;
        RunControl control;
        control.stop();
        test::Recorder rec;
        const JobResult r = runJob(job, onTheCpu(), control, rec);
        QVERIFY(r.finished.outcome == FinishedEvent::Outcome::Stopped);
        QVERIFY(!r.finished.metrics.count("peak_bytes"));
    }

    // The trainer's own refusal reads the same budget: a run planned past it never starts.
    void aTrainingRunPlansWithinTheSameBudget()
    {
        const MemoryBudget budget = memoryBudget(cpuBackend());
        if (budget.available == 0) QSKIP("the available memory is not known here");
        ExperimentSpec spec = test::blobSpec(16);
        const std::int64_t fillsAll = largestFittingBatch(spec, cpuBackend(), budget.available, std::int64_t(1) << 40);
        const std::int64_t withMargin = largestFittingBatch(spec, cpuBackend(), budget.usable, std::int64_t(1) << 40);
        QVERIFY(fillsAll > withMargin);
        spec.training.batchSize = (fillsAll + withMargin) / 2 + 1;  // fits the free memory, not the budget
        test::Recorder rec;
        Trainer trainer(spec, test::blobSplits(), cpuBackend(), TrainerOptions{});
        trainer.addListener(&rec);
        const FinishedEvent f = trainer.run();
        QVERIFY(f.outcome == FinishedEvent::Outcome::Failed);
        QVERIFY2(contains(f.message.text, "does not fit in memory") && contains(f.message.text, "kept free for the system"),
                 f.message.text.c_str());
    }
};

QTEST_APPLESS_MAIN(TestStepProbeJob)
#include "tst_step_probe_job.moc"
