#include "live_chart.h"

#include "compact_ticker.h"
#include "live_chart_envelope.h"

#include <QAbstractScrollArea>
#include <QCheckBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QMouseEvent>
#include <QToolTip>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace ts::widgets {

namespace {
constexpr int kReplotIntervalMs = 33;  // ~30 Hz: smooth to the eye, cheap for the UI thread
// Points streaming in (a run in progress) redraw the chart 4 times a second: live to the eye,
// and on a 2-core machine every frame is taken from the trainer's threads (with two of them,
// one preempted stalls the other at its next barrier, so a frame costs the run about twice its
// own time: tests/ui/bench_studio_epoch). What the user does (zoom, log scale) stays at 30 Hz.
constexpr int kStreamReplotIntervalMs = 250;
constexpr double kDefaultSmoothing = 0.6;
}  // namespace

LiveChart::LiveChart(QWidget* parent) : QWidget(parent) {
    m_plot = new QCustomPlot(this);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    // QCustomPlot repaints synchronously after each replot by default: every chart of a page
    // then painted and flushed the window on its own, several times per frame. Queued, Qt
    // paints all the charts that changed in one pass and flushes once.
    m_plot->setPlottingHint(QCP::phImmediateRefresh, false);
    // The legend is a row above the plot, never over the data; it wraps when the chart is narrow.
    // Centred between two empty stretching cells; layoutAxesAndLegend caps its width.
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    m_plot->plotLayout()->insertRow(0);
    auto* legendRow = m_legendRow = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(0, 0, legendRow);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    m_plot->plotLayout()->setRowSpacing(0);
    legendRow->setMargins(QMargins(0, 0, 0, 0));
    legendRow->addElement(0, 0, new QCPLayoutElement(m_plot));
    legendRow->addElement(0, 1, m_plot->legend);
    legendRow->addElement(0, 2, new QCPLayoutElement(m_plot));
    m_plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_plot->legend->setVisible(true);
    for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis}) {
        axis->setTicker(QSharedPointer<CompactTicker>::create());
        axis->setNumberFormat(QStringLiteral("g"));  // draw "9.99e-4" as written, not as a raised power
    }
    m_emptyText = new QCPItemText(m_plot);
    m_emptyText->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_emptyText->position->setCoords(0.5, 0.5);
    m_emptyText->setPositionAlignment(Qt::AlignCenter);
    m_emptyText->setClipToAxisRect(false);
    // Plain wheel turns scroll the page the chart sits in; Ctrl+wheel zooms (eventFilter).
    m_plot->installEventFilter(this);
    // A compact legend: small charts are mostly plot.
    QFont legendFont = font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.85);
    m_plot->legend->setFont(legendFont);
    m_plot->legend->setIconSize(14, 8);
    m_plot->legend->setRowSpacing(0);  // tighter clips the descenders of "_" and "g"
    m_plot->legend->setMargins(QMargins(4, 2, 4, 2));
    m_plot->setContextMenuPolicy(Qt::CustomContextMenu);
    m_plot->setMinimumSize(160, 120);

    m_followBox = new QCheckBox(this);
    m_followBox->setChecked(true);
    m_logBox = new QCheckBox(this);
    m_smoothingLabel = new QLabel(this);
    m_smoothingBox = new QDoubleSpinBox(this);
    m_smoothingBox->setRange(0.0, 0.999);
    m_smoothingBox->setDecimals(3);
    m_smoothingBox->setSingleStep(0.05);
    m_smoothingBox->setValue(kDefaultSmoothing);
    m_smoothingLabel->setBuddy(m_smoothingBox);

    m_bar = new QWidget(this);
    auto* bar = new QHBoxLayout(m_bar);
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addStretch(1);
    bar->addWidget(m_smoothingLabel);
    bar->addWidget(m_smoothingBox);
    bar->addWidget(m_logBox);
    bar->addWidget(m_followBox);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_bar);
    layout->addWidget(m_plot, 1);

    connect(m_followBox, &QCheckBox::toggled, this, &LiveChart::setFollow);
    connect(m_logBox, &QCheckBox::toggled, this, &LiveChart::setLogY);
    connect(m_smoothingBox, &QDoubleSpinBox::valueChanged, this, &LiveChart::setSmoothingWeight);
    connect(m_plot, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        QMenu* menu = createContextMenu(this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(m_plot->mapToGlobal(pos));
    });
    connect(m_plot, &QCustomPlot::beforeReplot, this, &LiveChart::onBeforeReplot);
    connect(m_plot, &QCustomPlot::afterLayout, this, &LiveChart::onAfterLayout);
    connect(m_plot, &QCustomPlot::afterReplot, this, [this] { m_inReplot = false; });
    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        if (!m_hoverReadout || isEmpty() || !m_plot->axisRect()->rect().contains(event->pos())) return;
        const QString text = readoutAt(m_plot->xAxis->pixelToCoord(event->pos().x()));
        if (!text.isEmpty()) QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
    });
    connect(m_plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, &LiveChart::onUserRange);
    connect(m_plot->yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, &LiveChart::onUserRange);

    // One pending replot at a time, however many appends arrive meanwhile. A hidden chart (a
    // page not shown, a chart switched off) draws nothing: it replots when it is shown again, so
    // a run's charts cost nothing while the user is on another page.
    m_replotTimer.setSingleShot(true);
    connect(&m_replotTimer, &QTimer::timeout, this, [this] {
        if (m_plot->isVisible()) m_plot->replot(QCustomPlot::rpQueuedReplot);
    });

    retranslate();
    updateSmoothingBox();
    updateEmptyState();
    applyPalette();
}

