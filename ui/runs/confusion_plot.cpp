#include "confusion_plot.h"

#include <QLocale>

#include <algorithm>
#include <cmath>

#include "train/classification_report.h"

namespace ts::ui {

namespace {

const QColor kBetter(33, 102, 172), kWorse(178, 24, 43);  // ColorBrewer RdBu ends

QString percent(double share) { return QLocale().toString(share * 100, 'f', 1); }

QCPColorGradient divergingGradient()
{
    QCPColorGradient gradient;
    gradient.setColorStopAt(0, kWorse);
    gradient.setColorStopAt(0.5, Qt::white);
    gradient.setColorStopAt(1, kBetter);
    return gradient;
}

}  // namespace

QString signedPoints(double change)
{
    const QString text = percent(std::fabs(change));
    if (text == percent(0)) return text;
    return (change > 0 ? QStringLiteral("+") : QStringLiteral("\u2212")) + text;
}

ConfusionPlot::ConfusionPlot(QWidget* parent) : QCustomPlot(parent)
{
    setMinimumSize(120, 120);  // the window may be small
    connect(this, &QCustomPlot::afterLayout, this, &ConfusionPlot::fitCellText);
    connect(this, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        if (event->button() != Qt::LeftButton || m_difference) return;
        if (const auto cell = cellAt(event->position())) {
            setSelectedCell(cell);
            emit cellClicked(cell->first, cell->second);
        }
    });
}

void ConfusionPlot::setMatrix(std::vector<std::vector<std::int64_t>> counts)
{
    m_difference = false;
    m_counts = std::move(counts);
    m_changes.clear();
    m_selected.reset();
    rebuild();
}

void ConfusionPlot::setDifference(std::vector<std::vector<double>> difference)
{
    m_difference = true;
    m_changes = std::move(difference);
    m_counts.clear();
    m_selected.reset();
    rebuild();
}

void ConfusionPlot::setClassNames(const QStringList& names)
{
    m_names = names;
    rebuild();
}

void ConfusionPlot::setCellText(CellText text)
{
    m_cellText = text;
    rebuild();
}

QString ConfusionPlot::tickLabel(int c) const
{
    return c < m_names.size() && !m_names[c].isEmpty() ? m_names[c] : QString::number(c);
}

QString ConfusionPlot::cellLabel(const Cell& cell) const
{
    const int n = size();
    if (cell.first < 0 || cell.first >= n || cell.second < 0 || cell.second >= n) return {};
    return m_cellTexts[std::size_t(cell.first)][std::size_t(cell.second)];
}

ConfusionPlot::Cells ConfusionPlot::countCells() const
{
    Cells cells;
    cells.colour = rowNormalised(m_counts);
    for (std::size_t truth = 0; truth < m_counts.size(); ++truth) {
        cells.text.emplace_back();
        cells.lightText.emplace_back();
        for (std::size_t predicted = 0; predicted < m_counts.size(); ++predicted) {
            const double share = cells.colour[truth][predicted];
            cells.text.back().push_back(m_cellText == CellText::Counts ? QLocale().toString(qint64(m_counts[truth][predicted]))
                                                                       : percent(share));
            cells.lightText.back().push_back(share <= 0.6);  // the thermal gradient is dark up to about 0.6
        }
    }
    return cells;
}

// The colour says better or worse for B; the text is the change itself, B − A.
ConfusionPlot::Cells ConfusionPlot::differenceCells(double largest) const
{
    Cells cells;
    for (std::size_t truth = 0; truth < m_changes.size(); ++truth) {
        cells.colour.emplace_back();
        cells.text.emplace_back();
        cells.lightText.emplace_back();
        for (std::size_t predicted = 0; predicted < m_changes.size(); ++predicted) {
            const double change = m_changes[truth][predicted];
            const double goodness = truth == predicted ? change : -change;
            const QString text = signedPoints(change);
            cells.colour.back().push_back(goodness);
            cells.text.back().push_back(text == percent(0) ? QString() : text);  // no change: a white cell
            cells.lightText.back().push_back(std::fabs(goodness) > 0.6 * largest);
        }
    }
    return cells;
}

