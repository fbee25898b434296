#include "chart_grid.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QMenu>
#include <QScrollArea>
#include <QScrollBar>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "live_chart.h"

namespace ts::widgets {

namespace {
constexpr int kMaxColumns = 4;
}

ChartGrid::ChartGrid(QWidget* parent) : QWidget(parent)
{
    m_chartsButton = new QToolButton;
    m_chartsButton->setObjectName(QStringLiteral("chartsButton"));
    m_chartsButton->setPopupMode(QToolButton::InstantPopup);
    m_chartsButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_chartsButton->setMenu(new QMenu(m_chartsButton));
    m_xLabel = new QLabel;
    m_xAxis = new QComboBox;
    m_xAxis->setObjectName(QStringLiteral("xAxisBox"));
    m_xLabel->setBuddy(m_xAxis);
    m_smoothingLabel = new QLabel;
    m_smoothing = new QDoubleSpinBox;
    m_smoothing->setObjectName(QStringLiteral("smoothingBox"));
    m_smoothing->setRange(0.0, 0.999);
    m_smoothing->setDecimals(3);
    m_smoothing->setSingleStep(0.05);
    m_smoothing->setValue(0.9);
    m_smoothingLabel->setBuddy(m_smoothing);
    m_follow = new QCheckBox;
    m_follow->setObjectName(QStringLiteral("followBox"));
    m_follow->setChecked(true);
    m_fit = new QToolButton;
    m_fit->setObjectName(QStringLiteral("fitButton"));

    // A tool bar: what does not fit a narrow page goes behind its extension button instead of
    // forcing the page (and the window) wider.
    auto* bar = new QToolBar;
    bar->setObjectName(QStringLiteral("chartBar"));
    bar->setIconSize(QSize(16, 16));
    bar->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);  // never what makes a page wide
    bar->addWidget(m_chartsButton);
    bar->addSeparator();
    bar->addWidget(m_xLabel);
    bar->addWidget(m_xAxis);
    bar->addSeparator();
    bar->addWidget(m_smoothingLabel);
    bar->addWidget(m_smoothing);
    bar->addSeparator();
    bar->addWidget(m_follow);
    bar->addWidget(m_fit);

    m_cells = new QWidget;
    m_grid = new QGridLayout(m_cells);
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setSpacing(6);
    m_scroll = new QScrollArea;
    m_scroll->setWidget(m_cells);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(bar);
    layout->addWidget(m_scroll, 1);

    m_scroll->viewport()->installEventFilter(this);  // its height sets the rows' height (the bar above may change it)
    connect(m_scroll->verticalScrollBar(), &QScrollBar::valueChanged, this, &ChartGrid::snapToRow);
    connect(m_scroll->verticalScrollBar(), &QScrollBar::sliderReleased, this, &ChartGrid::snapToRow);
    // New row heights (the view grew or shrank): the same row stays at the top.
    connect(m_scroll->verticalScrollBar(), &QScrollBar::rangeChanged, this, [this] {
        if (m_rowPitch > 0) m_scroll->verticalScrollBar()->setValue(m_topRow * m_rowPitch);
        snapToRow();
    });

    connect(m_xAxis, &QComboBox::activated, this, [this](int index) {
        const auto mode = XAxisMode(m_xAxis->itemData(index).toInt());
        for (const Entry& e : m_entries) e.chart->setXAxisMode(mode);
    });
    connect(m_smoothing, &QDoubleSpinBox::valueChanged, this, [this](double w) {
        for (const Entry& e : m_entries) e.chart->setSmoothingWeight(w);
    });
    connect(m_follow, &QCheckBox::clicked, this, [this](bool on) {
        for (const Entry& e : m_entries) e.chart->setFollow(on);
    });
    connect(m_fit, &QToolButton::clicked, this, [this] {
        for (const Entry& e : m_entries) {
            e.chart->setFollow(true);
            e.chart->resetZoom();
        }
    });
    retranslate();
}

void ChartGrid::addChart(const QString& id, LiveChart* chart)
{
    chart->setControlsVisible(false);
    chart->setXLabelVisible(false);  // the bar names the x axis once for all
    chart->setMinimumSize(0, 0);     // the grid decides when to scroll
    if (chart->hasSmoothedSeries()) chart->setSmoothingWeight(m_smoothing->value());
    m_entries.push_back({id, chart, true});
    connect(chart, &LiveChart::followChanged, this, &ChartGrid::updateFollowBox);
    connect(chart, &LiveChart::logYChanged, this, &ChartGrid::choicesChanged);
    rebuildChartsMenu();
    relayout();
}

