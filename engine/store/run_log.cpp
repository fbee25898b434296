#include "store/run_log.h"

#include "store/database.h"
#include "store/writer_db.h"

namespace ts {

void appendRunLog(const Workspace& workspace, std::int64_t runId, const LogLine& line)
{
    store::WriterDb writer(workspace.databasePath());
    store::Transaction tx(writer.db());
    writer.addLog(runId, line);
    tx.commit();
}

}  // namespace ts