// At least ±1 point, so noise is not painted deep.
double ConfusionPlot::largestChange() const
{
    double largest = 0.01;
    for (const auto& row : m_changes)
        for (double v : row) largest = std::max(largest, std::fabs(v));
    return largest;
}

void ConfusionPlot::showLegend(bool shown)
{
    if (shown == (m_scale != nullptr)) return;
    if (shown) {
        m_scale = new QCPColorScale(this);  // right of the matrix
        plotLayout()->addElement(0, 1, m_scale);
        m_scale->setType(QCPAxis::atRight);
        m_scale->setBarWidth(10);
        plotLayout()->insertRow(0);  // a title over the matrix saying what the numbers are
        m_title = new QCPTextElement(this, tr("B − A, in percentage points of each true class"));
        plotLayout()->addElement(0, 0, m_title);
        if (!m_margins) m_margins = new QCPMarginGroup(this);
        axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, m_margins);
        m_scale->setMarginGroup(QCP::msBottom | QCP::msTop, m_margins);
    } else {
        axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, nullptr);
        plotLayout()->remove(m_title);
        plotLayout()->remove(m_scale);
        plotLayout()->simplify();
        m_scale = nullptr;
        m_title = nullptr;
    }
}

void ConfusionPlot::rebuild()
{
    clearPlottables();
    clearItems();
    m_texts.clear();
    m_highlight = nullptr;
    const int n = size();
    const double largest = m_difference ? largestChange() : 1;
    const Cells cells = m_difference ? differenceCells(largest) : countCells();
    m_map = new QCPColorMap(xAxis, yAxis);
    m_map->data()->setSize(n, n);
    m_map->data()->setRange(QCPRange(0, n - 1), QCPRange(0, n - 1));
    QFont font = this->font();
    font.setPointSizeF(font.pointSizeF() * (n > 10 ? 0.6 : 0.8));
    m_cellTexts = cells.text;
    for (int truth = 0; truth < n; ++truth)
        for (int predicted = 0; predicted < n; ++predicted) {
            const auto t = std::size_t(truth), p = std::size_t(predicted);
            m_map->data()->setCell(predicted, n - 1 - truth, cells.colour[t][p]);
            if (n > kMostNumberedClasses) continue;
            auto* text = new QCPItemText(this);
            text->position->setCoords(predicted, n - 1 - truth);
            text->setText(cells.text[t][p]);
            text->setColor(cells.lightText[t][p] ? Qt::white : Qt::black);
            text->setFont(font);
            text->setClipToAxisRect(true);
            m_texts.push_back(text);
        }
    m_map->setInterpolate(false);
    showLegend(m_difference);
    if (m_difference) {
        m_map->setGradient(divergingGradient());
        m_map->setDataRange(QCPRange(-largest, largest));
        m_scale->setGradient(m_map->gradient());
        m_scale->setDataRange(m_map->dataRange());
        auto scaleTicks = QSharedPointer<QCPAxisTickerText>::create();
        scaleTicks->addTick(-largest, tr("B worse"));
        scaleTicks->addTick(0, QStringLiteral("0"));
        scaleTicks->addTick(largest, tr("B better"));
        m_scale->axis()->setTicker(scaleTicks);
        setToolTip(tr("Row-normalised confusion matrix of B minus A's, in percentage points of each true class. "
                      "Blue: B does better (the class recognised more often, a mistake made less often); "
                      "red: B does worse."));
    } else {
        m_map->setGradient(QCPColorGradient::gpThermal);
        m_map->setDataRange(QCPRange(0, 1));
        setToolTip(tr("Rows: true class; columns: predicted class. The colour is the share of the row. "
                      "Click a cell to see its samples."));
    }
    xAxis->setLabel(tr("Predicted class"));
    yAxis->setLabel(tr("True class"));
    auto xTicker = QSharedPointer<QCPAxisTickerText>::create();
    auto yTicker = QSharedPointer<QCPAxisTickerText>::create();
    bool longNames = false;
    for (int c = 0; c < n; ++c) {
        xTicker->addTick(c, tickLabel(c));
        yTicker->addTick(n - 1 - c, tickLabel(c));
        longNames = longNames || tickLabel(c).size() > 3;
    }
    xAxis->setTicker(xTicker);
    yAxis->setTicker(yTicker);
    xAxis->setTickLabelRotation(longNames ? -45 : 0);  // names side by side would overlap
    xAxis->setRange(-0.5, n - 0.5);
    yAxis->setRange(-0.5, n - 0.5);
    if (m_selected && m_selected->first < n && m_selected->second < n) {
        m_highlight = new QCPItemRect(this);
        m_highlight->setPen(QPen(QColor(0, 200, 255), 2));
        m_highlight->setBrush(Qt::NoBrush);
        const int row = n - 1 - m_selected->first;
        m_highlight->topLeft->setCoords(m_selected->second - 0.5, row + 0.5);
        m_highlight->bottomRight->setCoords(m_selected->second + 0.5, row - 0.5);
    }
    replot();
}

