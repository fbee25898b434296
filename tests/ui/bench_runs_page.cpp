// bench_runs_page: the Runs page at scale, with real widgets (offscreen) on a real workspace.
// It makes (or reuses) a workspace of N runs written as the trainer writes them (RunWriter,
// the experiment's YAML and settings, tags, per-epoch metrics), B of them long: P steps of
// loss, lr and grad_norm each. Then, per round, on a fresh page: opening the list, a text
// filter, sorting, selecting a long run until its charts are drawn (and the longest stall of
// the UI thread meanwhile: the points are read on a worker), comparing the B long runs, and
// replotting their overlaid series. It prints the median of the rounds beside the targets.
//
//   bench_runs_page [--runs 10000] [--big 20] [--points 100000] [--rounds 5] [--workspace DIR]
//
// A benchmark, not a test: timings swing with the machine's load, so nothing here fails on
// a number; it fails (exit 1) only when the page does not show what was written.
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "bench_timing.h"
#include "scratch_home.h"
#include "io/yaml/experiment_yaml.h"
#include "io/yaml/shipped_experiments.h"
#include "jobs/run_recorder.h"
#include "live_chart.h"
#include <qcustomplot.h>
#include "store/run_reader.h"
#include "store/run_writer.h"
#include "ui/runs/run_charts.h"
#include "ui/runs/run_comparison.h"
#include "ui/runs/run_details.h"
#include "ui/runs/runs_model.h"
#include "ui/runs/runs_page.h"

using namespace ts;
using namespace ts::ui;