void ChartGrid::removeAllCharts()
{
    while (m_grid->count() > 0) m_grid->takeAt(0);
    for (const Entry& e : m_entries) delete e.chart;
    m_entries.clear();
    m_columns = m_rows = 0;
    rebuildChartsMenu();
    relayout();
}

const ChartGrid::Entry* ChartGrid::find(const QString& id) const
{
    for (const Entry& e : m_entries)
        if (e.id == id) return &e;
    return nullptr;
}

LiveChart* ChartGrid::chart(const QString& id) const
{
    const Entry* e = find(id);
    return e ? e->chart : nullptr;
}

QStringList ChartGrid::chartIds() const
{
    QStringList ids;
    for (const Entry& e : m_entries) ids << e.id;
    return ids;
}

std::vector<LiveChart*> ChartGrid::charts() const
{
    std::vector<LiveChart*> out;
    for (const Entry& e : m_entries) out.push_back(e.chart);
    return out;
}

bool ChartGrid::isChartVisible(const QString& id) const
{
    const Entry* e = find(id);
    return e && e->visible;
}

void ChartGrid::setChartVisible(const QString& id, bool on)
{
    auto it = std::find_if(m_entries.begin(), m_entries.end(), [&](const Entry& e) { return e.id == id; });
    if (it == m_entries.end() || it->visible == on) return;
    it->visible = on;
    rebuildChartsMenu();
    relayout();
    emit choicesChanged();
}

ChartGridChoices ChartGrid::choices() const
{
    ChartGridChoices out;
    for (const Entry& e : m_entries) {
        if (!e.visible) out.hidden << e.id;
        if (e.chart->logY()) out.logScale << e.id;
    }
    return out;
}

void ChartGrid::restoreChoices(const ChartGridChoices& choices)
{
    for (Entry& e : m_entries) {
        e.visible = !choices.hidden.contains(e.id);
        const QSignalBlocker block(e.chart);
        e.chart->setLogY(choices.logScale.contains(e.id));
    }
    rebuildChartsMenu();
    relayout();
}

void ChartGrid::setMinimumCellSize(const QSize& size)
{
    m_minimumCell = size;
    m_columns = 0;  // force a relayout
    relayout();
}

// Columns: as many as fit at the minimum width (at most four), then evened out over the rows.
// Rows share the height; below the minimum height per row the grid scrolls instead, by whole rows.
void ChartGrid::relayout()
{
    std::vector<LiveChart*> shown;
    for (const Entry& e : m_entries) {
        e.chart->setVisible(e.visible);
        if (e.visible) shown.push_back(e.chart);
    }
    const int spacing = m_grid->spacing();
    const int width = m_scroll->width() - m_scroll->verticalScrollBar()->sizeHint().width();
    const int fit = std::max(1, (width + spacing) / (m_minimumCell.width() + spacing));
    const int count = int(shown.size());
    const int perRow = std::clamp(fit, 1, kMaxColumns);
    const int rows = (count + perRow - 1) / perRow;
    const int columns = rows > 0 ? (count + rows - 1) / rows : 1;  // balanced: four charts in 2 x 2, not 3 + 1
    if (columns != m_columns || rows != m_rows || m_grid->count() != int(shown.size())) {
        while (m_grid->count() > 0) m_grid->takeAt(0);  // the charts stay children of m_cells
        for (int r = 0; r < m_grid->rowCount(); ++r) m_grid->setRowStretch(r, 0);
        for (int c = 0; c < m_grid->columnCount(); ++c) m_grid->setColumnStretch(c, 0);
        for (int i = 0; i < int(shown.size()); ++i) {
            if (shown[std::size_t(i)]->parentWidget() != m_cells) shown[std::size_t(i)]->setParent(m_cells);
            m_grid->addWidget(shown[std::size_t(i)], i / columns, i % columns);
            shown[std::size_t(i)]->show();
        }
        for (int r = 0; r < rows; ++r) m_grid->setRowStretch(r, 1);
        for (int c = 0; c < columns; ++c) m_grid->setColumnStretch(c, 1);
        m_columns = columns;
        m_rows = rows;
    }
    for (const Entry& e : m_entries)
        if (!e.visible) e.chart->hide();
    // When the rows do not all fit (a short page: the Jobs dock open, a small window), the view
    // shows whole rows only: the rows that fit share its height, and scrolling moves by rows,
    // so no chart is ever cut at the view's edge.
    const int view = m_scroll->viewport()->height();
    int rowHeight = m_minimumCell.height();
    int rest = 0;  // below the last row: the scroll range ends at a row's top
    if (rows > 0 && rows * rowHeight + (rows - 1) * spacing > view) {
        const int shownRows = std::clamp((view + spacing) / (rowHeight + spacing), 1, rows);
        rowHeight = std::max(rowHeight, (view - (shownRows - 1) * spacing) / shownRows);
        rest = std::max(0, view - (shownRows * rowHeight + (shownRows - 1) * spacing));
        m_rowPitch = rowHeight + spacing;
    } else {
        m_rowPitch = 0;
    }
    m_scroll->verticalScrollBar()->setSingleStep(m_rowPitch > 0 ? std::max(1, m_rowPitch / 3) : 20);  // a wheel notch: a row
    m_grid->setContentsMargins(0, 0, 0, rest);
    m_cells->setMinimumHeight(rows > 0 ? rows * rowHeight + (rows - 1) * spacing + rest : 0);
}

