// Follows a run that another process trains (a run on several processes started from the Train
// page), from the store: each poll() reads what was written since the last one and returns it as
// the session's plain structs, so the Train page's charts draw it as they draw their own runs.
#pragma once
#include <QString>
#include <QVector>

#include <memory>

#include "training_session.h"

namespace ts {
class RunReader;
}

namespace ts::ui {

class RunFollower {
public:
    RunFollower(const QString& workspaceDir, qint64 runId);
    ~RunFollower();

    struct News {
        QVector<StepPoint> steps;       // in step order
        QVector<EpochSummary> epochs;   // epochs that ended, in order
    };
    // What the store holds beyond the last poll. Store errors are left for the next poll (the
    // run's own process reports its failures).
    News poll();

private:
    std::unique_ptr<ts::RunReader> m_reader;
    qint64 m_runId;
    qint64 m_lastStep = -1, m_lastEpochStep = -1;
    QVector<qint64> m_epochEnds;  // steps at which epochs ended, to number the steps' epochs
};

}  // namespace ts::ui