namespace {

using bench::median;
using bench::msSince;
using bench::threadCpuMs;
using bench::waitUntil;

struct Options {
    long runs = 10000, big = 20, points = 100000, rounds = 5;
    std::string workspace;
};

bool parse(int argc, char** argv, Options& o)
{
    const std::map<std::string, long*> numbers = {
        {"--runs", &o.runs}, {"--big", &o.big}, {"--points", &o.points}, {"--rounds", &o.rounds}};
    for (int i = 1; i < argc; ++i) {
        const std::string option = argv[i];
        const bool hasValue = i + 1 < argc;
        bool ok = false;
        if (const auto n = numbers.find(option); n != numbers.end() && hasValue)
            ok = (*n->second = std::strtol(argv[++i], nullptr, 10)) > 0;
        else if (option == "--workspace" && hasValue)
            ok = !(o.workspace = argv[++i]).empty();
        if (!ok) {
            std::fprintf(stderr,
                         "bench_runs_page: bad option or value '%s'\nusage: bench_runs_page [--runs N] [--big N] "
                         "[--points N] [--rounds N] [--workspace DIR] (positive numbers; DIR is reused when it holds "
                         "a workspace made with the same numbers)\n",
                         argv[i]);
            return false;
        }
    }
    o.big = std::min(o.big, o.runs);
    return true;
}

// --- the workspace ---

const char* const kBigTag = "long";

// As the trainer records a run (jobs/run_recorder.cpp): the experiment with its YAML and
// flattened settings, per-step loss/lr/grad_norm, per-epoch metrics and the epoch count.
void writeRun(RunWriter& writer, ExperimentSpec spec, long index, bool big, long points)
{
    static const double lrs[] = {1e-3, 3e-4, 1e-2, 3e-3};
    static const std::int64_t batches[] = {64, 128, 256};
    spec.optimizer.lr = lrs[index % 4];
    spec.training.batchSize = batches[index % 3];
    spec.training.seed = std::uint64_t(index);
    NewRun run = newRunFor(spec, "cpu");
    run.name = (big ? "long run " : "sweep ") + std::to_string(index);
    char lr[32];
    std::snprintf(lr, sizeof lr, "lr-%g", spec.optimizer.lr);
    run.tags = {"bench", lr};
    if (big) run.tags.push_back(kBigTag);
    const std::int64_t id = writer.createRun(run);
    const std::int64_t steps = big ? points : 200;
    const int epochs = big ? 20 : 10;
    const double quality = 0.80 + 0.1 * std::sin(double(index));  // runs differ in their results
    for (std::int64_t s = 1; s <= steps; ++s) {
        const double t = double(s) * 0.02;
        if (big || s % 20 == 0) {  // the sweep's runs: a point per 20 steps keeps 10,000 of them small
            writer.addMetric(id, "loss", s, 2.0 / std::sqrt(double(s)) + 0.05 * std::sin(double(s)), t);
            writer.addMetric(id, "lr", s, spec.optimizer.lr * (1.0 - double(s) / double(steps + 1)), t);
            writer.addMetric(id, "grad_norm", s, 1.0 + 0.5 * std::cos(double(s) * 0.1), t);
        }
        const std::int64_t perEpoch = std::max<std::int64_t>(1, steps / epochs);
        if (s % perEpoch == 0) {
            const double e = double(s / perEpoch);
            writer.addMetric(id, "train_loss", s, 1.0 / e, t);
            writer.addMetric(id, "val_loss", s, 1.1 / e, t);
            writer.addMetric(id, "val_acc", s, quality - 0.2 / e, t);
            writer.addMetric(id, "epoch", s, e, t);
        }
    }
    const RunStatus status = index % 50 == 7 ? RunStatus::Failed : index % 20 == 3 ? RunStatus::Stopped : RunStatus::Finished;
    writer.finishRun(id, status, {});
}

// The long runs' ids, or none when `dir` holds no workspace of this size.
std::vector<qint64> existingWorkspace(const Workspace& ws, const Options& o)
{
    if (!std::filesystem::exists(ws.databasePath())) return {};
    RunReader reader(ws);
    std::vector<qint64> big;
    const std::vector<RunListing> runs = reader.listRuns();
    for (const RunListing& r : runs)
        if (std::find(r.run.tags.begin(), r.run.tags.end(), kBigTag) != r.run.tags.end()) big.push_back(r.run.id);
    if (long(runs.size()) != o.runs || long(big.size()) != o.big)
        throw StoreError(ws.databasePath() + " holds " + std::to_string(runs.size()) + " runs (" +
                         std::to_string(big.size()) + " long), not the " + std::to_string(o.runs) + " (" +
                         std::to_string(o.big) + ") asked for: give another --workspace or the same numbers");
    std::sort(big.begin(), big.end());
    return big;
}

std::vector<qint64> makeWorkspace(const Workspace& ws, const Options& o)
{
    const ExperimentSpec spec = loadExperiment((shippedExperimentsDirectory() / "fashion_mnist_mlp.yaml").string());
    QElapsedTimer timer;
    timer.start();
    {
        RunWriter writer(ws);
        const long every = o.runs / o.big;  // the long runs spread over the list
        for (long i = 0; i < o.runs; ++i) {
            writeRun(writer, spec, i, i % every == every / 2 && i / every < o.big, o.points);
            if (i % 1000 == 999) std::printf("  %ld of %ld runs written\n", i + 1, o.runs), std::fflush(stdout);
        }
        writer.flush();
    }
    std::printf("wrote the workspace in %.1f s\n", double(timer.elapsed()) / 1000);
    return existingWorkspace(ws, o);
}

// --- measuring ---

// The longest time the UI thread went without coming back to its event loop: a zero timer
// fires on every pass of the loop, so a gap between two firings is time spent elsewhere.
class StallMeter {
public:
    StallMeter()
    {
        m_timer.setInterval(0);
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            m_longest = std::max(m_longest, double(m_clock.nsecsElapsed()) / 1e6);
            m_clock.restart();
        });
    }
    void start()
    {
        m_longest = 0;
        m_clock.start();
        m_timer.start();
    }
    double stop()
    {
        m_timer.stop();
        return std::max(m_longest, double(m_clock.nsecsElapsed()) / 1e6);
    }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    double m_longest = 0;
};

// Waits until every chart holding points has drawn itself (its own 30 Hz replot) after now.
class DrawnWatch {
public:
    void arm(const std::vector<widgets::LiveChart*>& charts)
    {
        m_pending.clear();
        for (QMetaObject::Connection& c : m_connections) QObject::disconnect(c);
        m_connections.clear();
        for (widgets::LiveChart* chart : charts) {
            if (chart->isEmpty()) continue;  // a metric the runs lack (throughput) never draws points
            m_pending.insert(chart);
            m_connections.push_back(QObject::connect(chart->plot(), &QCustomPlot::afterReplot, [this, chart] {
                if (!chart->isEmpty()) m_pending.erase(chart);
            }));
        }
    }
    bool drawn() const { return m_pending.empty(); }

private:
    std::set<widgets::LiveChart*> m_pending;
    std::vector<QMetaObject::Connection> m_connections;
};

struct Row {
    const char* what;
    const char* target;
    std::vector<double> ms;
};

bool fail(const char* what)
{
    std::fprintf(stderr, "bench_runs_page: %s\n", what);
    return false;
}