LiveChart::~LiveChart() {
    setLegendRowInLayout(true);  // the plot deletes what its layout holds, the legend among it
}

// A hidden layout element keeps its room in QCustomPlot's layout: the legend's row is taken
// out while there is no legend to show, and put back just above the axis rect.
void LiveChart::setLegendRowInLayout(bool on) {
    QCPLayoutGrid* layout = m_plot->plotLayout();
    m_plot->legend->setVisible(on);  // out of the layout it would still be drawn, where it last was
    if ((m_legendRow->layout() == layout) == on) return;
    if (!on) {
        layout->take(m_legendRow);
        layout->simplify();
        return;
    }
    int row = 0;
    while (row < layout->rowCount() && layout->element(row, 0) != m_plot->axisRect()) ++row;
    layout->insertRow(row);
    layout->addElement(row, 0, m_legendRow);
    layout->setRowStretchFactor(row, 0.001);
}

LiveChart::Series* LiveChart::find(const QString& id) const {
    for (const auto& s : m_series)
        if (s->id == id) return s.get();
    return nullptr;
}

bool LiveChart::addSeries(const QString& id, const QString& label, const QColor& color, Style style) {
    if (find(id)) return false;
    auto s = std::make_unique<Series>();
    s->id = id;
    s->label = label;
    s->color = color;
    s->style = style;
    s->raw = new EnvelopeGraph(m_plot->xAxis, m_plot->yAxis);  // the plot owns it
    s->raw->setAdaptiveSampling(false);  // we already hand it at most ~4 points per pixel column
    updateSeriesPens(*s);
    m_series.push_back(std::move(s));
    rebuildLegend();
    scheduleReplot();
    return true;
}

void LiveChart::removeSeries(const QString& id) {
    auto it = std::find_if(m_series.begin(), m_series.end(), [&](const auto& s) { return s->id == id; });
    if (it == m_series.end()) return;
    m_plot->removeGraph((*it)->raw);
    if ((*it)->smooth) m_plot->removeGraph((*it)->smooth);
    m_series.erase(it);
    rebuildLegend();
    updateEmptyState();
    updateSmoothingBox();
    scheduleReplot();
}