void ChartGrid::snapToRow()
{
    QScrollBar* bar = m_scroll->verticalScrollBar();
    if (m_rowPitch <= 0 || bar->isSliderDown()) return;
    m_topRow = int(std::lround(double(bar->value()) / m_rowPitch));
    const int snapped = std::min(bar->maximum(), m_topRow * m_rowPitch);
    if (snapped != bar->value()) bar->setValue(snapped);
}

void ChartGrid::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    relayout();
}

bool ChartGrid::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_scroll->viewport() && event->type() == QEvent::Resize) relayout();
    return QWidget::eventFilter(watched, event);
}

void ChartGrid::updateFollowBox()
{
    const bool all = std::all_of(m_entries.begin(), m_entries.end(), [](const Entry& e) { return e.chart->follow(); });
    m_follow->setChecked(all);
}

void ChartGrid::rebuildChartsMenu()
{
    QMenu* menu = m_chartsButton->menu();
    menu->clear();
    for (const Entry& e : m_entries) {
        QAction* a = menu->addAction(e.chart->title().isEmpty() ? e.id : e.chart->title());
        a->setCheckable(true);
        a->setChecked(e.visible);
        a->setData(e.id);
        connect(a, &QAction::toggled, this, [this, id = e.id](bool on) { setChartVisible(id, on); });
    }
    menu->addSeparator();
    menu->addAction(tr("Show all"), this, [this] {
        for (const Entry& e : m_entries) setChartVisible(e.id, true);
    });
    const auto visible = std::count_if(m_entries.begin(), m_entries.end(), [](const Entry& e) { return e.visible; });
    m_chartsButton->setText(tr("Charts (%1 of %2)").arg(visible).arg(m_entries.size()));
}

void ChartGrid::retranslate()
{
    m_chartsButton->setToolTip(tr("Choose the charts to show"));
    m_xLabel->setText(tr("X axis:"));
    const int current = m_xAxis->currentIndex();
    m_xAxis->clear();
    m_xAxis->addItem(tr("Step"), int(XAxisMode::Step));
    m_xAxis->addItem(tr("Epoch"), int(XAxisMode::Epoch));
    m_xAxis->addItem(tr("Wall time"), int(XAxisMode::WallTime));
    m_xAxis->setCurrentIndex(std::max(current, 0));
    m_smoothingLabel->setText(tr("Smoothing:"));
    m_smoothing->setToolTip(tr("Weight of the exponential moving average drawn over the raw values (0 = raw)."));
    m_follow->setText(tr("Follow"));
    m_follow->setToolTip(tr("Keep the newest data in view. Zooming or panning a chart turns this off."));
    m_fit->setText(tr("Fit all"));
    m_fit->setToolTip(tr("Show every chart's whole data again. Ctrl+wheel zooms a chart, dragging pans it; "
                         "right-click a chart for log scale and export."));
    rebuildChartsMenu();
}

void ChartGrid::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

}  // namespace ts::widgets
