// The Runs page against real SQLite stores: runs written by a real RunWriter (as the trainer
// and the CLI write them) are listed newest first with status and best result, appear while
// the page is open, chart incrementally, and can be renamed, annotated, deleted and resumed.
// Offscreen platform, a scratch HOME and one temporary workspace per test.
#include <QtTest>
#include <QtWidgets>
#include <QAbstractItemModelTester>

#include <sqlite3.h>

#include <filesystem>
#include <fstream>

#include "scratch_home.h"
#include "ui/main_window.h"
#include "ui/runs/run_charts.h"
#include "ui/runs/comparison_model.h"
#include "ui/runs/comparison_reads.h"
#include "ui/runs/run_comparison.h"
#include "ui/runs/run_details.h"
#include "ui/runs/trade_off_chart.h"
#include "ui/runs/run_overview.h"
#include "io/yaml/experiment_yaml.h"
#include "io/yaml/shipped_experiments.h"
#include "live_chart.h"

#include <qcustomplot.h>
#include "ui/runs/runs_model.h"
#include "ui/live_language.h"
#include "ui/runs/runs_page.h"
#include "io/checkpoint/checkpoint.h"
#include "store/run_reader.h"
#include "store/run_writer.h"

using namespace ts;
using namespace ts::ui;

namespace {

struct RunSpec {
    std::string name;
    int steps = 40;
    int epochs = 4;
    double finalValAcc = 0.91;
    bool withValAcc = true;
    bool withValidation = true;  // false: no val_* at all (a run without a validation split)
    std::optional<RunStatus> finish = RunStatus::Finished;
    int checkpoints = 1;
    int firstStep = 1;  // a resumed run starts after its parent's checkpoint
    std::optional<qint64> parent;
    std::string relation = "resume";
    std::string experimentYaml = "name: fashion_mnist_mlp\n";
    std::vector<std::pair<std::string, std::string>> parameters;
    double lossScale = 1.0;  // loss = lossScale * 2 / step
    std::vector<std::string> tags;
    std::string experimentName = "fashion_mnist_mlp";
};

// One run as the trainer records it: per-step loss/lr/grad_norm, per-epoch train and
// validation metrics, checkpoint files with their rows, a log line, and its end.
qint64 addRun(RunWriter& writer, const Workspace& ws, const RunSpec& spec)
{
    NewRun run;
    run.experimentName = spec.experimentName;
    run.experimentYaml = spec.experimentYaml;
    run.name = spec.name;
    run.device = "cpu";
    run.seed = 7;
    run.parentRunId = spec.parent;
    run.parameters = spec.parameters;
    run.tags = spec.tags;
    if (spec.parent) run.parentRelation = spec.relation;
    const qint64 id = writer.createRun(run);
    for (int step = spec.firstStep; step < spec.firstStep + spec.steps; ++step) {
        writer.addMetric(id, "loss", step, spec.lossScale * 2.0 / step, step * 0.01);
        writer.addMetric(id, "lr", step, 0.001, step * 0.01);
        writer.addMetric(id, "grad_norm", step, 1.0 + step % 3, step * 0.01);
    }
    for (int epoch = 1; epoch <= spec.epochs; ++epoch) {
        const int step = spec.firstStep - 1 + epoch * spec.steps / spec.epochs;
        if (spec.withValidation) writer.addMetric(id, "val_loss", step, 1.0 / epoch, step * 0.01);
        writer.addMetric(id, "train_loss", step, 1.1 / epoch, step * 0.01);
        if (spec.withValAcc && spec.withValidation) writer.addMetric(id, "val_acc", step, spec.finalValAcc - 0.05 * (spec.epochs - epoch), step * 0.01);
    }
    const std::filesystem::path folder = ws.runCheckpointsPath(id);
    std::filesystem::create_directories(folder);
    for (int c = 1; c <= spec.checkpoints; ++c) {
        const std::string file = "epoch_00" + std::to_string(c) + ".safetensors";
        std::ofstream(folder / file) << "weights";
        std::ofstream(checkpointStatePath((folder / file).string())) << "state";  // the pair a resume needs
        CheckpointRecord record;
        record.runId = id;
        record.path = "run_" + std::to_string(id) + "/" + file;
        record.statePath = checkpointStatePath(record.path);
        record.step = c * 10;
        record.epoch = c;
        record.metricName = "val_acc";
        record.metricValue = 0.9;
        record.best = c == spec.checkpoints;
        record.sizeBytes = 12;
        writer.addCheckpoint(record);
    }
    writer.addLog(id, {1.7e9, "info", ts::Message{"epoch 1 done"}});
    if (spec.finish) writer.finishRun(id, *spec.finish, {"done"});
    writer.flush();
    return id;
}

RunInfo stored(const Workspace& ws, qint64 id)
{
    RunReader reader(ws);
    const auto run = reader.run(id);
    return run ? *run : RunInfo{};
}

RunListing listing(qint64 id, const std::string& name)
{
    RunListing l;
    l.run.id = id;
    l.run.name = name;
    l.run.status = RunStatus::Finished;
    l.run.startTime = 1.7e9 + double(id);
    l.run.endTime = l.run.startTime + 60;
    return l;
}

void setUserVersion(const std::string& path, int version)
{
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    QCOMPARE(sqlite3_exec(db, ("PRAGMA user_version = " + std::to_string(version)).c_str(), nullptr, nullptr, nullptr),
             SQLITE_OK);
    sqlite3_close(db);
}

}  // namespace

// Opens a page on the test's workspace and waits until it lists `rows` runs.
#define OPEN_PAGE(page, rows)                              \
    auto page = newPage();                                 \
    QVERIFY(QTest::qWaitForWindowExposed(page.get()));     \
    QTRY_COMPARE_WITH_TIMEOUT(page->model()->rowCount(), rows, 5000)

class TestRunsPage : public QObject {
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_dir;
    Workspace m_ws;

    // A shown page that polls fast.
    std::unique_ptr<RunsPage> newPage()
    {
        auto page = std::make_unique<RunsPage>(m_ws);
        page->setPollInterval(50);
        page->resize(1000, 700);
        page->show();
        return page;
    }

private slots:
    void init()
    {
        QSettings().clear();
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_ws = Workspace::open(m_dir->path().toStdString());
    }
    void cleanup() { m_dir.reset(); }