bool LiveChart::append(const QString& id, const ChartSamples& samples) {
    Series* s = find(id);
    const bool wasEmpty = s && s->data.size() == 0;
    if (!s || !s->data.append(samples)) return false;
    if (wasEmpty && s->data.size() > 0) {
        rebuildLegend();
        updateEmptyState();
    }
    if (!m_replotTimer.isActive()) m_replotTimer.start(kStreamReplotIntervalMs);
    return true;
}

bool LiveChart::append(const QString& id, std::span<const double> steps, std::span<const double> values) {
    ChartSamples samples;
    samples.step.assign(steps.begin(), steps.end());
    samples.value.assign(values.begin(), values.end());
    return append(id, samples);
}

bool LiveChart::setData(const QString& id, SeriesData data) {
    Series* s = find(id);
    if (!s) return false;
    const bool wasEmpty = s->data.size() == 0;
    data.setSmoothing(s->data.smoothing());  // a no-op when the builder used the chart's weight
    s->data = std::move(data);
    s->drawnVersion = static_cast<std::size_t>(-1);
    if (wasEmpty != (s->data.size() == 0)) {
        rebuildLegend();
        updateEmptyState();
    }
    scheduleReplot();
    return true;
}

void LiveChart::setSmoothing(const QString& id, double weight) {
    Series* s = find(id);
    if (!s) return;
    s->data.setSmoothing(weight);
    if (s->data.isSmoothed() && !s->smooth) {
        s->smooth = new EnvelopeGraph(m_plot->xAxis, m_plot->yAxis);
        s->smooth->setAdaptiveSampling(false);
    } else if (!s->data.isSmoothed() && s->smooth) {
        m_plot->removeGraph(s->smooth);
        s->smooth = nullptr;
    }
    updateSeriesPens(*s);
    rebuildLegend();
    if (s->data.isSmoothed()) {
        const QSignalBlocker block(m_smoothingBox);
        m_smoothingBox->setValue(s->data.smoothing());
    }
    updateSmoothingBox();
    scheduleReplot();
}

void LiveChart::setSmoothingWeight(double weight) {
    // 0 would drop the smoothed line and with it the series' smoothing: keep it barely on.
    for (auto& s : m_series)
        if (s->data.isSmoothed()) setSmoothing(s->id, std::max(weight, 0.001));
}

double LiveChart::smoothing(const QString& id) const {
    const Series* s = find(id);
    return s ? s->data.smoothing() : 0.0;
}

std::size_t LiveChart::pointCount(const QString& id) const {
    const Series* s = find(id);
    return s ? s->data.size() : 0;
}

QCPGraph* LiveChart::rawGraph(const QString& id) const {
    const Series* s = find(id);
    return s ? s->raw : nullptr;
}

QCPGraph* LiveChart::smoothedGraph(const QString& id) const {
    const Series* s = find(id);
    return s ? s->smooth : nullptr;
}

void LiveChart::clear() {
    for (auto& s : m_series) s->data.clear();
    rebuildLegend();
    updateEmptyState();
    setFollow(true);  // a new run: show it whole
    for (Marker& m : m_markers) {
        m_plot->removeItem(m.line);
        m_plot->removeItem(m.text);
    }
    m_markers.clear();
    m_bestY = ChartX::kNone;
    setThreshold(ChartX::kNone, QString());
    updateMarks();
    scheduleReplot();
}

void LiveChart::scheduleReplot() {
    if (!m_replotTimer.isActive() || m_replotTimer.remainingTime() > kReplotIntervalMs) m_replotTimer.start(kReplotIntervalMs);
}

double LiveChart::replotNow() {
    m_replotTimer.stop();
    m_viewDirty = true;
    QElapsedTimer timer;
    timer.start();
    m_plot->replot(QCustomPlot::rpImmediateRefresh);
    return timer.nsecsElapsed() / 1e6;
}

void LiveChart::updateSmoothingBox() {
    const bool any = hasSmoothedSeries();
    m_smoothingLabel->setVisible(any);
    m_smoothingBox->setVisible(any);
}

