// The run-record helpers both run lists (trainstudio-cli runs, the studio's Runs page) show
// through: the headline validation result and a run's duration.
#include <QtTest>

#include <chrono>
#include <cmath>

#include "types/run_records.h"

using namespace ts;

namespace {

MetricSummary summary(const std::string& name, double best)
{
    MetricSummary s;
    s.name = name;
    s.count = 3;
    s.best = best;
    return s;
}

RunInfo run(RunStatus status, double start, double end, double heartbeat)
{
    RunInfo r;
    r.status = status;
    r.startTime = start;
    r.endTime = end;
    r.heartbeat = heartbeat;
    return r;
}

double unixNow() { return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count(); }

}  // namespace

class TestRunRecords : public QObject {
    Q_OBJECT
private slots:
    // The one table of which way metrics are better.
    void metricGoalsByName()
    {
        for (const char* name : {"loss", "val_loss", "test_loss", "val_bpc", "test_ppl", "data_wait_s", "data_wait_fraction"}) {
            QCOMPARE(metricGoal(name), MetricGoal::Minimise);
            QVERIFY(lowerIsBetter(name));
        }
        for (const char* name : {"val_acc", "train_acc", "test_top5_acc", "val_macro_f1", "val_precision", "val_recall",
                                 "val_auc", "samples_per_s"}) {
            QCOMPARE(metricGoal(name), MetricGoal::Maximise);
            QVERIFY(!lowerIsBetter(name));
        }
        for (const char* name : {"lr", "grad_norm", "grad_norm/fc1.weight", "epoch", "steps"})
            QCOMPARE(metricGoal(name), MetricGoal::None);
    }

    void bestValidationPrefersAccuracyThenLoss()
    {
        const std::vector<MetricSummary> both{summary("loss", 0.1), summary("val_loss", 0.4), summary("val_acc", 0.9)};
        QCOMPARE(bestValidation(both)->name, std::string("val_acc"));
        // val_acc that saw only NaN has no result: val_loss stands in.
        const std::vector<MetricSummary> nanAccuracy{summary("val_acc", NAN), summary("val_loss", 0.4)};
        QCOMPARE(bestValidation(nanAccuracy)->name, std::string("val_loss"));
        QCOMPARE(bestValidation(nanAccuracy)->best, 0.4);
        // Training metrics are no validation result.
        QVERIFY(!bestValidation({summary("loss", 0.1), summary("acc", 0.9), summary("val_loss", NAN)}));
        QVERIFY(!bestValidation({}));
        // A language model's headline is its bits per character, the lowest.
        const std::vector<MetricSummary> language{summary("val_acc", 0.4), summary("val_bpc", 3.2), summary("val_loss", 2.2)};
        QCOMPARE(bestValidation(language)->name, std::string("val_bpc"));
    }

    void durationEndsAtTheEndOrTheLastSignOfLife()
    {
        const double t = 1.7e9;
        QCOMPARE(runDuration(run(RunStatus::Finished, t, t + 42.5, t + 42.5)), 42.5);
        QCOMPARE(runDuration(run(RunStatus::Crashed, t, t + 7, t + 7)), 7.0);
        // A crash not stored yet (end 0): up to the heartbeat.
        QCOMPARE(runDuration(run(RunStatus::Crashed, t, 0, t + 3.25)), 3.25);
        QVERIFY(std::isnan(runDuration(run(RunStatus::Crashed, t, 0, t))));  // no sign of life after the start
        QVERIFY(std::isnan(runDuration(run(RunStatus::Queued, 0, 0, 0))));   // never started
        // Running: up to now, whatever the heartbeat says (0.5 s of slack for a slow machine).
        const double start = unixNow() - 10;
        const double running = runDuration(run(RunStatus::Running, start, 0, start + 1));
        QVERIFY2(running >= 10 && running < 10.5, qPrintable(QString::number(running)));
    }
};

QTEST_GUILESS_MAIN(TestRunRecords)
#include "tst_run_records.moc"
