#include "statistics_histogram.h"

#include <QLocale>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace ts::ui {

namespace {
// Train, validation, test: the colours of the Runs page's train / validation curves, test green.
const QColor kSplitColours[] = {QColor(31, 119, 180), QColor(255, 127, 14), QColor(44, 160, 44)};
}  // namespace

StatisticsHistogram::StatisticsHistogram(QWidget* parent) : QCustomPlot(parent)
{
    setMinimumHeight(180);
    xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    xAxis->grid()->setVisible(false);
    xAxis->setTickLength(0, 3);
    yAxis->setLabel(tr("Samples"));
    yAxis->setRangeLower(0);
    // The legend in a row of its own above the plot, in one line: inside the axis rect it
    // covered the bars of the last classes.
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, legend);
    plotLayout()->setRowStretchFactor(0, 0.001);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setBorderPen(Qt::NoPen);
    legend->setMargins(QMargins(4, 2, 4, 0));
    legend->setVisible(true);
    setNoAntialiasingOnDrag(true);
    connect(this, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        if (event->button() != Qt::LeftButton) return;
        if (const auto bar = barAt(event->position())) emit barClicked(bar->first, bar->second);
    });
    connect(this, &QCustomPlot::mouseMove, this, &StatisticsHistogram::showToolTip);
}

QString StatisticsHistogram::splitTitle(const std::string& split)
{
    if (split == "train") return tr("Train");
    if (split == "validation") return tr("Validation");
    if (split == "test") return tr("Test");
    return QString::fromStdString(split);
}

void StatisticsHistogram::setCounted(Counted counted)
{
    m_counted = counted;
    yAxis->setLabel(counted == Counted::Lines ? tr("Lines") : tr("Samples"));
    replot(QCustomPlot::rpQueuedReplot);
}

void StatisticsHistogram::clearCounts()
{
    setCounts({}, {});
}

void StatisticsHistogram::setCounts(const std::vector<SplitClassCounts>& splits, const QStringList& classNames)
{
    m_splits = splits;
    m_names = classNames;
    clearPlottables();
    m_bars.clear();
    const int classes = splits.empty() ? 0 : int(splits.front().counts.size());
    double top = 0;
    for (int s = 0; s < int(splits.size()); ++s) {
        auto* b = new QCPBars(xAxis, yAxis);
        b->setName(splitTitle(splits[std::size_t(s)].split));
        const QColor colour = kSplitColours[std::min(s, 2)];
        b->setPen(QPen(colour.darker(130)));
        b->setBrush(colour);
        m_bars.push_back(b);
    }
    for (int s = 0; s < int(splits.size()); ++s) {
        QVector<double> keys, values;
        for (int c = 0; c < classes; ++c) {
            keys.push_back(barKey(s, c));
            const double v = double(splits[std::size_t(s)].counts[std::size_t(c)]);
            values.push_back(v);
            top = std::max(top, v);
        }
        m_bars[std::size_t(s)]->setWidth(barWidth());
        m_bars[std::size_t(s)]->setData(keys, values, true);
    }
    xAxis->setRange(-0.6, std::max(classes, 1) - 0.4);
    yAxis->setRange(0, top > 0 ? top * 1.05 : 1);
    legend->setVisible(!m_bars.empty());
    fitTickLabels();
    replot();
}

double StatisticsHistogram::barKey(int split, int classIndex) const
{
    const double n = double(m_bars.size());
    return classIndex + (split - (n - 1) / 2) * barWidth();
}

std::optional<std::pair<int, int>> StatisticsHistogram::barAt(const QPointF& pixel) const
{
    if (m_bars.empty() || !axisRect()->rect().contains(pixel.toPoint())) return std::nullopt;
    const int classes = int(m_splits.front().counts.size());
    const double key = xAxis->pixelToCoord(pixel.x());
    const int c = int(std::lround(key));
    if (c < 0 || c >= classes || std::abs(key - c) > 0.4) return std::nullopt;
    const int s = int(std::floor((key - c + 0.4) / barWidth()));
    if (s < 0 || s >= int(m_bars.size())) return std::nullopt;
    return std::make_pair(s, c);
}

QPointF StatisticsHistogram::barCenter(int split, int classIndex) const
{
    const double v = double(m_splits.at(std::size_t(split)).counts.at(std::size_t(classIndex)));
    return {xAxis->coordToPixel(barKey(split, classIndex)), yAxis->coordToPixel(v / 2)};
}

QCPBars* StatisticsHistogram::bars(int split) const
{
    return split >= 0 && split < int(m_bars.size()) ? m_bars[std::size_t(split)] : nullptr;
}

void StatisticsHistogram::showToolTip(QMouseEvent* event)
{
    const auto bar = barAt(event->position());
    if (!bar) {
        QToolTip::hideText();
        return;
    }
    const auto& split = m_splits[std::size_t(bar->first)];
    const QString name = bar->second < m_names.size() ? m_names[bar->second] : QString::number(bar->second);
    const std::int64_t n = split.counts[std::size_t(bar->second)];
    const double share = split.total > 0 ? 100.0 * double(n) / double(split.total) : 0.0;
    if (m_counted == Counted::Lines) {
        QToolTip::showText(event->globalPosition().toPoint(),
                           tr("%1, %2: %3 lines (%4%)").arg(splitTitle(split.split), name, QLocale().toString(qlonglong(n)),
                                                            QLocale().toString(share, 'f', 1)),
                           this);
        return;
    }
    QToolTip::showText(event->globalPosition().toPoint(),
                       tr("%1, %2: %3 samples (%4%)\nClick to show them")
                           .arg(splitTitle(split.split), name, QLocale().toString(qlonglong(n)),
                                QLocale().toString(share, 'f', 1)),
                       this);
}

// Names horizontal while they fit their column, tilted when not, and only every k-th one
// when even tilted lines would overlap (100 classes).
void StatisticsHistogram::fitTickLabels()
{
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(xAxis->ticker());
    ticker->clear();
    const int classes = m_splits.empty() ? 0 : int(m_splits.front().counts.size());
    if (classes == 0) return;
    const QFontMetrics fm(xAxis->tickLabelFont());
    int widest = 0;
    for (int c = 0; c < classes; ++c)
        widest = std::max(widest, fm.horizontalAdvance(c < m_names.size() ? m_names[c] : QString::number(c)));
    const double slot = std::max(1.0, double(std::max(axisRect()->width(), width() - 80)) / classes);
    const bool tilt = widest + 6 > slot;
    xAxis->setTickLabelRotation(tilt ? -40 : 0);  // a tilted name ends at its bar, so the last one stays inside
    const int step = tilt ? std::max(1, int(std::ceil(fm.height() * 1.3 / slot))) : 1;
    for (int c = 0; c < classes; c += step) ticker->addTick(c, c < m_names.size() ? m_names[c] : QString::number(c));
}

void StatisticsHistogram::resizeEvent(QResizeEvent* event)
{
    QCustomPlot::resizeEvent(event);
    fitTickLabels();
    replot(QCustomPlot::rpQueuedReplot);
}

void StatisticsHistogram::changeEvent(QEvent* event)
{
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        yAxis->setLabel(m_counted == Counted::Lines ? tr("Lines") : tr("Samples"));
        for (std::size_t s = 0; s < m_bars.size(); ++s) m_bars[s]->setName(splitTitle(m_splits[s].split));
        replot(QCustomPlot::rpQueuedReplot);
    }
}

}  // namespace ts::ui