bool LiveChart::isEmpty() const {
    return std::none_of(m_series.begin(), m_series.end(), [](const auto& s) { return s->data.size() > 0; });
}

// An empty chart shows a note in a bare frame: no 0-5 axis, no empty legend box. The axes go
// back to a neutral range so a new run does not start inside the previous run's.
void LiveChart::updateEmptyState() {
    const bool empty = isEmpty();
    m_emptyText->setVisible(empty);
    setLegendRowInLayout(!empty && m_legendShown);
    for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis}) axis->setTickLabels(!empty);
    if (empty) {
        ++m_programmaticRange;
        m_plot->xAxis->setRange(0, 1);
        m_plot->yAxis->setRange(m_logY ? 0.1 : 0, 1);
        --m_programmaticRange;
    }
}

void LiveChart::setEmptyNote(const QString& note) {
    if (note == m_emptyNote) return;
    m_emptyNote = note;
    m_emptyText->setText(note.isEmpty() ? tr("No data yet") : note);
    if (isEmpty()) scheduleReplot();
}

QString LiveChart::emptyNote() const { return m_emptyText->text(); }

void LiveChart::setControlsVisible(bool on) { m_bar->setVisible(on); }

bool LiveChart::legendInView() const { return m_legendRow->layout() == m_plot->plotLayout(); }

void LiveChart::setLegendShown(bool on) {
    m_legendShown = on;
    updateEmptyState();
    scheduleReplot();
}

void LiveChart::setXLabelVisible(bool on) {
    m_xLabelVisible = on;
    updateXAxisLabel();
    scheduleReplot();
}

bool LiveChart::hasSmoothedSeries() const {
    return std::any_of(m_series.begin(), m_series.end(), [](const auto& s) { return s->data.isSmoothed(); });
}

QString LiveChart::title() const { return m_title ? m_title->text() : QString(); }

bool LiveChart::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_plot && event->type() == QEvent::Show) scheduleReplot();  // what came while hidden
    if (watched == m_plot && event->type() == QEvent::Wheel &&
        !(static_cast<QWheelEvent*>(event)->modifiers() & Qt::ControlModifier)) {
        // Handed to the page's scroll area directly: Qt 6 passes only spontaneous wheel events
        // on to parents, and synthetic ones (tests, forwarded events) must scroll too.
        for (QWidget* w = parentWidget(); w; w = w->parentWidget())
            if (auto* area = qobject_cast<QAbstractScrollArea*>(w)) {
                QCoreApplication::sendEvent(area->viewport(), event);
                return true;
            }
        event->ignore();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void LiveChart::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange) {
        applyPalette();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    } else if (event->type() == QEvent::LanguageChange) {
        retranslate();
    }
    QWidget::changeEvent(event);
}

void LiveChart::retranslate() {
    m_followBox->setText(tr("Follow"));
    m_followBox->setToolTip(tr("Keep the newest data in view. Zooming or panning turns this off."));
    m_logBox->setText(tr("Log scale"));
    m_smoothingLabel->setText(tr("Smoothing"));
    m_smoothingBox->setToolTip(tr("Weight of the exponential moving average (0 = raw values)."));
    m_emptyText->setText(m_emptyNote.isEmpty() ? tr("No data yet") : m_emptyNote);
    updateXAxisLabel();
}

QStringList LiveChart::seriesIds() const
{
    QStringList ids;
    for (const auto& s : m_series) ids << s->id;
    return ids;
}

QStringList LiveChart::seriesLabels() const
{
    QStringList labels;
    for (const auto& s : m_series) labels << s->label;
    return labels;
}

void LiveChart::setSeriesLabels(const QStringList& labels)
{
    for (std::size_t i = 0; i < m_series.size() && i < std::size_t(labels.size()); ++i) {
        m_series[i]->label = labels[qsizetype(i)];
        updateSeriesPens(*m_series[i]);  // the graphs carry the name the legend shows
    }
    scheduleReplot();
}

}  // namespace ts::widgets