bool measureRound(const Workspace& ws, const Options& o, const std::vector<qint64>& big, int round,
                  std::map<std::string, Row>& rows)
{
    auto record = [&](const char* key, double ms) { rows[key].ms.push_back(ms); };
    StallMeter stall;

    // The store's part of opening: listing the runs with their summaries.
    QElapsedTimer t;
    t.start();
    {
        RunReader reader(ws);
        t.restart();
        if (long(reader.listRuns().size()) != o.runs) return fail("the store did not list every run");
        record("list", msSince(t));
    }

    // Opening: a new page on the workspace until its table has every run.
    t.restart();
    RunsPage page(ws);
    page.setPollInterval(3600 * 1000);  // nothing changes: no re-reads between the steps
    page.resize(1600, 1000);
    page.show();
    if (!waitUntil([&] { return page.proxyModel()->rowCount() == o.runs; }, 60000))
        return fail("the page did not list every run");
    QCoreApplication::processEvents();  // painted
    record("open", msSince(t));

    // A text filter (a tag a quarter of the runs have), then clearing it.
    t.restart();
    page.filterBox()->setText(QStringLiteral("lr-0.003"));
    const int filtered = page.proxyModel()->rowCount();
    QCoreApplication::processEvents();
    record("filter", msSince(t));
    if (filtered != int(o.runs / 4))  // index % 4 == 3 return fail("the filter did not keep the lr-0.003 runs");
    t.restart();
    page.filterBox()->clear();
    QCoreApplication::processEvents();
    record("unfilter", msSince(t));

    // Sorting by a text column and by a number.
    for (auto [key, column] : {std::pair{"sortName", int(RunsModel::Name)}, std::pair{"sortResult", int(RunsModel::Result)}}) {
        t.restart();
        page.view()->sortByColumn(column, round % 2 ? Qt::AscendingOrder : Qt::DescendingOrder);
        QCoreApplication::processEvents();
        record(key, msSince(t));
    }
    page.view()->sortByColumn(RunsModel::Started, Qt::DescendingOrder);

    // One long run: selected from the event loop (as a click is), until its charts are drawn.
    const qint64 one = big[std::size_t(round) % big.size()];
    RunCharts* charts = page.details()->charts();
    DrawnWatch drawn;
    bool loaded = false;
    auto connection = QObject::connect(charts, &RunCharts::loaded, [&](qint64 id) {
        if (id == one && !loaded) drawn.arm(charts->charts());
        loaded = loaded || id == one;
    });
    stall.start();
    t.restart();
    QTimer::singleShot(0, &page, [&] {
        QElapsedTimer sync;
        sync.start();
        page.selectRun(one);
        record("selectSync", msSince(sync));
    });
    if (!waitUntil([&] { return loaded && drawn.drawn(); })) return fail("the run's charts never loaded");
    record("select", msSince(t));
    record("selectStall", stall.stop());
    QObject::disconnect(connection);
    if (charts->pointCount(QStringLiteral("loss")) != o.points) return fail("the run's loss chart lacks points");

    // The long runs side by side, until their charts are drawn.
    RunComparison* comparison = page.comparison();
    bool compared = false;
    connection = QObject::connect(comparison, &RunComparison::chartsLoaded, [&] {
        if (!compared) drawn.arm(comparison->charts()->charts());
        compared = true;
    });
    const QList<qint64> ids(big.begin(), big.end());
    stall.start();
    t.restart();
    QTimer::singleShot(0, &page, [&] {
        QElapsedTimer sync;
        sync.start();
        page.selectRuns(ids);
        record("compareSync", msSince(sync));
    });
    if (!waitUntil([&] { return compared && drawn.drawn(); })) return fail("the comparison's charts never loaded");
    record("compare", msSince(t));
    record("compareStall", stall.stop());
    QObject::disconnect(connection);
    widgets::LiveChart* loss = comparison->chart(QStringLiteral("loss"));
    if (!loss) return fail("the comparison has no loss chart");
    for (qint64 id : big)
        if (comparison->pointCount(QStringLiteral("loss"), id) != o.points) return fail("a compared run lacks points");

    // Replotting the overlaid series (decimated per pixel column, per series).
    for (int i = 0; i < 5; ++i) {
        const double cpu = threadCpuMs();
        record("replot", loss->replotNow());
        record("replotCpu", threadCpuMs() - cpu);
    }
    if (widgets::LiveChart* lr = comparison->chart(QStringLiteral("lr")))
        for (int i = 0; i < 5; ++i) record("replotLr", lr->replotNow());
    if (widgets::LiveChart* grad = comparison->chart(QStringLiteral("grad_norm")))
        for (int i = 0; i < 5; ++i) record("replotGrad", grad->replotNow());
    if (widgets::LiveChart* val = comparison->chart(QStringLiteral("val_loss")))
        for (int i = 0; i < 5; ++i) record("replotVal", val->replotNow());
    if (round == 0) {
        const QString shot = QDir::temp().filePath(QStringLiteral("bench_runs_page_compare.png"));
        page.grab().save(shot);
        std::printf("  (the page comparing the long runs: %s)\n", qPrintable(shot));
    }
    page.view()->clearSelection();
    return true;
}

}  // namespace

