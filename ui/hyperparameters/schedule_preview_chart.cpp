#include "schedule_preview_chart.h"

#include <QCheckBox>
#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMouseEvent>
#include <QToolTip>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "data/dataset.h"
#include "data/split_sizes.h"
#include "live_chart.h"
#include "store/workspace.h"

namespace ts::ui {

namespace {

const QString kPreviewId = QStringLiteral("preview");
const QColor kPreviewColor(31, 119, 180);
// Past runs: distinct hues, drawn faint under the plan.
const QColor kRunColors[] = {{255, 127, 14}, {44, 160, 44}, {214, 39, 40}, {148, 103, 189},
                             {140, 86, 75},  {227, 119, 194}, {127, 127, 127}, {188, 189, 34}};
constexpr int kMaxOverlaidRuns = 8;  // the newest; more would bury the plan under its legend

// Ticks on whole epochs only: the top axis marks where epochs end.
class EpochTicker : public QCPAxisTicker {
protected:
    double getTickStep(const QCPRange& range) override { return std::max(1.0, std::ceil(QCPAxisTicker::getTickStep(range))); }
    int getSubTickCount(double) override { return 0; }
};

}  // namespace

SchedulePreviewChart::SchedulePreviewChart(QWidget* parent)
    : QWidget(parent), m_reader(std::make_unique<BackgroundReader>())
{
    m_chart = new widgets::LiveChart(this);
    m_chart->setObjectName(QStringLiteral("schedulePreviewPlot"));
    m_chart->setControlsVisible(false);  // log scale and the overlay are this widget's own row
    m_chart->setMinimumSize(320, 200);

    QCustomPlot* plot = m_chart->plot();
    // Vertical lines at the epochs' ends (the top axis' faint grid), none at step ticks.
    plot->xAxis->grid()->setVisible(false);
    plot->xAxis2->setTicker(QSharedPointer<EpochTicker>::create());
    plot->xAxis2->setNumberFormat(QStringLiteral("g"));
    plot->xAxis2->grid()->setVisible(true);
    plot->xAxis2->setVisible(false);
    connect(plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] { syncEpochAxis(); });
    connect(plot, &QCustomPlot::mouseMove, this, [this, plot](QMouseEvent* event) {
        if (!m_preview || !plot->axisRect()->rect().contains(event->pos())) return;
        const QString text = readoutAt(plot->xAxis->pixelToCoord(event->pos().x()));
        if (!text.isEmpty()) QToolTip::showText(event->globalPosition().toPoint(), text, plot);
    });

    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("schedulePreviewSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_logBox = new QCheckBox(this);
    m_overlayBox = new QCheckBox(this);
    m_overlayBox->setChecked(true);
    m_upperBound = new QLabel(this);
    m_upperBound->setObjectName(QStringLiteral("schedulePreviewUpperBound"));
    m_upperBound->setWordWrap(true);
    m_upperBound->setVisible(false);
    QFont italic = m_upperBound->font();
    italic.setItalic(true);
    m_upperBound->setFont(italic);

    // The summary on a row of its own: beside the boxes it wrapped to a word per line in a
    // narrow pane.
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_logBox);
    bar->addWidget(m_overlayBox);
    bar->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_summary);
    layout->addLayout(bar);
    layout->addWidget(m_upperBound);
    layout->addWidget(m_chart, 1);

    connect(m_logBox, &QCheckBox::toggled, m_chart, &widgets::LiveChart::setLogY);
    connect(m_chart, &widgets::LiveChart::logYChanged, m_logBox, &QCheckBox::setChecked);
    connect(m_overlayBox, &QCheckBox::toggled, this, [this](bool on) {
        if (on) refreshOverlay();
        else removeOverlay();
    });
    connect(&m_overlayWatcher, &QFutureWatcher<OverlayRead>::finished, this, [this] {
        OverlayRead read = m_overlayWatcher.future().takeResult();
        // A failed read comes back blank (BackgroundReader); it was the newest one all the same.
        if (read.error.isEmpty() && read.generation != m_overlayGeneration) return;
        m_overlayReading = false;
        m_logged = std::move(read.runs);
        m_overlayExperiment = read.experiment;
        applyOverlay();
        if (!read.error.isEmpty()) m_chart->setToolTip(tr("The past runs could not be read: %1").arg(read.error));
        emit overlayLoaded();
        if (m_overlayAgain) refreshOverlay();
    });
    retranslate();
    showProblem(tr("No experiment yet."));
}

SchedulePreviewChart::~SchedulePreviewChart() { m_overlayWatcher.disconnect(this); }

void SchedulePreviewChart::retranslate()
{
    // A series' legend name is fixed when it is added: the plan's is added again (first).
    m_chart->removeSeries(kPreviewId);
    m_chart->addSeries(kPreviewId, tr("planned"), kPreviewColor);
    m_chart->setTitle(tr("Learning rate at every optimizer step"));
    m_chart->setYLabel(tr("learning rate"));
    m_chart->plot()->xAxis2->setLabel(tr("Epoch"));
    m_logBox->setText(tr("Log scale"));
    m_overlayBox->setText(tr("Show logged rates of past runs"));
    m_overlayBox->setToolTip(tr("Draw the learning rates that earlier runs of this experiment logged, read from the workspace."));
    m_upperBound->setText(tr("Upper bound: the plateau schedule lowers the rate when validation stops improving."));
    if (m_spec) redraw();
}

