// LiveChart and its numeric core. Runs under QT_QPA_PLATFORM=offscreen.
#include "chart_series.h"
#include "decimation.h"
#include "compact_ticker.h"
#include "live_chart.h"
#include "live_chart_envelope.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QMenu>
#include <QScrollArea>
#include <QScrollBar>
#include <QVBoxLayout>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QWheelEvent>

#include <qcustomplot.h>

#include <cmath>
#include <ctime>
#include <functional>
#include <memory>
#include <random>

using namespace ts::widgets;

namespace {

// Sorted x with gaps and repeated keys, y noise with rare large spikes, a few NaNs.
void makeNoisy(std::size_t n, std::vector<double>& x, std::vector<double>& y, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> step(0.0, 2.0), noise(-1.0, 1.0), unit(0.0, 1.0);
    x.resize(n);
    y.resize(n);
    double xv = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (unit(rng) > 0.05) xv += step(rng);  // 5% repeat the previous key
        x[i] = xv;
        y[i] = noise(rng);
        const double r = unit(rng);
        if (r < 0.001) y[i] = 50 * noise(rng);  // spikes
        else if (r < 0.0015) y[i] = std::nan("");
    }
}

// CPU time of this thread: unlike wall time it does not count waiting for a core, so it stays
// meaningful on a loaded build machine.
double threadCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

long columnOf(double x, double lo, double hi, int columns) {
    return std::min<long>(static_cast<long>((x - lo) / (hi - lo) * columns), columns - 1);
}

ChartSamples ramp(std::size_t n, double stepsPerEpoch, double first = 1) {
    ChartSamples s;
    for (std::size_t i = 0; i < n; ++i) {
        const double step = first + static_cast<double>(i);
        s.step.push_back(step);
        s.epoch.push_back(step / stepsPerEpoch);
        s.time.push_back(step * 0.05);
        s.value.push_back(2.0 * std::exp(-step / 300.0) + 0.05);
    }
    return s;
}

}  // namespace

class TestLiveChart : public QObject {
    Q_OBJECT
private slots:
    void decimationKeepsEveryColumnExtreme_data();
    void decimationKeepsEveryColumnExtreme();
    void decimationPassesSmallRangesThrough();
    void emaMatchesHandComputedValues();
    void seriesSortsLateAppendsAndTracksModes();
    void chartReceivesDecimatedPoints();
    void appendsCoalesceIntoFewReplots();
    void streamedPointsRedrawFourTimesASecond();
    void hiddenChartReplotsWhenShown();
    void replotsPaintInOnePass();
    void userZoomTurnsFollowOff();
    void wheelScrollsThePage();
    void logScale();
    void xAxisModes();
    void markersBestAndThreshold();
    void compactTickLabels_data();
    void compactTickLabels();
    void emptyChartShowsANote();
    void legendSitsOutsideThePlot();
    void checkpointLabelsNeverOverlap();
    void csvExport();
    void pngAndSvgExport();
    void exportsNameTheSeriesWhenThePageHidesTheLegend();
    void lonePointIsDrawnAsAMarker();
    void contextMenu();
    void pngSizeDialogStartsFromAndKeepsTheStoredSize();
    void paletteDrivesColours();
    void denseNoiseIsDrawnAsItsColumnEnvelope();
    void replotMillionPoints_data();
    void replotMillionPoints();
    void demoImage();
};

void TestLiveChart::decimationKeepsEveryColumnExtreme_data() {
    QTest::addColumn<int>("columns");
    QTest::addColumn<double>("loFrac");
    QTest::addColumn<double>("hiFrac");
    QTest::newRow("whole, 800 px") << 800 << 0.0 << 1.0;
    QTest::newRow("middle, 333 px") << 333 << 0.3 << 0.55;
    QTest::newRow("narrow, 1 px") << 1 << 0.1 << 0.9;
}

void TestLiveChart::decimationKeepsEveryColumnExtreme() {
    QFETCH(int, columns);
    QFETCH(double, loFrac);
    QFETCH(double, hiFrac);
    std::vector<double> x, y;
    makeNoisy(200000, x, y, 1234 + columns);
    const double lo = x.back() * loFrac, hi = x.back() * hiFrac;
    std::vector<double> ox, oy;
    decimateMinMax(x, y, lo, hi, columns, ox, oy);

    QVERIFY(!ox.empty());
    QCOMPARE(ox.size(), oy.size());
    QVERIFY(ox.size() <= 4 * static_cast<std::size_t>(columns) + 2);  // +2: one neighbour per side
    QVERIFY(std::is_sorted(ox.begin(), ox.end()));

    // Per column, the true min and max (ignoring NaN) must be among the output points.
    std::vector<double> mn(columns, INFINITY), mx(columns, -INFINITY);
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (x[i] < lo || x[i] > hi || !std::isfinite(y[i])) continue;
        const long c = columnOf(x[i], lo, hi, columns);
        mn[c] = std::min(mn[c], y[i]);
        mx[c] = std::max(mx[c], y[i]);
    }
    std::vector<char> hasMin(columns, 0), hasMax(columns, 0);
    for (std::size_t i = 0; i < ox.size(); ++i) {
        QVERIFY(std::isfinite(oy[i]));
        if (ox[i] < lo || ox[i] > hi) continue;
        const long c = columnOf(ox[i], lo, hi, columns);
        hasMin[c] |= oy[i] == mn[c];
        hasMax[c] |= oy[i] == mx[c];
    }
    for (int c = 0; c < columns; ++c) {
        if (!std::isfinite(mn[c])) continue;  // an empty column
        QVERIFY2(hasMin[c] && hasMax[c], qPrintable(QString("column %1 lost an extreme").arg(c)));
    }
    // The block-summary path gives exactly the same points.
    BlockExtremes blocks;
    blocks.update(std::span(y).first(1000));  // built incrementally, as a live series grows
    blocks.update(y);
    std::vector<double> bx, by;
    decimateMinMax(x, y, lo, hi, columns, bx, by, &blocks);
    QCOMPARE(bx, ox);
    QCOMPARE(by, oy);
    // Both neighbours outside the view are kept so the line reaches the edges.
    if (lo > x.front()) QVERIFY(ox.front() < lo);
    if (hi < x.back()) QVERIFY(ox.back() > hi);
}