// The numbers only where a cell holds the widest of them: cramped cells leave the colour to speak.
void ConfusionPlot::fitCellText()
{
    const int n = size();
    if (n == 0 || m_texts.empty()) {
        m_textShown = false;
        fitTickLabels();
        return;
    }
    const QFontMetrics metrics(m_texts.front()->font());
    int widest = metrics.horizontalAdvance(QStringLiteral("00"));
    for (const QCPItemText* text : m_texts) widest = std::max(widest, metrics.horizontalAdvance(text->text()));
    const QRect cells = axisRect()->rect();
    m_textShown = cells.width() / n >= widest + 4 && cells.height() / n >= metrics.height();
    for (QCPItemText* text : m_texts) text->setVisible(m_textShown);
    fitTickLabels();
}

// Class names no taller than a row (a small plot, or 1.5x scale): their font shrinks to fit,
// down to 6 pt. Half a point of slack keeps a relayout from going back and forth.
void ConfusionPlot::fitTickLabels()
{
    const int n = size();
    const QFont base = font();
    const double rowHeight = double(axisRect()->rect().height()) / std::max(n, 1);
    const double textHeight = QFontMetricsF(base).height();
    QFont fitted = base;
    if (n > 0 && textHeight > rowHeight) fitted.setPointSizeF(std::max(6.0, base.pointSizeF() * rowHeight / textHeight));
    if (std::abs(yAxis->tickLabelFont().pointSizeF() - fitted.pointSizeF()) < 0.5) return;
    xAxis->setTickLabelFont(fitted);
    yAxis->setTickLabelFont(fitted);
    replot(QCustomPlot::rpQueuedReplot);  // this layout was made with the old size
}

std::optional<ConfusionPlot::Cell> ConfusionPlot::cellAt(const QPointF& pixel) const
{
    const int n = size();
    if (n == 0 || !axisRect()->rect().contains(pixel.toPoint())) return std::nullopt;
    const int predicted = int(std::lround(xAxis->pixelToCoord(pixel.x())));
    const int row = int(std::lround(yAxis->pixelToCoord(pixel.y())));
    if (predicted < 0 || predicted >= n || row < 0 || row >= n) return std::nullopt;
    return Cell{n - 1 - row, predicted};
}

QPointF ConfusionPlot::cellCenter(const Cell& cell) const
{
    const int n = size();
    return {xAxis->coordToPixel(cell.second), yAxis->coordToPixel(n - 1 - cell.first)};
}

void ConfusionPlot::setSelectedCell(std::optional<Cell> cell)
{
    m_selected = m_difference ? std::nullopt : cell;
    rebuild();
}

}  // namespace ts::ui
