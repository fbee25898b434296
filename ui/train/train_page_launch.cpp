// The Train page's runs on several local processes: the Processes field, and a launch through
// DistributedLaunch (mpirun + trainstudio-cli). Such a run trains outside the studio's session;
// rank 0 records it in the same workspace, so the Jobs panel lists it as running, the Runs page
// charts it live (each rank's throughput among them), and this page's charts follow it from the
// store (RunFollower, twice a second).
#include <QComboBox>
#include <QSpinBox>
#include <QThread>
#include <QTimer>

#include "ui/studio_settings.h"
#include "distributed_launch.h"
#include "live_chart.h"
#include "run_follower.h"
#include "train_charts.h"
#include "train_page.h"

namespace ts::ui {

QWidget* TrainPage::createProcessesField()
{
    m_launch = new DistributedLaunch(this);
    connect(m_launch, &DistributedLaunch::runRecorded, this, [this](qint64 runId) {
        appendLog(tr("Run %1 is training on %2 processes.").arg(runId).arg(m_launch->processes()));
        m_follower = std::make_unique<RunFollower>(workspaceDirectory(), runId);
        m_followTimer->start();
        updateStatus();
    });
    m_followTimer = new QTimer(this);
    m_followTimer->setInterval(500);
    connect(m_followTimer, &QTimer::timeout, this, &TrainPage::followLaunchedRun);
    connect(m_launch, &DistributedLaunch::ended, this, &TrainPage::onLaunchEnded);

    m_processes = new QSpinBox;
    m_processes->setObjectName(QStringLiteral("processesSpin"));
    m_processes->setRange(1, std::max(2, QThread::idealThreadCount()));
    const QString unavailable = DistributedLaunch::unavailableReason();
    m_processes->setToolTip(
        unavailable.isEmpty()
            ? tr("Data-parallel training on this many processes (mpirun): each trains its share of every batch "
                 "and the gradients are averaged, so the run follows one process's. The batch size is the global "
                 "one and must divide by the processes; each gets an equal share of the CPU threads.")
            : unavailable);
    m_processes->setEnabled(unavailable.isEmpty());
    m_processes->setValue(unavailable.isEmpty() ? StudioSettings::processes() : 1);
    connect(m_processes, &QSpinBox::valueChanged, this, [this](int n) {
        StudioSettings::setProcesses(n);
        updateActions();
    });
    return m_processes;
}

void TrainPage::followLaunchedRun()
{
    if (!m_follower) return;
    const RunFollower::News news = m_follower->poll();
    for (const EpochSummary& e : news.epochs) m_charts->addEpoch(e);
    if (!news.steps.isEmpty()) onSteps(news.steps);
}

TrainPage::~TrainPage() = default;

bool TrainPage::launchRunning() const { return m_launch && m_launch->isRunning(); }

void TrainPage::startDistributed(const ExperimentSpec& spec)
{
    const int n = m_processes->value();
    if (spec.training.batchSize % n != 0) {
        appendLog(tr("The batch size %1 cannot be split evenly over %2 processes: choose a multiple of %2.")
                      .arg(spec.training.batchSize)
                      .arg(n),
                  true);
        return;
    }
    QString error;
    resetRunView(spec.training.clipGradNorm);
    // The processes report to the store, not to this page's session: the Runs page draws them.
    // The processes' steps come from the store; their CPU and memory are not sampled here.
    for (widgets::LiveChart* chart : m_charts->charts()) {
        const bool system = chart->objectName() == QLatin1String("chart_load") || chart->objectName() == QLatin1String("chart_memory");
        chart->setEmptyNote(system ? tr("Not sampled") : tr("Waiting for the first steps…"));
    }
    appendLog(tr("Starting %1 on %2 processes on %3 (mpirun)").arg(QString::fromStdString(spec.name)).arg(n).arg(m_device->currentText()));
    if (!m_launch->start(spec, n, m_device->currentData().toString(), workspaceDirectory(), &error)) {
        appendLog(error, true);
        return;
    }
    updateActions();
    updateStatus();
}

void TrainPage::onLaunchEnded(bool ok, const QString& outcome, const QString& details)
{
    followLaunchedRun();  // the last points
    m_followTimer->stop();
    m_follower.reset();
    const qint64 run = m_launch->runId();
    m_lastOutcome = run >= 0 ? tr("Run %1 on %2 processes: %3").arg(run).arg(m_launch->processes()).arg(outcome)
                             : tr("The run on %1 processes %2").arg(m_launch->processes()).arg(outcome);
    appendLog(m_lastOutcome, !ok);
    if (!details.isEmpty()) appendLog(details, true);
    updateActions();
    updateStatus();
}

}  // namespace ts::ui