    void modelListsNewestFirstWithStatusAndBest()
    {
        qint64 a, b, c;
        {
            RunWriter writer(m_ws);
            a = addRun(writer, m_ws, {.name = "first", .finalValAcc = 0.91});
            b = addRun(writer, m_ws, {.name = "lossOnly", .withValAcc = false, .finish = RunStatus::Failed});
            c = addRun(writer, m_ws, {.name = "stopped", .finalValAcc = 0.8, .finish = RunStatus::Stopped});
        }
        RunReader reader(m_ws);
        RunsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.refresh(reader);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), int(RunsModel::ColumnCount));
        auto cell = [&](int row, int column, int role = Qt::DisplayRole) { return model.index(row, column).data(role); };
        QCOMPARE(cell(0, RunsModel::Name).toString(), QString("stopped"));
        QCOMPARE(cell(0, RunsModel::Name, RunsModel::RunIdRole).toLongLong(), c);
        QCOMPARE(cell(1, RunsModel::Name, RunsModel::RunIdRole).toLongLong(), b);
        QCOMPARE(cell(2, RunsModel::Name, RunsModel::RunIdRole).toLongLong(), a);
        QCOMPARE(cell(0, RunsModel::Status).toString(), QString("Stopped"));
        QCOMPARE(cell(1, RunsModel::Status).toString(), QString("Failed"));
        QCOMPARE(cell(2, RunsModel::Status).toString(), QString("Finished"));
        QVERIFY(!cell(2, RunsModel::Status, Qt::DecorationRole).value<QIcon>().isNull());
        QCOMPARE(cell(1, RunsModel::Status, Qt::ForegroundRole).value<QColor>(), RunsModel::statusColor(RunStatus::Failed));
        QCOMPARE(cell(2, RunsModel::Result).toString(), QString("val acc 91.00 %"));  // best of 0.76..0.91
        QCOMPARE(cell(1, RunsModel::Result).toString(), QString("val loss 0.25"));    // val_loss's min (1/4)
        QCOMPARE(cell(2, RunsModel::Device).toString(), QString("cpu"));
        QCOMPARE(cell(2, RunsModel::Experiment).toString(), QString("fashion_mnist_mlp"));
        QVERIFY(cell(2, RunsModel::Started).toString() != QString("—"));
        QVERIFY(cell(2, RunsModel::Duration).toString().endsWith(" s"));
        QVERIFY(model.flags(model.index(0, RunsModel::Name)) & Qt::ItemIsEditable);
        QVERIFY(!(model.flags(model.index(0, RunsModel::Status)) & Qt::ItemIsEditable));
        QCOMPARE(cell(0, RunsModel::Id).toString(), QString::number(c));  // what `runs show N` takes
        QCOMPARE(model.headerData(RunsModel::Id, Qt::Horizontal, Qt::DisplayRole).toString(), QString("ID"));

        // Sorting is the proxy's, by numbers: best validation puts the 91 % run first.
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(RunsModel::SortRole);
        proxy.sort(RunsModel::Result, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, RunsModel::Name).data().toString(), QString("first"));
        QCOMPARE(proxy.index(2, RunsModel::Name).data().toString(), QString("lossOnly"));
    }

    // A run trained without a validation split (the shipped recipes) shows its final test
    // accuracy, labelled as such, not "—".
    void resultFallsBackToTheFinalTestMetric()
    {
        qint64 id;
        {
            RunWriter writer(m_ws);
            id = addRun(writer, m_ws, {.name = "no validation", .withValidation = false});
            writer.addMetric(id, "test_acc", 10, 0.8, 1.0);
            writer.addMetric(id, "test_acc", 20, 0.8644, 2.0);
            writer.flush();
        }
        RunReader reader(m_ws);
        RunsModel model;
        model.refresh(reader);
        const QModelIndex result = model.index(0, RunsModel::Result);
        QCOMPARE(result.data().toString(), QString("test acc 86.44 %"));  // the last test_acc, not the best
        QVERIFY(result.data(Qt::ToolTipRole).toString().contains("no validation split"));
        const std::vector<MetricSummary> onlyTest = {[] {
            MetricSummary s;
            s.name = "test_acc";
            s.last = 0.8644;
            s.lastStep = 20;
            s.best = 0.9;
            return s;
        }()};
        const HeadlineResult r = headlineResult(onlyTest);
        QVERIFY(r.summary && r.finalTest);
        QCOMPARE(r.value, 0.8644);  // the final value, not the best
        QCOMPARE(RunsModel::resultText(r), QString("test acc 86.44 %"));
        Q_UNUSED(id);
        QCOMPARE(RunsModel::resultText(HeadlineResult{}), QString("—"));
    }

    // A language switch while the page is open: the table's statuses and headers follow it.
    void tableFollowsALanguageSwitch()
    {
        RunWriter writer(m_ws);
        addRun(writer, m_ws, {.name = "one"});
        OPEN_PAGE(page, 1);
        QCOMPARE(page->model()->index(0, RunsModel::Status).data().toString(), QString("Finished"));
        const auto restore = qScopeGuard([] { LiveLanguage::use(QString()); });  // the system's, as before
        QVERIFY(LiveLanguage::use("zh_CN"));
        QTRY_COMPARE(page->model()->index(0, RunsModel::Status).data().toString(), QString("已完成"));
        QCOMPARE(page->model()->headerData(RunsModel::Status, Qt::Horizontal).toString(), QString("状态"));
        QVERIFY(LiveLanguage::use(QString()));
        QTRY_COMPARE(page->model()->index(0, RunsModel::Status).data().toString(), QString("Finished"));
    }

    void refreshUpdatesRowsInPlace()
    {
        RunsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRuns({listing(5, "e"), listing(4, "d"), listing(3, "c"), listing(2, "b"), listing(1, "a")});
        QCOMPARE(model.rowCount(), 5);
        const QPersistentModelIndex runOne = model.index(4, RunsModel::Name);
        const QPersistentModelIndex runThree = model.index(2, RunsModel::Name);

        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        // 7 and 6 are new, 4 and 2 deleted, 3 renamed, 5 and 1 unchanged.
        model.setRuns({listing(7, "g"), listing(6, "f"), listing(5, "e"), listing(3, "c2"), listing(1, "a")});
        QCOMPARE(reset.count(), 0);
        QCOMPARE(removed.count(), 2);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(inserted.at(0).at(1).toInt(), 0);
        QCOMPARE(inserted.at(0).at(2).toInt(), 1);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).value<QModelIndex>().row(), 3);
        QCOMPARE(model.rowCount(), 5);
        QCOMPARE(runOne.row(), 4);  // persistent indexes (the view's selection) follow their runs
        QCOMPARE(runThree.row(), 3);
        QCOMPARE(runThree.data().toString(), QString("c2"));
        QCOMPARE(model.rowOf(6), 1);
        QCOMPARE(model.rowOf(4), -1);

        changed.clear();
        model.setRuns({listing(7, "g"), listing(6, "f"), listing(5, "e"), listing(3, "c2"), listing(1, "a")});
        QCOMPARE(changed.count(), 0);  // nothing changed: no signal at all
        model.setRuns({});
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(reset.count(), 0);
    }

    void newRunAppearsWhilePageIsOpen()
    {
        RunWriter writer(m_ws);  // like the CLI: another writer than the page's
        addRun(writer, m_ws, {.name = "one"});
        addRun(writer, m_ws, {.name = "two"});
        OPEN_PAGE(page, 2);
        QVERIFY(page->bannerText().isEmpty());
        QSignalSpy reset(page->model(), &QAbstractItemModel::modelReset);
        QSignalSpy inserted(page->model(), &QAbstractItemModel::rowsInserted);
        const qint64 three = addRun(writer, m_ws, {.name = "three", .finish = std::nullopt});
        QTRY_COMPARE_WITH_TIMEOUT(page->model()->rowCount(), 3, 5000);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(page->proxyModel()->index(0, RunsModel::Name).data().toString(), QString("three"));  // newest first
        QCOMPARE(page->model()->index(0, RunsModel::Status).data().toString(), QString("Running"));

        // ... and its status follows the store.
        writer.finishRun(three, RunStatus::Finished, {"done"});
        writer.flush();
        QTRY_COMPARE_WITH_TIMEOUT(page->model()->index(0, RunsModel::Status).data().toString(), QString("Finished"), 5000);
    }

    void selectingRunChartsItIncrementally()
    {
        RunWriter writer(m_ws);
        const qint64 id = addRun(writer, m_ws, {.name = "live", .steps = 50, .epochs = 5, .finish = std::nullopt, .checkpoints = 2});
        addRun(writer, m_ws, {.name = "other", .steps = 8, .epochs = 2});
        OPEN_PAGE(page, 2);
        page->selectRun(id);
        QCOMPARE(page->selectedRunId(), id);
        RunDetails* details = page->details();
        RunCharts* charts = details->charts();
        QCOMPARE(details->runId(), id);
        QTRY_COMPARE(charts->pointCount("loss"), 50);  // read on a worker thread
        QCOMPARE(charts->pointCount("lr"), 50);
        QCOMPARE(charts->pointCount("grad_norm"), 50);
        QCOMPARE(charts->pointCount("val_loss"), 5);
        QCOMPARE(charts->pointCount("val_acc"), 5);
        QCOMPARE(charts->pointCount("train_loss"), 5);
        QCOMPARE(charts->lastStep("loss"), 50);
        QCOMPARE(details->fieldText("status"), QString("Running"));
        QCOMPARE(details->fieldText("seed"), QString("7"));
        QCOMPARE(details->checkpointList()->topLevelItemCount(), 2);
        QVERIFY(details->checkpointList()->topLevelItem(1)->text(2).contains("best"));
        QVERIFY(details->logView()->toPlainText().contains("epoch 1 done"));

        // The run goes on: only the new points are read and appended.
        for (int step = 51; step <= 70; ++step) writer.addMetric(id, "loss", step, 0.01, step * 0.01);
        writer.addMetric(id, "val_acc", 70, 0.95, 0.7);
        writer.addLog(id, {1.7e9 + 5, "warning", ts::Message{"slow epoch"}});
        writer.flush();
        QTRY_COMPARE_WITH_TIMEOUT(charts->pointCount("loss"), 70, 5000);
        QCOMPARE(charts->lastStep("loss"), 70);
        QCOMPARE(charts->pointCount("val_acc"), 6);
        QCOMPARE(charts->pointCount("lr"), 50);
        QTRY_VERIFY(details->logView()->toPlainText().contains("slow epoch"));
        QCOMPARE(details->logView()->blockCount(), 2);  // appended, not repeated
        RunReader reader(m_ws);
        QCOMPARE(charts->update(reader, id), 0);  // nothing new: nothing read

        // Another run starts afresh; no selection empties the panel.
        page->selectRun(page->model()->listing(0)->run.id);
        QTRY_COMPARE(charts->pointCount("loss"), 8);
        page->view()->clearSelection();
        QCOMPARE(details->runId(), -1);
        QCOMPARE(charts->pointCount("loss"), 0);
    }

    // A distributed run stores each rank's throughput: the throughput chart gains a series per
    // rank (named "rank N"), read whole, then incrementally; another run drops them.
    void distributedRunChartsEachRanksThroughput()
    {
        RunWriter writer(m_ws);
        const qint64 id = addRun(writer, m_ws, {.name = "two ranks", .steps = 30, .epochs = 3, .finish = std::nullopt});
        for (int step = 1; step <= 30; ++step) {
            writer.addMetric(id, "samples_per_s", step, 2000, step * 0.01);
            writer.addMetric(id, "samples_per_s/rank0", step, 1000 + step, step * 0.01);
            writer.addMetric(id, "samples_per_s/rank1", step, 900 + step, step * 0.01);
        }
        writer.flush();
        const qint64 single = addRun(writer, m_ws, {.name = "one process", .steps = 8, .epochs = 2});
        OPEN_PAGE(page, 2);
        page->selectRun(id);
        RunCharts* charts = page->details()->charts();
        QTRY_COMPARE(charts->pointCount("samples_per_s/rank1"), 30);
        QCOMPARE(charts->pointCount("samples_per_s/rank0"), 30);
        QCOMPARE(charts->pointCount("samples_per_s"), 30);
        widgets::LiveChart* throughput = charts->chartOf("samples_per_s");
        QVERIFY(throughput);
        QCOMPARE(charts->chartOf("samples_per_s/rank0"), throughput);
        QCOMPARE(throughput->seriesIds(), (QStringList{"samples_per_s", "samples_per_s/rank0", "samples_per_s/rank1"}));

        writer.addMetric(id, "samples_per_s/rank0", 31, 1031, 0.31);
        writer.addMetric(id, "samples_per_s/rank1", 31, 931, 0.31);
        writer.flush();
        RunReader reader(m_ws);
        QCOMPARE(charts->update(reader, id), 2);  // only the new points
        QCOMPARE(charts->pointCount("samples_per_s/rank1"), 31);

        page->selectRun(single);
        QTRY_COMPARE(charts->pointCount("loss"), 8);
        QCOMPARE(charts->pointCount("samples_per_s/rank0"), -1);  // not charted any more
        QCOMPARE(throughput->seriesIds(), QStringList{"samples_per_s"});
    }

    // Resumed twice (1 -> 2 -> 3) and forked once (1 -> 4): run 3's charts continue runs 1 and
    // 2 (only their points before each continuation's first step), marked where each began,
    // and its details show the whole family as a tree.
    void resumedRunContinuesItsLineage()
    {
        RunWriter writer(m_ws);
        const qint64 first = addRun(writer, m_ws, {.name = "first", .steps = 30, .epochs = 3, .finish = RunStatus::Stopped});
        // Run 1 got to step 30 but its checkpoint was at step 20: the resume redoes 21-30.
        const qint64 second = addRun(writer, m_ws, {.name = "first (resumed)", .steps = 20, .epochs = 2,
                                                     .finish = RunStatus::Stopped, .firstStep = 21, .parent = first});
        const qint64 third = addRun(writer, m_ws, {.name = "first (resumed) (resumed)", .steps = 10,
                                                    .epochs = 1, .firstStep = 36, .parent = second});
        const qint64 fork = addRun(writer, m_ws, {.name = "fork", .steps = 5, .epochs = 1,
                                                   .firstStep = 21, .parent = first, .relation = "fork"});
        OPEN_PAGE(page, 4);
        page->selectRun(third);
        RunCharts* charts = page->details()->charts();
        // 20 of run 1 (steps 1-20) + 15 of run 2 (21-35) + 10 of its own (36-45).
        QTRY_COMPARE(charts->pointCount("loss"), 45);
        QCOMPARE(charts->lastStep("loss"), 45);
        auto* loss = charts->chartOf("loss");
        QVERIFY(loss->markerCount() >= 2);
        // The wall time runs on: the first point of run 3 comes after run 2's last.
        QCustomPlot* plot = loss->plot();
        loss->setXAxisMode(widgets::XAxisMode::WallTime);
        loss->replotNow();
        QVERIFY(plot->xAxis->range().upper > 0.45);  // 0.20 + 0.15 + 0.10 s of steps, not 0.45 s alone

        QTreeWidget* tree = page->details()->overview()->lineageTree();
        QVERIFY(tree->isVisible());
        QCOMPARE(tree->topLevelItemCount(), 1);
        QTreeWidgetItem* root = tree->topLevelItem(0);
        QCOMPARE(root->data(0, Qt::UserRole).toLongLong(), first);
        QCOMPARE(root->childCount(), 2);  // the resume and the fork
        QTreeWidgetItem* resumed = root->child(0);
        QCOMPARE(resumed->data(0, Qt::UserRole).toLongLong(), second);
        QCOMPARE(resumed->text(1), QString("resumed"));
        QCOMPARE(root->child(1)->text(1), QString("forked"));
        QCOMPARE(resumed->child(0)->data(0, Qt::UserRole).toLongLong(), third);
        QVERIFY(resumed->child(0)->font(0).bold());
        // Activating a row shows that run.
        emit tree->itemActivated(root->child(1), 0);
        QCOMPARE(page->selectedRunId(), fork);
        QTRY_COMPARE(charts->pointCount("loss"), 20 + 5);

        // A run on its own has no lineage to show.
        const qint64 alone = addRun(writer, m_ws, {.name = "alone"});
        QTRY_COMPARE_WITH_TIMEOUT(page->model()->rowCount(), 5, 5000);
        page->selectRun(alone);
        QVERIFY(!page->details()->overview()->lineageTree()->isVisible());
    }

    // The details name the run's key settings (defaults included) and its final metrics.
    void detailsShowSettingsAndFinalMetrics()
    {
        const std::filesystem::path experiments = shippedExperimentsDirectory();
        QVERIFY(!experiments.empty());
        const ExperimentSpec spec = loadExperiment((experiments / "fashion_mnist_cnn.yaml").string());
        RunWriter writer(m_ws);
        const qint64 id = addRun(writer, m_ws, {.name = "cnn", .withValidation = false, .experimentYaml = experimentToYaml(spec)});
        writer.addMetric(id, "test_acc", 40, 0.9123, 1.0);
        writer.addMetric(id, "test_loss", 40, 0.25, 1.0);
        writer.addMetric(id, "train_acc", 20, 0.90, 0.5);
        writer.addMetric(id, "train_acc", 40, 0.85, 1.0);
        writer.flush();
        OPEN_PAGE(page, 1);
        page->selectRun(id);
        RunDetails* details = page->details();
        RunOverview* overview = details->overview();
        QCOMPARE(details->fieldText("result"), QString("test acc 91.23 %"));
        QCOMPARE(overview->metricText("test_acc"), QString("91.23 %"));
        QCOMPARE(overview->metricText("test_loss"), QString("0.25"));
        QCOMPARE(overview->metricText("train_loss"), QString("0.275"));  // the last is the best: said once
        QCOMPARE(overview->metricText("train_acc"), QString("85.00 % (best 90.00 % at step 20)"));
        const QString optimizer = overview->settingText("Optimizer:");
        QVERIFY2(optimizer.startsWith(QString::fromStdString(spec.optimizer.type)), qPrintable(optimizer));
        QVERIFY2(optimizer.contains("learning rate"), qPrintable(optimizer));
        QCOMPARE(overview->settingText("Batch size:"), QString::number(spec.training.batchSize));
        QCOMPARE(overview->settingText("Epochs:"), QString::number(spec.training.epochs));
        QCOMPARE(overview->settingText("Precision:"), QString::fromStdString(spec.training.precision));
        QVERIFY2(overview->settingText("Model:").contains("parameters"), qPrintable(overview->settingText("Model:")));
        // The notes have a tab of their own, with the button in view however long the message.
        auto* save = details->findChild<QPushButton*>("saveNotesButton");
        auto* tabs = details->findChild<QTabWidget*>("runTabs");
        tabs->setCurrentIndex(tabs->indexOf(save->parentWidget()));
        QTRY_VERIFY(save->isVisible());
        QVERIFY(save->parentWidget()->rect().contains(save->geometry()));

        // A stored experiment that no longer reads says so instead of showing nothing.
        QCOMPARE(RunOverview::keySettings("name: [").size(), 1);
        QVERIFY(RunOverview::keySettings("name: [").front().second.contains("cannot be read"));
    }

    // Three selected runs overlay on every chart, one series each; a run still training keeps
    // updating inside the comparison; the table shows what differs and copies as CSV/Markdown.
    void selectingSeveralRunsComparesThem()
    {
        RunWriter writer(m_ws);
        const qint64 a = addRun(writer, m_ws, {.name = "lr small", .steps = 30, .epochs = 3});
        const qint64 b = addRun(writer, m_ws, {.name = "lr big", .steps = 20, .epochs = 2});
        const qint64 live = addRun(writer, m_ws, {.name = "still training", .steps = 10, .epochs = 1, .finish = std::nullopt});
        OPEN_PAGE(page, 3);
        page->selectRuns({a, b, live});
        QCOMPARE(page->selectedRunIds(), (QList<qint64>{a, b, live}));
        QCOMPARE(page->selectedRunId(), -1);  // no single run: the single-run actions are off
        QVERIFY(!page->findChild<QAction*>("actionRenameRun")->isEnabled());
        RunComparison* comparison = page->comparison();
        QTRY_VERIFY(comparison->isVisible());
        QVERIFY(!page->details()->isVisible());
        for (const char* metric : {"loss", "val_loss", "val_acc", "lr", "grad_norm", "train_loss"}) {
            widgets::LiveChart* chart = comparison->chart(metric);
            QVERIFY2(chart, metric);
            QCOMPARE(chart->seriesIds().size(), 3);
        }
        QVERIFY(!comparison->chart("test_acc"));  // no run has it: no chart
        QVERIFY2(comparison->legendText().contains("lr big"), qPrintable(comparison->legendText()));  // named once
        QTRY_COMPARE(comparison->pointCount("loss", a), 30);  // read on a worker thread
        QTRY_VERIFY(!comparison->isLoading());
        QCOMPARE(comparison->pointCount("loss", b), 20);
        QCOMPARE(comparison->pointCount("val_acc", b), 2);
        // Hovering reads every run's value at that step.
        const QString readout = comparison->chart("lr")->readoutAt(5);
        QCOMPARE(readout.count('\n'), 2);
        QVERIFY2(readout.contains("lr big"), qPrintable(readout));

        for (int step = 11; step <= 25; ++step) writer.addMetric(live, "loss", step, 0.1, step * 0.01);
        writer.flush();
        QTRY_COMPARE_WITH_TIMEOUT(comparison->pointCount("loss", live), 25, 5000);
        QCOMPARE(comparison->pointCount("loss", a), 30);  // not read twice

        // The table: results and settings, differences only, copies.
        QSortFilterProxyModel* table = comparison->table();
        const int all = table->rowCount();
        comparison->differencesOnlyBox()->setChecked(true);
        QVERIFY(table->rowCount() < all);
        for (int r = 0; r < table->rowCount(); ++r)
            QVERIFY(table->index(r, 0).data(ComparisonModel::DiffersRole).toBool());
        QStringList shown;
        for (int r = 0; r < table->rowCount(); ++r) shown << table->index(r, 0).data().toString();
        QVERIFY2(shown.contains("Status"), qPrintable(shown.join(", ")));  // finished vs running
        QVERIFY(!shown.contains("Device"));  // cpu for all three
        const QString csv = ComparisonModel::toCsv(*table);
        QCOMPARE(csv.count('\n'), table->rowCount() + 1);
        QVERIFY(csv.startsWith("Setting or result,"));
        const QString markdown = ComparisonModel::toMarkdown(*table);
        QVERIFY(markdown.contains("| --- |"));
        page->findChild<QPushButton*>("copyMarkdownButton")->click();
        QCOMPARE(QGuiApplication::clipboard()->text(), markdown);

        // Back to one run: its details again.
        page->selectRun(a);
        QTRY_VERIFY(page->details()->isVisible());
        QCOMPARE(page->details()->runId(), a);
    }

    // Grouped by the learning rate (seeds varied): each group's mean and +-1 standard deviation
    // band, from known values: losses 2/step and 6/step average 4/step, spread 2*sqrt(2)/step.
    void groupingDrawsMeanAndBand()
    {
        RunWriter writer(m_ws);
        QList<qint64> ids;
        const std::pair<const char*, double> runs[] = {{"0.001", 1.0}, {"0.001", 3.0}, {"0.01", 1.0}};
        int seed = 0;
        for (const auto& [lr, scale] : runs)
            ids << addRun(writer, m_ws, {.name = "seed", .steps = 10, .epochs = 1,
                                         .parameters = {{"optimizer.lr", lr}, {"training.seed", std::to_string(seed++)}},
                                         .lossScale = scale});
        OPEN_PAGE(page, 3);
        page->selectRuns(ids);
        RunComparison* comparison = page->comparison();
        QTRY_VERIFY(comparison->chart("loss"));
        QComboBox* groupBox = comparison->groupByBox();
        QVERIFY(groupBox->findData("optimizer.lr") > 0);
        QVERIFY(groupBox->findData("training.seed") > 0);
        QCOMPARE(groupBox->findData("training.epochs"), -1);  // the same for all: nothing to group by

        comparison->setGroupBy("optimizer.lr");
        widgets::LiveChart* loss = comparison->chart("loss");
        QTRY_COMPARE(loss->seriesIds().size(), 6);  // two groups: a mean and two band edges each
        QCOMPARE(comparison->pointCount("loss", ids[0]), -1);  // runs are no longer drawn one by one
        loss->replotNow();
        QCPGraph* mean = loss->rawGraph("group0");
        QCOMPARE(mean->name(), QString("Learning rate = 0.001 (n = 2)"));
        QVERIFY(comparison->legendText().contains("Learning rate = 0.01 (n = 1)"));
        QCOMPARE(mean->dataCount(), 10);
        QCOMPARE(mean->data()->at(0)->value, 4.0);
        QVERIFY(qAbs(loss->rawGraph("group0_high")->data()->at(0)->value - (4.0 + 2.0 * std::sqrt(2.0))) < 1e-12);
        QVERIFY(qAbs(loss->rawGraph("group0_low")->data()->at(1)->value - (2.0 - std::sqrt(2.0))) < 1e-12);
        QCOMPARE(loss->rawGraph("group1")->name(), QString("Learning rate = 0.01 (n = 1)"));
        QCOMPARE(loss->rawGraph("group1_high")->data()->at(0)->value, 2.0);  // one run: no spread

        const RunComparison::Band band = RunComparison::meanAndSpread(
            {MetricSeries{"m", {1, 2}, {1.0, NAN}, {0, 0}}, MetricSeries{"m", {1, 3}, {3.0, 5.0}, {0, 0}}});
        QCOMPARE(band.steps, (std::vector<double>{1, 3}));  // step 2 held only NaN
        QCOMPARE(band.mean, (std::vector<double>{2.0, 5.0}));
        QCOMPARE(band.std[1], 0.0);

        // On the wall-time axis each run's series lies on its own elapsed seconds (step * 0.01 s
        // here), interpolated onto one grid: the same 4/step mean, now at x = step * 0.01.
        QSignalSpy loaded(comparison, &RunComparison::chartsLoaded);
        auto* xAxis = comparison->charts()->findChild<QComboBox*>("xAxisBox");
        xAxis->setCurrentIndex(xAxis->findData(int(widgets::XAxisMode::WallTime)));
        emit xAxis->activated(xAxis->currentIndex());
        QTRY_VERIFY(loaded.count() > 0);
        loss->replotNow();
        mean = loss->rawGraph("group0");
        QCOMPARE(mean->dataCount(), 10);
        for (int step : {1, 5, 10}) {
            const auto point = mean->data()->at(step - 1);
            QVERIFY2(qAbs(point->key - step * 0.01) < 1e-12, qPrintable(QString::number(point->key)));
            QVERIFY2(qAbs(point->value - 4.0 / step) < 1e-9, qPrintable(QString::number(point->value)));
            const double high = loss->rawGraph("group0_high")->data()->at(step - 1)->value;
            QVERIFY(qAbs(high - (4.0 + 2.0 * std::sqrt(2.0)) / step) < 1e-9);
        }

        comparison->setGroupBy({});
        QCOMPARE(comparison->chart("loss")->seriesIds().size(), 3);
        QTRY_COMPARE(comparison->pointCount("loss", ids[2]), 10);
    }

    // Seen: Group by listed raw keys sorted as text ("model.layers.10" before "model.layers.3")
    // and the list ran past the window's edge. Now: the settings that differ first, by their
    // labels in natural order (the Hyperparameters page's options before the model's layers);
    // then, greyed out, those every run shares; a list that scrolls.
    void groupByListsDifferingSettingsFirstByLabel()
    {
        RunWriter writer(m_ws);
        QList<qint64> ids;
        for (int i = 0; i < 2; ++i)
            ids << addRun(writer, m_ws, {.name = "run", .steps = 4, .epochs = 1,
                                         .parameters = {{"model.layers.10", i ? "ReLU" : "GELU"},
                                                        {"model.layers.3.Linear.out_features", i ? "64" : "32"},
                                                        {"schedule.type", i ? "cosine" : "constant"},
                                                        {"training.epochs", "1"}}});
        OPEN_PAGE(page, 2);
        page->selectRuns(ids);
        RunComparison* comparison = page->comparison();
        QTRY_VERIFY(comparison->chart("loss"));
        QComboBox* box = comparison->groupByBox();
        QStringList texts, keys;
        for (int i = 0; i < box->count(); ++i) {
            texts << box->itemText(i);
            keys << box->itemData(i).toString();
        }
        QCOMPARE(texts.mid(0, 4), (QStringList{"(none)", "Schedule", "Layer 3 (Linear): out_features", "Layer 10"}));
        QCOMPARE(keys.mid(1, 3), (QStringList{"schedule.type", "model.layers.3.Linear.out_features", "model.layers.10"}));
        const int epochs = box->findData("training.epochs");
        QVERIFY(epochs > 4);  // after the differing ones (and a separator)
        QCOMPARE(box->itemText(epochs), QString("Epochs"));
        auto* items = qobject_cast<QStandardItemModel*>(box->model());
        QVERIFY(items && !items->item(epochs)->isEnabled());  // nothing to group by
        QVERIFY(items->item(3)->isEnabled());
        QCOMPARE(box->itemData(1, Qt::ToolTipRole).toString(), QString("schedule.type: the runs differ on it"));
        comparison->setGroupBy("training.epochs");
        QVERIFY(comparison->groupBy().isEmpty());
        comparison->setGroupBy("schedule.type");
        QCOMPARE(box->currentText(), QString("Schedule"));
        QCOMPARE(box->maxVisibleItems(), 15);  // scrolls beyond that
    }

    // Runs of different lengths and speeds on one grid: at each x, the mean and sample
    // standard deviation of the runs spanning it, by linear interpolation (worked by hand).
    void groupBandsOnACommonGrid()
    {
        const GroupBand band = meanAndSpreadOnGrid({{{0, 1, 2}, {0, 2, 4}}, {{0, 2}, {2, 2}}, {{1, 2}, {5, NAN}}}, 3);
        QCOMPARE(band.x, (std::vector<double>{0, 1, 2}));
        // x = 0: 0 and 2; x = 1: 2, 2 (interpolated) and 5; x = 2: 4 and 2 (the third is NaN).
        QCOMPARE(band.mean, (std::vector<double>{1, 3, 3}));
        QVERIFY(qAbs(band.high[0] - (1 + std::sqrt(2.0))) < 1e-12);
        QVERIFY(qAbs(band.low[1] - (3 - std::sqrt(3.0))) < 1e-12);  // deviations -1, -1, 2: variance 6 / 2
        QVERIFY(qAbs(band.high[2] - (3 + std::sqrt(2.0))) < 1e-12);
        QVERIFY(meanAndSpreadOnGrid({}, 10).x.empty());

        // Epochs from the epoch ends (epoch 1 at step 10, 2 at step 20), then on at that pace.
        QCOMPARE(epochsAt({5, 10, 15, 25}, MetricSeries{"epoch", {10, 20}, {1, 2}, {0, 0}}),
                 (std::vector<double>{0.5, 1, 1.5, 2.5}));
        QVERIFY(std::isnan(epochsAt({5}, MetricSeries{"epoch", {}, {}, {}})[0]));  // no epoch ended yet
    }

    // The filter box keeps the runs whose name, experiment, status, id or a tag holds the text,
    // in any case, and a run arriving meanwhile shows only when it matches.
    void filterKeepsMatchingRuns()
    {
        RunWriter writer(m_ws);
        const qint64 baseline = addRun(writer, m_ws, {.name = "Baseline", .tags = {"sweep-a"}});
        const qint64 wide = addRun(writer, m_ws, {.name = "wide", .finish = RunStatus::Failed, .tags = {"sweep-b"}});
        const qint64 deep = addRun(writer, m_ws, {.name = "deep", .tags = {"sweep-a", "keep"}});
        OPEN_PAGE(page, 3);
        auto shown = [&] {
            QList<qint64> ids;
            for (int r = 0; r < page->proxyModel()->rowCount(); ++r)
                ids << page->proxyModel()->index(r, 0).data(RunsModel::RunIdRole).toLongLong();
            std::sort(ids.begin(), ids.end());
            return ids;
        };
        QLineEdit* filter = page->filterBox();
        QTest::keyClicks(filter, "SWEEP-A");
        QCOMPARE(shown(), (QList<qint64>{baseline, deep}));
        filter->setText("failed");  // the status as the table words it
        QCOMPARE(shown(), (QList<qint64>{wide}));
        filter->setText("fashion_mnist");  // every run's experiment
        QCOMPARE(shown().size(), 3);
        filter->setText(QString::number(wide));
        QCOMPARE(shown(), (QList<qint64>{wide}));
        filter->setText("keep");
        const qint64 kept = addRun(writer, m_ws, {.name = "later", .tags = {"keep"}});
        addRun(writer, m_ws, {.name = "ignored", .tags = {"other"}});
        QTRY_COMPARE_WITH_TIMEOUT(page->model()->rowCount(), 5, 5000);
        QCOMPARE(shown(), (QList<qint64>{deep, kept}));
        filter->clear();
        QCOMPARE(shown().size(), 5);
    }

    // From one run, the whole sweep: every run of its experiment, or every run sharing a tag
    // with it; the comparison then shows them.
    void selectingASweepFromOneRun()
    {
        RunWriter writer(m_ws);
        const qint64 a = addRun(writer, m_ws, {.name = "a", .tags = {"sweep-a"}});
        const qint64 b = addRun(writer, m_ws, {.name = "b", .tags = {"other"}, .experimentName = "cnn"});
        const qint64 c = addRun(writer, m_ws, {.name = "c", .tags = {"keep", "sweep-a"}, .experimentName = "cnn"});
        const qint64 d = addRun(writer, m_ws, {.name = "d"});
        OPEN_PAGE(page, 4);
        auto* sameExperiment = page->findChild<QAction*>("actionSelectSameExperiment");
        auto* sharingTag = page->findChild<QAction*>("actionSelectSharingTag");
        QVERIFY(sameExperiment && sharingTag);
        QVERIFY(page->view()->actions().contains(sharingTag));  // in the list's context menu

        page->selectRun(c);
        QVERIFY(sharingTag->isEnabled());
        sharingTag->trigger();
        QCOMPARE(page->selectedRunIds(), (QList<qint64>{a, c}));
        QTRY_VERIFY(page->comparison()->isVisible());
        page->selectRun(c);
        sameExperiment->trigger();
        QCOMPARE(page->selectedRunIds(), (QList<qint64>{b, c}));
        page->selectRun(d);
        QVERIFY(!sharingTag->isEnabled());  // d has no tag
        sameExperiment->trigger();
        QCOMPARE(page->selectedRunIds(), (QList<qint64>{a, d}));
    }

    // Chart points are read on a worker: right after a selection the charts say "Loading…"
    // and hold nothing; a newer selection wins over a read still running for an older one.
    void chartsLoadOffTheUiThreadAndTheNewestSelectionWins()
    {
        RunWriter writer(m_ws);
        const qint64 big = addRun(writer, m_ws, {.name = "long", .steps = 20000, .epochs = 4});
        const qint64 small = addRun(writer, m_ws, {.name = "short", .steps = 8, .epochs = 2});
        OPEN_PAGE(page, 2);
        RunCharts* charts = page->details()->charts();
        page->selectRun(big);
        QVERIFY(charts->isLoading());
        QCOMPARE(charts->pointCount("loss"), 0);
        QCOMPARE(charts->chartOf("loss")->emptyNote(), QString("Loading…"));
        page->selectRun(small);  // before the long run's points came
        QTRY_VERIFY(!charts->isLoading());
        QCOMPARE(charts->runId(), small);
        QCOMPARE(charts->pointCount("loss"), 8);
        QTest::qWait(200);  // the long run's read, done by now, is not applied late
        QCOMPARE(charts->pointCount("loss"), 8);

        QSignalSpy loaded(page->details(), &RunDetails::chartsLoaded);
        page->selectRun(big);
        QTRY_VERIFY(loaded.count() >= 1);
        QCOMPARE(loaded.at(0).at(0).toLongLong(), big);
        QCOMPARE(charts->pointCount("loss"), 20000);
        QCOMPARE(charts->chartOf("loss")->emptyNote(), QString("No data yet"));  // the note is back for later

        // The comparison too.
        page->selectRuns({big, small});
        RunComparison* comparison = page->comparison();
        QVERIFY(comparison->isLoading());
        QCOMPARE(comparison->pointCount("loss", big), 0);
        QTRY_COMPARE(comparison->pointCount("loss", big), 20000);
        QCOMPARE(comparison->pointCount("loss", small), 8);
    }

    // The Pareto front of a known point set: cheaper-and-better points only, by cost.
    void paretoFrontOfKnownPoints()
    {
        const std::vector<TradeOffPoint> points = {
            {1, 0.80, 1}, {2, 0.85, 2}, {2, 0.83, 3}, {3, 0.84, 4}, {4, 0.90, 5}, {5, 0.90, 6}, {0.5, 0.70, 7}};
        std::vector<qint64> onFront;
        for (const TradeOffPoint& p : paretoFront(points, true)) onFront.push_back(p.runId);
        QCOMPARE(onFront, (std::vector<qint64>{7, 1, 2, 5}));  // 3, 4 and 6 are beaten by a cheaper run
        onFront.clear();
        for (const TradeOffPoint& p : paretoFront(points, false)) onFront.push_back(p.runId);  // losses: lower wins
        QCOMPARE(onFront, (std::vector<qint64>{7}));
        QVERIFY(paretoFront({{NAN, 1, 1}, {1, 0.5, 2}}, true).size() == 1);
    }

    // The trade-off tab plots the selected runs' result against a cost; a click selects a run.
    void tradeOffChartSelectsARun()
    {
        RunWriter writer(m_ws);
        const qint64 a = addRun(writer, m_ws, {.name = "small", .finalValAcc = 0.80});
        const qint64 b = addRun(writer, m_ws, {.name = "big", .finalValAcc = 0.90,
                                               .parameters = {{"training.batch_size", "256"}}});
        OPEN_PAGE(page, 2);
        page->selectRuns({a, b});
        TradeOffChart* chart = page->comparison()->tradeOff();
        QTRY_VERIFY(chart->yBox()->count() > 0);
        QVERIFY2(chart->yBox()->currentText().contains("val_acc"), qPrintable(chart->yBox()->currentText()));
        const int batch = chart->xBox()->findText("training.batch_size");
        QVERIFY(batch < 0);  // run a has no number for it (its default is not stored): not an axis
        QCOMPARE(chart->xBox()->currentText(), QString("Active time"));  // parameters unknown here: next cost
        QCOMPARE(chart->plot()->graph(0)->dataCount(), 2);
        QSignalSpy clicked(chart, &TradeOffChart::runClicked);
        emit chart->plot()->plottableClick(chart->plot()->graph(0), 1, nullptr);
        QCOMPARE(clicked.count(), 1);
        QTRY_COMPARE(page->selectedRunId(), clicked.at(0).at(0).toLongLong());
    }

    // Settings differ where the stored parameters do; a key a run lacks is its default.
    void comparisonTableMarksDifferingSettings()
    {
        ComparisonModel model;
        ComparisonModel::Run x, y;
        x.info.id = 1;
        y.info.id = 2;
        x.parameters = {{"optimizer.lr", "0.001"}, {"training.epochs", "3"}};
        y.parameters = {{"optimizer.lr", "0.01"}, {"training.epochs", "3"}, {"training.seed", "4"}};
        model.setRuns({x, y});
        auto row = [&](const QString& name) {
            for (int r = 0; r < model.rowCount(); ++r)
                if (model.rowName(r) == name) return r;
            return -1;
        };
        QVERIFY(model.rowDiffers(row("optimizer.lr")));
        QVERIFY(!model.rowDiffers(row("training.epochs")));
        QVERIFY(model.rowDiffers(row("training.seed")));
        QCOMPARE(model.index(row("training.seed"), 1).data().toString(), QString("(default)"));
        QCOMPARE(model.index(row("training.seed"), 2).data().toString(), QString("4"));
        // Numbers sort as numbers.
        QCOMPARE(model.index(row("optimizer.lr"), 2).data(ComparisonModel::SortRole).typeId(), QMetaType::Double);
    }

    void renameAndNotesLandInTheStore()
    {
        qint64 id;
        {
            RunWriter writer(m_ws);
            id = addRun(writer, m_ws, {.name = "before"});
        }
        OPEN_PAGE(page, 1);
        QVERIFY(page->renameRun(id, "after"));
        QCOMPARE(stored(m_ws, id).name, std::string("after"));
        QCOMPARE(page->model()->index(0, RunsModel::Name).data().toString(), QString("after"));

        // F2 edits the name in place; Return stores it.
        QVERIFY(QTest::qWaitForWindowActive(page.get()));
        page->selectRun(id);
        QAction* rename = page->findChild<QAction*>("actionRenameRun");
        QCOMPARE(rename->shortcut(), QKeySequence(Qt::Key_F2));
        page->view()->setFocus();
        QTest::keyClick(page->view(), Qt::Key_F2);
        QLineEdit* editor = nullptr;  // the delegate's editor, in the table, with the focus
        QTRY_VERIFY((editor = page->view()->viewport()->findChild<QLineEdit*>()) && editor->hasFocus());
        QCOMPARE(editor->text(), QString("after"));
        editor->setText("typed name");
        QTest::keyClick(editor, Qt::Key_Return);
        QTRY_COMPARE(stored(m_ws, id).name, std::string("typed name"));
        QTRY_COMPARE(page->details()->findChild<QLabel*>("runTitle")->text(), QString("typed name"));

        // Notes: edit, Save, read back through another connection.
        QPlainTextEdit* notes = page->details()->notesEditor();
        auto* save = page->details()->findChild<QPushButton*>("saveNotesButton");
        QVERIFY(!save->isEnabled());
        notes->setPlainText("lr 1e-3 was too high");
        QVERIFY(save->isEnabled());
        save->click();
        QCOMPARE(stored(m_ws, id).notes, std::string("lr 1e-3 was too high"));
        QVERIFY(!save->isEnabled());
        QVERIFY(page->bannerText().isEmpty());
    }

    void deleteAsksThenRemovesRunAndCheckpoints()
    {
        qint64 keep, gone;
        {
            RunWriter writer(m_ws);
            keep = addRun(writer, m_ws, {.name = "keep"});
            gone = addRun(writer, m_ws, {.name = "gone", .checkpoints = 2});
        }
        const QString folder = QString::fromStdString(m_ws.runCheckpointsPath(gone));
        QVERIFY(QFileInfo::exists(folder + "/epoch_001.safetensors"));
        OPEN_PAGE(page, 2);
        QVERIFY(QTest::qWaitForWindowActive(page.get()));
        page->selectRun(gone);
        QCOMPARE(page->findChild<QAction*>("actionDeleteRun")->shortcut(), QKeySequence(QKeySequence::Delete));

        // Del (the table has the focus) asks first; Cancel keeps the run.
        page->view()->setFocus();
        QTest::keyClick(page->view(), Qt::Key_Delete);
        QMessageBox* box = nullptr;
        QTRY_VERIFY((box = page->findChild<QMessageBox*>("confirmDeleteBox")));
        QVERIFY2(box->informativeText().contains("checkpoints"), qPrintable(box->informativeText()));
        QVERIFY(box->informativeText().contains("(2 on record)"));
        box->button(QMessageBox::Cancel)->click();
        QTRY_VERIFY(!page->findChild<QMessageBox*>("confirmDeleteBox"));
        QCOMPARE(page->model()->rowCount(), 2);

        // The action again (the dialog took the activation: no key this time), then confirm.
        page->findChild<QAction*>("actionDeleteRun")->trigger();
        QTRY_VERIFY((box = page->findChild<QMessageBox*>("confirmDeleteBox")));
        box->findChild<QPushButton*>("confirmDeleteButton")->click();
        QTRY_COMPARE(page->model()->rowCount(), 1);
        QCOMPARE(page->model()->listing(0)->run.id, keep);
        QVERIFY(!RunReader(m_ws).run(gone));
        QVERIFY(!QFileInfo::exists(folder));
        QVERIFY(page->details()->runId() != gone);  // the view moves on to a neighbour, or to nothing
        QCOMPARE(page->details()->runId(), page->selectedRunId());
        QVERIFY(page->bannerText().isEmpty());
    }

    void deletingALiveRunIsRefusedInTheBanner()
    {
        RunWriter writer(m_ws);  // keeps the run open: a live process
        const qint64 id = addRun(writer, m_ws, {.name = "training", .finish = std::nullopt});
        OPEN_PAGE(page, 1);
        QVERIFY(!page->deleteRun(id));
        QVERIFY2(page->bannerText().contains("still running"), qPrintable(page->bannerText()));
        QCOMPARE(page->model()->rowCount(), 1);
    }

    void resumeEmitsTheRunId()
    {
        qint64 withCheckpoint, without, running;
        RunWriter writer(m_ws);
        withCheckpoint = addRun(writer, m_ws, {.name = "resumable", .finish = RunStatus::Stopped});
        without = addRun(writer, m_ws, {.name = "early crash", .finish = RunStatus::Failed, .checkpoints = 0});
        running = addRun(writer, m_ws, {.name = "running", .finish = std::nullopt});
        OPEN_PAGE(page, 3);
        QAction* resume = page->findChild<QAction*>("actionResumeRun");
        QSignalSpy spy(page.get(), &RunsPage::resumeRequested);

        page->selectRun(running);
        QVERIFY(!resume->isEnabled());
        page->selectRun(without);
        QVERIFY(resume->isEnabled());
        resume->trigger();
        QCOMPARE(spy.count(), 0);
        QVERIFY2(page->bannerText().contains("no checkpoint"), qPrintable(page->bannerText()));

        page->selectRun(withCheckpoint);
        resume->trigger();
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toLongLong(), withCheckpoint);
    }

    void emptyWorkspaceThenFirstRun()
    {
        OPEN_PAGE(page, 0);
        QVERIFY2(page->bannerText().contains("No runs yet"), qPrintable(page->bannerText()));
        RunWriter writer(m_ws);  // creates studio.db: the page opens it at the next poll
        addRun(writer, m_ws, {.name = "first ever"});
        QTRY_COMPARE_WITH_TIMEOUT(page->model()->rowCount(), 1, 5000);
        QTRY_VERIFY(page->bannerText().isEmpty());
    }

    void storeErrorsShowInTheBanner()
    {
        {
            QFile junk(QString::fromStdString(m_ws.databasePath()));
            QVERIFY(junk.open(QIODevice::WriteOnly));
            junk.write(QByteArray(8192, 'x'));
        }
        OPEN_PAGE(page, 0);
        QTRY_VERIFY2(page->bannerText().contains("not a TrainStudio database"), qPrintable(page->bannerText()));
        page->refresh();  // F5 on a broken store: the banner again, no crash
        QVERIFY(!page->bannerText().isEmpty());

        // A newer TrainStudio's database.
        page.reset();
        QFile::remove(QString::fromStdString(m_ws.databasePath()));
        {
            RunWriter writer(m_ws);
            addRun(writer, m_ws, {.name = "from the future"});
        }
        setUserVersion(m_ws.databasePath(), 999);
        page = newPage();
        QVERIFY(QTest::qWaitForWindowExposed(page.get()));
        QTRY_VERIFY2(page->bannerText().contains("newer"), qPrintable(page->bannerText()));
    }

    void viewStateSurvivesTheNextPage()
    {
        {
            OPEN_PAGE(page, 0);
            QCOMPARE(page->view()->horizontalHeader()->sortIndicatorSection(), int(RunsModel::Started));
            page->view()->sortByColumn(RunsModel::Name, Qt::AscendingOrder);
            page->saveViewState();  // what the main window does when it closes
        }
        OPEN_PAGE(page, 0);
        QCOMPARE(page->view()->horizontalHeader()->sortIndicatorSection(), int(RunsModel::Name));
        QCOMPARE(page->view()->horizontalHeader()->sortIndicatorOrder(), Qt::AscendingOrder);
    }

    void mainWindowShowsTheRunsPage()
    {
        qputenv("TRAINSTUDIO_WORKSPACE", QFile::encodeName(m_dir->path()));
        {
            MainWindow w;
            auto* page = w.findChild<RunsPage*>();
            QVERIFY(page);
            QCOMPARE(QString::fromStdString(page->workspace().directory), QDir(m_dir->path()).absolutePath());
        }
        qunsetenv("TRAINSTUDIO_WORKSPACE");
    }
};

int main(int argc, char** argv)
{
    // A scratch HOME and XDG dirs before Qt starts, so no user settings or workspace are touched.
    QTemporaryDir home;
    if (!home.isValid()) return 1;
    useScratchHome(home.path());

    QApplication app(argc, argv);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));  // numbers as the checks spell them
    QCoreApplication::setOrganizationName("TrainStudio");
    QCoreApplication::setApplicationName("TrainStudio");
    TestRunsPage test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_runs_page.moc"
