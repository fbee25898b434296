#include "live_chart.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace ts::widgets {

namespace {
constexpr int kReplotIntervalMs = 33;  // ~30 Hz: smooth to the eye, cheap for the UI thread
constexpr double kDefaultSmoothing = 0.6;
}  // namespace

LiveChart::LiveChart(QWidget* parent) : QWidget(parent) {
    m_plot = new QCustomPlot(this);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    // A compact legend: small charts are mostly plot, and the legend sits over the data.
    QFont legendFont = font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.85);
    m_plot->legend->setFont(legendFont);
    m_plot->legend->setIconSize(14, 8);
    m_plot->legend->setRowSpacing(-2);
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

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addStretch(1);
    bar->addWidget(m_smoothingLabel);
    bar->addWidget(m_smoothingBox);
    bar->addWidget(m_logBox);
    bar->addWidget(m_followBox);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(bar);
    layout->addWidget(m_plot, 1);

    connect(m_followBox, &QCheckBox::toggled, this, &LiveChart::setFollow);
    connect(m_logBox, &QCheckBox::toggled, this, &LiveChart::setLogY);
    connect(m_smoothingBox, &QDoubleSpinBox::valueChanged, this, [this](double w) {
        for (auto& s : m_series)
            if (s->data.isSmoothed()) setSmoothing(s->id, std::max(w, 0.001));
    });
    connect(m_plot, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        QMenu* menu = createContextMenu(this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(m_plot->mapToGlobal(pos));
    });
    connect(m_plot, &QCustomPlot::beforeReplot, this, &LiveChart::onBeforeReplot);
    connect(m_plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, &LiveChart::onUserRange);
    connect(m_plot->yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, &LiveChart::onUserRange);

    // One pending replot at a time, however many appends arrive meanwhile.
    m_replotTimer.setSingleShot(true);
    m_replotTimer.setInterval(kReplotIntervalMs);
    connect(&m_replotTimer, &QTimer::timeout, this, [this] { m_plot->replot(QCustomPlot::rpQueuedReplot); });

    retranslate();
    updateSmoothingBox();
    applyPalette();
}

LiveChart::~LiveChart() = default;

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
    s->raw = m_plot->addGraph();
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
    updateSmoothingBox();
    scheduleReplot();
}

bool LiveChart::append(const QString& id, const ChartSamples& samples) {
    Series* s = find(id);
    const bool wasEmpty = s && s->data.size() == 0;
    if (!s || !s->data.append(samples)) return false;
    if (wasEmpty && s->data.size() > 0) rebuildLegend();
    scheduleReplot();
    return true;
}

bool LiveChart::append(const QString& id, std::span<const double> steps, std::span<const double> values) {
    ChartSamples samples;
    samples.step.assign(steps.begin(), steps.end());
    samples.value.assign(values.begin(), values.end());
    return append(id, samples);
}

void LiveChart::setSmoothing(const QString& id, double weight) {
    Series* s = find(id);
    if (!s) return;
    s->data.setSmoothing(weight);
    if (s->data.isSmoothed() && !s->smooth) {
        s->smooth = m_plot->addGraph();
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
    if (!m_replotTimer.isActive()) m_replotTimer.start();
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
    const bool any = std::any_of(m_series.begin(), m_series.end(), [](const auto& s) { return s->data.isSmoothed(); });
    m_smoothingLabel->setVisible(any);
    m_smoothingBox->setVisible(any);
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
    updateXAxisLabel();
}

QStringList LiveChart::seriesIds() const
{
    QStringList ids;
    for (const auto& s : m_series) ids << s->id;
    return ids;
}

}  // namespace ts::widgets
