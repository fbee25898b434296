#include "check_job_progress.h"

#include <QCoreApplication>
#include <QLabel>
#include <QProgressBar>

#include <algorithm>
#include <cmath>

#include "ui/train/training_session.h"

namespace ts::ui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("CheckJobProgress", text); }

}  // namespace

const JobRow* followCheckJob(const TrainingSession& session, qint64 jobId, QProgressBar* bar, QLabel* status)
{
    for (const JobRow& row : session.jobs()) {
        if (row.id != jobId) continue;
        bar->setValue(int(std::lround(std::clamp(row.progress, 0.0, 1.0) * 1000)));
        const int percent = int(row.progress * 100);
        if (row.state == JobRow::State::Queued)
            status->setText(tr("The check waits in the job queue for the jobs before it."));
        else if (!row.isDone())
            status->setText(row.what.isEmpty() ? tr("Checking… %1%").arg(percent)
                                               : tr("Checking… %1% (%2)").arg(percent).arg(row.what));
        return &row;
    }
    return nullptr;
}

QString checkJobOutcome(const JobRow& row)
{
    if (row.state == JobRow::State::Finished) return {};
    return row.message.isEmpty() ? tr("The check did not finish.") : row.message;
}

}  // namespace ts::ui