void TestLiveChart::decimationPassesSmallRangesThrough() {
    const std::vector<double> x{0, 1, 2, 3, 4, 5}, y{1, 2, std::nan(""), 4, 5, 6};
    std::vector<double> ox, oy;
    decimateMinMax(x, y, 1.5, 3.5, 10, ox, oy);
    QCOMPARE(ox, (std::vector<double>{1, 3, 4}));  // neighbours 1 and 4; NaN at 2 skipped
    QCOMPARE(oy, (std::vector<double>{2, 4, 5}));
    decimateMinMax({}, {}, 0, 1, 10, ox, oy);
    QVERIFY(ox.empty());
}

void TestLiveChart::emaMatchesHandComputedValues() {
    // w = 0.5: last 0.5, 1.25, 2.125; debias 0.5, 0.75, 0.875.
    const std::vector<double> y{1, 2, 3};
    const auto s = debiasedEma(y, 0.5);
    QCOMPARE(s.size(), std::size_t{3});
    QCOMPARE(s[0], 1.0);
    QVERIFY(std::abs(s[1] - 1.25 / 0.75) < 1e-12);
    QVERIFY(std::abs(s[2] - 2.125 / 0.875) < 1e-12);
    // w = 0.9 on a constant: the debias makes it exact from the first point.
    for (double v : debiasedEma(std::vector<double>(20, 3.5), 0.9)) QVERIFY(std::abs(v - 3.5) < 1e-12);
    // w = 0 is the raw series; NaN passes through without disturbing the average.
    QCOMPARE(debiasedEma(y, 0.0), y);
    const auto n = debiasedEma(std::vector<double>{1, std::nan(""), 3}, 0.5);
    QVERIFY(std::isnan(n[1]));
    QVERIFY(std::abs(n[2] - 1.75 / 0.75) < 1e-12);
}

void TestLiveChart::seriesSortsLateAppendsAndTracksModes() {
    SeriesData d;
    d.setSmoothing(0.5);
    QVERIFY(d.append(ramp(5, 10, 6)));  // steps 6..10
    QVERIFY(d.append(ramp(5, 10, 1)));  // steps 1..5, late
    const auto steps = d.x(XAxisMode::Step);
    QVERIFY(std::is_sorted(steps.begin(), steps.end()));
    QCOMPARE(d.smoothed().front(), d.values().front());  // re-smoothed from the true first point
    QVERIFY(d.hasX(XAxisMode::Epoch));
    ChartSamples stepOnly;
    stepOnly.step = {11};
    stepOnly.value = {1};
    QVERIFY(d.append(stepOnly));
    QVERIFY(!d.hasX(XAxisMode::Epoch));
    stepOnly.value.push_back(2);  // sizes disagree
    QVERIFY(!d.append(stepOnly));
    QCOMPARE(d.size(), std::size_t{11});
}

void TestLiveChart::chartReceivesDecimatedPoints() {
    LiveChart chart;
    chart.resize(800, 400);
    QVERIFY(chart.addSeries("loss", "loss", Qt::blue));
    QVERIFY(!chart.addSeries("loss", "again", Qt::red));
    QVERIFY(chart.append("loss", ramp(1000, 100)));
    QVERIFY(!chart.append("nope", ramp(3, 1)));
    chart.replotNow();
    QCOMPARE(chart.rawGraph("loss")->dataCount(), 1000);  // few points: passed through

    QVERIFY(chart.append("loss", ramp(199000, 100, 1001)));
    chart.setSmoothing("loss", 0.9);
    chart.replotNow();
    const int columns = std::max(chart.width(), chart.plot()->width());
    QCOMPARE(chart.pointCount("loss"), std::size_t{200000});
    QVERIFY(chart.rawGraph("loss")->dataCount() > 0);
    QVERIFY(chart.rawGraph("loss")->dataCount() <= 4 * columns + 2);
    QVERIFY(chart.smoothedGraph("loss"));
    QVERIFY(chart.smoothedGraph("loss")->dataCount() <= 4 * columns + 2);
    // Following: the whole data range is in view.
    QVERIFY(chart.plot()->xAxis->range().lower <= 1.0);
    QVERIFY(chart.plot()->xAxis->range().upper >= 200000.0);

    chart.setSmoothing("loss", 0);
    QVERIFY(!chart.smoothedGraph("loss"));
    chart.clear();
    chart.replotNow();
    QCOMPARE(chart.pointCount("loss"), std::size_t{0});
    QCOMPARE(chart.rawGraph("loss")->dataCount(), 0);
}

void TestLiveChart::appendsCoalesceIntoFewReplots() {
    LiveChart chart;
    chart.resize(600, 300);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.addSeries("loss", "loss", Qt::blue);
    QTest::qWait(100);
    int replots = 0;
    connect(chart.plot(), &QCustomPlot::afterReplot, this, [&] { ++replots; });
    for (int i = 0; i < 200; ++i) chart.append("loss", ramp(10, 100, 1 + 10.0 * i));
    QCOMPARE(replots, 0);  // appending never replots by itself
    QTRY_VERIFY(replots >= 1);
    QTest::qWait(100);
    QVERIFY2(replots <= 2, qPrintable(QString::number(replots)));
    QCOMPARE(chart.rawGraph("loss")->dataCount(), 2000);
}

// Points arriving every 20 ms (a fast run) redraw the chart about 4 times a second, not at
// the 30 Hz a change of view gets: each frame is taken from the trainer's cores.
void TestLiveChart::streamedPointsRedrawFourTimesASecond() {
    LiveChart chart;
    chart.resize(600, 300);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.addSeries("loss", "loss", Qt::blue);
    QTest::qWait(100);
    int replots = 0;
    connect(chart.plot(), &QCustomPlot::afterReplot, this, [&] { ++replots; });
    QElapsedTimer clock;
    clock.start();
    for (int i = 0; clock.elapsed() < 1000; ++i) {
        chart.append("loss", ramp(1, 100, 1 + i));
        QTest::qWait(20);
    }
    QVERIFY2(replots >= 2 && replots <= 6, qPrintable(QString::number(replots)));
    // A change of view is drawn at once.
    QTest::qWait(300);
    replots = 0;
    clock.restart();
    chart.setLogY(true);
    QTRY_VERIFY(replots >= 1);
    QVERIFY2(clock.elapsed() < 200, qPrintable(QString::number(clock.elapsed())));
}

