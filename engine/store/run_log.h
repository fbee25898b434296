// One log line added to a run that has ended, by work that happens after it (an ONNX export),
// so the run's log keeps what was done with it. Its own short connection, as the label overlay's
// writes; throws StoreError (store/run_writer.h) naming the file (a read-only workspace, a run
// that is not there: a constraint).
#pragma once
#include <cstdint>

#include "store/workspace.h"
#include "types/run_records.h"

namespace ts {

void appendRunLog(const Workspace& workspace, std::int64_t runId, const LogLine& line);

}  // namespace ts