int main(int argc, char** argv)
{
    Options o;
    if (!parse(argc, argv, o)) return 2;
    // A scratch HOME before Qt starts: the page's saved column widths are never the user's.
    QTemporaryDir home;
    if (!home.isValid()) return 1;
    useScratchHome(home.path());
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("TrainStudioBench"));

    std::unique_ptr<QTemporaryDir> scratch;
    if (o.workspace.empty()) {
        scratch = std::make_unique<QTemporaryDir>();
        o.workspace = scratch->path().toStdString();
    }
    std::vector<qint64> big;
    Workspace ws;
    try {
        ws = Workspace::open(o.workspace);
        big = existingWorkspace(ws, o);
        if (big.empty()) {
            std::printf("making %ld runs (%ld long ones of %ld steps) in %s\n", o.runs, o.big, o.points, ws.directory.c_str());
            big = makeWorkspace(ws, o);
        } else {
            std::printf("reusing %s\n", ws.directory.c_str());
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_runs_page: %s\n", e.what());
        return 1;
    }

    std::map<std::string, Row> rows = {
        {"list", {"  of which the store's listRuns", "< 200 ms", {}}},
        {"open", {"open the list, until the view has every run", "< 1000 ms", {}}},
        {"filter", {"filter by text (a tag of 1/4 of the runs)", "< 100 ms", {}}},
        {"unfilter", {"clear the filter", "< 100 ms", {}}},
        {"sortName", {"sort by name", "< 100 ms", {}}},
        {"sortResult", {"sort by result", "< 100 ms", {}}},
        {"select", {"select a long run, until its charts are drawn", "-", {}}},
        {"selectStall", {"  longest UI-thread stall meanwhile", "off the UI thread", {}}},
        {"selectSync", {"  of which the selection itself (fields, log)", "-", {}}},
        {"compare", {"compare the long runs, until drawn", "-", {}}},
        {"compareStall", {"  longest UI-thread stall meanwhile", "off the UI thread", {}}},
        {"compareSync", {"  of which the selection itself (table, charts made)", "-", {}}},
        {"replot", {"replot the overlaid losses (raw + smoothed)", "< 16 ms", {}}},
        {"replotCpu", {"  its CPU time (the UI thread's own)", "< 16 ms", {}}},
        {"replotLr", {"replot the overlaid learning rates", "< 16 ms", {}}},
        {"replotGrad", {"replot the overlaid gradient norms (full-height noise)", "< 16 ms", {}}},
        {"replotVal", {"replot 20 validation losses of 20 points (a replot's floor)", "-", {}}},
    };
    for (int r = 0; r < o.rounds; ++r) {
        std::printf("round %d of %ld\n", r + 1, o.rounds), std::fflush(stdout);
        if (!measureRound(ws, o, big, r, rows)) return 1;
    }

    std::printf("\nRuns page: %ld runs, %ld of them with %ld points of loss, lr and grad_norm; median of %ld rounds "
                "(min-max)\n",
                o.runs, o.big, o.points, o.rounds);
    std::printf("%-60s %10s %19s   %s\n", "", "median", "min-max", "target");
    for (const char* key : {"open", "list", "filter", "unfilter", "sortName", "sortResult", "select", "selectStall", "selectSync",
                            "compare", "compareStall", "compareSync", "replot", "replotCpu", "replotLr", "replotGrad", "replotVal"}) {
        const Row& row = rows[key];
        if (row.ms.empty()) continue;
        const auto [lo, hi] = std::minmax_element(row.ms.begin(), row.ms.end());
        std::printf("%-60s %7.1f ms %8.1f-%7.1f ms   %s\n", row.what, median(row.ms), *lo, *hi, row.target);
    }
    return 0;
}