// A chart on a page that is not shown draws nothing while data streams in, and catches up
// (every point) as soon as it is shown.
void TestLiveChart::hiddenChartReplotsWhenShown() {
    LiveChart chart;
    chart.resize(600, 300);
    chart.addSeries("loss", "loss", Qt::blue);
    QTest::qWait(50);  // QCustomPlot queues a first replot of its own when it is made
    int replots = 0;
    connect(chart.plot(), &QCustomPlot::afterReplot, this, [&] { ++replots; });
    for (int i = 0; i < 20; ++i) {
        chart.append("loss", ramp(10, 100, 1 + 10.0 * i));
        QTest::qWait(10);
    }
    QTest::qWait(100);  // three replot periods
    QCOMPARE(replots, 0);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    QTRY_VERIFY(replots >= 1);
    QCOMPARE(chart.rawGraph("loss")->dataCount(), 200);
}

// A replot leaves the painting to Qt's next paint pass, so the charts of a page that changed
// together are painted and flushed to the screen once, not each on its own.
void TestLiveChart::replotsPaintInOnePass() {
    QWidget page;
    auto* layout = new QVBoxLayout(&page);
    LiveChart* charts[2] = {new LiveChart, new LiveChart};
    int paints[2] = {0, 0};
    struct PaintCounter : QObject {
        int* count;
        explicit PaintCounter(int* c) : count(c) {}
        bool eventFilter(QObject*, QEvent* e) override {
            if (e->type() == QEvent::Paint) ++*count;
            return false;
        }
    };
    for (int i = 0; i < 2; ++i) {
        layout->addWidget(charts[i]);
        charts[i]->addSeries("loss", "loss", Qt::blue);
        auto* counter = new PaintCounter(&paints[i]);
        counter->setParent(charts[i]);
        charts[i]->plot()->installEventFilter(counter);
    }
    page.resize(600, 600);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    QTest::qWait(100);
    paints[0] = paints[1] = 0;
    for (LiveChart* c : charts) {
        c->append("loss", ramp(100, 100));
        c->plot()->replot();  // what the replot timer does, less the queueing
    }
    QCOMPARE(paints[0], 0);  // drawn into the plot's buffers, not yet onto the window
    QCOMPARE(paints[1], 0);
    QTRY_VERIFY(paints[0] >= 1 && paints[1] >= 1);
}

