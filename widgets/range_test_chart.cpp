#include "range_test_chart.h"

#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include <qcustomplot.h>

namespace ts::widgets {

namespace {
QVector<double> toVector(const std::vector<double>& v) { return QVector<double>(v.begin(), v.end()); }

// Decades written as rates are written in code and YAML: 1e-6, 1e-4, 0.01, 1, 10.
class DecadeTicker : public QCPAxisTickerLog {
protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override
    {
        const double exponent = std::round(std::log10(tick));
        if (exponent >= -2 && exponent <= 3) return QString::number(tick, 'g', 4);
        return QStringLiteral("1e%1").arg(int(exponent));
    }
};
}  // namespace

RangeTestChart::RangeTestChart(QWidget* parent) : QWidget(parent), m_plot(new QCustomPlot(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setMinimumHeight(180);
    m_plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    auto ticker = QSharedPointer<DecadeTicker>::create();
    ticker->setLogBase(10);
    ticker->setSubTickCount(8);
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setLabel(tr("Learning rate"));
    m_plot->yAxis->setLabel(tr("Loss (smoothed)"));
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->setNoAntialiasingOnDrag(true);
    clear();
}

void RangeTestChart::clear()
{
    m_plot->clearGraphs();
    m_plot->clearItems();
    m_note = nullptr;
    m_marks.clear();
    replot();
}

void RangeTestChart::setEmptyNote(const QString& note)
{
    m_emptyNote = note;
    replot();
}

void RangeTestChart::setCurves(const std::vector<std::vector<double>>& lrs, const std::vector<std::vector<double>>& losses)
{
    m_plot->clearGraphs();
    for (std::size_t i = 0; i < lrs.size() && i < losses.size(); ++i) {
        QCPGraph* g = m_plot->addGraph();
        QColor c(31, 119, 180);
        if (lrs.size() > 1) c.setAlpha(90);
        g->setPen(QPen(c, lrs.size() > 1 ? 1.0 : 2.0));
        g->setData(toVector(lrs[i]), toVector(losses[i]), true);
        g->setProperty("seedCurve", true);
    }
    fitAxes();
    replot();
}

void RangeTestChart::setBand(const std::vector<double>& lrs, const std::vector<double>& mean, const std::vector<double>& low,
                             const std::vector<double>& high)
{
    if (lrs.empty()) return replot();
    const QColor blue(31, 119, 180);
    QCPGraph* lower = m_plot->addGraph();
    lower->setPen(Qt::NoPen);
    lower->setData(toVector(lrs), toVector(low), true);
    QCPGraph* upper = m_plot->addGraph();
    upper->setPen(Qt::NoPen);
    QColor fill = blue;
    fill.setAlpha(50);
    upper->setBrush(fill);
    upper->setChannelFillGraph(lower);
    upper->setData(toVector(lrs), toVector(high), true);
    QCPGraph* line = m_plot->addGraph();
    line->setPen(QPen(blue, 2.0));
    line->setData(toVector(lrs), toVector(mean), true);
    fitAxes();
    replot();
}

void RangeTestChart::setMarks(const std::vector<Mark>& marks)
{
    m_plot->clearItems();
    m_note = nullptr;
    m_marks = marks;
    for (std::size_t i = 0; i < marks.size(); ++i) {
        const Mark& m = marks[i];
        auto* line = new QCPItemStraightLine(m_plot);
        line->point1->setCoords(m.lr, 0);
        line->point2->setCoords(m.lr, 1);
        line->setPen(QPen(m.color, 1.5, Qt::DashLine));
        auto* text = new QCPItemText(m_plot);
        text->position->setTypeX(QCPItemPosition::ptPlotCoords);
        text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        // Staggered down the plot so labels of nearby rates do not cover each other.
        text->position->setCoords(m.lr, 0.04 + 0.09 * double(i));
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        text->setPadding(QMargins(3, 0, 3, 0));
        text->setText(m.label);
        text->setColor(m.color);
        QColor back = palette().color(QPalette::Base);
        back.setAlpha(200);
        text->setBrush(back);
    }
    replot();
}

// x over every rate drawn; y from the lowest loss to a little above where the curves start,
// so the divergence at the end does not flatten the part that matters.
void RangeTestChart::fitAxes()
{
    double xLo = INFINITY, xHi = -INFINITY, yLo = INFINITY, yStart = -INFINITY, yHi = -INFINITY;
    for (int g = 0; g < m_plot->graphCount(); ++g) {
        const auto data = m_plot->graph(g)->data();
        bool first = true;
        for (auto it = data->constBegin(); it != data->constEnd(); ++it) {
            if (!std::isfinite(it->value) || !(it->key > 0)) continue;
            xLo = std::min(xLo, it->key), xHi = std::max(xHi, it->key);
            yLo = std::min(yLo, it->value), yHi = std::max(yHi, it->value);
            if (first) yStart = std::max(yStart, it->value), first = false;
        }
    }
    if (!(xHi > xLo)) return;
    m_plot->xAxis->setRange(xLo, xHi);
    const double top = std::min(yHi, yStart + 0.25 * (yStart - yLo));
    // At least 1% of the loss tall: a flat start is not blown up into noise.
    const double pad = 0.05 * std::max(top - yLo, 0.01 * std::abs(yLo) + 1e-9);
    m_plot->yAxis->setRange(yLo - pad, std::max(top, yLo + 1e-6) + pad);
}

void RangeTestChart::replot()
{
    const bool empty = m_plot->graphCount() == 0;
    m_plot->xAxis->setTickLabels(!empty);
    m_plot->yAxis->setTickLabels(!empty);
    if (!m_note) {
        m_note = new QCPItemText(m_plot);
        m_note->position->setType(QCPItemPosition::ptAxisRectRatio);
        m_note->position->setCoords(0.5, 0.5);
        m_note->setColor(palette().color(QPalette::PlaceholderText));
    }
    m_note->setText(m_emptyNote);
    m_note->setVisible(empty);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace ts::widgets
