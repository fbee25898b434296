#include "parallel_coordinates.h"

#include <QCollator>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "comparison_model.h"
#include "types/run_records.h"

namespace ts::ui {

namespace {

constexpr double kHoverPixels = 5;  // how near the pointer must come to a line to pick it
constexpr int kLegendWidth = 86;    // the colour scale and its labels, right of the last axis

// Viridis at five stops: ordered in lightness, readable for colour-blind eyes.
const QColor kScale[] = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};

QColor scaleColour(double t)
{
    if (!std::isfinite(t)) return QColor(150, 150, 150);
    t = std::clamp(t, 0.0, 1.0) * (std::size(kScale) - 1);
    const int i = std::min(int(t), int(std::size(kScale)) - 2);
    const double f = t - i;
    const QColor &a = kScale[i], &b = kScale[i + 1];
    return QColor::fromRgbF(float(a.redF() + f * (b.redF() - a.redF())), float(a.greenF() + f * (b.greenF() - a.greenF())),
                            float(a.blueF() + f * (b.blueF() - a.blueF())));
}

double distanceToSegment(const QPointF& p, const QPointF& a, const QPointF& b)
{
    const QPointF ab = b - a;
    const double length2 = QPointF::dotProduct(ab, ab);
    const double t = length2 > 0 ? std::clamp(QPointF::dotProduct(p - a, ab) / length2, 0.0, 1.0) : 0.0;
    const QPointF nearest = a + t * ab;
    return std::hypot(p.x() - nearest.x(), p.y() - nearest.y());
}

}  // namespace

ParallelCoordinates::ParallelCoordinates(QWidget* parent) : QWidget(parent)
{
    m_result = new QComboBox;
    m_result->setObjectName(QStringLiteral("parallelResult"));
    m_result->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_result->setToolTip(tr("The result drawn as the last axis, and by which the lines are coloured"));
    auto* label = new QLabel(tr("Result:"));
    label->setBuddy(m_result);
    m_bar = new QWidget;
    auto* bar = new QHBoxLayout(m_bar);
    bar->setContentsMargins(4, 4, 4, 0);
    bar->addWidget(label);
    bar->addWidget(m_result);
    bar->addSpacing(12);
    m_hoverLabel = new QLabel;  // the hovered line's run
    m_hoverLabel->setObjectName(QStringLiteral("parallelHovered"));
    bar->addWidget(m_hoverLabel, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_bar);
    layout->addStretch(1);  // the plot is painted below the bar
    setMouseTracking(true);
    setMinimumSize(320, 220);
    connect(m_result, &QComboBox::activated, this, [this] {
        rebuildAxes();
        update();
    });
}

void ParallelCoordinates::setRuns(const ComparisonModel* model, const std::vector<ComparisonModel::Run>& runs)
{
    m_model = model;
    m_runIds.clear();
    m_runNames.clear();
    for (const ComparisonModel::Run& r : runs) {
        m_runIds << r.info.id;
        m_runNames << tr("%1 · %2").arg(r.info.id).arg(QString::fromStdString(r.info.name));
    }
    const QVector<qint64>& runIds = m_runIds;
    m_hovered = -1;
    m_hoverLabel->clear();
    // The results: rows of a metric with a number for every run, as the trade-off chart's.
    const QString chosen = m_result->currentText();
    m_result->clear();
    for (int r = 0; r < model->rowCount(); ++r) {
        if (model->metricOf(r).isEmpty()) continue;
        bool numeric = !runIds.isEmpty();
        for (int i = 0; i < runIds.size(); ++i) numeric = numeric && std::isfinite(model->number(r, i));
        if (numeric) m_result->addItem(model->rowName(r), r);
    }
    int preferred = m_result->findText(chosen);
    for (const char* metric : {"val_acc", "test_acc", "val_loss", "test_loss"})  // the headline, as the trade-off's
        for (int i = 0; i < m_result->count() && preferred < 0; ++i)
            if (model->metricOf(m_result->itemData(i).toInt()) == QLatin1String(metric)) preferred = i;
    m_result->setCurrentIndex(std::max(0, preferred));
    rebuildAxes();
    update();
}

