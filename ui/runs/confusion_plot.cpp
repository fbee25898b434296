#include "confusion_plot.h"

#include <QLocale>

#include <algorithm>

#include "train/classification_report.h"

namespace ts::ui {

ConfusionPlot::ConfusionPlot(QWidget* parent) : QCustomPlot(parent)
{
    setMinimumSize(120, 120);  // the window may be small
    connect(this, &QCustomPlot::afterLayout, this, &ConfusionPlot::fitCellText);
    connect(this, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        if (event->button() != Qt::LeftButton) return;
        if (const auto cell = cellAt(event->position())) {
            setSelectedCell(cell);
            emit cellClicked(cell->first, cell->second);
        }
    });
    setToolTip(tr("Rows: true class; columns: predicted class. The colour is the share of the row. "
                  "Click a cell to see its samples."));
}

void ConfusionPlot::setMatrix(std::vector<std::vector<std::int64_t>> counts)
{
    m_counts = std::move(counts);
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

void ConfusionPlot::rebuild()
{
    clearPlottables();
    clearItems();
    m_texts.clear();
    m_highlight = nullptr;
    const int n = int(m_counts.size());
    const auto shares = rowNormalised(m_counts);
    auto* map = new QCPColorMap(xAxis, yAxis);
    map->data()->setSize(n, n);
    map->data()->setRange(QCPRange(0, n - 1), QCPRange(0, n - 1));
    QFont font = this->font();
    font.setPointSizeF(font.pointSizeF() * (n > 10 ? 0.6 : 0.8));
    for (int truth = 0; truth < n; ++truth)
        for (int predicted = 0; predicted < n; ++predicted) {
            const double share = shares[std::size_t(truth)][std::size_t(predicted)];
            map->data()->setCell(predicted, n - 1 - truth, share);
            auto* text = new QCPItemText(this);
            text->position->setCoords(predicted, n - 1 - truth);
            text->setText(m_cellText == CellText::Counts
                              ? QLocale().toString(qint64(m_counts[std::size_t(truth)][std::size_t(predicted)]))
                              : QLocale().toString(share * 100, 'f', 1));
            // The thermal gradient runs from dark (0) to bright (1): light text on the dark cells.
            text->setColor(share > 0.6 ? Qt::black : Qt::white);
            text->setFont(font);
            text->setClipToAxisRect(true);
            m_texts.push_back(text);
        }
    map->setGradient(QCPColorGradient::gpThermal);
    map->setDataRange(QCPRange(0, 1));
    map->setInterpolate(false);
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
    const int n = int(m_counts.size());
    if (n == 0 || m_texts.empty()) {
        m_textShown = false;
        return;
    }
    const QFontMetrics metrics(m_texts.front()->font());
    int widest = metrics.horizontalAdvance(QStringLiteral("00"));
    for (const QCPItemText* text : m_texts) widest = std::max(widest, metrics.horizontalAdvance(text->text()));
    const QRect cells = axisRect()->rect();
    m_textShown = cells.width() / n >= widest + 4 && cells.height() / n >= metrics.height();
    for (QCPItemText* text : m_texts) text->setVisible(m_textShown);
}

std::optional<ConfusionPlot::Cell> ConfusionPlot::cellAt(const QPointF& pixel) const
{
    const int n = int(m_counts.size());
    if (n == 0 || !axisRect()->rect().contains(pixel.toPoint())) return std::nullopt;
    const int predicted = int(std::lround(xAxis->pixelToCoord(pixel.x())));
    const int row = int(std::lround(yAxis->pixelToCoord(pixel.y())));
    if (predicted < 0 || predicted >= n || row < 0 || row >= n) return std::nullopt;
    return Cell{n - 1 - row, predicted};
}

QPointF ConfusionPlot::cellCenter(const Cell& cell) const
{
    const int n = int(m_counts.size());
    return {xAxis->coordToPixel(cell.second), yAxis->coordToPixel(n - 1 - cell.first)};
}

void ConfusionPlot::setSelectedCell(std::optional<Cell> cell)
{
    m_selected = cell;
    rebuild();
}

}  // namespace ts::ui
