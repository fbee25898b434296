// A data check or label check on the studio's job queue, as the panel that queued it follows
// it: the progress bar, a status line saying whether it waits, how far it is and what it does,
// and how it ended. The health report and the label check panels share it.
#pragma once

#include <QString>

class QLabel;
class QProgressBar;

namespace ts::ui {

struct JobRow;
class TrainingSession;

// Shows job `jobId`'s progress on `bar` and, while it waits or runs, on `status`; the row, or
// null when the session no longer lists it.
const JobRow* followCheckJob(const TrainingSession& session, qint64 jobId, QProgressBar* bar, QLabel* status);
// How a finished job ended for its panel: empty when it finished well, else why not.
QString checkJobOutcome(const JobRow& row);

}  // namespace ts::ui