void ParallelCoordinates::rebuildAxes()
{
    m_axes.clear();
    if (!m_model) return;
    auto numericAxis = [&](Axis& axis) {
        double low = INFINITY, high = -INFINITY;
        for (int i = 0; i < m_runIds.size(); ++i) {
            const double v = m_model->number(axis.row, i);
            if (!std::isfinite(v)) axis.categorical = true;
            low = std::min(low, v);
            high = std::max(high, v);
        }
        if (axis.categorical) return;
        axis.log = low > 0 && high / low > 100;  // more than two decades
        axis.low = axis.log ? std::log10(low) : low;
        axis.high = axis.log ? std::log10(high) : high;
    };
    const QStringList settings = m_model->differingSettings();
    for (int r = 0; r < m_model->rowCount(); ++r) {
        if (!settings.contains(m_model->rowName(r))) continue;
        Axis axis;
        axis.name = m_model->rowName(r);
        axis.row = r;
        numericAxis(axis);
        if (axis.categorical) {
            for (int i = 0; i < m_runIds.size(); ++i) axis.categories << m_model->settingValue(axis.name, i);
            axis.categories.removeDuplicates();
            QCollator collator;
            collator.setNumericMode(true);  // "batch 64" below "batch 128"
            std::sort(axis.categories.begin(), axis.categories.end(), collator);
        }
        m_axes.push_back(axis);
    }
    if (m_result->count() > 0) {
        Axis axis;
        axis.name = m_result->currentText();
        axis.row = m_result->currentData().toInt();
        axis.result = true;
        numericAxis(axis);
        m_axes.push_back(axis);
    }
}

double ParallelCoordinates::position(int axis, int run) const
{
    const Axis& a = m_axes.at(axis);
    if (a.categorical) {
        const int index = int(a.categories.indexOf(m_model->settingValue(a.name, run)));
        if (index < 0) return NAN;
        return a.categories.size() > 1 ? double(index) / double(a.categories.size() - 1) : 0.5;
    }
    double v = m_model->number(a.row, run);
    if (a.log) v = v > 0 ? std::log10(v) : NAN;
    return a.high > a.low ? (v - a.low) / (a.high - a.low) : 0.5;
}

QRectF ParallelCoordinates::plotArea() const
{
    const int line = fontMetrics().height();
    const double top = m_bar->geometry().bottom() + 2.5 * line;  // the axis names above the axes
    // Right: the last axis's labels (the values are written with 4 digits), then the scale.
    const double lastLabels = fontMetrics().horizontalAdvance(QStringLiteral("0.0000")) + 10;
    return QRectF(QPointF(12, top), QPointF(width() - kLegendWidth - lastLabels, height() - line));
}

QPointF ParallelCoordinates::vertex(int axis, int run) const
{
    const QRectF area = plotArea();
    const double x = m_axes.size() > 1 ? area.left() + area.width() * axis / double(m_axes.size() - 1) : area.center().x();
    return {x, area.bottom() - position(axis, run) * area.height()};
}

QColor ParallelCoordinates::colourOf(int run) const
{
    if (m_axes.isEmpty() || !m_axes.back().result) return QColor(31, 119, 180);
    return scaleColour(position(int(m_axes.size()) - 1, run));
}

int ParallelCoordinates::runAt(const QPointF& point) const
{
    int best = -1;
    double nearest = kHoverPixels;
    for (int run = 0; run < m_runIds.size(); ++run)
        for (int a = 0; a + 1 < m_axes.size(); ++a) {
            const double d = distanceToSegment(point, vertex(a, run), vertex(a + 1, run));
            if (d <= nearest) {
                nearest = d;
                best = run;
            }
        }
    return best;
}

QString ParallelCoordinates::valueText(const Axis& axis, double value) const
{
    if (axis.log) value = std::pow(10.0, value);
    return QLocale().toString(value, 'g', 4);
}

