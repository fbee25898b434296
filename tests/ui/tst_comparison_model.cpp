// The comparison table grouped by a setting: one column per group with each result's mean ±
// sample standard deviation, worked out here by hand from the runs' known values.
#include <QtTest>

#include "ui/runs/comparison_model.h"
#include "ui/runs/runs_model.h"
#include "studio_suite.h"

using namespace ts;
using namespace ts::ui;

class TestComparisonModel : public QObject {
    Q_OBJECT

    static ComparisonModel::Run run(std::int64_t id, const std::string& lr, const std::string& seed, double acc, double seconds)
    {
        ComparisonModel::Run r;
        r.info.id = id;
        r.info.name = "run" + std::to_string(id);
        r.info.status = RunStatus::Finished;
        r.info.startTime = 1000;
        r.info.endTime = 1000 + seconds;
        MetricSummary s;
        s.name = "test_acc";
        s.count = 1;
        s.best = s.last = s.min = s.max = acc;
        r.summaries = {s};
        r.parameters = {{"optimizer.lr", lr}, {"training.epochs", "3"}, {"training.seed", seed}};
        return r;
    }

    static int row(const ComparisonModel& model, const QString& name)
    {
        for (int r = 0; r < model.rowCount(); ++r)
            if (model.rowName(r) == name) return r;
        return -1;
    }

private slots:
    void groupsShowMeanAndSampleStd()
    {
        ComparisonModel model;
        model.setRuns({run(1, "0.001", "1", 0.90, 60), run(2, "0.001", "2", 0.92, 120), run(3, "0.01", "1", 0.80, 60),
                       run(4, "0.01", "2", 0.84, 60), run(5, "0.01", "3", 0.88, 60)});
        QCOMPARE(model.columnCount(), 6);  // a column per run

        model.setGroupBy("optimizer.lr");
        QCOMPARE(model.groupKey(), QString("optimizer.lr"));
        QCOMPARE(model.columnCount(), 3);
        QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QString("Learning rate = 0.001 (n = 2)"));
        QCOMPARE(model.headerData(2, Qt::Horizontal).toString(), QString("Learning rate = 0.01 (n = 3)"));
        QCOMPARE(model.columnRunCount(2), 3);

        // 90 and 92 %: mean 91, s = sqrt((1 + 1) / 1) = 1.41; 80, 84, 88 %: mean 84, s = sqrt((16 + 0 + 16) / 2) = 4.
        const int best = row(model, "best test_acc");
        QCOMPARE(model.index(best, 1).data().toString(), QString("91.00 ± 1.41 %"));
        QCOMPARE(model.index(best, 2).data().toString(), QString("84.00 ± 4.00 %"));
        QCOMPARE(model.index(best, 1).data(ComparisonModel::SortRole).toDouble(), 91.0);
        QVERIFY(model.rowDiffers(best));
        // Active time 60 and 120 s: mean 90 s, s = 42.4 s, written as durations.
        const int active = row(model, "Active time");
        QCOMPARE(model.index(active, 1).data().toString(),
                 QString("%1 ± %2").arg(RunsModel::durationText(90), RunsModel::durationText(std::sqrt(1800.0))));
        QCOMPARE(model.index(active, 2).data().toString(), RunsModel::durationText(60));  // the group agrees

        // Settings are not averaged: the shared value, or the distinct values.
        QCOMPARE(model.index(row(model, "optimizer.lr"), 1).data().toString(), QString("0.001"));
        QCOMPARE(model.index(row(model, "training.seed"), 1).data().toString(), QString("1, 2"));
        QCOMPARE(model.index(row(model, "training.seed"), 2).data().toString(), QString("1, 2, 3"));
        QVERIFY(!model.rowDiffers(row(model, "training.epochs")));
        QVERIFY(model.rowDiffers(row(model, "training.seed")));
        // The grouping key stays a choice: it still differs between the runs.
        QVERIFY(model.differingSettings().contains("optimizer.lr"));