// Ctrl+wheel zooms (and so stops following); dragging pans.
void TestLiveChart::userZoomTurnsFollowOff() {
    LiveChart chart;
    chart.resize(600, 300);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.addSeries("loss", "loss", Qt::blue);
    chart.append("loss", ramp(1000, 100));
    chart.replotNow();
    QVERIFY(chart.follow());
    QSignalSpy spy(&chart, &LiveChart::followChanged);

    QCustomPlot* plot = chart.plot();
    const QPointF pos = plot->axisRect()->rect().center();
    QWheelEvent wheel(pos, plot->mapToGlobal(pos), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::ControlModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(plot, &wheel);
    QVERIFY(!chart.follow());
    QCOMPARE(spy.count(), 1);
    const QCPRange zoomed = plot->xAxis->range();
    QVERIFY(zoomed.size() < 1000);

    // New data does not move a view the user chose.
    chart.append("loss", ramp(1000, 100, 1001));
    chart.replotNow();
    QCOMPARE(plot->xAxis->range().lower, zoomed.lower);
    QCOMPARE(plot->xAxis->range().upper, zoomed.upper);

    chart.setFollow(true);
    chart.replotNow();
    QVERIFY(plot->xAxis->range().upper >= 2000);
    QVERIFY(chart.follow());
}

// A plain wheel turn over a chart scrolls the page it sits in and leaves the chart's view alone.
void TestLiveChart::wheelScrollsThePage() {
    QScrollArea area;
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    auto* chart = new LiveChart;
    chart->setMinimumHeight(300);
    layout->addWidget(chart);
    layout->addSpacing(2000);  // a page taller than the view
    area.setWidget(page);
    area.setWidgetResizable(true);
    area.resize(600, 400);
    area.show();
    QVERIFY(QTest::qWaitForWindowExposed(&area));
    chart->addSeries("loss", "loss", Qt::blue);
    chart->append("loss", ramp(1000, 100));
    chart->replotNow();
    const QCPRange before = chart->plot()->xAxis->range();
    QCOMPARE(area.verticalScrollBar()->value(), 0);

    QCustomPlot* plot = chart->plot();
    const QPointF pos = plot->axisRect()->rect().center();
    QWheelEvent wheel(pos, plot->mapToGlobal(pos), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(plot, &wheel);
    QVERIFY2(area.verticalScrollBar()->value() > 0, "the page did not scroll");
    QVERIFY(chart->follow());
    QCOMPARE(chart->plot()->xAxis->range().lower, before.lower);
    QCOMPARE(chart->plot()->xAxis->range().upper, before.upper);
}

void TestLiveChart::logScale() {
    LiveChart chart;
    chart.resize(600, 300);
    chart.addSeries("loss", "loss", Qt::blue);
    chart.append("loss", ramp(500, 100));
    QSignalSpy spy(&chart, &LiveChart::logYChanged);
    chart.setLogY(true);
    chart.replotNow();
    QVERIFY(chart.logY());
    QCOMPARE(chart.plot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
    QVERIFY(chart.plot()->yAxis->range().lower > 0);
    QVERIFY(chart.follow());  // the chart's own rescale is not a user zoom
    QCOMPARE(spy.count(), 1);
    chart.setLogY(false);
    QCOMPARE(chart.plot()->yAxis->scaleType(), QCPAxis::stLinear);
}

void TestLiveChart::xAxisModes() {
    LiveChart chart;
    chart.resize(600, 300);
    chart.addSeries("loss", "loss", Qt::blue);
    chart.addSeries("steponly", "step only", Qt::red);
    chart.append("loss", ramp(1000, 100));
    const std::vector<double> steps{1, 2, 3}, values{1, 2, 3};
    chart.append("steponly", steps, values);
    chart.setXAxisMode(XAxisMode::Epoch);
    chart.replotNow();
    QCOMPARE(chart.plot()->xAxis->label(), QStringLiteral("Epoch"));
    QVERIFY(chart.plot()->xAxis->range().upper >= 10.0);
    QVERIFY(chart.plot()->xAxis->range().upper < 11.0);
    QCOMPARE(chart.rawGraph("steponly")->dataCount(), 0);  // no epochs given: not drawn
    chart.setXAxisMode(XAxisMode::WallTime);
    chart.replotNow();
    QVERIFY(chart.plot()->xAxis->ticker().dynamicCast<QCPAxisTickerTime>());
    QCOMPARE(chart.plot()->xAxis->range().lower, 0.0);  // following shows the origin (first point at 0.05 s)
}

void TestLiveChart::markersBestAndThreshold() {
    LiveChart chart;
    chart.resize(600, 300);
    chart.addSeries("gn", "grad norm", Qt::darkGreen);
    chart.append("gn", ramp(300, 100));
    const int itemsBefore = chart.plot()->itemCount();
    chart.addMarker(100, "ckpt 1");
    ChartX x;
    x.step = 200;
    x.epoch = 2;
    chart.addMarker(x, "ckpt 2");
    QCOMPARE(chart.markerCount(), 2);
    QCOMPARE(chart.plot()->itemCount(), itemsBefore + 4);  // a line and a label each

    chart.setThreshold(5.0, "clip 5.0");
    chart.replotNow();
    QVERIFY(chart.plot()->yAxis->range().upper >= 5.0);  // following keeps the threshold in view
    chart.setThreshold(NAN, QString());
    QCOMPARE(chart.plot()->itemCount(), itemsBefore + 4);

    chart.markBest(x, 0.3, "best 0.300");
    chart.replotNow();
    bool foundBest = false;
    for (int i = 0; i < chart.plot()->graphCount(); ++i) {
        QCPGraph* g = chart.plot()->graph(i);
        if (g->dataCount() == 1 && g->data()->constBegin()->key == 200 && g->data()->constBegin()->value == 0.3)
            foundBest = true;
    }
    QVERIFY(foundBest);

    // In epoch mode the step-only marker hides; the other moves to its epoch.
    chart.setXAxisMode(XAxisMode::Epoch);
    int visibleLines = 0;
    for (int i = 0; i < chart.plot()->itemCount(); ++i)
        if (auto* line = qobject_cast<QCPItemStraightLine*>(chart.plot()->item(i)); line && line->visible()) {
            ++visibleLines;
            QCOMPARE(line->point1->coords().x(), 2.0);
        }
    QCOMPARE(visibleLines, 1);
    chart.clear();
    QCOMPARE(chart.markerCount(), 0);
}

void TestLiveChart::compactTickLabels_data() {
    QTest::addColumn<double>("value");
    QTest::addColumn<double>("step");
    QTest::addColumn<QString>("label");
    QTest::newRow("learning rate") << 9.99e-4 << 1e-6 << "9.99e-4";
    QTest::newRow("learning rate top") << 1e-3 << 1e-6 << "1e-3";
    QTest::newRow("memory in GiB") << 0.3305 << 0.0005 << "0.3305";
    QTest::newRow("memory, fine steps") << 0.34646 << 2e-5 << "0.34646";  // shorter than 3.4646e-1
    QTest::newRow("step of 2.5") << 7.5 << 2.5 << "7.5";
    QTest::newRow("quarter steps") << 0.25 << 0.25 << "0.25";
    QTest::newRow("whole steps") << 200.0 << 50.0 << "200";
    QTest::newRow("a thousand steps") << 1000.0 << 500.0 << "1000";  // not 1e3
    QTest::newRow("rounding noise at zero") << -1.4e-17 << 0.1 << "0";
    QTest::newRow("large") << 1.2e7 << 2e6 << "1.2e7";
    QTest::newRow("mantissa rounds up") << 9.9996e-4 << 1e-6 << "1e-3";
}

// Tick labels carry the digits their step needs and no more (checked against hand-written labels).
void TestLiveChart::compactTickLabels() {
    QFETCH(double, value);
    QFETCH(double, step);
    QFETCH(QString, label);
    QCOMPARE(compactTickLabel(value, step, QLocale::c()), label);
}

void TestLiveChart::emptyChartShowsANote() {
    LiveChart chart;
    chart.resize(600, 300);
    chart.addSeries("acc", "accuracy", Qt::blue, LiveChart::Style::Points);
    chart.replotNow();
    QVERIFY(chart.isEmpty());
    QVERIFY(!chart.legendInView());
    QVERIFY(!chart.plot()->xAxis->tickLabels());
    QVERIFY(!chart.plot()->yAxis->tickLabels());

    ChartSamples s{{100}, {1}, {5}, {0.91}};
    chart.append("acc", s);
    chart.replotNow();
    QVERIFY(!chart.isEmpty());
    QVERIFY(chart.legendInView());
    // A hidden legend gives its row to the plot.
    const int withLegend = chart.plot()->axisRect()->outerRect().height();
    chart.setLegendShown(false);
    chart.replotNow();
    QVERIFY(!chart.legendInView());
    QVERIFY(chart.plot()->axisRect()->outerRect().height() > withLegend);
    chart.setLegendShown(true);
    chart.replotNow();
    QVERIFY(chart.plot()->yAxis->tickLabels());
    QVERIFY(chart.plot()->yAxis->range().contains(0.91));

    // A new run starts from a neutral view, not inside the previous run's range.
    chart.clear();
    chart.replotNow();
    QVERIFY(chart.isEmpty());
    QVERIFY(!chart.plot()->yAxis->range().contains(0.91) || chart.plot()->yAxis->range().size() >= 1.0);
    chart.append("acc", ChartSamples{{50}, {1}, {5}, {0.2}});
    chart.replotNow();
    QVERIFY(chart.plot()->yAxis->range().contains(0.2));
    QVERIFY(chart.plot()->yAxis->range().size() < 0.2);
}

// The legend is a row of its own: it never covers data, and wraps instead of running off.
void TestLiveChart::legendSitsOutsideThePlot() {
    LiveChart chart;
    chart.resize(260, 220);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    for (const char* id : {"train (per step)", "train (epoch)", "validation", "test (no validation split)"}) {
        chart.addSeries(id, id, Qt::blue);
        chart.append(id, ramp(100, 10));
    }
    chart.replotNow();
    chart.replotNow();  // the wrap follows the first layout's item sizes
    const QRect legend = chart.plot()->legend->outerRect();
    const QRect plotArea = chart.plot()->axisRect()->rect();
    QVERIFY2(!legend.intersects(plotArea), "the legend overlaps the plot area");
    QVERIFY(legend.right() <= chart.plot()->width());
    QVERIFY(chart.plot()->legend->wrap() < 4);  // four long names do not fit one 260 px row
}

// Twenty checkpoints on a narrow chart: the labels shown do not overlap one another.
void TestLiveChart::checkpointLabelsNeverOverlap() {
    LiveChart chart;
    chart.resize(400, 250);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.addSeries("loss", "loss", Qt::blue);
    chart.append("loss", ramp(2000, 100));
    for (int epoch = 1; epoch <= 20; ++epoch) chart.addMarker(epoch * 100.0, QString("epoch %1").arg(epoch));
    chart.replotNow();
    chart.replotNow();
    std::vector<QRectF> shown;
    for (int i = 0; i < chart.plot()->itemCount(); ++i) {
        auto* text = qobject_cast<QCPItemText*>(chart.plot()->item(i));
        if (!text || !text->visible() || !text->text().startsWith("epoch")) continue;
        const QPointF at = text->position->pixelPosition();
        const double w = QFontMetricsF(text->font()).horizontalAdvance(text->text());
        const double h = QFontMetricsF(text->font()).height();
        const bool right = text->positionAlignment() & Qt::AlignRight;
        shown.emplace_back(right ? at.x() - w : at.x(), at.y(), w, h);
    }
    QVERIFY(shown.size() >= 2);
    QVERIFY(shown.size() < 20);
    for (std::size_t i = 0; i < shown.size(); ++i)
        for (std::size_t j = i + 1; j < shown.size(); ++j)
            QVERIFY2(!shown[i].intersects(shown[j]), qPrintable(QString("labels %1 and %2 overlap").arg(i).arg(j)));
}

void TestLiveChart::csvExport() {
    QTemporaryDir dir;
    LiveChart chart;
    chart.addSeries("loss", "train, loss", Qt::blue);
    chart.addSeries("val", "val \"loss\"", Qt::red, LiveChart::Style::Points);
    ChartSamples s;
    s.step = {1, 2};
    s.epoch = {0.5, 1};
    s.time = {0.25, 0.5};
    s.value = {0.1, std::nan("")};
    chart.append("loss", s);
    const std::vector<double> steps{2}, values{0.3};
    chart.append("val", steps, values);
    const QString path = dir.filePath("chart.csv");
    QVERIFY(chart.exportCsv(path));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(f.readAll()), QStringLiteral("series,label,step,epoch,wall_time_s,value\n"
                                                            "loss,\"train, loss\",1,0.5,0.25,0.1\n"
                                                            "loss,\"train, loss\",2,1,0.5,nan\n"
                                                            "val,\"val \"\"loss\"\"\",2,,,0.3\n"));
    QVERIFY(!chart.exportCsv(dir.filePath("missing/dir/chart.csv")));
}

void TestLiveChart::pngAndSvgExport() {
    QTemporaryDir dir;
    LiveChart chart;
    chart.resize(700, 420);
    chart.addSeries("loss", "loss", Qt::blue);
    chart.append("loss", ramp(5000, 100));
    const QString png = dir.filePath("chart.png");
    QVERIFY(chart.exportPng(png, 640, 400));
    QCOMPARE(QImage(png).size(), QSize(640, 400));
    QVERIFY(chart.exportPng(png));
    QCOMPARE(QImage(png).size(), chart.plot()->size());
    // Any size and DPI: exactly the pixels asked for, the DPI stored, text drawn larger.
    const QString big = dir.filePath("big.png"), print = dir.filePath("print.png");
    QVERIFY(chart.exportPng(big, 1600, 1000, 96));
    QVERIFY(chart.exportPng(print, 1600, 1000, 300));
    const QImage bigImage(big), printImage(print);
    QCOMPARE(bigImage.size(), QSize(1600, 1000));
    QCOMPARE(printImage.size(), QSize(1600, 1000));
    QCOMPARE(qRound(printImage.dotsPerMeterX() * 0.0254), 300);
    // At 300 DPI the plot is laid out 3.1x smaller, so its axes sit further in from the left edge.
    auto firstDark = [](const QImage& image) {
        for (int x = 0; x < image.width(); ++x)
            for (int y = 0; y < image.height(); ++y)
                if (qGray(image.pixel(x, y)) < 100) return x;
        return image.width();
    };
    QVERIFY(firstDark(printImage) > firstDark(bigImage));
    QVERIFY(!chart.exportPng(png, 100, 100, 0));
    if (!LiveChart::svgAvailable()) QSKIP("built without Qt SVG");
    const QString svg = dir.filePath("chart.svg");
    QVERIFY(chart.exportSvg(svg, 640, 400));
    QFile f(svg);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    QVERIFY(text.contains("<svg"));
    QVERIFY(text.contains("<path") || text.contains("<polyline"));
}

// The Runs page's comparison hides each chart's legend (one legend above all charts); a file
// of one chart stands alone, so its PNG and SVG name the series. Pixels of the series' colour
// (a flat line in the middle of the plot) above the plot area are the legend's icon.
void TestLiveChart::exportsNameTheSeriesWhenThePageHidesTheLegend() {
    QTemporaryDir dir;
    LiveChart chart;
    chart.resize(500, 320);
    chart.setTitle("Test loss");
    chart.setLegendShown(false);
    const QColor colour(255, 0, 255);
    chart.addSeries("7", "7 · wide run", colour);
    chart.append("7", std::vector<double>{1, 2, 3}, std::vector<double>{0.5, 0.5, 0.5});
    chart.replotNow();
    QVERIFY(!chart.legendInView());
    auto colourAbovePlot = [&](const QImage& image) {
        int n = 0;
        for (int y = 0; y < image.height() * 15 / 100; ++y)
            for (int x = 0; x < image.width(); ++x)
                if (QColor(image.pixel(x, y)) == colour) ++n;
        return n;
    };
    const QString png = dir.filePath("chart.png");
    QVERIFY(chart.exportPng(png, 800, 500));
    const QImage image(png);
    QVERIFY2(colourAbovePlot(image) > 0, "no legend icon above the plot in the PNG");
    QVERIFY(!chart.legendInView());  // the page's own view is as it was
    if (!LiveChart::svgAvailable()) QSKIP("built without Qt SVG");
    const QString svg = dir.filePath("chart.svg");
    QVERIFY(chart.exportSvg(svg, 640, 400));
    QFile f(svg);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY2(QString::fromUtf8(f.readAll()).contains(QString::fromUtf8("7 · wide run")), "the SVG has no legend");
}

// A one-epoch run's epoch metric is one point: a line through it draws nothing, so the series'
// line carries a filled marker, in the series' colour on screen and in a PNG; a second point
// turns the marker off again.
void TestLiveChart::lonePointIsDrawnAsAMarker() {
    QTemporaryDir dir;
    LiveChart chart;
    chart.resize(400, 300);
    const QColor colour(0, 200, 0);
    chart.addSeries("acc", "test accuracy", colour);
    chart.addSeries("loss", "loss", Qt::blue);
    chart.setSmoothing("loss", 0.6);
    chart.append("acc", std::vector<double>{469}, std::vector<double>{0.84});
    chart.append("loss", std::vector<double>{469}, std::vector<double>{0.44});
    chart.replotNow();
    QCOMPARE(chart.rawGraph("acc")->scatterStyle().shape(), QCPScatterStyle::ssDisc);
    QCOMPARE(chart.rawGraph("acc")->scatterStyle().brush().color(), colour);
    QCOMPARE(chart.smoothedGraph("loss")->scatterStyle().shape(), QCPScatterStyle::ssDisc);  // the line that names it
    QVERIFY(chart.rawGraph("loss")->scatterStyle().isNone());
    chart.removeSeries("loss");
    const QString png = dir.filePath("one.png");
    QVERIFY(chart.exportPng(png, 400, 300));
    const QImage image(png);
    int drawn = 0;  // below the title and legend rows: the plot
    for (int y = image.height() / 4; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if (QColor(image.pixel(x, y)) == colour) ++drawn;
    QVERIFY2(drawn >= 12, qPrintable(QString("%1 pixels of the point's colour in the plot").arg(drawn)));
    chart.append("acc", std::vector<double>{938}, std::vector<double>{0.86});
    chart.replotNow();
    QVERIFY(chart.rawGraph("acc")->scatterStyle().isNone());  // a line again
}

void TestLiveChart::contextMenu() {
    LiveChart chart;
    std::unique_ptr<QMenu> menu(chart.createContextMenu(nullptr));
    QStringList texts;
    QAction* log = nullptr;
    QAction* follow = nullptr;
    for (QAction* a : menu->actions()) {
        texts << a->text();
        if (a->text() == "Log scale") log = a;
        if (a->text() == "Follow") follow = a;
    }
    for (const char* t : {"Export PNG…", "Export SVG…", "Export CSV…", "Reset zoom", "X axis"})
        QVERIFY2(texts.contains(QString::fromUtf8(t)), t);
    QVERIFY(log && follow);
    QVERIFY(follow->isChecked());
    log->trigger();
    QVERIFY(chart.logY());
    follow->trigger();
    QVERIFY(!chart.follow());
}

// Acts on the modal dialog once it is open (askPngSize blocks in its exec()).
static void whenDialogOpens(std::function<void(QDialog*)> act) {
    QTimer::singleShot(10, [act] {
        for (QWidget* w : QApplication::topLevelWidgets())
            if (auto* dialog = qobject_cast<QDialog*>(w); dialog && dialog->isVisible()) return act(dialog);
        whenDialogOpens(act);
    });
}

void TestLiveChart::pngSizeDialogStartsFromAndKeepsTheStoredSize() {
    auto stored = std::make_shared<PngExportSize>(PngExportSize{QSize(800, 600), 96});
    auto saves = std::make_shared<int>(0);
    LiveChart::setPngSizeStore([stored] { return *stored; }, [stored, saves](const PngExportSize& size) {
        *stored = size;
        ++*saves;
    });
    QSize shown;
    int shownDpi = 0;
    whenDialogOpens([&](QDialog* dialog) {
        auto* width = dialog->findChild<QSpinBox*>("pngWidth");
        auto* height = dialog->findChild<QSpinBox*>("pngHeight");
        auto* dpi = dialog->findChild<QSpinBox*>("pngDpi");
        shown = QSize(width->value(), height->value());
        shownDpi = dpi->value();
        width->setValue(1234);
        dpi->setValue(200);
        dialog->accept();
    });
    const std::optional<PngExportSize> chosen = LiveChart::askPngSize(nullptr);
    QCOMPARE(shown, QSize(800, 600));
    QCOMPARE(shownDpi, 96);
    QVERIFY(chosen);
    QCOMPARE(chosen->pixels, QSize(1234, 600));
    QCOMPARE(chosen->dpi, 200);
    QCOMPARE(*saves, 1);
    QCOMPARE(stored->pixels, QSize(1234, 600));
    QCOMPARE(stored->dpi, 200);

    whenDialogOpens([](QDialog* dialog) { dialog->reject(); });
    QVERIFY(!LiveChart::askPngSize(nullptr));
    QCOMPARE(*saves, 1);  // a cancelled dialog stores nothing
}

void TestLiveChart::paletteDrivesColours() {
    LiveChart chart;
    QPalette dark;
    dark.setColor(QPalette::Base, QColor(30, 30, 34));
    dark.setColor(QPalette::Text, QColor(220, 220, 220));
    chart.setPalette(dark);
    QCOMPARE(chart.plot()->axisRect()->backgroundBrush().color(), QColor(30, 30, 34));
    QCOMPARE(chart.plot()->xAxis->tickLabelColor(), QColor(220, 220, 220));
    QPalette light;
    light.setColor(QPalette::Base, Qt::white);
    light.setColor(QPalette::Text, Qt::black);
    chart.setPalette(light);
    QCOMPARE(chart.plot()->axisRect()->backgroundBrush().color(), QColor(Qt::white));
}

// A dense noisy series is painted as its per-pixel-column min/max span instead of a zigzag:
// the spans must be the data's own extremes per column (computed here from the raw points),
// painted in the series' colour exactly between them; a sparse series stays a line, and the
// CSV still holds every raw point.
void TestLiveChart::denseNoiseIsDrawnAsItsColumnEnvelope() {
    LiveChart chart;
    chart.resize(600, 300);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    const QColor colour(200, 30, 30);
    chart.addSeries("noisy", "noisy", colour);
    chart.addSeries("sparse", "sparse", QColor(30, 30, 200));
    std::mt19937 rng(99);
    std::uniform_real_distribution<double> noise(1.0, 2.0);
    ChartSamples dense, sparse;
    for (int i = 1; i <= 200000; ++i) {
        dense.step.push_back(i);
        dense.value.push_back(noise(rng) * (1.0 + 0.5 * std::sin(i * 3e-5)));  // spans that vary per column
    }
    for (int i = 0; i < 50; ++i) {
        sparse.step.push_back(i * 4000.0);
        sparse.value.push_back(3.4);  // above the noise: its line crosses no column checked below
    }
    QVERIFY(chart.append("noisy", dense));
    QVERIFY(chart.append("sparse", sparse));
    chart.replotNow();
    chart.replotNow();  // the first frame laid the plot out

    auto* graph = dynamic_cast<EnvelopeGraph*>(chart.rawGraph("noisy"));
    QVERIFY(graph);
    QVERIFY(graph->drewEnvelope());
    QCOMPARE(graph->envelopeColor(), colour);  // opaque: painted in the pen's colour
    // The columns, as the chart decimates: one per device pixel of the axis rect.
    QCPAxisRect* rect = chart.plot()->axisRect();
    const int columns = int(std::lround(rect->width() * chart.plot()->devicePixelRatioF()));
    const double lo = chart.plot()->xAxis->range().lower, hi = chart.plot()->xAxis->range().upper;
    std::vector<double> mn(columns, INFINITY), mx(columns, -INFINITY);
    for (std::size_t i = 0; i < dense.step.size(); ++i) {
        if (dense.step[i] < lo || dense.step[i] > hi) continue;
        const long c = columnOf(dense.step[i], lo, hi, columns);
        mn[c] = std::min(mn[c], dense.value[i]);
        mx[c] = std::max(mx[c], dense.value[i]);
    }
    const ColumnEnvelope& env = graph->envelope();
    int matched = 0, filled = 0;
    for (int c = 0; c < columns; ++c) filled += std::isfinite(mn[c]) ? 1 : 0;
    for (std::size_t k = 0; k < env.size(); ++k) {
        if (env.left[k] == env.right[k]) continue;  // a neighbour outside the view
        const long c = std::lround((env.left[k] - lo) / (hi - lo) * columns);
        QVERIFY(c >= 0 && c < columns);
        QVERIFY2(env.low[k] == mn[c] && env.high[k] == mx[c],
                 qPrintable(QString("column %1: %2..%3, the data %4..%5").arg(c).arg(env.low[k]).arg(env.high[k]).arg(mn[c]).arg(mx[c])));
        ++matched;
    }
    QCOMPARE(matched, filled);
    QVERIFY(filled > columns * 9 / 10);

    // What is on screen: the colour between each column's extremes, nothing of it above them
    // (looked at 1 and 3 px from the edges: a 1 px line's rounding).
    const QImage image = chart.plot()->grab().toImage();
    int checked = 0;
    for (int c = 8; c < columns - 8; c += 7) {  // clear of the axes' ticks, which reach 5 px in
        if (!std::isfinite(mn[c])) continue;
        const int x = rect->left() + c;
        const int top = int(std::lround(chart.plot()->yAxis->coordToPixel(mx[c])));
        const int bottom = int(std::lround(chart.plot()->yAxis->coordToPixel(mn[c])));
        for (int y = top + 1; y < bottom; y += 3)
            QVERIFY2(QColor(image.pixel(x, y)) == colour, qPrintable(QString("pixel %1,%2 inside column %3 (rows %4-%5) is %6").arg(x).arg(y).arg(c).arg(top).arg(bottom).arg(QColor(image.pixel(x, y)).name())));
        if (top - 3 > rect->top()) QVERIFY(QColor(image.pixel(x, top - 3)) != colour);
        ++checked;
    }
    QVERIFY(checked > 50);

    // A sparse series (a point per dozen columns) stays a line through its points.
    auto* line = dynamic_cast<EnvelopeGraph*>(chart.rawGraph("sparse"));
    QVERIFY(line);
    QVERIFY(!line->drewEnvelope());
    QCOMPARE(line->envelope().size(), std::size_t{0});
    QCOMPARE(line->dataCount(), 50);

    // Log scale and zoom keep the envelope (and its columns the data's); the CSV keeps every point.
    chart.setLogY(true);
    chart.replotNow();
    QVERIFY(graph->drewEnvelope());
    chart.plot()->xAxis->setRange(50000, 60000);  // a user zoom: follow goes off
    QVERIFY(!chart.follow());
    chart.replotNow();
    QVERIFY(graph->drewEnvelope());
    QVERIFY(graph->envelope().size() > 0);
    double zoomedMax = -INFINITY;
    for (std::size_t i = 0; i < dense.step.size(); ++i)
        if (dense.step[i] >= 50000 && dense.step[i] <= 60000) zoomedMax = std::max(zoomedMax, dense.value[i]);
    const auto& zoomed = graph->envelope().high;
    double envelopeMax = -INFINITY;
    for (std::size_t k = 0; k < graph->envelope().size(); ++k)
        if (graph->envelope().left[k] != graph->envelope().right[k]) envelopeMax = std::max(envelopeMax, zoomed[k]);
    QCOMPARE(envelopeMax, zoomedMax);
    QTemporaryDir dir;
    const QString csv = dir.filePath("points.csv");
    QVERIFY(chart.exportCsv(csv));
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll().count('\n'), qsizetype(1 + 200000 + 50));
}

void TestLiveChart::replotMillionPoints_data() {
    QTest::addColumn<bool>("whiteNoise");
    QTest::newRow("loss curve") << false;  // decaying loss with step noise and spikes: the real case
    QTest::newRow("white noise") << true;  // worst case: every pixel column spans the full height
}

void TestLiveChart::replotMillionPoints() {
    QFETCH(bool, whiteNoise);
    LiveChart chart;
    chart.resize(1200, 500);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.addSeries("loss", "loss", QColor(31, 119, 180));
    std::vector<double> x, y;
    makeNoisy(1000000, x, y, 7);
    if (!whiteNoise)
        for (std::size_t i = 0; i < y.size(); ++i)
            y[i] = 2.0 * std::exp(-static_cast<double>(i) / 150000.0) + 0.2 + 0.08 * y[i];
    ChartSamples s;
    s.step = x;
    s.value = y;
    QVERIFY(chart.append("loss", s));
    chart.setSmoothing("loss", 0.9);  // two decimated 1M-point curves per frame
    chart.replotNow();                // warm-up: first layout, label caches

    std::vector<double> ox, oy;
    BlockExtremes blocks;
    blocks.update(y);
    double cpu0 = threadCpuMs();
    for (int i = 0; i < 10; ++i) decimateMinMax(x, y, x.front(), x.back(), 1200, ox, oy);
    const double plainMs = (threadCpuMs() - cpu0) / 10;
    cpu0 = threadCpuMs();
    for (int i = 0; i < 10; ++i) decimateMinMax(x, y, x.front(), x.back(), 1200, ox, oy, &blocks);
    qInfo("decimating 1,000,000 points to 1200 columns (CPU time): %.2f ms point by point, %.2f ms with block "
          "extremes", plainMs, (threadCpuMs() - cpu0) / 10);

    constexpr int kFrames = 20;
    double total = 0, worst = 0;
    cpu0 = threadCpuMs();
    for (int i = 0; i < kFrames; ++i) {
        const double ms = chart.replotNow();  // forces re-decimation of both curves
        total += ms;
        worst = std::max(worst, ms);
    }
    const double cpuMs = (threadCpuMs() - cpu0) / kFrames;
    qInfo("replot of 1,000,000 points (raw + smoothed, decimated every frame): CPU %.2f ms per frame; wall mean "
          "%.2f ms, worst %.2f ms; %d + %d points drawn",
          cpuMs, total / kFrames, worst, chart.rawGraph("loss")->dataCount(), chart.smoothedGraph("loss")->dataCount());
    QVERIFY2(total / kFrames < 200, "replot of 1M points is far too slow");  // disasters only
}

void TestLiveChart::demoImage() {
    LiveChart chart;
    chart.resize(900, 540);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.setTitle("Loss");
    chart.setYLabel("loss");
    chart.addSeries("train", "train loss", QColor(31, 119, 180), LiveChart::Style::Faint);
    chart.addSeries("val", "validation loss", QColor(214, 39, 40), LiveChart::Style::Points);
    chart.addSeries("lr", "learning rate ×10", QColor(44, 160, 44), LiveChart::Style::Line);
    std::mt19937 rng(3);
    std::normal_distribution<double> noise(0.0, 1.0);
    ChartSamples train, val, lr;
    for (int step = 1; step <= 3000; ++step) {
        const double clean = 1.8 * std::exp(-step / 700.0) + 0.25;
        train.step.push_back(step);
        train.value.push_back(clean * (1 + 0.25 * noise(rng)) + (step == 1700 ? 1.5 : 0));
        lr.step.push_back(step);
        lr.value.push_back(0.05 + 0.95 * 0.5 * (1 + std::cos(M_PI * step / 3000.0)));
        if (step % 300 == 0) {
            val.step.push_back(step);
            val.value.push_back(clean + 0.05 + (step > 2100 ? (step - 2100) / 3000.0 : 0));
        }
    }
    chart.append("train", train);
    chart.append("val", val);
    chart.append("lr", lr);
    chart.setSmoothing("train", 0.9);
    for (int step = 600; step <= 3000; step += 600) chart.addMarker(step, QString("ckpt %1").arg(step / 600));
    chart.markBest(ChartX{2100, 7, 105}, 0.4117 + 0.05, "best val 0.462");
    chart.setThreshold(1.8, "threshold 1.8");
    QVERIFY(chart.exportPng("/tmp/live_chart_demo.png", 900, 500));
    QPalette dark;
    dark.setColor(QPalette::Base, QColor(32, 33, 36));
    dark.setColor(QPalette::Text, QColor(225, 225, 225));
    dark.setColor(QPalette::Mid, QColor(90, 90, 90));
    chart.setPalette(dark);
    chart.setLogY(true);
    QVERIFY(chart.exportPng("/tmp/live_chart_demo_dark.png", 900, 500));
}

QTEST_MAIN(TestLiveChart)
#include "tst_live_chart.moc"
