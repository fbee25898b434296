// The Train page's answers to its diagnostic cards (diagnostic_cards.h): queue the job an
// action names, or ask for the page where the advice is followed.
#include "train_page.h"

#include <QComboBox>

#include "jobs/diagnostic_actions.h"
#include "store/workspace.h"
#include "train/diagnostics.h"
#include "train_charts.h"

namespace ts::ui {

void TrainPage::onDiagnosticAction(const QString& rule, const QString& action, qint64 runId)
{
    Q_UNUSED(rule);
    namespace a = diagnostic_action;
    const std::string id = action.toStdString();
    if (id == a::kResumeLowerLr) {
        if (!m_session || runId < 0) return;
        try {
            TrainJob job = lowerLearningRateJob(Workspace::open(workspaceDirectory().toStdString()), runId);
            job.device = m_device->currentData().toString().toStdString();
            const bool fork = !job.fork.empty();
            own(m_session->enqueue(job, tr("run %1 with learning rate ×0.1").arg(runId), workspaceDirectory()));
            appendLog(fork ? tr("Forking run %1 from its last checkpoint with the learning rate ×0.1.").arg(runId)
                           : tr("Run %1 has no checkpoint: training its experiment again with the learning rate ×0.1.")
                                 .arg(runId));
        } catch (const std::exception& e) {
            appendLog(tr("Cannot lower the learning rate of run %1: %2").arg(runId).arg(QString::fromStdString(e.what())), true);
        }
    } else if (id == a::kAddWarmup) {
        if (!m_session || runId < 0) return;
        try {
            TrainJob job = warmupJob(Workspace::open(workspaceDirectory().toStdString()), runId);
            job.device = m_device->currentData().toString().toStdString();
            const qint64 steps = job.experiment->schedule.warmupSteps;
            own(m_session->enqueue(job, tr("run %1 with %2 warm-up steps").arg(runId).arg(steps), workspaceDirectory()));
            appendLog(tr("Training the experiment of run %1 again with a learning-rate warm-up of %2 steps.").arg(runId).arg(steps));
        } catch (const std::exception& e) {
            appendLog(tr("Cannot add warm-up to run %1: %2").arg(runId).arg(QString::fromStdString(e.what())), true);
        }
    } else if (id == a::kEvaluateRun) {
        if (!m_session || runId < 0) return;
        EvaluateJob job;
        job.runId = runId;
        m_session->enqueue(job, tr("run %1").arg(runId), workspaceDirectory());
    } else if (id == a::kGradNormChart) {
        m_charts->setChartVisible(QStringLiteral("grad_norm"), true);
        if (QWidget* chart = m_charts->chartWidget(QStringLiteral("grad_norm"))) chart->setFocus();
    } else if (id == a::kLrFinder || id == a::kHyperparameters) {
        emit pageRequested(Page::Hyperparameters);
    } else if (id == a::kDatasets || id == a::kCheckLabels || id == a::kCheckNormalisation) {
        emit pageRequested(Page::Datasets);
    } else if (id == a::kModel || id == a::kCheckLossFunction || id == a::kCheckInitialisation) {
        emit pageRequested(Page::Model);
    }
}

}  // namespace ts::ui