        // Copying writes the groups.
        QVERIFY(ComparisonModel::toCsv(model).startsWith("Setting or result,Learning rate = 0.001 (n = 2),Learning rate = 0.01 (n = 3)\n"));
    }

    void groupingSurvivesRefreshAndFallsBack()
    {
        ComparisonModel model;
        model.setRuns({run(1, "0.001", "1", 0.90, 60), run(2, "0.01", "2", 0.80, 60)});
        model.setGroupBy("training.seed");
        QCOMPARE(model.columnCount(), 3);
        model.setRuns({run(1, "0.001", "1", 0.91, 60), run(2, "0.01", "2", 0.81, 60)});  // a live refresh
        QCOMPARE(model.groupKey(), QString("training.seed"));
        QCOMPARE(model.index(row(model, "best test_acc"), 1).data().toString(), QString("91.00 %"));
        model.setGroupBy("training.epochs");  // the runs share it: no groups
        QVERIFY(model.groupKey().isEmpty());
        QCOMPARE(model.columnCount(), 3);
        QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QString("1 · run1"));
        // Five distinct values are counted, not listed.
        model.setRuns({run(1, "0.001", "1", 0.9, 60), run(2, "0.001", "2", 0.9, 60), run(3, "0.001", "3", 0.9, 60),
                       run(4, "0.001", "4", 0.9, 60), run(5, "0.01", "5", 0.9, 60)});
        model.setGroupBy("optimizer.lr");
        QCOMPARE(model.index(row(model, "training.seed"), 1).data().toString(), QString("4 values"));
    }

    // Trials of two sweeps (their "sweep:<id>" tags) group by the sweep; a run of no sweep
    // is its own group.
    void runsGroupBySweep()
    {
        std::vector<ComparisonModel::Run> runs = {run(1, "0.001", "1", 0.90, 60), run(2, "0.01", "1", 0.80, 60),
                                                  run(3, "0.001", "1", 0.70, 60), run(4, "0.01", "1", 0.60, 60)};
        runs[0].info.tags = {"sweep:mlp-aaaa", "trial:1"};
        runs[1].info.tags = {"trial:2", "sweep:mlp-aaaa"};
        runs[2].info.tags = {"sweep:mlp-bbbb", "trial:1"};
        ComparisonModel model;
        model.setRuns(runs);
        QVERIFY(model.differingSettings().contains("sweep"));
        QCOMPARE(model.settingValue("sweep", 3), QString("(none)"));
        model.setGroupBy("sweep");
        QCOMPARE(model.columnCount(), 4);
        QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QString("Sweep = (none) (n = 1)"));
        QCOMPARE(model.headerData(2, Qt::Horizontal).toString(), QString("Sweep = mlp-aaaa (n = 2)"));
        QCOMPARE(model.index(row(model, "best test_acc"), 2).data().toString(), QString("85.00 ± 7.07 %"));
        // No run of a sweep: no sweep row.
        model.setRuns({run(1, "0.001", "1", 0.90, 60), run(2, "0.01", "1", 0.80, 60)});
        QCOMPARE(row(model, "sweep"), -1);
    }

    // Seen: one row read "2,788" and "2.785e+04" (each value in its own shortest form). A row's
    // numbers now share one format chosen from all of them, and sort as numbers.
    void aRowsNumbersShareOneFormat()
    {
        auto withLoss = [](std::int64_t id, double best, double last) {
            ComparisonModel::Run r = run(id, "0.001", "1", 0.9, 60);
            MetricSummary s;
            s.name = "test_loss";
            s.count = 2;
            s.best = s.min = best;
            s.last = s.max = last;
            r.summaries.push_back(s);
            return r;
        };
        ComparisonModel model;
        model.setRuns({withLoss(1, 2788, 0.000123), withLoss(2, 27850, 12.5), withLoss(3, 301.25, 0.5)});
        const int best = row(model, "best test_loss"), last = row(model, "last test_loss");
        QVERIFY(best >= 0 && last >= 0);
        auto cells = [&](int r) {
            QStringList out;
            for (int c = 1; c <= 3; ++c) out << model.index(r, c).data().toString();
            return out;
        };
        // Fixed, with the decimals that give the smallest four digits (301.3), for every value.
        QCOMPARE(cells(best), (QStringList{"2,788.0", "27,850.0", "301.3"}));
        // A value below 1e-3: scientific for the whole row, four digits each.
        QCOMPARE(cells(last), (QStringList{"1.230e-04", "1.250e+01", "5.000e-01"}));
        QCOMPARE(model.index(best, 2).data(ComparisonModel::SortRole).toDouble(), 27850.0);
        // Small and large together: the decimals of the smallest, for every value.
        const auto format = ComparisonModel::rowFormat({0.4523, 1.5, std::nan("")});
        QCOMPARE(format(0.4523), QString("0.4523"));
        QCOMPARE(format(1.5), QString("1.5000"));
        QCOMPARE(format(std::nan("")), QString("—"));
        QCOMPARE(ComparisonModel::rowFormat({2e6, 3})(3), QString("3.000e+00"));
        QCOMPARE(ComparisonModel::rowFormat({0, 0})(0), QString("0"));
    }

    // Group by lists settings by their labels (the Hyperparameters page's), in natural order.
    void settingsByLabelInNaturalOrder()
    {
        QCOMPARE(ComparisonModel::settingLabel("optimizer.lr"), QString("Learning rate"));
        QCOMPARE(ComparisonModel::settingLabel("schedule.type"), QString("Schedule"));
        QCOMPARE(ComparisonModel::settingLabel("model.layers.12.Linear.out_features"), QString("Layer 12 (Linear): out_features"));
        QCOMPARE(ComparisonModel::settingLabel("model.layers.3"), QString("Layer 3"));
        QVERIFY(ComparisonModel::settingLabel("dataset.normalize.mean.0").endsWith(" [0]"));
        QCOMPARE(ComparisonModel::settingLabel("dataset.path.x"), QString("dataset.path.x"));  // no label: the key
        const QStringList sorted = ComparisonModel::sortedByLabel(
            {"model.layers.10", "schedule.type", "model.layers.3", "optimizer.lr", "model.layers.12.Linear.out_features",
             "model.layers.2.Linear.out_features"});
        // The options people tune first ("Learning rate", "Schedule"), then "Layer 2 (…)",
        // "Layer 3", "Layer 10", "Layer 12 (…)".
        QCOMPARE(sorted, (QStringList{"optimizer.lr", "schedule.type", "model.layers.2.Linear.out_features", "model.layers.3",
                                      "model.layers.10", "model.layers.12.Linear.out_features"}));
        QCOMPARE(ComparisonModel::settingLabel("description"), QString("Description"));
    }
};

int main(int argc, char** argv) { return runStudioSuite<TestComparisonModel>(argc, argv); }
#include "tst_comparison_model.moc"
