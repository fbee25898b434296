// ChartGrid: columns follow the width (balanced over the rows), the grid fills the height and
// scrolls only below the minimum cell size, one bar drives every chart, and the charts shown
// and their log scales come out as choices that a new grid restores. Offscreen platform.
#include "chart_grid.h"
#include "live_chart.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QMenu>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>

#include <qcustomplot.h>

using namespace ts::widgets;

namespace {

ChartSamples ramp(int n)
{
    ChartSamples s;
    for (int i = 1; i <= n; ++i) {
        s.step.push_back(i);
        s.epoch.push_back(i / 10.0);
        s.time.push_back(i * 0.1);
        s.value.push_back(1.0 / i);
    }
    return s;
}

// A grid of `count` charts "c0".."cN", one smoothed series each.
void fill(ChartGrid& grid, int count)
{
    for (int i = 0; i < count; ++i) {
        auto* chart = new LiveChart;
        chart->setTitle(QString("Chart %1").arg(i));
        chart->addSeries("v", "value", Qt::blue);
        chart->setSmoothing("v", 0.6);
        chart->append("v", ramp(200));
        grid.addChart(QString("c%1").arg(i), chart);
    }
}

QScrollBar* scrollBar(ChartGrid& grid) { return grid.findChild<QScrollArea*>()->verticalScrollBar(); }

}  // namespace

class TestChartGrid : public QObject {
    Q_OBJECT
private slots:
    void columnsFollowTheWidth()
    {
        ChartGrid grid;
        fill(grid, 8);
        grid.resize(1100, 700);
        grid.show();
        QVERIFY(QTest::qWaitForWindowExposed(&grid));
        QCOMPARE(grid.columns(), 4);  // 1100 px hold four 220 px cells
        grid.resize(720, 700);
        QTRY_COMPARE(grid.columns(), 3);  // three fit; 8 charts in rows of 3, 3, 2
        grid.resize(500, 700);
        QTRY_COMPARE(grid.columns(), 2);
        grid.setMinimumCellSize(QSize(600, 170));  // wider than half the grid: one column
        QCOMPARE(grid.columns(), 1);

        ChartGrid four;
        fill(four, 4);
        four.resize(800, 600);
        four.show();
        QVERIFY(QTest::qWaitForWindowExposed(&four));
        QCOMPARE(four.columns(), 2);  // balanced: 2 x 2, not 3 + 1
    }

    void fillsTheHeightAndScrollsOnlyWhenCrowded()
    {
        ChartGrid grid;
        fill(grid, 8);
        grid.resize(1100, 800);  // four columns, two rows of 370 px: no scrolling
        grid.show();
        QVERIFY(QTest::qWaitForWindowExposed(&grid));
        QTRY_COMPARE(scrollBar(grid)->maximum(), 0);
        QVERIFY(grid.chart("c0")->height() > 300);
        grid.resize(1100, 250);  // two rows of 150 px do not fit in 250: scroll
        QTRY_VERIFY(scrollBar(grid)->maximum() > 0);
        QVERIFY(grid.chart("c0")->height() >= 150);
    }

    void oneBarDrivesEveryChart()
    {
        ChartGrid grid;
        fill(grid, 3);
        grid.resize(900, 500);
        grid.show();
        QVERIFY(QTest::qWaitForWindowExposed(&grid));
        for (LiveChart* c : grid.charts())  // the charts' own bars give way to the grid's
            for (QCheckBox* box : c->findChildren<QCheckBox*>()) QVERIFY(!box->isVisible());

        grid.findChild<QDoubleSpinBox*>("smoothingBox")->setValue(0.95);
        for (LiveChart* c : grid.charts()) QCOMPARE(c->smoothing("v"), 0.95);

        auto* xAxis = grid.findChild<QComboBox*>("xAxisBox");
        xAxis->setCurrentIndex(2);
        emit xAxis->activated(2);
        for (LiveChart* c : grid.charts()) QCOMPARE(c->xAxisMode(), XAxisMode::WallTime);

        auto* follow = grid.findChild<QCheckBox*>("followBox");
        grid.chart("c1")->setFollow(false);  // as a user zoom does
        QVERIFY(!follow->isChecked());
        grid.findChild<QToolButton*>("fitButton")->click();
        for (LiveChart* c : grid.charts()) QVERIFY(c->follow());
        QVERIFY(follow->isChecked());
        follow->click();
        for (LiveChart* c : grid.charts()) QVERIFY(!c->follow());
    }

    void chosenChartsAndLogScalesComeBack()
    {
        ChartGridChoices chosen;
        {
            ChartGrid grid;
            fill(grid, 4);
            QSignalSpy changed(&grid, &ChartGrid::choicesChanged);
            grid.resize(900, 500);
            grid.show();
            QVERIFY(QTest::qWaitForWindowExposed(&grid));
            auto* button = grid.findChild<QToolButton*>("chartsButton");
            QCOMPARE(button->text(), QString("Charts (4 of 4)"));
            QAction* second = button->menu()->actions().at(1);
            QCOMPARE(second->text(), QString("Chart 1"));
            second->trigger();  // unchecks it
            QVERIFY(!grid.isChartVisible("c1"));
            QVERIFY(!grid.chart("c1")->isVisible());
            QCOMPARE(button->text(), QString("Charts (3 of 4)"));
            QCOMPARE(grid.columns(), 3);
            QCOMPARE(changed.count(), 1);
            grid.chart("c2")->setLogY(true);
            QCOMPARE(changed.count(), 2);
            chosen = grid.choices();
        }
        QCOMPARE(chosen.hidden, QStringList{"c1"});
        QCOMPARE(chosen.logScale, QStringList{"c2"});
        ChartGrid again;
        fill(again, 4);
        QSignalSpy changed(&again, &ChartGrid::choicesChanged);
        again.restoreChoices(chosen);
        QCOMPARE(changed.count(), 0);  // restoring is not choosing
        QCOMPARE(again.findChild<QToolButton*>("chartsButton")->text(), QString("Charts (3 of 4)"));
        QVERIFY(!again.isChartVisible("c1"));
        QVERIFY(again.isChartVisible("c0"));
        QVERIFY(again.chart("c2")->logY());
        QVERIFY(!again.chart("c0")->logY());
    }
};

QTEST_MAIN(TestChartGrid)
#include "tst_chart_grid.moc"
