#include "trade_off_chart.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

#include "comparison_model.h"
#include "types/run_records.h"

namespace ts::ui {

std::vector<TradeOffPoint> paretoFront(std::vector<TradeOffPoint> points, bool maximise)
{
    // By cost, and at equal cost the best result first: a point is on the front when its
    // result beats every cheaper (or equally cheap, earlier) point's.
    std::sort(points.begin(), points.end(), [&](const TradeOffPoint& a, const TradeOffPoint& b) {
        if (a.cost != b.cost) return a.cost < b.cost;
        return maximise ? a.result > b.result : a.result < b.result;
    });
    std::vector<TradeOffPoint> front;
    for (const TradeOffPoint& p : points) {
        if (!std::isfinite(p.cost) || !std::isfinite(p.result)) continue;
        if (front.empty() || (maximise ? p.result > front.back().result : p.result < front.back().result))
            front.push_back(p);
    }
    return front;
}

TradeOffChart::TradeOffChart(QWidget* parent) : QWidget(parent)
{
    m_x = new QComboBox;
    m_y = new QComboBox;
    m_x->setObjectName(QStringLiteral("tradeOffX"));
    m_y->setObjectName(QStringLiteral("tradeOffY"));
    for (QComboBox* box : {m_x, m_y}) box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_plot = new QCustomPlot;
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom | QCP::iSelectPlottables);
    m_plot->addGraph();  // the runs
    m_plot->graph(0)->setLineStyle(QCPGraph::lsNone);
    m_plot->graph(0)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(31, 119, 180), 8));
    m_plot->graph(0)->setName(tr("runs"));
    m_plot->addGraph();  // the front
    m_plot->graph(1)->setPen(QPen(QColor(214, 39, 40), 1.5, Qt::DashLine));
    m_plot->graph(1)->setLineStyle(QCPGraph::lsStepLeft);
    m_plot->graph(1)->setName(tr("Pareto front"));
    m_plot->legend->setVisible(true);

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Result:")));
    bar->addWidget(m_y);
    bar->addSpacing(12);
    bar->addWidget(new QLabel(tr("against:")));
    bar->addWidget(m_x);
    bar->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_plot, 1);

    connect(m_x, &QComboBox::activated, this, &TradeOffChart::redraw);
    connect(m_y, &QComboBox::activated, this, &TradeOffChart::redraw);
    connect(m_plot, &QCustomPlot::plottableClick, this, [this](QCPAbstractPlottable* p, int index, QMouseEvent*) {
        if (p != m_plot->graph(0) || index < 0 || index >= m_plot->graph(0)->dataCount()) return;
        const auto clicked = m_plot->graph(0)->data()->at(index);  // the graph keeps its points by x
        for (const TradeOffPoint& point : m_points)
            if (point.cost == clicked->key && point.result == clicked->value) {
                emit runClicked(point.runId);
                return;
            }
    });
}

void TradeOffChart::setModel(const ComparisonModel* model, const QVector<qint64>& runIds)
{
    m_model = model;
    m_runIds = runIds;
    const QString x = m_x->currentText(), y = m_y->currentText();
    m_x->clear();
    m_y->clear();
    // Axes: rows with a number for every run; results for y, the rest (costs, settings) for x.
    for (int r = 0; r < model->rowCount(); ++r) {
        bool numeric = true;
        for (int i = 0; i < runIds.size(); ++i) numeric = numeric && std::isfinite(model->number(r, i));
        if (!numeric) continue;
        (model->metricOf(r).isEmpty() ? m_x : m_y)->addItem(model->rowName(r), r);
    }
    m_x->setCurrentIndex(std::max(0, m_x->findText(x.isEmpty() ? tr("Parameters") : x)));
    // By default the headline: the best validation accuracy, else the last test accuracy.
    int preferred = m_y->findText(y);
    for (const char* metric : {"val_acc", "test_acc", "val_loss", "test_loss"})
        for (int i = 0; i < m_y->count() && preferred < 0; ++i)
            if (model->metricOf(m_y->itemData(i).toInt()) == QLatin1String(metric)) preferred = i;
    m_y->setCurrentIndex(std::max(0, preferred));
    redraw();
}

void TradeOffChart::redraw()
{
    m_points.clear();
    m_front.clear();
    m_plot->graph(0)->data()->clear();
    m_plot->graph(1)->data()->clear();
    if (m_model && m_x->count() > 0 && m_y->count() > 0) {
        const int xRow = m_x->currentData().toInt(), yRow = m_y->currentData().toInt();
        for (int i = 0; i < m_runIds.size(); ++i)
            m_points.push_back({m_model->number(xRow, i), m_model->number(yRow, i), m_runIds[i]});
        const bool maximise = metricGoal(m_model->metricOf(yRow).toStdString()) != MetricGoal::Minimise;
        m_front = paretoFront(m_points, maximise);
        for (const TradeOffPoint& p : m_points) m_plot->graph(0)->addData(p.cost, p.result);
        for (const TradeOffPoint& p : m_front) m_plot->graph(1)->addData(p.cost, p.result);
        m_plot->xAxis->setLabel(m_x->currentText());
        m_plot->yAxis->setLabel(m_y->currentText());
        m_plot->rescaleAxes();
        for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis}) axis->scaleRange(1.15, axis->range().center());
    }
    m_plot->replot();
}

}  // namespace ts::ui