void SchedulePreviewChart::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

// What decides the training split's size: the data and its validation carve. Nothing else an
// edit can change needs the dataset opened again.
QString SchedulePreviewChart::splitKey(const ExperimentSpec& spec) const
{
    const DatasetSpec& d = spec.dataset;
    QString path = QString::fromStdString(d.path);
    if (QDir::isRelativePath(path)) {
        const QString base = spec.sourceFile.empty() ? QDir::currentPath()
                                                     : QFileInfo(QString::fromStdString(spec.sourceFile)).absolutePath();
        path = QDir(base).filePath(path);
    }
    return QStringList{QString::fromStdString(d.format), QDir::cleanPath(path), QString::number(d.validationFraction, 'g', 17),
                       QString::number(d.splitSeed), QString::fromStdString(d.groupColumn),
                       QString::fromStdString(d.labelColumn)}
        .join(QChar(0x1f));
}

void SchedulePreviewChart::setExperiment(const ExperimentSpec& spec)
{
    const bool renamed = !m_spec || m_spec->name != spec.name;
    m_spec = spec;
    m_chart->setFollow(true);  // a changed plan is shown whole
    redraw();
    if (renamed && m_overlayBox->isChecked()) refreshOverlay();
}

void SchedulePreviewChart::redraw()
{
    const QString key = splitKey(*m_spec);
    if (const auto error = m_sizeErrors.constFind(key); error != m_sizeErrors.constEnd()) {
        showProblem(tr("Cannot count the training samples: %1").arg(*error));
        emit previewDrawn();
        return;
    }
    const auto known = m_trainSizes.constFind(key);
    if (known == m_trainSizes.constEnd()) {
        showProblem(tr("Counting the training samples…"));
        if (m_counting.contains(key)) return;
        m_counting.insert(key);
        auto* watcher = new QFutureWatcher<SplitCount>(this);
        connect(watcher, &QFutureWatcher<SplitCount>::finished, this, [this, watcher] {
            onCounted(watcher->result());
            watcher->deleteLater();
        });
        watcher->setFuture(QtConcurrent::run([spec = *m_spec, key]() {
            SplitCount count{key};
            try {
                count.trainSamples = experimentSplitSizes(spec, defaultCacheDirectory()).train;
            } catch (const std::exception& e) {
                count.error = QString::fromLocal8Bit(e.what());
            }
            return count;
        }));
        return;
    }

    try {
        m_preview = previewSchedule(*m_spec, *known);
    } catch (const std::exception& e) {
        showProblem(tr("Cannot plan the run: %1").arg(QString::fromLocal8Bit(e.what())));
        emit previewDrawn();
        return;
    }
    m_problem.clear();
    const std::vector<double>& rates = m_preview->rates;
    widgets::ChartSamples samples;
    samples.step.resize(rates.size());
    for (std::size_t k = 0; k < rates.size(); ++k) samples.step[k] = double(k + 1);  // the store's numbering
    samples.value = rates;
    widgets::SeriesData data;
    data.append(samples);
    m_chart->setData(kPreviewId, std::move(data));
    m_chart->setEmptyNote(tr("The run has no steps."));
    m_upperBound->setVisible(m_preview->isUpperBound);

    const TrainingSpec& t = m_spec->training;
    const StepPlan& plan = m_preview->plan;
    const QLocale locale;
    const QString steps = locale.toString(plan.totalSteps), perEpoch = locale.toString(plan.stepsPerEpoch),
                  epochs = locale.toString(t.epochs), batch = locale.toString(t.batchSize), trainSamples = locale.toString(*known);
    m_summary->setText(t.accumulationSteps == 1
                           ? tr("Steps: %1 in all, %2 per epoch · epochs: %3 · batch: %4 · training samples: %5")
                                 .arg(steps, perEpoch, epochs, batch, trainSamples)
                           : tr("Steps: %1 in all, %2 per epoch · epochs: %3 · batch: %4 × %5 accumulated · training samples: %6")
                                 .arg(steps, perEpoch, epochs, batch, locale.toString(t.accumulationSteps), trainSamples));
    m_chart->plot()->xAxis2->setVisible(plan.totalSteps > 0);
    syncEpochAxis();
    applyOverlay();  // after the plan in the legend, and only when read for this experiment
    emit previewDrawn();
}

void SchedulePreviewChart::showProblem(const QString& text)
{
    m_problem = text;
    m_preview.reset();
    m_chart->setData(kPreviewId, widgets::SeriesData{});
    m_chart->setEmptyNote(text);
    m_chart->plot()->xAxis2->setVisible(false);
    m_upperBound->setVisible(false);
    m_summary->setText(text);
}

