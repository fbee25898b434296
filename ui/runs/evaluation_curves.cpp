#include "evaluation_curves.h"

#include <QLocale>
#include <QSplitter>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <cmath>

namespace ts::ui {

namespace {

QString area(double v) { return std::isfinite(v) ? QLocale().toString(v, 'f', 3) : QStringLiteral("—"); }

// Matplotlib's tab10, then its lighter tab20 half: classes stay told apart up to 20.
QColor classColour(int c)
{
    static const QColor colours[] = {{31, 119, 180},  {255, 127, 14},  {44, 160, 44},   {214, 39, 40},   {148, 103, 189},
                                     {140, 86, 75},   {227, 119, 194}, {127, 127, 127}, {188, 189, 34},  {23, 190, 207},
                                     {174, 199, 232}, {255, 187, 120}, {152, 223, 138}, {255, 152, 150}, {197, 176, 213},
                                     {196, 156, 148}, {247, 182, 210}, {199, 199, 199}, {219, 219, 141}, {158, 218, 229}};
    return colours[c % 20];
}

// Axes from 0 to 1 and the legend under the plot, in columns, so ten classes do not cover the curves.
void setUpPlot(QCustomPlot* plot, const QString& x, const QString& y)
{
    plot->setMinimumSize(160, 160);
    plot->xAxis->setLabel(x);
    plot->yAxis->setLabel(y);
    plot->xAxis->setRange(0, 1);
    plot->yAxis->setRange(0, 1.02);
    plot->xAxis->ticker()->setTickCount(4);
    plot->legend->setVisible(true);
    QFont small = plot->font();
    small.setPointSizeF(small.pointSizeF() * 0.8);
    plot->legend->setFont(small);
    plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot->legend->setWrap(2);
    plot->legend->setBorderPen(Qt::NoPen);
    plot->legend->setRowSpacing(0);
    plot->legend->setMargins(QMargins(6, 2, 6, 2));
    plot->axisRect()->insetLayout()->take(plot->legend);
    plot->plotLayout()->addElement(1, 0, plot->legend);
    plot->plotLayout()->setRowStretchFactor(1, 0.001);  // as tall as its entries, the rest for the curves
}

QCPCurve* curve(QCustomPlot* plot, const std::vector<double>& x, const std::vector<double>& y, const QColor& colour,
                const QString& name)
{
    auto* c = new QCPCurve(plot->xAxis, plot->yAxis);  // keeps the points' order (x repeats on both curves)
    c->setName(name);
    c->setPen(QPen(colour, 1.5));
    QVector<double> t(qsizetype(x.size()));
    for (qsizetype i = 0; i < t.size(); ++i) t[i] = double(i);
    c->setData(t, QVector<double>(x.begin(), x.end()), QVector<double>(y.begin(), y.end()), true);
    return c;
}

}  // namespace

EvaluationCurves::EvaluationCurves(QWidget* parent) : QWidget(parent)
{
    m_roc = new QCustomPlot;
    m_roc->setObjectName(QStringLiteral("rocPlot"));
    m_pr = new QCustomPlot;
    m_pr->setObjectName(QStringLiteral("precisionRecallPlot"));
    setUpPlot(m_roc, tr("False positive rate"), tr("True positive rate"));
    setUpPlot(m_pr, tr("Recall"), tr("Precision"));
    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(m_roc);
    splitter->addWidget(m_pr);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);
}

void EvaluationCurves::setCurves(const std::vector<RocCurve>& roc, const std::vector<PrecisionRecallCurve>& precisionRecall)
{
    m_rocData = roc;
    m_prData = precisionRecall;
    draw();
}

void EvaluationCurves::setClassNames(const QStringList& names)
{
    m_names = names;
    draw();
}

void EvaluationCurves::clear()
{
    m_rocData.clear();
    m_prData.clear();
    draw();
}

QString EvaluationCurves::className(int c) const
{
    return c < m_names.size() && !m_names[c].isEmpty() ? m_names[c] : QString::number(c);
}

QCPCurve* EvaluationCurves::rocCurve(int c) const { return c >= 0 && c < int(m_rocCurves.size()) ? m_rocCurves[c] : nullptr; }
QCPCurve* EvaluationCurves::precisionRecallCurve(int c) const
{
    return c >= 0 && c < int(m_prCurves.size()) ? m_prCurves[c] : nullptr;
}

void EvaluationCurves::draw()
{
    m_roc->clearPlottables();
    m_pr->clearPlottables();
    m_rocCurves.clear();
    m_prCurves.clear();
    for (std::size_t c = 0; c < m_rocData.size(); ++c)
        m_rocCurves.push_back(curve(m_roc, m_rocData[c].falsePositiveRate, m_rocData[c].truePositiveRate, classColour(int(c)),
                                    tr("%1 (AUC %2)").arg(className(int(c)), area(m_rocData[c].auc))));
    for (std::size_t c = 0; c < m_prData.size(); ++c)
        m_prCurves.push_back(curve(m_pr, m_prData[c].recall, m_prData[c].precision, classColour(int(c)),
                                   tr("%1 (AP %2)").arg(className(int(c)), area(m_prData[c].averagePrecision))));
    if (!m_rocData.empty()) {
        QCPGraph* chance = m_roc->addGraph();
        chance->setName(tr("chance (AUC 0.5)"));
        chance->setPen(QPen(Qt::gray, 1, Qt::DashLine));
        chance->setData({0, 1}, {0, 1});
    }
    m_roc->replot();
    m_pr->replot();
}

}  // namespace ts::ui
