#include "train_charts.h"

#include <QColor>
#include <QFrame>
#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>

#include <cmath>
#include <vector>

// The widgets library (tswidgets, linked by tsui) puts live_chart.h on the include path.
#if __has_include("live_chart.h")
#define TS_HAVE_LIVE_CHART 1
#include "live_chart.h"
#endif

namespace ts::ui {

enum class SeriesStyle { Line, Points };

// One chart, whatever draws it. The whole LiveChart/placeholder difference lives in here.
class ChartPane {
public:
    struct Samples {
        std::vector<double> step, epoch, time, value;
    };

    ChartPane(const QString& title, const QString& yLabel);
    QWidget* widget() const { return m_widget; }
    void addSeries(const QString& id, const QString& label, const QColor& color, SeriesStyle style = SeriesStyle::Line);
    void append(const QString& id, const Samples& samples);
    void setSmoothing(const QString& id, double weight);
    void setThreshold(double y, const QString& label);
    void addMarker(double step, const QString& label);
    qint64 pointCount(const QString& id) const;
    void clear();

private:
#ifdef TS_HAVE_LIVE_CHART
    widgets::LiveChart* m_chart = nullptr;
#else
    void showLatest();
    QHash<QString, QString> m_labels;
    QHash<QString, qint64> m_counts;
    QHash<QString, double> m_latest;
    QStringList m_ids;
    QLabel* m_values = nullptr;
#endif
    QWidget* m_widget = nullptr;
};

#ifdef TS_HAVE_LIVE_CHART

ChartPane::ChartPane(const QString& title, const QString& yLabel) : m_chart(new widgets::LiveChart)
{
    m_chart->setTitle(title);
    m_chart->setYLabel(yLabel);
    m_chart->setMinimumSize(220, 160);
    m_widget = m_chart;
}

void ChartPane::addSeries(const QString& id, const QString& label, const QColor& color, SeriesStyle style)
{
    m_chart->addSeries(id, label, color,
                       style == SeriesStyle::Points ? widgets::LiveChart::Style::Points : widgets::LiveChart::Style::Line);
}

void ChartPane::append(const QString& id, const Samples& s)
{
    m_chart->append(id, widgets::ChartSamples{s.step, s.epoch, s.time, s.value});
}

void ChartPane::setSmoothing(const QString& id, double weight) { m_chart->setSmoothing(id, weight); }
void ChartPane::setThreshold(double y, const QString& label) { m_chart->setThreshold(y, label); }
void ChartPane::addMarker(double step, const QString& label) { m_chart->addMarker(step, label); }
qint64 ChartPane::pointCount(const QString& id) const
{
    return m_chart->hasSeries(id) ? qint64(m_chart->pointCount(id)) : -1;
}
void ChartPane::clear() { m_chart->clear(); }

#else  // placeholder: a titled frame that prints each series' latest value

ChartPane::ChartPane(const QString& title, const QString&)
{
    auto* frame = new QFrame;
    frame->setFrameShape(QFrame::StyledPanel);
    frame->setMinimumSize(180, 90);
    auto* heading = new QLabel(title);
    QFont font = heading->font();
    font.setBold(true);
    heading->setFont(font);
    m_values = new QLabel(TrainCharts::tr("No data yet"));
    m_values->setObjectName(QStringLiteral("chartValues"));
    m_values->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    auto* layout = new QVBoxLayout(frame);
    layout->addWidget(heading);
    layout->addWidget(m_values, 1);
    m_widget = frame;
}

void ChartPane::addSeries(const QString& id, const QString& label, const QColor&, SeriesStyle)
{
    m_ids << id;
    m_labels.insert(id, label);
    m_counts.insert(id, 0);
}

void ChartPane::append(const QString& id, const Samples& s)
{
    if (!m_counts.contains(id) || s.value.empty()) return;
    m_counts[id] += qint64(s.value.size());
    m_latest[id] = s.value.back();
    showLatest();
}

void ChartPane::setSmoothing(const QString&, double) {}
void ChartPane::setThreshold(double, const QString&) {}
void ChartPane::addMarker(double, const QString&) {}
qint64 ChartPane::pointCount(const QString& id) const { return m_counts.value(id, -1); }

void ChartPane::clear()
{
    for (const QString& id : m_ids) m_counts[id] = 0;
    m_latest.clear();
    m_values->setText(TrainCharts::tr("No data yet"));
}

void ChartPane::showLatest()
{
    QStringList lines;
    for (const QString& id : m_ids)
        if (m_latest.contains(id))
            lines << QStringLiteral("%1: %2").arg(m_labels.value(id), QLocale().toString(m_latest.value(id), 'g', 4));
    m_values->setText(lines.join(QLatin1Char('\n')));
}

#endif

namespace {
const QColor kTrain(31, 119, 180), kVal(255, 127, 14), kThird(44, 160, 44), kFourth(214, 39, 40);
}  // namespace

TrainCharts::TrainCharts(QWidget* parent) : QWidget(parent)
{
    auto loss = new ChartPane(tr("Loss"), tr("loss"));
    loss->addSeries("loss", tr("train (per step)"), kTrain);
    loss->setSmoothing("loss", 0.9);  // raw points stay, drawn faint under the smoothed line
    loss->addSeries("train_loss", tr("train (epoch)"), kThird, SeriesStyle::Points);
    loss->addSeries("val_loss", tr("validation"), kVal, SeriesStyle::Points);
    addPane("loss", loss);

    auto acc = new ChartPane(tr("Accuracy"), tr("accuracy"));
    acc->addSeries("train_acc", tr("train"), kTrain, SeriesStyle::Points);
    acc->addSeries("val_acc", tr("validation"), kVal, SeriesStyle::Points);
    addPane("accuracy", acc);

    auto lr = new ChartPane(tr("Learning rate"), tr("learning rate"));
    lr->addSeries("lr", tr("learning rate"), kTrain);
    addPane("lr", lr);

    auto grad = new ChartPane(tr("Gradient norm"), tr("global norm"));
    grad->addSeries("grad_norm", tr("before clipping"), kTrain);
    addPane("grad_norm", grad);

    auto speed = new ChartPane(tr("Throughput"), tr("samples/s"));
    speed->addSeries("samples_per_s", tr("samples/s"), kTrain);
    speed->setSmoothing("samples_per_s", 0.9);  // per-step rates jitter by a factor of several
    addPane("throughput", speed);

    auto wait = new ChartPane(tr("Waiting for data"), tr("% of step time"));
    wait->addSeries("data_wait", tr("data wait"), kVal);
    wait->setSmoothing("data_wait", 0.9);
    addPane("data_wait", wait);

    auto load = new ChartPane(tr("CPU / GPU load"), QStringLiteral("%"));
    load->addSeries("cpu", tr("CPU"), kTrain);
    load->addSeries("gpu", tr("GPU"), kThird);
    addPane("load", load);

    auto memory = new ChartPane(tr("Memory"), tr("GiB"));
    memory->addSeries("ram", tr("RAM (process)"), kTrain);
    memory->addSeries("gpu_memory", tr("GPU memory"), kFourth);
    addPane("memory", memory);

    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    for (int i = 0; i < m_order.size(); ++i) grid->addWidget(pane(m_order[i])->widget(), i / 2, i % 2);
}

TrainCharts::~TrainCharts() { qDeleteAll(m_panes); }  // the widgets belong to the layout

void TrainCharts::addPane(const QString& id, ChartPane* p)
{
    p->widget()->setObjectName(QStringLiteral("chart_") + id);
    m_panes.insert(id, p);
    m_order << id;
}

QWidget* TrainCharts::chartWidget(const QString& chart) const
{
    ChartPane* p = pane(chart);
    return p ? p->widget() : nullptr;
}

qint64 TrainCharts::pointCount(const QString& chart, const QString& series) const
{
    ChartPane* p = pane(chart);
    return p ? p->pointCount(series) : -1;
}

void TrainCharts::reset(qint64 stepsPerEpoch, double clipThreshold)
{
    for (ChartPane* p : std::as_const(m_panes)) p->clear();
    m_stepsPerEpoch = stepsPerEpoch;
    m_lastWall = 0;
    m_lastStep = 0;
    pane("grad_norm")->setThreshold(clipThreshold > 0 ? clipThreshold : std::nan(""), tr("clip"));
}

void TrainCharts::addSteps(const QVector<StepPoint>& steps)
{
    if (steps.isEmpty()) return;
    ChartPane::Samples base;
    std::vector<double> loss, lr, grad, speed, wait;
    for (const StepPoint& s : steps) {
        base.step.push_back(double(s.step));
        base.time.push_back(s.wallTime);
        // Steps sit inside their epoch: epoch 2, halfway = 1.5 on the epoch axis.
        if (m_stepsPerEpoch > 0)
            base.epoch.push_back(double(s.epoch - 1) +
                                 double(s.step - (s.epoch - 1) * m_stepsPerEpoch) / double(m_stepsPerEpoch));
        loss.push_back(s.loss);
        lr.push_back(s.lr);
        grad.push_back(s.gradNorm);
        speed.push_back(s.samplesPerSecond);
        // The share of the step spent waiting for the loader (several steps per event when
        // logging is sparse, hence the step difference).
        const double duration = s.wallTime - m_lastWall;
        wait.push_back(duration > 0 ? 100.0 * std::clamp(s.dataWaitSeconds / duration, 0.0, 1.0) : 0.0);
        m_lastWall = s.wallTime;
        m_lastStep = s.step;
    }
    auto with = [&](std::vector<double> values) {
        ChartPane::Samples out = base;
        out.value = std::move(values);
        return out;
    };
    pane("loss")->append("loss", with(std::move(loss)));
    pane("lr")->append("lr", with(std::move(lr)));
    pane("grad_norm")->append("grad_norm", with(std::move(grad)));
    pane("throughput")->append("samples_per_s", with(std::move(speed)));
    pane("data_wait")->append("data_wait", with(std::move(wait)));
}

void TrainCharts::addEpoch(const EpochSummary& e)
{
    auto point = [&](double value) {
        return ChartPane::Samples{{double(e.step)}, {double(e.epoch)}, {m_lastWall}, {value}};
    };
    for (const char* name : {"train_loss", "val_loss"})
        if (e.metrics.contains(name)) pane("loss")->append(name, point(e.metrics.value(name)));
    for (const char* name : {"train_acc", "val_acc"})
        if (e.metrics.contains(name)) pane("accuracy")->append(name, point(e.metrics.value(name)));
}

void TrainCharts::addSystem(const ts::SystemSample& s, qint64 step)
{
    const double at = double(step > 0 ? step : m_lastStep);
    auto point = [&](double value) { return ChartPane::Samples{{at}, {}, {s.wallTime}, {value}}; };
    constexpr double GiB = 1024.0 * 1024.0 * 1024.0;
    if (s.cpuPercent >= 0) pane("load")->append("cpu", point(s.cpuPercent));
    if (s.gpuPercent >= 0) pane("load")->append("gpu", point(s.gpuPercent));
    if (s.ramBytes >= 0) pane("memory")->append("ram", point(s.ramBytes / GiB));
    if (s.gpuMemoryUsed >= 0) pane("memory")->append("gpu_memory", point(s.gpuMemoryUsed / GiB));
}

void TrainCharts::addCheckpoint(qint64 step, qint64 epoch, bool best)
{
    const QString label = best ? tr("best (epoch %1)").arg(epoch) : tr("epoch %1").arg(epoch);
    pane("loss")->addMarker(double(step), label);
}

}  // namespace ts::ui