void SchedulePreviewChart::onCounted(const SplitCount& count)
{
    m_counting.remove(count.key);
    if (count.error.isEmpty()) m_trainSizes.insert(count.key, count.trainSamples);
    else m_sizeErrors.insert(count.key, count.error);
    if (m_spec && splitKey(*m_spec) == count.key) redraw();
}

QString SchedulePreviewChart::summaryText() const { return m_summary->text(); }

bool SchedulePreviewChart::upperBoundNoteShown() const { return !m_upperBound->isHidden(); }

// The top axis counts epochs over the same range: step s is s / stepsPerEpoch epochs in.
void SchedulePreviewChart::syncEpochAxis()
{
    if (!m_preview || m_preview->plan.stepsPerEpoch < 1) return;
    const QCPRange r = m_chart->plot()->xAxis->range();
    const double perEpoch = double(m_preview->plan.stepsPerEpoch);
    m_chart->plot()->xAxis2->setRange(r.lower / perEpoch, r.upper / perEpoch);
}

QString SchedulePreviewChart::readoutAt(double x) const
{
    if (!m_preview || m_preview->rates.empty()) return {};
    const qint64 last = qint64(m_preview->rates.size());
    const qint64 step = std::clamp<qint64>(qint64(std::llround(x)), 1, last);
    const qint64 perEpoch = m_preview->plan.stepsPerEpoch;
    const qint64 epoch = (step - 1) / perEpoch + 1;
    const QLocale locale;
    const QString head = tr("Step %1 · epoch %2 (step %3 of %4)")
                             .arg(locale.toString(step), locale.toString(epoch),
                                  locale.toString(step - (epoch - 1) * perEpoch), locale.toString(perEpoch));
    return head + QLatin1Char('\n') + m_chart->readoutAt(double(step));
}

void SchedulePreviewChart::setWorkspace(const QString& directory)
{
    if (directory == m_workspace) return;
    m_workspace = directory;
    m_logged.clear();
    m_overlayExperiment.clear();
    applyOverlay();
    if (m_overlayBox->isChecked()) refreshOverlay();
}

void SchedulePreviewChart::refreshOverlay()
{
    if (!m_overlayBox->isChecked() || !m_spec || m_workspace.isEmpty()) return;
    if (m_overlayReading && m_overlayExperiment == QString::fromStdString(m_spec->name)) {
        m_overlayAgain = true;
        return;
    }
    startOverlayRead();
}

void SchedulePreviewChart::startOverlayRead()
{
    m_overlayAgain = false;
    const Workspace workspace{QDir(m_workspace).absolutePath().toStdString()};
    if (!QFileInfo::exists(QString::fromStdString(workspace.databasePath()))) {  // no run was ever stored there
        m_logged.clear();
        applyOverlay();
        emit overlayLoaded();
        return;
    }
    m_overlayReading = true;
    const quint64 generation = ++m_overlayGeneration;
    m_overlayExperiment = QString::fromStdString(m_spec->name);
    m_overlayWatcher.setFuture(m_reader->run(
        workspace, [name = m_spec->name, generation](RunReader& reader, const std::atomic<bool>& cancelled) {
            OverlayRead out;
            out.generation = generation;
            out.experiment = QString::fromStdString(name);
            for (const RunListing& listing : reader.listRuns()) {  // newest first
                if (cancelled || int(out.runs.size()) == kMaxOverlaidRuns) break;
                if (listing.run.experimentName != name) continue;
                const MetricSeries lr = reader.metric(listing.run.id, "lr");
                if (lr.values.empty()) continue;
                LoggedRun run{listing.run.id, QString::fromStdString(listing.run.name), {}, lr.values};
                run.steps.assign(lr.steps.begin(), lr.steps.end());
                out.runs.push_back(std::move(run));
            }
            return out;
        }));
}

void SchedulePreviewChart::removeOverlay()
{
    for (const QString& id : std::as_const(m_overlayIds)) m_chart->removeSeries(id);
    m_overlayIds.clear();
    m_chart->setToolTip(QString());
}

// The plan first in the legend, named by its experiment; the past runs after it, faint.
void SchedulePreviewChart::applyOverlay()
{
    removeOverlay();
    const bool current = m_spec && m_overlayExperiment == QString::fromStdString(m_spec->name);
    if (!m_overlayBox->isChecked() || !current) return;
    for (std::size_t i = 0; i < m_logged.size(); ++i) {
        const LoggedRun& run = m_logged[i];
        const QString id = QStringLiteral("run_%1").arg(run.id);
        m_chart->addSeries(id, run.name, kRunColors[i % std::size(kRunColors)], widgets::LiveChart::Style::Faint);
        m_chart->append(id, run.steps, run.values);
        m_overlayIds << id;
    }
}

QStringList SchedulePreviewChart::overlaidRuns() const
{
    QStringList names;
    for (const LoggedRun& run : m_logged)
        if (m_overlayIds.contains(QStringLiteral("run_%1").arg(run.id))) names << run.name;
    return names;
}

}  // namespace ts::ui