void ParallelCoordinates::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QRectF area = plotArea();
    const QColor text = palette().color(QPalette::WindowText);
    if (m_axes.size() < 2) {
        p.setPen(text);
        p.drawText(area, Qt::AlignCenter | Qt::TextWordWrap,
                   m_axes.isEmpty() || !m_axes.back().result
                       ? tr("The selected runs differ in no setting and share no result: there is nothing to draw.")
                       : tr("The selected runs differ in no setting: there is one axis only."));
        return;
    }
    // The lines first, the hovered one last (on top).
    QVector<int> order;
    for (int run = 0; run < m_runIds.size(); ++run)
        if (run != m_hovered) order << run;
    if (m_hovered >= 0) order << m_hovered;
    for (int run : order) {
        QPainterPath path;
        bool started = false;
        for (int a = 0; a < m_axes.size(); ++a) {
            const QPointF v = vertex(a, run);
            if (!std::isfinite(v.y())) {
                started = false;
                continue;
            }
            started ? path.lineTo(v) : path.moveTo(v);
            started = true;
        }
        QColor colour = colourOf(run);
        if (m_hovered >= 0 && run != m_hovered) colour.setAlpha(60);
        p.setPen(QPen(colour, run == m_hovered ? 4 : 2));
        p.drawPath(path);
    }

    // Axes, their names above and their values beside them.
    const double spacing = area.width() / double(m_axes.size() - 1);
    const QFontMetrics metrics = fontMetrics();
    for (int a = 0; a < m_axes.size(); ++a) {
        const Axis& axis = m_axes[a];
        const double x = area.left() + spacing * a;
        p.setPen(QPen(text, 1.2));
        p.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
        QFont bold = font();
        bold.setBold(axis.result);
        p.setFont(bold);
        const QString title = axis.log ? tr("%1 (log)").arg(axis.name) : axis.name;
        const QString name = QFontMetrics(bold).elidedText(title, Qt::ElideMiddle, int(std::max(spacing - 6, 40.0)));
        const double nameWidth = QFontMetrics(bold).horizontalAdvance(name);
        const double nameLeft = std::clamp(x - nameWidth / 2, 2.0, width() - kLegendWidth - nameWidth);
        p.drawText(QPointF(nameLeft, area.top() - metrics.height() * 0.8), name);
        p.setFont(font());
        // Labels: the categories, or the runs' distinct values; one that would overlap a label
        // already written is left out (the ends go first).
        QVector<std::pair<double, QString>> labels;  // position 0..1, text
        if (axis.categorical) {
            for (int c = 0; c < axis.categories.size(); ++c)
                labels.push_back({axis.categories.size() > 1 ? double(c) / double(axis.categories.size() - 1) : 0.5, axis.categories[c]});
        } else {
            labels.push_back({0, valueText(axis, axis.low)});
            labels.push_back({1, valueText(axis, axis.high)});
            for (int run = 0; run < m_runIds.size(); ++run) labels.push_back({position(a, run), QLocale().toString(m_model->number(axis.row, run), 'g', 4)});
        }
        QVector<double> written;
        for (const auto& [at, label] : labels) {
            if (!std::isfinite(at)) continue;
            const double y = area.bottom() - at * area.height();
            if (std::any_of(written.begin(), written.end(), [&](double w) { return std::fabs(w - y) < metrics.height(); })) continue;
            written << y;
            const double room = a + 1 < m_axes.size() ? spacing - 10 : width() - kLegendWidth - x - 6;
            const QString shown = metrics.elidedText(label, Qt::ElideRight, int(std::max(room, 30.0)));
            const QRectF box(x + 4, y - metrics.height() / 2.0, metrics.horizontalAdvance(shown) + 4, metrics.height());
            QColor halo = palette().color(QPalette::Window);
            halo.setAlpha(200);
            p.fillRect(box, halo);
            p.setPen(text);
            p.drawText(box, Qt::AlignCenter, shown);
        }
    }

    // The colour scale of the result.
    if (m_axes.back().result) {
        const QRectF bar(width() - kLegendWidth + 8, area.top(), 12, area.height());
        QLinearGradient gradient(bar.bottomLeft(), bar.topLeft());
        for (int i = 0; i < int(std::size(kScale)); ++i) gradient.setColorAt(double(i) / (std::size(kScale) - 1), kScale[i]);
        p.fillRect(bar, gradient);
        p.setPen(text);
        const Axis& r = m_axes.back();
        p.drawText(QPointF(bar.right() + 4, bar.top() + metrics.ascent() / 2.0), valueText(r, r.high));
        p.drawText(QPointF(bar.right() + 4, bar.bottom() + metrics.ascent() / 2.0), valueText(r, r.low));
    }
}

void ParallelCoordinates::mouseMoveEvent(QMouseEvent* event)
{
    const int run = runAt(event->position());
    if (run == m_hovered) return;
    m_hovered = run;
    setCursor(run >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
    setToolTip(run >= 0 ? m_runNames.value(run) : QString());
    showHovered();
    update();
}

void ParallelCoordinates::mousePressEvent(QMouseEvent* event)
{
    const int run = runAt(event->position());
    if (run >= 0 && event->button() == Qt::LeftButton) emit runClicked(m_runIds[run]);
}

void ParallelCoordinates::leaveEvent(QEvent*)
{
    if (m_hovered < 0) return;
    m_hovered = -1;
    showHovered();
    update();
}

void ParallelCoordinates::showHovered()
{
    if (m_hovered < 0) {
        m_hoverLabel->clear();
        return;
    }
    QString text = QStringLiteral("<span style=\"color:%1\">■</span>&nbsp;%2")
                       .arg(colourOf(m_hovered).name(), m_runNames.value(m_hovered).toHtmlEscaped());
    if (!m_axes.isEmpty() && m_axes.back().result)
        text += QStringLiteral(": ") + tr("%1 = %2").arg(m_axes.back().name.toHtmlEscaped(),
                                                         QLocale().toString(m_model->number(m_axes.back().row, m_hovered), 'g', 4));
    m_hoverLabel->setText(text);
}

}  // namespace ts::ui
