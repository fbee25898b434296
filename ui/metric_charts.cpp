#include "metric_charts.h"

#include <QColor>

#include "live_chart.h"

namespace ts::ui {

namespace {
const QColor kTrain(31, 119, 180), kVal(255, 127, 14), kThird(44, 160, 44), kFourth(214, 39, 40);
constexpr double kSmoothing = 0.9;  // raw points stay, drawn faint under the smoothed line
const QString kRankThroughput = QStringLiteral("samples_per_s/rank");
}  // namespace

bool MetricCharts::isRankThroughput(const QString& metric)
{
    bool number = false;
    return metric.startsWith(kRankThroughput) && (metric.mid(kRankThroughput.size()).toInt(&number), number);
}

void MetricCharts::addRankSeries(widgets::LiveChart* throughput, const QString& metric)
{
    if (!isRankThroughput(metric) || throughput->hasSeries(metric)) return;
    const int rank = metric.mid(kRankThroughput.size()).toInt();
    // Hues spread by the golden angle, so neighbouring ranks stay apart however many there are.
    const QColor color = QColor::fromHsv((30 + rank * 137) % 360, 170, 200);
    throughput->addSeries(metric, tr("rank %1").arg(rank), color);
    throughput->setSmoothing(metric, kSmoothing);
}

widgets::LiveChart* MetricCharts::create(const QString& id)
{
    using widgets::LiveChart;
    auto* c = new LiveChart;
    c->setObjectName(QStringLiteral("chart_") + id);
    c->setMinimumSize(220, 160);
    auto titled = [c](const QString& title, const QString& yLabel) {
        c->setTitle(title);
        c->setYLabel(yLabel);
    };
    constexpr auto Points = LiveChart::Style::Points;
    if (id == QLatin1String("loss")) {
        titled(tr("Loss"), tr("loss"));
        c->addSeries(QStringLiteral("loss"), tr("train (per step)"), kTrain);
        c->setSmoothing(QStringLiteral("loss"), kSmoothing);
        c->addSeries(QStringLiteral("train_loss"), tr("train (epoch)"), kThird, Points);
        c->addSeries(QStringLiteral("val_loss"), tr("validation"), kVal, Points);
        c->addSeries(QStringLiteral("test_loss"), tr("test (no validation split)"), kFourth, Points);
    } else if (id == QLatin1String("accuracy")) {
        titled(tr("Accuracy"), tr("accuracy"));
        c->addSeries(QStringLiteral("train_acc"), tr("train"), kTrain, Points);
        c->addSeries(QStringLiteral("val_acc"), tr("validation"), kVal, Points);
        c->addSeries(QStringLiteral("test_acc"), tr("test (no validation split)"), kFourth, Points);
    } else if (id == QLatin1String("lr")) {
        titled(tr("Learning rate"), tr("learning rate"));
        c->addSeries(QStringLiteral("lr"), tr("learning rate"), kTrain);
    } else if (id == QLatin1String("grad_norm")) {
        titled(tr("Gradient norm"), tr("global norm"));
        c->addSeries(QStringLiteral("grad_norm"), tr("before clipping"), kTrain);
    } else if (id == QLatin1String("throughput")) {
        titled(tr("Throughput"), tr("samples/s"));
        c->addSeries(QStringLiteral("samples_per_s"), tr("samples/s"), kTrain);
        c->setSmoothing(QStringLiteral("samples_per_s"), kSmoothing);  // per-step rates jitter a lot
    } else if (id == QLatin1String("data_wait")) {
        titled(tr("Waiting for data"), tr("% of step time"));
        c->addSeries(QStringLiteral("data_wait"), tr("data wait"), kVal);
        c->setSmoothing(QStringLiteral("data_wait"), kSmoothing);
    } else if (id == QLatin1String("load")) {
        titled(tr("CPU / GPU load"), QStringLiteral("%"));
        c->addSeries(QStringLiteral("cpu"), tr("CPU"), kTrain);
        c->addSeries(QStringLiteral("gpu"), tr("GPU"), kThird);
    } else if (id == QLatin1String("memory")) {
        titled(tr("Memory"), tr("GiB"));
        c->addSeries(QStringLiteral("ram"), tr("RAM (process)"), kTrain);
        c->addSeries(QStringLiteral("gpu_memory"), tr("GPU memory"), kFourth);
    }
    return c;
}

}  // namespace ts::ui
